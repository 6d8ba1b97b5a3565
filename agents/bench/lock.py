"""``DIR/bench.lock``: the ``--out`` folder belongs to the run that holds it.

A run holds an exclusive ``flock`` on the lock file for as long as it runs and writes its host,
pid, start and command line into it. A second run on the folder cannot take the lock and
refuses, naming the first. The kernel drops the lock of a process that dies however it dies
(SIGKILL included), so a lock file naming a dead pid is stale and the next run takes it over
with a warning; nothing is ever unlinked, so two runs cannot both take over one stale lock.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d, OutLock(d) as lock:
...     lock.path.name, lock.owner()["pid"] == os.getpid()
('bench.lock', True)
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

from gcc_envs.errors import GCCError

log = logging.getLogger(__name__)

LOCK = "bench.lock"


def describe(owner: dict[str, Any]) -> str:
    """The holder of a lock as a message names it."""
    if not owner:
        return "its pid is not written yet"
    return (
        f"pid {owner.get('pid')} on {owner.get('host')}, since {owner.get('since')}: "
        f"{owner.get('command')}"
    )


class OutLock:
    """The lock of one ``--out`` folder, held from :meth:`acquire` to :meth:`release`."""

    def __init__(self, out_dir: str | Path) -> None:
        self.path = Path(out_dir) / LOCK
        self.fd: int | None = None

    def owner(self) -> dict[str, Any] | None:
        """What the lock file says (None: no lock, or one being written)."""
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def acquire(self) -> None:
        """Take the folder, or raise :class:`GCCError` naming the run that holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            owner = self.owner() or {}
            raise GCCError(
                f"{self.path.parent} is in use by another run ({describe(owner)}); wait for it "
                "to end, or choose another --out"
            ) from None
        old = self.owner()
        if old and old.get("pid"):  # its holder died without releasing (SIGKILL, a crash)
            log.warning(
                "%s: taking over the lock of a run that is gone (%s)", self.path, describe(old)
            )
        me = {
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "since": time.strftime("%Y-%m-%d %H:%M:%S"),
            "command": " ".join(sys.argv),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(me).encode(), 0)
        self.fd = fd

    def release(self) -> None:
        """Give the folder up (the lock file stays, empty)."""
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> OutLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
