"""A local ``DesktopSession`` + ``DesktopProbe`` on one X display, with a fresh home.

Temporary: the seam (issue 10) brings the project's own session and probe over the desktop
backend; this one is what the OSWorld suite runs on until then. ``FolderProbe`` is a probe
over a folder only (getters' unit tests); ``LocalDesk`` adds the display and its programs.
Both follow the protocols in ``gcc_envs/apps/session.py`` and ``gcc_envs/core/probe.py``.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from gcc_envs.core.probe import RunResult
from gcc_envs.errors import GCCError


def _inside(home: Path, path: str | Path) -> Path:
    p = Path(path)
    p = p if p.is_absolute() else home / p
    real = Path(os.path.realpath(p))
    if real != home and Path(os.path.realpath(home)) not in real.parents:
        raise GCCError(f"{path!s} is outside the episode's home")
    return real


def _run(argv: Sequence[str], env: Mapping[str, str], cwd: Path, timeout_s: float) -> RunResult:
    proc = subprocess.Popen(list(argv), env=dict(env), cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    try:
        out, err = proc.communicate(timeout=timeout_s)
        return RunResult(
            proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
        )
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, err = proc.communicate()
        return RunResult(-9, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), True)


class FolderProbe:
    """A probe over a home folder: files and commands, no screen."""

    def __init__(self, home: Path, env: Mapping[str, str] | None = None) -> None:
        self.home = Path(os.path.realpath(home))
        self.files: dict[str, Path] = {}
        self.env = dict(env if env is not None else os.environ) | {"HOME": str(self.home)}

    def screenshot(self) -> np.ndarray:
        return np.zeros((8, 8, 3), np.uint8)

    def window_titles(self) -> list[str]:
        return []

    def exists(self, path: str | Path) -> bool:
        try:
            return _inside(self.home, path).exists()
        except GCCError:
            return False

    def read_file(self, path: str | Path) -> bytes:
        p = _inside(self.home, path)
        if not p.is_file():
            raise GCCError(f"{path!s}: no such file")
        return p.read_bytes()

    def run(
        self, argv: Sequence[str], timeout_s: float = 10.0, env: Mapping[str, str] | None = None
    ) -> RunResult:
        return _run(argv, {**self.env, **(env or {})}, self.home, timeout_s)


class LocalDesk(FolderProbe):
    """A session and a probe on one X display, with a fresh home (``close()`` stops all)."""

    def __init__(self, display: str, home: Path | None = None) -> None:
        home = Path(tempfile.mkdtemp(prefix="osworld-home-")) if home is None else home
        env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "DBUS_"))}
        env |= {"DISPLAY": display, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                "XDG_DATA_HOME": str(home / ".local/share"), "XDG_CACHE_HOME": str(home / ".cache")}  # fmt: skip
        super().__init__(home, env)
        self.display = display
        self._procs: list[subprocess.Popen[bytes]] = []
        self._closers: list[Callable[[], None]] = []
        from gcc_envs.backends.desktop.capture import Grabber
        from gcc_envs.backends.desktop.x11 import X11

        self.x = X11(display)
        self._grabber = Grabber(display)

    def screenshot(self) -> np.ndarray:
        W, H = self.x.screen_size
        return self._grabber.grab(0, 0, W, H, (W, H), (W, H))

    def launch(
        self, argv: Sequence[str], *, window: str | None = None, timeout_s: float = 20.0
    ) -> int:
        proc = subprocess.Popen(list(argv), env=self.env, cwd=self.home, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)  # fmt: skip
        self._procs.append(proc)
        return proc.pid

    def start_server(
        self, argv: Sequence[str], *, port: int | None = None, ready_timeout_s: float = 10.0
    ) -> int:
        pid = self.launch(argv)
        deadline = time.monotonic() + ready_timeout_s
        while port is not None:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise GCCError(f"{argv[0]} did not listen on {port}") from None
                time.sleep(0.1)
        return pid

    def free_port(self) -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])

    def focus(self, title: str, timeout_s: float = 5.0) -> None:
        rx = re.compile(title)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for win in self.x.clients():
                if rx.search(self.x.title(win)):
                    self.x.focus(win)
                    return
            time.sleep(0.1)
        raise GCCError(f"no window matches {title!r}")

    def window_titles(self) -> list[str]:
        return [self.x.title(w) for w in self.x.clients()]

    def on_close(self, fn: Callable[[], None]) -> None:
        self._closers.append(fn)

    def close(self) -> None:
        from gcc_envs.backends.desktop.display import stop_group

        while self._procs:
            stop_group(self._procs.pop())
        while self._closers:
            self._closers.pop()()
        self._grabber.close()
        self.x.close()
        subprocess.run(["rm", "-rf", str(self.home)], check=False)
