"""A namespace holder: ``bwrap`` whose PID 1 lives exactly as long as the caller's pipe to it.

PID 1 of the new PID namespace is a bash loop reading a pipe whose other end only the caller
holds (``--as-pid-1``; bash reaps the orphans it adopts). When the caller closes the pipe, or
dies in any way (SIGKILL included, from any thread), the loop reads end of file and exits, and
the kernel kills every process left in the namespace — daemons started with ``setsid -f``
too. Programs join the namespaces with ``nsenter``.

:class:`Lifeline` is a holder with a PID namespace only (the host's files, network and
devices): what the env's process itself starts, such as the X server, lives in one.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import time
import weakref
from collections.abc import Sequence
from typing import Any

from gcc_envs.errors import BackendError

log = logging.getLogger(__name__)

#: PID 1 of a holder: say it is ready, then read the caller's pipe until it closes.
_INIT = "echo ready; while read -r _; do :; done"
#: Seconds a holder may take to come up.
START_TIMEOUT_S = 10.0


def bwrap_missing() -> str | None:
    """Why no sandbox can be made here (None when ``bwrap`` and ``nsenter`` are there)."""
    for program, package in (("bwrap", "bubblewrap"), ("nsenter", "util-linux"),
                             ("setpriv", "util-linux"), ("prlimit", "util-linux")):  # fmt: skip
        if shutil.which(program) is None:
            return f"{program} is not installed (Debian: apt-get install {package})"
    if os.geteuid() != 0:
        return "the episode sandbox needs root (it gives each episode a user of its own)"
    return None


class Holder:
    """``bwrap ARGS`` holding namespaces until :meth:`close` (or the caller's death)."""

    def __init__(self, bwrap_args: Sequence[str], what: str) -> None:
        why = bwrap_missing()
        if why is not None:
            raise BackendError(f"cannot start {what}: {why}")
        info_r, info_w = os.pipe()
        life_r, life_w = os.pipe()
        argv = ["bwrap", "--as-pid-1", *bwrap_args,
                "--info-fd", str(info_w), "--", "/bin/bash", "-c", _INIT]  # fmt: skip
        try:
            self.proc = subprocess.Popen(
                argv, stdin=life_r, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(info_w,), start_new_session=True,
            )  # fmt: skip
        except OSError as e:
            for fd in (info_r, info_w, life_r, life_w):
                os.close(fd)
            raise BackendError(f"cannot start {what}: {e}") from e
        os.close(info_w)
        os.close(life_r)
        self._life = life_w
        self._finalizer = weakref.finalize(self, _end, self.proc, life_w)
        try:
            self.pid = _child_pid(info_r, self.proc, what)
            line = _read_line(self.proc, START_TIMEOUT_S)
            if line != b"ready\n":
                err = self.proc.stderr.read().decode("utf-8", "replace") if self.proc.stderr else ""
                raise BackendError(f"{what} did not start: {err.strip() or line!r}")
        except BaseException:
            self.close()
            raise
        finally:
            os.close(info_r)
        assert self.proc.stdout is not None
        self.proc.stdout.close()

    def nsenter(self, namespaces: str) -> list[str]:
        """The ``nsenter`` prefix that joins this holder's ``namespaces`` (e.g. ``"mpniu"``)."""
        flags = {"m": "--mount", "p": "--pid", "n": "--net", "i": "--ipc", "u": "--uts"}
        args = ["nsenter", f"--target={self.pid}", *(flags[c] for c in namespaces)]
        return [*args, "--root", "--"] if "m" in namespaces else [*args, "--"]

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """End the namespace and everything in it (idempotent)."""
        self._finalizer()


def _end(proc: subprocess.Popen[bytes], life_w: int) -> None:
    try:
        os.close(life_w)
    except OSError:
        pass
    try:  # PID 1 first: the kernel then kills the rest of the namespace
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        log.warning("bwrap (pid %d) did not end in 10 s", proc.pid)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None and not stream.closed:
            stream.close()


def _child_pid(fd: int, proc: subprocess.Popen[bytes], what: str) -> int:
    """PID 1 of the new namespace, as bwrap writes it to its ``--info-fd``."""
    import select

    deadline, text = time.monotonic() + START_TIMEOUT_S, b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            chunk = os.read(fd, 4096)
            text += chunk
            try:
                return int(json.loads(text)["child-pid"])
            except (ValueError, KeyError):
                if not chunk:
                    break
        elif proc.poll() is not None:
            break
    err = proc.stderr.read().decode("utf-8", "replace").strip() if proc.stderr else ""
    raise BackendError(f"{what} did not start: {err or 'bwrap gave no child pid'}")


def _read_line(proc: subprocess.Popen[bytes], timeout_s: float) -> bytes:
    import select

    assert proc.stdout is not None
    fd, line = proc.stdout.fileno(), b""
    deadline = time.monotonic() + timeout_s
    while not line.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            chunk = os.read(fd, 64)
            if not chunk:
                break
            line += chunk
    return line


class Lifeline:
    """A PID namespace (only) whose programs end when it is closed or its owner dies."""

    def __init__(self) -> None:
        self._holder = Holder(["--unshare-pid", "--dev-bind", "/", "/"], "a lifeline")

    def popen(self, argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        """``subprocess.Popen`` of ``argv`` inside the namespace (host files and network)."""
        return subprocess.Popen([*self._holder.nsenter("p"), *argv], **kwargs)

    def close(self) -> None:
        self._holder.close()
