"""``EpisodeDesktop``: one episode's programs, servers and home folder on a desktop backend.

It is both the :class:`~gcc_envs.apps.session.DesktopSession` that setup steps use and the
source of the :class:`~gcc_envs.core.probe.DesktopProbe` that checkers read. Every program,
server and command of the episode runs inside the episode's OS sandbox
(:class:`gcc_envs.sandbox.Sandbox`: its own user, files, processes and loopback network),
with a fresh ``HOME`` (and XDG folders inside it), in its own process group; programs are
stopped (SIGTERM, then SIGKILL) when the episode ends, and the sandbox then ends whatever is
left and removes the home. Commands are argument lists with timeouts, never shell strings.
Paths a checker reads must lie inside the home (symlinks resolved).

``sandbox=False`` runs the episode unconfined, as the calling user — for debugging only; it
is logged. Where bubblewrap is missing a sandboxed episode refuses to start, naming the
Debian package.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from gcc_envs.core.probe import RunResult
from gcc_envs.errors import BackendError, GCCError
from gcc_envs.sandbox import Limits, Sandbox

log = logging.getLogger(__name__)
#: How long a program may take to quit on SIGTERM when its episode ends (its home is removed
#: next, so nothing it saves is read; a program that ignores SIGTERM — Shotcut, OpenTTD — is
#: killed after it).
CLOSE_GRACE_S = 1.0
T = TypeVar("T")

#: Environment variables programs inherit from the caller (everything else is set here).
INHERITED = ("PATH", "LANG", "LC_ALL", "TZ", "USER", "LOGNAME", "SHELL", "TERM")
#: Most output a command may return to a checker (the rest is cut).
MAX_OUTPUT = 1 << 20


class EpisodeDesktop:
    """See the module docstring. ``backend`` is a desktop backend (``DesktopBackend``)."""

    def __init__(
        self,
        backend: Any,
        rng: np.random.Generator,
        home_prefix: str = "gcc-home-",
        *,
        sandbox: bool = True,
        limits: Limits | None = None,
    ) -> None:
        self.backend = backend
        self.rng = rng
        self.display: str = backend.display
        self.sandbox: Sandbox | None = None
        if sandbox:
            self.sandbox = Sandbox(self.display, limits)
            self.home = self.sandbox.home
        else:
            log.warning("sandbox=False: this episode's programs run unconfined, as %s",
                        os.environ.get("USER", "this user"))  # fmt: skip
            self.home = Path(tempfile.mkdtemp(prefix=home_prefix)).resolve()
        run_dir = self.home / ".run"
        for sub in (".config", ".local/share", ".cache", "tmp"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        run_dir.mkdir(mode=0o700)
        inherited = {k: os.environ[k] for k in INHERITED if k in os.environ}
        self.env: dict[str, str] = {
            **inherited,
            "PATH": inherited.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "DISPLAY": self.display,
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local/share"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_RUNTIME_DIR": str(run_dir),
            "TMPDIR": str(self.home / "tmp"),
            "NO_AT_BRIDGE": "1",
        }
        self.files: dict[str, Path] = {}
        self.vars: dict[str, str] = {}
        self._procs: list[subprocess.Popen[bytes]] = []
        self._closers: list[Callable[[], None]] = []
        self._closed = False

    # ------------------------------------------------------------------ session
    def launch(
        self, argv: Sequence[str], *, window: str | None = None, timeout_s: float = 20.0
    ) -> int:
        proc = self._popen(argv)
        if window is not None:
            try:
                win = self.backend.wait_window(window, timeout_s)
            except BackendError as e:
                raise BackendError(f"{argv[0]} showed no window matching {window!r}: {e}") from e
            self.backend.retarget(win)
        return proc.pid

    def run(self, argv: Sequence[str], timeout_s: float = 10.0) -> RunResult:
        return self.run_with(argv, timeout_s)

    def run_with(
        self, argv: Sequence[str], timeout_s: float = 10.0, env: Mapping[str, str] | None = None
    ) -> RunResult:
        """:meth:`run` with extra environment variables (the probe's ``run``)."""
        _check_argv(argv)
        if not (0 < float(timeout_s) <= 600):
            raise GCCError(f"timeout_s must lie in (0, 600], got {timeout_s!r}")
        if self.sandbox is not None:
            self.give_home()
            return self.sandbox.run(argv, timeout_s, env={**self.env, **(env or {})},
                                    cwd=self.home, max_output=MAX_OUTPUT)  # fmt: skip
        proc = self._spawn(argv, subprocess.PIPE, {**self.env, **(env or {})})
        timed_out = False
        try:
            out, err = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc.pid)
            out, err = proc.communicate()
        return RunResult(
            proc.returncode if not timed_out else -signal.SIGKILL,
            out[:MAX_OUTPUT].decode("utf-8", "replace"),
            err[:MAX_OUTPUT].decode("utf-8", "replace"),
            timed_out,
        )

    def start_server(
        self, argv: Sequence[str], *, port: int | None = None, ready_timeout_s: float = 10.0
    ) -> int:
        proc = self._popen(argv)
        if port is None:
            return proc.pid
        deadline = time.monotonic() + ready_timeout_s
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise BackendError(f"{argv[0]} exited with {proc.returncode} before listening")
            try:
                with self.connect(port, timeout_s=0.2):
                    return proc.pid
            except OSError:
                time.sleep(0.05)
        raise BackendError(f"{argv[0]} did not listen on 127.0.0.1:{port} in {ready_timeout_s} s")

    def connect(self, port: int, timeout_s: float = 5.0) -> socket.socket:
        """A connection to ``127.0.0.1:port`` on the episode's own loopback."""
        if self.sandbox is not None:
            return self.sandbox.connect(port, timeout_s)
        return socket.create_connection(("127.0.0.1", port), timeout=timeout_s)

    def in_network(self, fn: Callable[[], T]) -> T:
        """``fn()`` with the episode's loopback as its network (its sockets stay there)."""
        return self.sandbox.in_network(fn) if self.sandbox is not None else fn()

    def free_port(self) -> int:
        if self.sandbox is not None:
            return self.sandbox.free_port()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])

    def focus(self, title: str, timeout_s: float = 5.0) -> None:
        self.backend.retarget(self.backend.wait_window(title, timeout_s))

    def on_close(self, fn: Callable[[], None]) -> None:
        self._closers.append(fn)

    @property
    def pids(self) -> list[int]:
        """PIDs of the programs and servers this episode started that still run."""
        return [p.pid for p in self._procs if p.poll() is None]

    def close(self) -> None:
        """Stop every program and server of the episode and remove its home (idempotent)."""
        if self._closed:
            return
        self._closed = True
        from gcc_envs.backends.desktop.display import stop_group

        try:
            while self._procs:
                stop_group(self._procs.pop(), timeout_s=CLOSE_GRACE_S)
            for fn in reversed(self._closers):
                try:
                    fn()
                except Exception as e:  # a cleanup must not stop the others
                    log.warning("episode cleanup failed: %s", e)
        finally:
            if self.sandbox is not None:
                self.sandbox.close()  # whatever is left ends with it; the home goes
            else:
                shutil.rmtree(self.home, ignore_errors=True)

    def give_home(self) -> None:
        """Hand what this process wrote into the home to the episode's user (setup steps
        write files as root; the episode's programs must be able to change them)."""
        if self.sandbox is None or os.geteuid() != 0:
            return
        uid, gid = self.sandbox.uid, self.sandbox.gid
        for root, dirs, files in os.walk(self.home):
            for name in (*dirs, *files):
                path = os.path.join(root, name)
                try:
                    if os.lstat(path).st_uid != uid:
                        os.lchown(path, uid, gid)
                except OSError:
                    pass  # removed meanwhile

    # ------------------------------------------------------------------ probe
    def probe(self) -> EpisodeProbe:
        return EpisodeProbe(self)

    def inside(self, path: str | Path) -> Path:
        """``path`` (relative to the home, or absolute) resolved inside the home, or an error."""
        p = Path(path)
        full = (p if p.is_absolute() else self.home / p).resolve()
        if full != self.home and self.home not in full.parents:
            raise GCCError(f"{path} lies outside the episode's home; checkers read only inside it")
        return full

    def _popen(self, argv: Sequence[str]) -> subprocess.Popen[bytes]:
        """Start a program of the episode (stopped with it)."""
        _check_argv(argv)
        if self._closed:
            raise BackendError("this episode's desktop is closed")
        proc = self._spawn(argv, subprocess.DEVNULL, self.env)
        self._procs.append(proc)
        return proc

    def _spawn(self, argv: Sequence[str], out: int, env: Mapping[str, str]) -> Any:
        """``argv`` in its own session, in the home, with ``env``; output to ``out``."""
        if self.sandbox is not None:
            self.give_home()
            return self.sandbox.spawn(argv, env=env, cwd=self.home, stdout=out, stderr=out)
        try:
            return subprocess.Popen(
                list(argv),
                env=dict(env),
                cwd=self.home,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                start_new_session=True,
            )
        except OSError as e:
            raise BackendError(f"could not start {argv[0]!r}: {e}") from e


