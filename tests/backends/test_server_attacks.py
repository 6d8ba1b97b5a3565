"""``serve-desktop`` under attack: stalled strangers, deep JSON, huge moves (a real server process)."""

import http.client
import json
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
]
TOKEN = "attack-token-1234"
IDLE_S = 2.0
ROOT = Path(__file__).resolve().parents[2]


def start_server(display: str, log: Path) -> tuple[subprocess.Popen[str], str]:
    """A server on ``display`` whose log (stderr) goes to ``log``."""
    argv = [sys.executable, "-m", "agents.cli", "serve-desktop", "--token", TOKEN, "--port", "0"]
    with open(log, "w") as err:
        proc = subprocess.Popen(
            [*argv, "--display", display, "--idle-s", str(IDLE_S)],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            cwd=ROOT,
        )
    line = proc.stdout.readline()
    if not line.startswith("serving on "):
        proc.kill()
        raise RuntimeError(f"serve-desktop did not start: {line!r} {log.read_text()}")
    return proc, line.split()[-1]


@pytest.fixture(scope="module")
def vdisplay():
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay((800, 600))
    yield d
    d.close()


@pytest.fixture(scope="module")
def server_log(tmp_path_factory):
    return tmp_path_factory.mktemp("server") / "server.log"


@pytest.fixture(scope="module")
def server(vdisplay, server_log):
    proc, url = start_server(vdisplay.name, server_log)
    yield url
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(15)
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.fixture
def x11(vdisplay):
    from gcc_envs.backends.desktop.x11 import X11

    x = X11(vdisplay.name)
    yield x
    x.close()


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def post(url: str, path: str, body: bytes, token: str | None = TOKEN):
    conn = http.client.HTTPConnection(*address(url), timeout=10)
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    conn.request("POST", path, body=body, headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, json.loads(data) if data else None


def stalled(url: str, path: str, length: int, token: str | None, sent: bytes = b"{") -> socket:
    """A socket that sent a request's headers and ``sent`` of its body, then stalls."""
    s = socket.create_connection(address(url), timeout=10)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\n{auth}Content-Length: {length}\r\n\r\n"
    s.sendall(head.encode() + sent)
    return s


def answer_within(s: socket.socket, timeout_s: float) -> bytes:
    s.settimeout(timeout_s)
    try:
        return s.recv(4096)
    except TimeoutError:
        return b""


def until(condition, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def held(url: str, key: str) -> None:
    status, _ = post(url, "/events", json.dumps([{"type": "KeyDown", "key": key}]).encode())
    assert status == 200


def test_a_request_without_the_token_is_refused_before_its_body_arrives(server):
    s = stalled(server, "/events", 1000, token=None, sent=b"")
    try:
        assert answer_within(s, 3.0).startswith(b"HTTP/1.1 401")
    finally:
        s.close()


def test_a_stalled_stranger_does_not_keep_held_keys_from_the_idle_release(server, x11):
    shift = x11.stroke("shift").keycode
    held(server, "shift")
    s = stalled(server, "/events", 100, token=None)  # headers and one body byte, no token
    try:
        assert shift in x11.pressed_keycodes()
        assert until(lambda: shift not in x11.pressed_keycodes(), IDLE_S + 3.0)
    finally:
        s.close()


def test_a_stalled_body_does_not_count_as_activity_and_is_dropped_with_408(server, x11):
    ctrl = x11.stroke("ctrl").keycode
    held(server, "ctrl")
    t0 = time.monotonic()
    s = stalled(server, "/events", 100, token=TOKEN)  # even with the token
    try:
        assert until(lambda: ctrl not in x11.pressed_keycodes(), IDLE_S + 3.0)
        from gcc_envs.backends.desktop.server import BODY_TIMEOUT_S

        assert answer_within(s, BODY_TIMEOUT_S + 3.0).startswith(b"HTTP/1.1 408")
        assert time.monotonic() - t0 < BODY_TIMEOUT_S + 3.0
    finally:
        s.close()


DEEP = {
    "list-1000": ("/events", b"[" * 1000 + b"]" * 1000),
    "open-100k": ("/events", b"[" * 100_000),
    "object-5000": ("/configure", b'{"a":' * 5000 + b"1" + b"}" * 5000),
    "options-50k": ("/reset", b'{"options":' + b"[" * 50_000 + b"]" * 50_000 + b"}"),
}


def test_deeply_nested_json_is_a_400_with_a_message(server, server_log):
    for name, (path, body) in DEEP.items():
        status, answer = post(server, path, body)
        assert status == 400 and "nests deeper" in answer["error"], name
    log = server_log.read_text()
    assert "Traceback" not in log and "RecursionError" not in log


def test_a_huge_relative_move_crosses_the_wire_in_pieces(server, x11):
    x11.move(400, 300)
    for dx, want in ((40_000, 799), (-40_000, 0)):
        move = [{"type": "MoveBy", "dx": dx, "dy": 0}]
        assert post(server, "/events", json.dumps(move).encode()) == (200, {"sent": 1})
        assert until(lambda w=want: x11.pointer()[0] == w, 2.0)


def test_a_relative_move_beyond_16_bits_reaches_x11_in_pieces(vdisplay, x11):
    import numpy as np

    from gcc_envs.backends.desktop.backend import DesktopBackend
    from gcc_envs.core import events as ev

    b = DesktopBackend((600, 800), display=vdisplay.name, pause="none", kill_switch=None)
    try:
        b.reset(np.random.default_rng(0), None)
        x11.move(400, 300)
        b.send(ev.MoveBy(0, 99_999))
        assert until(lambda: x11.pointer()[1] == 599, 2.0)
        b.send(ev.MoveBy(-70_000, -70_000))
        assert until(lambda: x11.pointer() == (0, 0), 2.0)
    finally:
        b.close()


@pytest.mark.slow
def test_the_server_fuzzer_finds_nothing_run_crashed_hung_lost_or_held():
    script = ROOT / "benchmarks" / "fuzz_server.py"
    done = subprocess.run(
        [sys.executable, str(script), "--attacks", "300", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert counts["tried"] == 300
    assert counts["executed"] == counts["crashed"] == counts["hung"] == 0
    assert counts["lost"] == counts["held"] == 0
