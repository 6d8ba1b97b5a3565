"""``Sandbox``: one desktop episode's namespaces, user, home and limits (see the package)."""

from __future__ import annotations

import ctypes
import functools
import logging
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from gcc_envs.core.probe import RunResult
from gcc_envs.errors import BackendError, GCCError
from gcc_envs.sandbox.holder import Holder
from gcc_envs.sandbox.limits import Limits
from gcc_envs.sandbox.slots import USER, Slot

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Where the episode's home also appears inside (OSWorld's paths are real paths there).
INSIDE_HOME = f"/home/{USER}"
#: Host folders the sandbox replaces with empty ones of its own (other homes, other
#: episodes, the host's runtime sockets); anything the sandbox needs from them is bound back.
HIDDEN = ("/tmp", "/var/tmp", "/home", "/root", "/run")
#: Programs the sandbox puts first on ``PATH`` (``sudo`` runs the command as the episode's
#: user: there is no one else to become).
SHIMS = Path(__file__).with_name("shims")
_CLONE_NEWNET = 0x40000000
#: The folder this ``gcc_envs`` is imported from (a checkout, or site-packages).
_CHECKOUT = Path(__file__).resolve().parents[2]


class SandboxError(BackendError):
    """The sandbox refused or could not do something (the message says what)."""


