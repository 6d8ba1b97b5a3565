"""The same attack on ``gcc-gym serve-desktop``, ``gcc-gym osworld serve`` and a stdlib reference.

Run: ``python benchmarks/server_attack.py [--stalled N] [--requests N] [--clients N]
[--no-reference]`` (needs Xvfb; about 3 minutes, 2 of them the reference's connects). It
starts one Xvfb and each server as a real process on loopback, the token given by
``--token-file``; the reference is ``http.server.ThreadingHTTPServer`` with the handler
``osworld serve`` had before :mod:`gcc_envs.httpd` (listen backlog 5, no timeouts). Then, per
server:

* **stalled**: ``N`` sockets connect and stall (half send nothing, half half a header); how long
  connecting them took (a short backlog makes the kernel drop connects, retried after 1, 3, 7 s),
  how many the server closes within its 10 s deadline plus 5 s, how long that took, and how
  long one normal request took meanwhile;
* **crowd**: ``N`` authorized requests from ``--clients`` threads at once, a fresh connection
  each: median and max latency, how many failed, and the time for all of them;
* **malformed**: bad, missing, signed and huge ``Content-Length``, chunked, a truncated body,
  deep and broken JSON: how many were answered 4xx with a JSON ``{"error": ...}`` (the rest were
  dropped, timed out or answered otherwise).
"""

from __future__ import annotations

import argparse
import http.client
import json
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

TOKEN = "attack-benchmark-token-123"
ROOT = Path(__file__).resolve().parents[1]
DEADLINE_S = 10.0  # the servers' default Limits.idle_s


def request(path: str, body: bytes = b"{}", length: str | None = None, extra: str = "",
            token: str | None = TOKEN) -> bytes:  # fmt: skip
    lines = [f"POST {path} HTTP/1.1", "Host: attack", "Connection: close"]
    lines += [f"Authorization: Bearer {token}"] if token else []
    length = str(len(body)) if length is None else length
    lines += [f"Content-Length: {length}"] if length != "none" else []
    return ("\r\n".join(lines) + "\r\n" + extra + "\r\n").encode() + body


def answer(address: tuple[str, int], raw: bytes, hang_up: bool = False) -> tuple[int, Any]:
    """(status, JSON body) of the answer to ``raw``; status 0: dropped or no answer in 10 s."""
    try:
        with socket.create_connection(address, timeout=10) as c:
            c.sendall(raw)
            if hang_up:
                c.shutdown(socket.SHUT_WR)
            resp = http.client.HTTPResponse(c)
            resp.begin()
            data = resp.read()
    except (OSError, http.client.HTTPException):
        return 0, None
    try:
        return resp.status, json.loads(data)
    except ValueError:
        return resp.status, None


def stalled(address: tuple[str, int], n: int, ok: bytes) -> tuple[int, float, float, float]:
    """(closed, seconds to close them, seconds a normal request took meanwhile, to connect)."""
    socks, t0 = [], time.monotonic()
    for i in range(n):
        try:
            c = socket.create_connection(address, timeout=10)
            if i % 2:
                c.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nAuthoriz")
        except OSError:
            continue
        c.setblocking(False)
        socks.append(c)
    connecting = time.monotonic() - t0
    t0 = time.monotonic()
    status, _ = answer(address, ok)
    normal = time.monotonic() - t0 if status == 200 else float("nan")
    sel = selectors.DefaultSelector()
    for c in socks:
        sel.register(c, selectors.EVENT_READ)
    closed, last, deadline = 0, 0.0, t0 + DEADLINE_S + 5.0
    while closed < len(socks) and (left := deadline - time.monotonic()) > 0:
        for key, _ in sel.select(left):
            try:
                data = key.fileobj.recv(4096)
            except OSError:
                data = b""
            if not data:
                sel.unregister(key.fileobj)
                closed, last = closed + 1, time.monotonic() - t0
    sel.close()
    for c in socks:
        c.close()
    return closed, last, normal, connecting


def crowd(
    address: tuple[str, int], n: int, clients: int, ok: bytes
) -> tuple[list[float], int, float]:
    """(latencies of the answered requests, how many failed, seconds for all)."""

    def one(_: int) -> float | None:
        t0 = time.monotonic()
        status, _ = answer(address, ok)
        return time.monotonic() - t0 if status == 200 else None

    t0 = time.monotonic()
    with ThreadPoolExecutor(clients) as pool:
        times = list(pool.map(one, range(n)))
    return [t for t in times if t is not None], sum(t is None for t in times), time.monotonic() - t0


def malformed(path: str) -> dict[str, tuple[bytes, bool]]:
    return {
        "length not a number": (request(path, length="abc"), False),
        "negative length": (request(path, length="-5"), False),
        "signed length": (request(path, length="+2"), False),
        "no length": (request(path, length="none"), False),
        "chunked": (request(path, b"2\r\n{}\r\n0\r\n\r\n", "none", "Transfer-Encoding: chunked\r\n"), False),
        "huge length": (request(path, b"", str(10**12)), False),
        "truncated body": (request(path, b'{"a":', "100"), True),
        "deep list": (request(path, b"[" * 100_000), False),
        "deep object": (request(path, b'{"a":' * 5000 + b"1" + b"}" * 5000), False),
        "not JSON": (request(path, b"{not json"), False),
        "not UTF-8": (request(path, b"\xff\xfe\xfa"), False),
        "5000-digit number": (request(path, b"1" * 5000), False),
    }  # fmt: skip


