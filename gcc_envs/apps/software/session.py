"""``TwinSession``: one episode's desktop for the software twins (setup steps and checkers).

It is both the :class:`~gcc_envs.apps.session.DesktopSession` the setup steps act on and the
:class:`~gcc_envs.core.probe.DesktopProbe` the checkers read: a fresh home folder (``HOME``
and the XDG folders inside it) on the env's X display, the programs and loopback servers the
setup starts (each in its own process group, stopped at :meth:`close`), and files read only
inside the home. Temporary: it stands in for the seam's own session until that lands.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.backends.desktop.display import stop_group
from gcc_envs.core.probe import RunResult
from gcc_envs.errors import BackendError, GCCError

log = logging.getLogger(__name__)


def _stop_all(procs: list[subprocess.Popen[bytes]], tmp: Path) -> None:
    while procs:
        stop_group(procs.pop())
    shutil.rmtree(tmp, ignore_errors=True)


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex((host, port)) == 0


class TwinSession:
    """A fresh home on ``display``; what it starts is stopped, and the home removed, at close."""

    def __init__(self, display: str, x: Any, grab: Callable[[], np.ndarray], seed: int) -> None:
        self.display = display
        self.x = x
        self._grab = grab
        #: The episode's seed (setup steps draw their variation from it).
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self._tmp = Path(tempfile.mkdtemp(prefix="gcc-twin-"))
        self.home = self._tmp / "home"
        for sub in ("Desktop", "Downloads", "Documents", "Pictures", "Videos", "Music",
                    ".config", ".cache", ".local/share", "tmp"):  # fmt: skip
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        self.env: dict[str, str] = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "DBUS_"))},
            "DISPLAY": display,
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_DATA_HOME": str(self.home / ".local/share"),
            "XDG_RUNTIME_DIR": str(self.home / "tmp"),
            "TMPDIR": str(self.home / "tmp"),
            "NO_AT_BRIDGE": "1",
        }
        self.files: dict[str, Path] = {}
        #: PIDs of the programs and servers started, and the servers' ports (tests read them).
        self.pids: list[int] = []
        self.ports: list[int] = []
        #: The window the env captures and sends input to (None: the whole screen).
        self.window: Any = None
        self._procs: list[subprocess.Popen[bytes]] = []
        self._closers: list[Callable[[], None]] = []
        self._closed = False
        # stopped even when the env is never closed (a crash, a forgotten close)
        self._finalizer = weakref.finalize(self, _stop_all, self._procs, self._tmp)

    # ------------------------------------------------------------------ DesktopSession
    def _popen(self, argv: Sequence[str], log_name: str) -> subprocess.Popen[bytes]:
        if not argv or not all(isinstance(a, str) for a in argv):
            raise GCCError(f"a program must be a non-empty list of strings, got {argv!r}")
        logs = self.home / ".cache" / "gcc-logs"
        logs.mkdir(parents=True, exist_ok=True)
        out = (logs / f"{log_name}.log").open("ab")
        try:
            proc = subprocess.Popen(
                list(argv), env=self.env, cwd=self.home, stdin=subprocess.DEVNULL,
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        except OSError as e:
            raise BackendError(f"could not start {argv[0]!r}: {e}") from e
        finally:
            out.close()
        self._procs.append(proc)
        self.pids.append(proc.pid)
        return proc

    def launch(
        self, argv: Sequence[str], *, window: str | None = None, timeout_s: float = 20.0
    ) -> int:
        proc = self._popen(argv, Path(argv[0]).name)
        if window is not None:
            self.wait_window(window, timeout_s, proc)
        return proc.pid

    def wait_window(
        self, title: str, timeout_s: float = 20.0, proc: subprocess.Popen[bytes] | None = None
    ) -> Any:
        """Wait for a window whose title matches ``title`` and make it the env's target."""
        deadline = time.monotonic() + timeout_s
        pattern = re.compile(title)
        while time.monotonic() < deadline:
            for win in self.x.clients():
                if pattern.search(self.x.title(win) or ""):
                    self.window = win
                    self.x.focus(win)
                    return win
            if proc is not None and proc.poll() is not None:
                raise BackendError(f"{proc.args[0]!r} exited ({proc.returncode}) before its window")
            time.sleep(0.1)
        raise BackendError(f"no window titled like {title!r} within {timeout_s:.0f} s")

    def run(
        self, argv: Sequence[str], timeout_s: float = 10.0, env: Mapping[str, str] | None = None
    ) -> RunResult:
        if not argv or not all(isinstance(a, str) for a in argv):
            raise GCCError(f"a command must be a non-empty list of strings, got {argv!r}")
        try:
            r = subprocess.run(
                list(argv), env={**self.env, **(env or {})}, cwd=self.home, capture_output=True,
                timeout=timeout_s, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode("utf-8", "replace")
            return RunResult(-9, out, (e.stderr or b"").decode("utf-8", "replace"), True)
        except OSError as e:
            return RunResult(127, "", str(e))
        return RunResult(
            r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
        )

    def start_server(
        self, argv: Sequence[str], *, port: int | None = None, ready_timeout_s: float = 10.0
    ) -> int:
        proc = self._popen(argv, "server-" + Path(argv[0]).name)
        if port is not None:
            self.ports.append(port)
            deadline = time.monotonic() + ready_timeout_s
            while not port_open(port):
                if proc.poll() is not None:
                    raise BackendError(f"server {list(argv)[:3]} exited ({proc.returncode})")
                if time.monotonic() > deadline:
                    raise BackendError(f"server {list(argv)[:3]} not listening on {port}")
                time.sleep(0.05)
        return proc.pid

    def free_port(self) -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])

    def focus(self, title: str, timeout_s: float = 5.0) -> None:
        self.wait_window(title, timeout_s)

    def on_close(self, fn: Callable[[], None]) -> None:
        self._closers.append(fn)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        while self._procs:
            stop_group(self._procs.pop())
        self._finalizer.detach()
        for fn in reversed(self._closers):
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - one failing hook must not skip the rest
                log.warning("session close hook failed: %s", e)
        shutil.rmtree(self._tmp, ignore_errors=True)

    # ------------------------------------------------------------------ DesktopProbe
    def screenshot(self) -> np.ndarray:
        return self._grab()

    def window_titles(self) -> list[str]:
        return [self.x.title(w) or "" for w in self.x.clients()]

    def _inside(self, path: str | Path) -> Path | None:
        p = Path(path)
        p = (p if p.is_absolute() else self.home / p).resolve()
        return p if p.is_relative_to(self.home.resolve()) else None

    def exists(self, path: str | Path) -> bool:
        p = self._inside(path)
        return p is not None and p.exists()

    def read_file(self, path: str | Path) -> bytes:
        p = self._inside(path)
        if p is None:
            raise GCCError(f"{path} lies outside the episode's home; a checker reads only there")
        try:
            return p.read_bytes()
        except OSError as e:
            raise GCCError(f"cannot read {path} in the episode's home: {e}") from e

    # ------------------------------------------------------------------ setup helpers
    def press(self, key: str) -> None:
        """Tap ``key`` on the display (setup only: to dismiss a program's start-up notice)."""
        stroke = self.x.stroke(key)
        self.x.key(stroke.keycode, True)
        time.sleep(0.03)
        self.x.key(stroke.keycode, False)