class EpisodeProbe:
    """The :class:`~gcc_envs.core.probe.DesktopProbe` of an :class:`EpisodeDesktop`."""

    def __init__(self, episode: EpisodeDesktop) -> None:
        self._episode = episode
        self.home = episode.home
        self.files: Mapping[str, Path] = dict(episode.files)

    def screenshot(self) -> np.ndarray:
        return self._episode.backend.grab_screen()

    def window_titles(self) -> list[str]:
        return self._episode.backend.window_titles()

    def exists(self, path: str | Path) -> bool:
        try:
            return self._episode.inside(path).exists()
        except GCCError:
            return False

    def read_file(self, path: str | Path) -> bytes:
        full = self._episode.inside(path)
        try:
            return full.read_bytes()
        except OSError as e:
            raise GCCError(f"cannot read {path}: {e.strerror or e}") from None

    def run(
        self, argv: Sequence[str], timeout_s: float = 10.0, env: Mapping[str, str] | None = None
    ) -> RunResult:
        return self._episode.run_with(argv, timeout_s, env)


def _check_argv(argv: Any) -> None:
    if isinstance(argv, (str, bytes)) or not argv or not all(isinstance(a, str) for a in argv):
        raise GCCError(f"a command must be a non-empty list of strings (no shell), got {argv!r}")


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