class Sandbox:
    """One episode's sandbox (see the package docstring); :meth:`close` ends all of it.

    ``display``: the X display whose socket the sandbox sees (``":N"``), if any.
    """

    def __init__(self, display: str | None = None, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.display = display
        self._procs: list[subprocess.Popen[bytes]] = []
        self._closed = False
        self.slot = Slot(self.limits.home_size)
        self.uid, self.gid = self.slot.uid, self.slot.gid
        #: The home on the host (and at the same path inside, besides ``/home/user``).
        self.home = self.slot.home
        try:
            self._holder = Holder(self._bwrap_args(), "the episode sandbox")
        except BaseException:
            self.slot.release()
            raise

    def _bwrap_args(self) -> list[str]:
        home = str(self.home)
        args = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
                "--unshare-cgroup-try", "--hostname", socket.gethostname(),
                "--ro-bind", "/", "/", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/dev/shm",
                "--proc", "/proc"]  # fmt: skip
        for hidden in HIDDEN:
            if os.path.isdir(hidden) and not os.path.islink(hidden):
                mode = "1777" if hidden.endswith("tmp") else "0755"  # /tmp, /var/tmp: anyone's
                args += ["--perms", mode, "--tmpfs", hidden]
        slots = str(self.slot.dir.parent)
        for path in _python_paths():  # (never a hidden folder itself, nor one holding homes)
            if any(path.startswith(h + "/") for h in HIDDEN) and not slots.startswith(path):
                args += [*_parents(path, "0755"), "--ro-bind", path, path]
        args += _parents(home, "0711")
        args += ["--bind", home, INSIDE_HOME, "--bind", home, home,
                 "--ro-bind", str(self.slot.passwd), "/etc/passwd",
                 "--ro-bind", str(self.slot.group), "/etc/group"]  # fmt: skip
        socket_path = _x_socket(self.display)
        if socket_path is not None:
            args += ["--perms", "0755", "--dir", os.path.dirname(socket_path),
                     "--bind", socket_path, socket_path]  # fmt: skip
        return args

    # ------------------------------------------------------------------ programs
    def spawn(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        stdin: Any = subprocess.DEVNULL,
        stdout: Any = subprocess.DEVNULL,
        stderr: Any = subprocess.DEVNULL,
        command: bool = False,
    ) -> subprocess.Popen[bytes]:
        """Start ``argv`` inside as the episode's user, in a process group of its own (the
        returned ``Popen`` is the ``nsenter`` in front of it: signal its group). ``command``
        adds the per-command memory and CPU limits."""
        argv = _checked(argv)
        if self._closed or not self._holder.alive:
            raise SandboxError("the episode's sandbox is closed")
        env = dict(env or {})
        if argv[0] == sys.executable:  # this interpreter runs this checkout's modules there too
            env.setdefault("PYTHONPATH", str(_CHECKOUT))
        full = [*self._holder.nsenter("mpniu"), "setpriv", f"--reuid={self.uid}",
                f"--regid={self.gid}", "--clear-groups", "--no-new-privs", "--inh-caps=-all",
                "--bounding-set=-all", "--", *self.limits.prlimit(command),
                "env", f"--chdir={cwd or self.home}", "--", *argv]  # fmt: skip
        try:
            proc = subprocess.Popen(
                full, env=self.environment(env), stdin=stdin, stdout=stdout, stderr=stderr,
                start_new_session=True,
            )  # fmt: skip
        except OSError as e:
            raise SandboxError(f"could not start {argv[0]!r}: {e}") from e
        self._procs = [p for p in self._procs if p.poll() is None] + [proc]
        return proc

    def environment(self, env: Mapping[str, str] | None) -> dict[str, str]:
        """``env`` with the sandbox's ``PATH`` (its shims first) and ``USER``."""
        out = {str(k): str(v) for k, v in (env or {}).items()}
        path = out.get("PATH") or "/usr/local/bin:/usr/bin:/bin"
        out["PATH"] = f"{SHIMS}:{path}"
        out.setdefault("HOME", str(self.home))
        out["USER"] = out["LOGNAME"] = USER
        return out

    def run(
        self,
        argv: Sequence[str],
        timeout_s: float = 10.0,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        input: bytes | None = None,  # noqa: A002 - subprocess's name
        max_output: int | None = None,
    ) -> RunResult:
        """Run a command inside to its end (text output); see :meth:`run_bytes`."""
        code, out, err, timed_out = self.run_bytes(
            argv, timeout_s, env=env, cwd=cwd, input=input, max_output=max_output
        )
        return RunResult(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
                         timed_out)  # fmt: skip

    def run_bytes(
        self,
        argv: Sequence[str],
        timeout_s: float = 10.0,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        input: bytes | None = None,  # noqa: A002
        max_output: int | None = None,
    ) -> tuple[int, bytes, bytes, bool]:
        """``(returncode, stdout, stderr, timed_out)`` of a command run inside.

        The command (its whole process group) is killed at ``timeout_s`` or when either
        output passes ``max_output`` bytes (the limits' ``output`` by default; a note on
        stderr says so). Programs it left running in the background (``setsid -f``) keep
        running until the episode ends, as on a real machine; they do not hold this call.
        """
        if not 0 < float(timeout_s) <= 3600:
            raise GCCError(f"timeout_s must lie in (0, 3600], got {timeout_s!r}")
        cap = self.limits.output if max_output is None else int(max_output)
        with tempfile.TemporaryFile() as stdin:
            if input:
                stdin.write(input)
                stdin.seek(0)
            proc = self.spawn(argv, env=env, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, command=True)  # fmt: skip
        out, err, why = _collect(proc, time.monotonic() + float(timeout_s), cap)
        if why is not None:
            _kill_group(proc.pid)
        code = proc.wait()
        if why == "output":
            err += f"\n[gcc-gym: output passed {cap} bytes; the command was stopped]\n".encode()
        return (-signal.SIGKILL if why == "deadline" else code), out, err, why == "deadline"

    # ------------------------------------------------------------------ network
    def connect(self, port: int, timeout_s: float = 5.0) -> socket.socket:
        """A TCP connection to ``127.0.0.1:port`` of the episode's own loopback."""
        return self.in_network(lambda: socket.create_connection(("127.0.0.1", port), timeout_s))

    def free_port(self) -> int:
        """A TCP port free on the episode's loopback."""

        def pick() -> int:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                return int(s.getsockname()[1])

        return self.in_network(pick)

    def in_network(self, fn: Callable[[], T]) -> T:
        """``fn()`` called on a thread that has joined the episode's network namespace (the
        sockets it makes stay there); the calling thread's network does not change."""
        if self._closed or not self._holder.alive:
            raise SandboxError("the episode's sandbox is closed: its network is gone")
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                fd = os.open(f"/proc/{self._holder.pid}/ns/net", os.O_RDONLY | os.O_CLOEXEC)
            except OSError as e:
                box["error"] = SandboxError(f"the episode's network is gone: {e}")
                return
            try:
                if _libc().setns(fd, _CLONE_NEWNET) != 0:
                    raise SandboxError(f"setns: {os.strerror(ctypes.get_errno())}")
                box["value"] = fn()
            except BaseException as e:  # handed to the caller's thread
                box["error"] = e
            finally:
                os.close(fd)

        thread = threading.Thread(target=target, name="gcc-sandbox-net", daemon=True)
        thread.start()
        thread.join()
        error = box.pop("error", None)
        if error is not None:
            # The error's traceback holds target's frame, which holds box, and once raised
            # this frame too: dropping both names leaves no reference cycle (one kept the
            # callers' frames, the sandbox and the env behind them alive until a full gc).
            try:
                raise error
            finally:
                del error, box
        return box["value"]

    # ------------------------------------------------------------------ end
    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """End every process of the episode, remove its home and free its slot (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            self._holder.close()
            for proc in self._procs:  # the nsenter in front of each: reaped, no zombies
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    _kill_group(proc.pid)
            self._procs.clear()
        finally:
            self.slot.release()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _parents(path: str, mode: str) -> list[str]:
    """bwrap arguments making the folders above ``path`` inside a hidden folder with ``mode``
    (bwrap would make them root's alone)."""
    args = []
    for parent in reversed(Path(path).parents):
        if any(str(parent).startswith(h + "/") for h in HIDDEN):
            args += ["--perms", mode, "--dir", str(parent)]
    return args


def _checked(argv: Any) -> list[str]:
    if isinstance(argv, (str, bytes)) or not argv or not all(isinstance(a, str) for a in argv):
        raise GCCError(f"a command must be a non-empty list of strings (no shell), got {argv!r}")
    if "=" in argv[0]:
        raise GCCError(f"a program name has no '=' (an assignment is not a program): {argv[0]!r}")
    if any("\0" in a for a in argv):
        raise GCCError("a command's arguments cannot hold NUL characters")
    return list(argv)


def _collect(
    proc: subprocess.Popen[bytes], deadline: float, cap: int
) -> tuple[bytes, bytes, str | None]:
    """Read a command's stdout and stderr until it exits; ``why`` it was cut, if it was."""
    assert proc.stdout is not None and proc.stderr is not None
    bufs = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    why, exited_at = None, None
    with selectors.DefaultSelector() as sel:
        for f in (proc.stdout, proc.stderr):
            os.set_blocking(f.fileno(), False)
            sel.register(f.fileno(), selectors.EVENT_READ)
        while sel.get_map():
            now = time.monotonic()
            if now > deadline:
                why = "deadline"
                break
            if exited_at is None and proc.poll() is not None:
                exited_at = now
            if exited_at is not None and now - exited_at > 0.2:
                break  # what is left open belongs to a program it left in the background
            for key, _ in sel.select(timeout=0.05):
                try:
                    chunk = os.read(key.fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    sel.unregister(key.fd)
                    continue
                buf = bufs[key.fd]
                buf += chunk
                if len(buf) > cap:
                    del buf[cap:]
                    why = "output"
            if why == "output":
                break
    out, err = (bytes(b) for b in bufs.values())
    proc.stdout.close()
    proc.stderr.close()
    return out, err, why


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _x_socket(display: str | None) -> str | None:
    import re

    m = re.fullmatch(r"(?:unix)?:(\d+)(?:\.\d+)?", display or "")
    if m is None:
        return None
    path = f"/tmp/.X11-unix/X{m.group(1)}"
    return path if os.path.exists(path) else None


def _python_paths() -> list[str]:
    """This interpreter and its import path (the episode runs ``python -m gcc_envs...``)."""
    found = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    found.add(os.path.dirname(os.path.realpath(sys.executable)))
    found.update(os.path.realpath(p) for p in sys.path if p and os.path.isdir(p))
    found.add(str(_CHECKOUT))
    paths = sorted(p for p in found if p != "/")
    return [p for p in paths if not any(p.startswith(q + "/") for q in paths)]


@functools.lru_cache(maxsize=1)
def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)