def attack(address: tuple[str, int], ok_path: str, json_path: str, args: Any) -> dict[str, str]:
    ok = request(ok_path)
    closed, took, normal, connecting = stalled(address, args.stalled, ok)
    times, failed, total = crowd(address, args.requests, args.clients, ok)
    answered = [
        400 <= status < 500 and isinstance(body, dict) and isinstance(body.get("error"), str)
        for raw, hang_up in malformed(json_path).values()
        for status, body in [answer(address, raw, hang_up)]
    ]
    if closed < args.stalled:
        took = DEADLINE_S + 5.0  # the others were still open when the wait ended
    return {
        "stalled sockets connected in": f"{connecting:.1f} s",
        "stalled sockets closed": f"{closed}/{args.stalled} in {took:.1f} s",
        "a request while stalled": f"{normal * 1000:.0f} ms",
        f"{args.requests} at once: median": f"{statistics.median(times) * 1000:.0f} ms" if times else "-",
        f"{args.requests} at once: max": f"{max(times):.2f} s" if times else "-",
        f"{args.requests} at once: failed": str(failed),
        f"{args.requests} at once: all done in": f"{total:.1f} s",
        "malformed answered 4xx JSON": f"{sum(answered)}/{len(answered)}",
    }  # fmt: skip


def start(argv: list[str], quiet: bool) -> tuple[subprocess.Popen[str], tuple[str, int]]:
    err = subprocess.DEVNULL if quiet else None  # the reference prints a traceback per drop
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT)
    line = proc.stdout.readline() if proc.stdout else ""
    if not line.startswith("serving on "):
        proc.kill()
        raise RuntimeError(f"{argv[3:5]} did not start: {line!r}")
    host, port = line.split()[-1].removeprefix("http://").split(":")
    return proc, (host, int(port))


def stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def reference_server() -> None:
    """``osworld serve``'s handler before gcc_envs.httpd, answering ``{"ok": true}``."""
    import hmac
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Old(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def _reply(self, status: int, value: Any) -> None:
            data = json.dumps(value).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:  # noqa: N802
            given = self.headers.get("Authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {TOKEN}".encode()):
                return self._reply(401, {"error": "missing or wrong token"})
            length = int(self.headers.get("Content-Length") or 0)
            if length > 1 << 20:
                return self._reply(413, {"error": "body larger than 1048576 bytes"})
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
                if not isinstance(body, dict):
                    raise ValueError("the body must be a JSON object")
                return self._reply(200, {"ok": True})
            except ValueError as e:
                return self._reply(400, {"error": str(e)})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Old)
    server.daemon_threads = True
    print(f"serving on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--stalled", type=int, default=800, help="stalled sockets per server")
    p.add_argument("--requests", type=int, default=1000, help="authorized requests at once")
    p.add_argument("--clients", type=int, default=100, help="client threads sending them")
    p.add_argument("--no-reference", action="store_true", help="skip the stdlib reference")
    p.add_argument("--reference-server", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.reference_server:
        return reference_server()
    from gcc_envs.backends.desktop.display import VirtualDisplay

    display = VirtualDisplay((800, 600))
    columns: dict[str, dict[str, str]] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "token").write_text(TOKEN)
            cli = [sys.executable, "-m", "agents.cli"]
            common = ["--token-file", str(Path(tmp) / "token"), "--port", "0"]
            servers: dict[str, tuple[list[str], str, str]] = {
                "serve-desktop": ([*cli, "serve-desktop", *common], "/ping", "/configure"),
                "osworld serve": ([*cli, "osworld", "serve", *common], "/input", "/input"),
                "stdlib reference": ([sys.executable, __file__, "--reference-server"], "/", "/"),
            }
            if args.no_reference:
                del servers["stdlib reference"]
            for name, (argv, ok_path, json_path) in servers.items():
                reference = name == "stdlib reference"
                argv = argv if reference else [*argv, "--display", display.name]
                proc, address = start(argv, quiet=reference)
                try:
                    columns[name] = attack(address, ok_path, json_path, args)
                finally:
                    stop(proc)
                print(f"# {name} done", file=sys.stderr, flush=True)
    finally:
        display.close()
    table(columns)


def table(columns: dict[str, dict[str, str]], out: Callable[[str], None] = print) -> None:
    rows = list(next(iter(columns.values())))
    width = [max(map(len, rows))] + [max(len(n), 18) for n in columns]
    cells = [["", *columns]] + [[r, *(c[r] for c in columns.values())] for r in rows]
    for i, line in enumerate(cells):
        out("| " + " | ".join(v.ljust(w) for v, w in zip(line, width)) + " |")
        if i == 0:
            out("|" + "|".join("-" * (w + 2) for w in width) + "|")


if __name__ == "__main__":
    main()
