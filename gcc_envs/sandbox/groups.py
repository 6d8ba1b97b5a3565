"""Process groups: ending one, and telling whether any of it is left (Linux ``/proc``)."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

_KILLED_WAIT_S = 2.0  # the most a stop waits for killed processes to exit


def stop_group(proc: subprocess.Popen[bytes], timeout_s: float = 3.0) -> None:
    """End ``proc`` and its process group: SIGTERM, up to ``timeout_s`` for the program to
    end, then SIGKILL to whatever of the group is left.

    ``proc``'s own children are signalled too: a program started in a namespace is the child
    of the ``nsenter`` that ``proc`` is, and may have left the group (an X server makes a
    group of its own).
    """
    terminate(proc.pid, timeout_s, ended=lambda: proc.poll() is not None)
    proc.poll()


def terminate(pid: int, timeout_s: float, ended: Callable[[], bool] | None = None) -> None:
    """SIGTERM the process group ``pid`` leads and ``pid``'s children (a clean exit saves
    state), wait until ``pid`` and those children have ended (at most ``timeout_s``), then
    SIGKILL the group and the children (helpers that ignore SIGTERM are not waited for)."""
    kids = children(pid)
    done = ended or (lambda: not _alive(pid))
    for send in (signal.SIGTERM, signal.SIGCONT):  # a stopped program sees SIGTERM once continued
        _kill(-pid, send)
        for kid in kids:
            _kill(kid, send)
    deadline = time.monotonic() + timeout_s
    while not (done() and not any(map(_alive, kids))):
        if time.monotonic() > deadline:
            log.warning("pid %d ignored SIGTERM for %g s; killing it", pid, timeout_s)
            break
        time.sleep(0.02)
    _kill(-pid, signal.SIGKILL)
    for kid in kids:
        _kill(kid, signal.SIGKILL)
    # SIGKILL is delivered at once but a loaded machine may take a moment to run the exits:
    # wait (briefly) so the caller sees the program gone, not merely signalled.
    deadline = time.monotonic() + _KILLED_WAIT_S
    while not (done() and not any(map(_alive, kids))) and time.monotonic() < deadline:
        time.sleep(0.01)


def children(pid: int) -> list[int]:
    """``pid``'s child processes (empty when it has none or is gone)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


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
