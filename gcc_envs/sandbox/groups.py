"""Process groups: ending one, and telling whether any of it is left (Linux ``/proc``)."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import time

log = logging.getLogger(__name__)


def stop_group(proc: subprocess.Popen[bytes], timeout_s: float = 3.0) -> None:
    """End ``proc`` and its process group: SIGTERM, then SIGKILL after ``timeout_s``.

    The group is waited for, not only ``proc``: a program started in a sandbox is the child
    of the ``nsenter`` that ``proc`` is, and that wrapper ends at once on SIGTERM.
    """
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if proc.poll() is not None and not group_alive(proc.pid):
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            proc.poll()
            return
        if sig == signal.SIGTERM:
            try:  # a stopped group never sees SIGTERM until continued
                os.killpg(proc.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if proc.poll() is not None and not group_alive(proc.pid):
                return
            time.sleep(0.02)
        log.warning("pid %d ignored %s; escalating", proc.pid, sig.name)


def group_alive(pgid: int) -> bool:
    """Whether a live (not zombie) process of process group ``pgid`` is left."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] != b"Z":
            return True
    return False
