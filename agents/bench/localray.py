"""A local Ray for one ``gcc-gym bench`` driver that dies with it, however it dies.

``ray.init()`` starts Ray's processes as the driver's children; a driver killed with SIGKILL
leaves some behind (``ray::DashboardAgent`` and ``ray::RuntimeEnvAgent``, ~170 MB, measured
with Ray 2.60). So the driver starts this module as a small supervisor process instead: it
makes itself the *child subreaper* (Linux ``prctl``), so every process Ray starts below it
stays its descendant even when orphaned, starts a one-node :class:`LoopbackCluster` (its own
temp folder and auth token, so Ray has nothing to warn about), tells the driver the address,
then blocks reading its stdin, a pipe only the driver holds. When the driver ends, normally or
killed, the pipe closes and the supervisor stops every process below it (SIGTERM, then SIGKILL
after a grace period), removes the temp folder and exits.

>>> local = LocalRay(cpus=2)        # doctest: +SKIP
>>> address = local.start()        # then ray.init(address=address, ...)  # doctest: +SKIP
>>> local.stop()                   # doctest: +SKIP
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from gcc_envs.errors import GCCError

#: ``prctl`` option: orphans below this process are re-parented to it, not to init.
PR_SET_CHILD_SUBREAPER = 36
#: Seconds Ray's processes get to stop on SIGTERM before SIGKILL.
GRACE_S = 1.0


def children_of(pid: int) -> list[int]:
    """Every process whose parent chain leads to ``pid`` (Linux ``/proc``)."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if fields and fields[0] != "Z":
            parent[int(entry.name)] = int(fields[1])
    out, frontier = [], [pid]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        frontier += kids
    return out


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def stop_descendants(grace_s: float = GRACE_S, timeout_s: float = 10.0) -> None:
    """SIGTERM every process below this one, SIGKILL those left after ``grace_s``, reap."""
    me = os.getpid()
    start = time.monotonic()
    sig = signal.SIGTERM
    while time.monotonic() - start < timeout_s:
        _reap()
        kids = children_of(me)
        if not kids:
            return
        if time.monotonic() - start > grace_s:
            sig = signal.SIGKILL
        for pid in kids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        time.sleep(0.05)


def supervise(cpus: int, object_store_mb: int) -> int:
    """The supervisor's main: start the cluster, report it, wait for stdin's EOF, stop all."""
    from agents.bench.cluster import LoopbackCluster

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # only the pipe's end stops it
    signal.signal(signal.SIGTERM, lambda *_: sys.stdin.close())
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    cluster = LoopbackCluster(nodes=1, cpus=cpus, object_store_mb=object_store_mb)
    try:
        address = cluster.start()
        print(json.dumps({"address": address, "env": cluster.env}), flush=True)
    except Exception as e:  # noqa: BLE001 - the driver gets it as a message
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}), flush=True)
        address = ""
    try:
        if address:
            sys.stdin.buffer.read()  # until the driver closes the pipe or dies
    except (OSError, ValueError):
        pass
    finally:
        stop_descendants()
        cluster.procs = []  # already stopped; stop() removes the temp folder
        cluster.stop()
    return 0


class LocalRay:
    """The driver's handle on a supervised local Ray (see the module's docstring)."""

    def __init__(self, cpus: int, object_store_mb: int = 128, timeout_s: float = 120.0) -> None:
        self.cpus, self.object_store_mb, self.timeout_s = cpus, object_store_mb, timeout_s
        self.proc: subprocess.Popen[bytes] | None = None
        self.saved: dict[str, str | None] = {}

    def start(self) -> str:
        """Start the supervisor and its cluster; the address for ``ray.init``. The cluster's
        auth settings are put into this process's environment until :meth:`stop`."""
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agents.bench.localray",
                str(self.cpus),
                str(self.object_store_mb),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,  # a Ctrl-C for the driver does not reach it
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        try:
            info: dict[str, Any] = json.loads(line)
        except ValueError:
            info = {"error": f"the supervisor said {line[-500:]!r}"}
        if "error" in info:
            self.stop()
            raise GCCError(f"could not start a local Ray: {info['error']}")
        for k, v in info["env"].items():
            self.saved[k] = os.environ.get(k)
            os.environ[k] = v
        _reset_ray_auth()
        return str(info["address"])

    def stop(self) -> None:
        """Close the supervisor's pipe and wait for it to stop Ray."""
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        if self.saved:
            _reset_ray_auth()
        self.saved = {}


def _reset_ray_auth() -> None:
    """Make this process's Ray read its token settings again (it caches them)."""
    try:
        from ray._private.authentication_test_utils import reset_auth_token_state
    except ImportError:  # another Ray version: it reads them at ray.init
        return
    reset_auth_token_state()


if __name__ == "__main__":
    sys.exit(supervise(int(sys.argv[1]), int(sys.argv[2])))
