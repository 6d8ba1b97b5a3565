"""``VirtualDisplay``: an Xvfb screen with a small EWMH window manager, and the programs on it.

Programs run in their own process group and are ended as a group: SIGTERM, then SIGKILL
after a timeout (some programs ignore SIGTERM).
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import time
import weakref
from collections.abc import Sequence

from gcc_envs.errors import BackendError

log = logging.getLogger(__name__)

#: The window manager started with the display (Debian package ``openbox``).
WINDOW_MANAGER = ("openbox", "--sm-disable")


def stop_group(proc: subprocess.Popen[bytes], timeout_s: float = 3.0) -> None:
    """End ``proc`` and its process group: SIGTERM, then SIGKILL after ``timeout_s``."""
    if proc.poll() is not None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        if sig == signal.SIGTERM:
            try:  # a stopped group never sees SIGTERM until continued
                os.killpg(proc.pid, signal.SIGCONT)
            except ProcessLookupError:
                return
        try:
            proc.wait(timeout=timeout_s)
            return
        except subprocess.TimeoutExpired:
            log.warning("pid %d ignored %s; escalating", proc.pid, sig.name)


def _stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    while procs:
        stop_group(procs.pop())


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
        # a display that is never closed is still stopped when collected or at exit
        self._finalizer = weakref.finalize(self, _stop_all, self._procs)
        # Xvfb picks a free display number itself and writes it to a pipe once it listens
        # (-displayfd): no race with other servers starting at the same moment.
        read_fd, write_fd = os.pipe()
        try:
            server = subprocess.Popen(
                ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{W}x{H}x24"]
                + ["-noreset", "-nolisten", "tcp"],
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

    def launch(self, argv: Sequence[str]) -> subprocess.Popen[bytes]:
        """Start ``argv`` on this display in its own process group (ended by :meth:`close`)."""
        proc = launch(argv, self.name)
        self._procs.append(proc)
        return proc

    def close(self) -> None:
        """Stop the launched programs, the window manager and the server (idempotent)."""
        self._finalizer()

    def __repr__(self) -> str:
        return f"VirtualDisplay({self.name}, {self.size[0]}x{self.size[1]})"


def launch(argv: Sequence[str], display: str) -> subprocess.Popen[bytes]:
    """Start ``argv`` on X display ``display`` in a new session (its own process group)."""
    if not argv or not all(isinstance(a, str) for a in argv):
        raise BackendError(f"launch= must be a non-empty list of strings, got {argv!r}")
    try:
        return subprocess.Popen(
            list(argv),
            env={**os.environ, "DISPLAY": display},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as e:
        raise BackendError(f"could not launch {argv[0]!r}: {e}") from e
