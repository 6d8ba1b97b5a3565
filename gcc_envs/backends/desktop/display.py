"""``VirtualDisplay``: an Xvfb screen with a small EWMH window manager, and the programs on it.

Programs run in their own process group and are ended as a group: SIGTERM, then SIGKILL
after a timeout (some programs ignore SIGTERM). Where the episode sandbox can be made (root,
bubblewrap), the server, the window manager and the programs live in a
:class:`~gcc_envs.sandbox.Lifeline`, so they end with the process that holds the display
however it ends; the display number is then held by a lock of that process (a PID
namespace hides the owner from X's own lock files).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import time
import weakref
from collections.abc import Sequence

from gcc_envs.errors import BackendError
from gcc_envs.sandbox import Lifeline, bwrap_missing
from gcc_envs.sandbox.groups import stop_group

log = logging.getLogger(__name__)

#: The window manager started with the display (Debian package ``openbox``).
WINDOW_MANAGER = ("openbox", "--sm-disable")


def _stop_all(procs: list[subprocess.Popen[bytes]], lifeline: Lifeline | None) -> None:
    while procs:
        stop_group(procs.pop())
    if lifeline is not None:
        lifeline.close()


def _lifeline() -> Lifeline | None:
    if bwrap_missing() is not None:
        log.info("the display's programs outlive a killed process here: %s", bwrap_missing())
        return None
    return Lifeline()


#: The display numbers a lifeline's X server may take.
_NUMBERS = range(200, 1200)


def _lock_display() -> tuple[int, int]:
    """A display number no X server uses, and the lock (an open fd) that keeps it ours."""
    from gcc_envs.sandbox.slots import first_free, root

    def busy(n: int) -> bool:  # another X server's (one of ours writes no X lock file)
        return os.path.exists(f"/tmp/.X{n}-lock") or _listening(f"/tmp/.X11-unix/X{n}")

    taken = first_free(root(), "display", _NUMBERS, busy)
    if taken is None:
        raise BackendError(f"no free X display number in {_NUMBERS.start}..{_NUMBERS.stop - 1}")
    return taken


def _listening(path: str) -> bool:
    import socket

    if not os.path.exists(path):
        return False
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(0.5)
        try:
            s.connect(path)
        except OSError:
            return False
    return True


def _read_display_number(fd: int, server: subprocess.Popen[bytes], timeout_s: float) -> int | None:
    """The display number Xvfb writes to ``fd`` when it is ready (None if it exits or stalls)."""
    import select

    deadline, text = time.monotonic() + timeout_s, b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            chunk = os.read(fd, 64)
            if not chunk:  # the server closed the pipe without a number: it exited
                return None
            text += chunk
            if text.endswith(b"\n"):
                return int(text.strip())
        elif server.poll() is not None:
            return None
    return None


class VirtualDisplay:
    """Xvfb ``:N`` (``W×H×24``) plus a window manager; ``close()`` stops everything it started."""

    def __init__(self, size: tuple[int, int] = (1280, 720), start_timeout_s: float = 10.0) -> None:
        if shutil.which("Xvfb") is None:
            raise BackendError(
                "Xvfb is not installed; install it (Debian: apt-get install xvfb) or pass "
                "display=':0' to use an existing X display"
            )
        W, H = size
        self.size = (int(W), int(H))
        self._procs: list[subprocess.Popen[bytes]] = []
        self._lifeline, self._lock = _lifeline(), -1
        # a display that is never closed is still stopped when collected or at exit
        self._finalizer = weakref.finalize(self, _stop_all, self._procs, self._lifeline)
        # Xvfb writes the display number to a pipe once it listens (-displayfd); it picks a
        # free one itself (no race with other servers), or in a lifeline takes the one locked
        read_fd, write_fd = os.pipe()
        argv = ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{W}x{H}x24",
                "-noreset", "-nolisten", "tcp"]  # fmt: skip
        if self._lifeline is not None:
            number, self._lock = _lock_display()
            argv[1:1] = [f":{number}", "-nolock"]
        popen = self._lifeline.popen if self._lifeline is not None else subprocess.Popen
        try:
            server = popen(
                argv,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                pass_fds=(write_fd,),
            )
        finally:
            os.close(write_fd)
        try:
            number = _read_display_number(read_fd, server, start_timeout_s)
        finally:
            os.close(read_fd)
        if number is None:
            stop_group(server)
            raise BackendError("Xvfb did not start; see its log by running it by hand")
        self.number, self.name = number, f":{number}"
        self.server = server
        self._procs.insert(0, server)  # stopped last
        self.wm: subprocess.Popen[bytes] | None = None
        if shutil.which(WINDOW_MANAGER[0]) is not None:
            self.wm = self.launch(WINDOW_MANAGER)
            self._wait_wm(start_timeout_s)
        else:
            log.warning("%s not found: windows on %s get no EWMH focus", *WINDOW_MANAGER[:1], self)

    def _wait_wm(self, timeout_s: float) -> None:
        """Wait until the window manager announces itself (``_NET_SUPPORTING_WM_CHECK``)."""
        from gcc_envs.backends.desktop.x11 import X11

        x = X11(self.name)
        try:
            check = x.atom("_NET_SUPPORTING_WM_CHECK")
            deadline = time.monotonic() + timeout_s
            while x.root.get_full_property(check, 0) is None:
                if time.monotonic() > deadline or (self.wm and self.wm.poll() is not None):
                    log.warning(
                        "%s did not start on %s; focus may not work", WINDOW_MANAGER[0], self
                    )
                    return
                time.sleep(0.01)
        finally:
            x.close()

    def env(self) -> dict[str, str]:
        """The process environment for programs on this display."""
        return {**os.environ, "DISPLAY": self.name}

    @property
    def namespaced(self) -> bool:
        """Whether its programs live in a PID namespace of their own (the PIDs their windows
        name are then not this machine's: :func:`gcc_envs.sandbox.inner_pid`)."""
        return self._lifeline is not None

    def launch(self, argv: Sequence[str]) -> subprocess.Popen[bytes]:
        """Start ``argv`` on this display in its own process group (ended by :meth:`close`)."""
        proc = launch(argv, self.name, self._lifeline)
        self._procs.append(proc)
        return proc

    def close(self) -> None:
        """Stop the launched programs, the window manager and the server (idempotent)."""
        self._finalizer()
        if self._lock >= 0:
            os.close(self._lock)
            self._lock = -1

    def __repr__(self) -> str:
        return f"VirtualDisplay({self.name}, {self.size[0]}x{self.size[1]})"


def launch(
    argv: Sequence[str], display: str, lifeline: Lifeline | None = None
) -> subprocess.Popen[bytes]:
    """Start ``argv`` on X display ``display`` in a new session (its own process group)."""
    if not argv or not all(isinstance(a, str) for a in argv):
        raise BackendError(f"launch= must be a non-empty list of strings, got {argv!r}")
    popen = lifeline.popen if lifeline is not None else subprocess.Popen
    try:
        return popen(
            list(argv),
            env={**os.environ, "DISPLAY": display},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as e:
        raise BackendError(f"could not launch {argv[0]!r}: {e}") from e
