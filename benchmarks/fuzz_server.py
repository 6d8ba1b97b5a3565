"""Attacks on ``gcc-gym serve-desktop``: nothing runs without the token, no crash, no hang.

Run: ``python benchmarks/fuzz_server.py [--attacks N] [--seed S] [--json]`` (needs the
``desktop`` extra and Xvfb). It starts Xvfb and a real ``serve-desktop`` process on loopback
(``--idle-s 2``), then sends ``N`` hostile requests over raw sockets, one connection each:

* without the token, with a wrong one, a huge one, ``Basic`` auth, a token with NUL bytes;
* with the token: bodies of random bytes, deep JSON, too many events, code instead of events,
  non-primitive events, NaN/Infinity, huge numbers and moves, wrong types, unknown fields;
  ``/configure`` with launch argv (not allowed), odd sizes, judge paths; bad or missing
  ``Content-Length``, chunked bodies, short bodies, oversized bodies, unknown routes and methods.

After each attack a valid request must still be answered, and a refused request must have
moved no key and not the pointer. Then two held-key checks: a stalled stranger (headers and
one byte, no token) and a stalled authenticated body must not keep the idle release from
happening. Figures: **tried**, **executed** (a refused or unauthenticated request that was
answered 2xx or changed the input state), **crashed** (a 500, a traceback in the server log, or
the server gone), **hung** (no answer in 10 s), **lost** (the valid request after an attack
failed), **held** (keys still held after the idle release was due: 0 or 1 per check), and
**accepted** (requests among them that were valid after all and answered 2xx, e.g. a huge move).
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

TOKEN = "fuzz-token-123456"
IDLE_S = 2.0
ROOT = Path(__file__).resolve().parents[1]
#: A launch= attack would create this file (its name is unique to this run).
MARKER = Path(tempfile.gettempdir()) / f"gcc-fuzz-pwned-{time.time_ns()}"

Attack = tuple[str, bytes, bool]  # (name, raw request, whether it is authorized and valid)


def request(method: str, path: str, body: bytes = b"", token: str | None = TOKEN,
            headers: dict[str, str] | None = None, length: int | None = None) -> bytes:  # fmt: skip
    lines = [f"{method} {path} HTTP/1.1", "Host: fuzz", "Connection: close"]
    if token is not None:
        lines.append(f"Authorization: Bearer {token}")
    if length is None:
        length = len(body)
    if length >= 0:
        lines.append(f"Content-Length: {length}")
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def hostile_bodies(rng: random.Random) -> Iterator[tuple[str, bytes]]:
    key = {"type": "KeyDown", "key": "shift"}
    yield "random bytes", rng.randbytes(rng.randrange(1, 3000))
    yield "deep list", b"[" * rng.randrange(33, 200_000) + b"]" * rng.randrange(0, 50)
    yield "deep object", b'{"a":' * rng.randrange(33, 20_000) + b"1" + b"}" * 10
    yield "too many events", json.dumps([key] * 1001).encode()
    yield "code", json.dumps(["pyautogui.press('a')", "__import__('os').system('id')"]).encode()
    yield "non-primitive", json.dumps([{"type": "TypeText", "text": "hi"}]).encode()
    yield "NaN", b'[{"type": "MoveTo", "x": NaN, "y": 1}]'
    yield "Infinity", b'[{"type": "MoveBy", "dx": Infinity, "dy": 0}]'
    yield "huge number", b'[{"type": "MoveTo", "x": 1' + b"0" * 400 + b', "y": 1}]'
    yield "huge move", json.dumps([{"type": "MoveBy", "dx": 10**6, "dy": -(10**6)}]).encode()
    yield "wrong types", json.dumps([{"type": "KeyDown", "key": ["a"]}]).encode()
    yield "unknown field", json.dumps([{**key, "exec": "id"}]).encode()
    yield "unknown key", json.dumps([{"type": "KeyDown", "key": "\u2603" * 50}]).encode()
    yield "an object", json.dumps({"events": [key]}).encode()
    yield "a bad key then a good one", json.dumps([{"type": "KeyDown", "key": "??"}, key]).encode()
    yield "scroll 10**6", json.dumps([{"type": "Scroll", "dy": 10**6}]).encode()
    yield "button 'exec'", json.dumps([{"type": "MouseDown", "button": "exec"}]).encode()


def attacks(n: int, rng: random.Random) -> Iterator[Attack]:
    routes = ["/info", "/capture", "/windows", "/file", "/events", "/configure", "/reset",
              "/focus", "/launch", "/release_all", "/pause", "/resume", "/ping", "/close"]  # fmt: skip
    tokens = [None, "", "wrong-token-0000", TOKEN[:-1], TOKEN + "x", "x" * 8000, TOKEN + "\x00",
              "\u00e9" * 10]  # fmt: skip
    bodies = list(hostile_bodies(rng))
    configure = [
        {"launch": ["sh", "-c", f"touch {MARKER}"]},
        {"obs_size": [0, 0]}, {"obs_size": [1e9, 2]}, {"obs_size": "84x84"},
        {"judge": "state-file:/etc/passwd"}, {"judge": "human"}, {"pause": "kill"},
        {"target": "(" * 1000}, {"pause_template": "/etc/shadow"}, {"draw_pointer": "yes"},
        {"no_such_setting": 1},
    ]  # fmt: skip
    for i in range(n):
        kind = i % 5
        if kind == 0:  # no or a bad token, on any route
            token = rng.choice(tokens)
            body = rng.choice(bodies)[1]
            headers = {"Authorization": "Basic dXNlcjpwYXNz"} if token == "" else None
            method = rng.choice(["GET", "POST"])
            raw = request(method, rng.choice(routes), body, token, headers)
            yield f"token {token!r:.20} on {method}", raw, False
        elif kind == 1:  # hostile events
            name, body = bodies[i // 5 % len(bodies)]
            yield f"events: {name}", request("POST", "/events", body), False
        elif kind == 2:  # hostile settings
            body = json.dumps(rng.choice(configure)).encode()
            path = rng.choice(["/configure", "/launch", "/reset", "/focus"])
            yield f"settings on {path}", request("POST", path, body), False
        elif kind == 3:  # bad framing
            body = b'[{"type": "KeyDown", "key": "shift"}]'
            choice = rng.randrange(6)
            if choice == 0:
                yield "negative length", request("POST", "/events", body, length=-5), False
            elif choice == 1:
                raw = request("POST", "/events", body, headers={"Content-Length": "abc"},
                              length=-1)  # fmt: skip
                yield "length not a number", raw, False
            elif choice == 2:
                raw = request("POST", "/events", b"5\r\nhello\r\n0\r\n\r\n",
                              headers={"Transfer-Encoding": "chunked"}, length=-1)  # fmt: skip
                yield "chunked", raw, False
            elif choice == 3:
                yield "oversized", request("POST", "/events", b"[" + b" " * (1 << 20) + b"]"), False
            elif choice == 4:
                yield "header flood", request("GET", "/info", headers={
                    f"X-{j}": "y" * 100 for j in range(120)}), False  # fmt: skip
            else:
                yield "huge header line", request("GET", "/info" + "a" * 70_000), False
        else:  # unknown routes and methods
            method = rng.choice(["GET", "POST", "PUT", "DELETE", "TRACE", "G\x00T", "OPTIONS"])
            path = rng.choice(["/", "/../../etc/passwd", "/events?x=" + "%00" * 50, "/%2e%2e/",
                               "http://evil/", "/capture?format=exec",
                               "/file?path=/etc/passwd", "/capture?window=exec"])  # fmt: skip
            yield f"{method!r} {path[:20]}", request(method, path, b""), False


def send(url: str, raw: bytes, timeout_s: float = 10.0) -> int | None:
    """The status of the answer to ``raw``; 0 when the server closed without one; None: hung."""
    host, port = url.removeprefix("http://").split(":")
    s = socket.create_connection((host, int(port)), timeout=timeout_s)
    try:
        try:
            s.sendall(raw)
        except OSError:
            pass  # the server may refuse and close before reading it all
        data = b""
        try:
            while b"\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
        except TimeoutError:
            return None
        except OSError:
            return 0
        parts = data.split(b" ", 2)
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    finally:
        s.close()


def start(display: str, log: Path) -> tuple[subprocess.Popen[str], str]:
    argv = [sys.executable, "-m", "agents.cli", "serve-desktop", "--token", TOKEN, "--port", "0",
            "--display", display, "--idle-s", str(IDLE_S)]  # fmt: skip
    with open(log, "w") as err:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT)
    line = proc.stdout.readline() if proc.stdout else ""
    if not line.startswith("serving on "):
        proc.kill()
        raise RuntimeError(f"serve-desktop did not start: {line!r} {log.read_text()[-2000:]}")
    return proc, line.split()[-1]


def held_after_idle(url: str, x: Any, stall_token: str | None) -> int:
    """1 if a key stays held past the idle release while a stalled request hangs on."""
    shift = x.stroke("shift").keycode
    body = json.dumps([{"type": "KeyDown", "key": "shift"}]).encode()
    assert send(url, request("POST", "/events", body)) == 200
    host, port = url.removeprefix("http://").split(":")
    s = socket.create_connection((host, int(port)))
    s.sendall(request("POST", "/events", b"{", stall_token, length=100))  # then nothing
    try:
        deadline = time.monotonic() + IDLE_S + 3.0
        while time.monotonic() < deadline:
            if shift not in x.pressed_keycodes():
                return 0
            time.sleep(0.05)
        return 1
    finally:
        s.close()
        send(url, request("POST", "/release_all"))


def run(n: int, seed: int) -> dict[str, int]:
    from gcc_envs.backends.desktop.display import VirtualDisplay
    from gcc_envs.backends.desktop.x11 import X11

    rng = random.Random(seed)
    counts = dict.fromkeys(("tried", "accepted", "executed", "crashed", "hung", "lost", "held"), 0)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        vd = VirtualDisplay((800, 600))
        proc, url = None, ""
        x = X11(vd.name)
        try:
            proc, url = start(vd.name, log)
            ping, marker = request("POST", "/ping"), MARKER
            for name, raw, _ in attacks(n, rng):
                x.move(400, 300)
                counts["tried"] += 1
                status = send(url, raw)
                moved = x.pointer() != (400, 300) or bool(x.pressed_keycodes())
                if status is None:
                    counts["hung"] += 1
                    print(f"# hung: {name}", file=sys.stderr)
                elif status == 500 or proc.poll() is not None:
                    counts["crashed"] += 1
                    print(f"# crashed ({status}): {name}", file=sys.stderr)
                elif (
                    (200 <= status < 300 and name.startswith("token"))
                    or (moved and not 200 <= status < 300)
                    or marker.exists()
                ):
                    counts["executed"] += 1
                    print(f"# executed ({status}, moved={moved}): {name}", file=sys.stderr)
                elif 200 <= status < 300:
                    counts["accepted"] += 1  # a valid request among the hostile ones
                if send(url, ping, 5.0) != 200:
                    counts["lost"] += 1
                    print(f"# lost after: {name}", file=sys.stderr)
                send(url, request("POST", "/release_all"))
            for stall_token in (None, TOKEN):
                counts["held"] += held_after_idle(url, x, stall_token)
        finally:
            if proc is not None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
            x.close()
            vd.close()
        text = log.read_text()
        if "Traceback" in text:
            counts["crashed"] += text.count("Traceback")
            print(f"# tracebacks in the log:\n{text[-3000:]}", file=sys.stderr)
    return counts


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--attacks", type=int, default=2000, help="hostile requests to send")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args()
    counts = run(args.attacks, args.seed)
    print(json.dumps(counts) if args.json else ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
