"""A Ray cluster of several nodes on one machine, on loopback addresses (tests, benchmarks).

Each node is its own ``ray start --block`` process (a head, then nodes joining it) with its own
raylet, bound to its own loopback address (``127.0.0.2``, ``127.0.0.3``, ...; Ray maps
``127.0.0.1`` itself to the host's network address), every port picked free, a private temp
folder and a fresh token for Ray's token authentication. Stopping sends SIGTERM to those
``ray start`` processes, which stop what they started.

>>> cluster = LoopbackCluster(nodes=2)   # doctest: +SKIP
>>> address = cluster.start()            # doctest: +SKIP
>>> # gcc-gym bench SUITE --out DIR --address {address}, with cluster.env in the environment
>>> cluster.stop()                       # doctest: +SKIP
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agents.bench.runner import import_ray
from gcc_envs.errors import GCCError

#: ``ray start`` ports that otherwise default to fixed numbers (two clusters would collide).
PORT_FLAGS = (
    "--node-manager-port",
    "--object-manager-port",
    "--metrics-export-port",
    "--runtime-env-agent-port",
    "--dashboard-agent-listen-port",
    "--dashboard-agent-grpc-port",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LoopbackCluster:
    """``nodes`` Ray nodes of ``cpus`` CPUs each on this machine's loopback addresses."""

    def __init__(
        self,
        nodes: int = 2,
        cpus: int = 1,
        timeout_s: float = 120.0,
        object_store_mb: int | None = None,
    ) -> None:
        if nodes < 1 or cpus < 1:
            raise GCCError("a cluster needs at least one node of one CPU")
        self.nodes, self.cpus, self.timeout_s = nodes, cpus, timeout_s
        #: Each node's object store (None: Ray's default, a share of the memory).
        self.object_store_mb = object_store_mb
        self.root: Path | None = None
        self.procs: list[subprocess.Popen[bytes]] = []
        self.address = ""
        self.env: dict[str, str] = {}

    def ip(self, i: int) -> str:
        return f"127.0.0.{2 + i}"

    def start(self) -> str:
        """Start the head and the nodes; the head's address (``127.0.0.2:PORT``)."""
        import_ray()
        # a short path: Ray's unix sockets live under it (at most ~107 characters)
        self.root = Path(tempfile.mkdtemp(prefix="gccray-"))
        token = self.root / "token"
        token.write_text(secrets.token_hex(32))
        token.chmod(0o600)
        self.env = {
            "RAY_AUTH_MODE": "token",
            "RAY_AUTH_TOKEN_PATH": str(token),
            "RAY_USAGE_STATS_ENABLED": "0",
        }
        port = free_port()
        self.address = f"{self.ip(0)}:{port}"
        try:
            self._node(0, ["--head", f"--port={port}", "--include-dashboard=false"])
            self._wait_port(self.ip(0), port)
            for i in range(1, self.nodes):
                self._node(i, [f"--address={self.address}"])
        except BaseException:
            self.stop()
            raise
        return self.address

    def _node(self, i: int, args: list[str]) -> None:
        assert self.root is not None
        ports = [x for flag in PORT_FLAGS for x in (flag, str(free_port()))]
        cmd = [
            sys.executable,  # ``ray start`` of this interpreter's Ray, on PATH or not
            "-m",
            "ray.scripts.scripts",
            "start",
            "--block",
            *args,
            f"--node-ip-address={self.ip(i)}",
            f"--num-cpus={self.cpus}",
            f"--temp-dir={self.root}",
            "--disable-usage-stats",
            *ports,
        ]
        if self.object_store_mb is not None:
            cmd.append(f"--object-store-memory={self.object_store_mb * 1024**2}")
        log = open(self.root / f"node{i}.log", "wb")  # noqa: SIM115 - the child keeps it
        self.procs.append(
            subprocess.Popen(
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, **self.env},
                start_new_session=True,  # a Ctrl-C for the caller does not reach the nodes
            )
        )
        log.close()

    def _wait_port(self, host: str, port: int) -> None:
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in self.procs):
                raise GCCError(f"ray start exited; see {self.log_tail()}")
            try:
                with socket.create_connection((host, port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise GCCError(f"the Ray head did not listen on {host}:{port} within {self.timeout_s} s")

    def wait_nodes(self, ray: Any) -> list[str]:
        """With this process connected (``ray.init``), wait for every node; their ids."""
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            alive = [n["NodeID"] for n in ray.nodes() if n["Alive"]]
            if len(alive) >= self.nodes:
                return alive
            time.sleep(0.2)
        raise GCCError(f"{self.nodes} Ray nodes did not join within {self.timeout_s} s")

    def log_tail(self) -> str:
        if self.root is None:
            return ""
        return "\n".join(
            p.read_text(errors="replace")[-1500:] for p in sorted(self.root.glob("node*.log"))
        )

    def stop(self) -> None:
        """Stop the nodes (then the head) and remove the temp folder."""
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.root is not None:
            self._kill_leftovers(str(self.root))
            shutil.rmtree(self.root, ignore_errors=True)
        self.procs = []

    @staticmethod
    def _kill_leftovers(marker: str) -> None:
        """SIGKILL processes of this cluster still alive (their command line names its folder)."""
        for entry in Path("/proc").glob("[0-9]*"):
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline and int(entry.name) != os.getpid():
                try:
                    os.kill(int(entry.name), signal.SIGKILL)
                except OSError:
                    pass

    def __enter__(self) -> LoopbackCluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
