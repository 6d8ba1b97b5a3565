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

    ``proc``'s own children are signalled too, and everything is waited for, not only
    ``proc``: a program started in a namespace is the child of the ``nsenter`` that ``proc``
    is, and may have left the group (an X server makes a group of its own).
    """
    kids = children(proc.pid)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if _ended(proc, kids):
            return
        for send in (sig, signal.SIGCONT) if sig == signal.SIGTERM else (sig,):
            _kill(-proc.pid, send)  # (a stopped program sees SIGTERM only once continued)
            for kid in kids:
                _kill(kid, send)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if _ended(proc, kids):
                return
            time.sleep(0.02)
        log.warning("pid %d ignored %s; escalating", proc.pid, sig.name)


def children(pid: int) -> list[int]:
    """``pid``'s child processes (empty when it has none or is gone)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def _ended(proc: subprocess.Popen[bytes], kids: list[int]) -> bool:
    return proc.poll() is not None and not group_alive(proc.pid) and not any(map(_alive, kids))


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


def _kill(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


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


def inner_pid(pid: int, timeout_s: float = 5.0) -> int:
    """The PID, as its own namespace sees it, of the program that ``nsenter`` (``pid``)
    started there (its one child)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            kids = children(pid)
            if kids:
                with open(f"/proc/{kids[0]}/status") as f:
                    for line in f:
                        if line.startswith("NSpid:"):
                            return int(line.split()[-1])
        except OSError:
            pass
        time.sleep(0.01)
    raise TimeoutError(f"pid {pid} started no program within {timeout_s:g} s")
