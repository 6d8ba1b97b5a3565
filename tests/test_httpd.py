"""gcc_envs.httpd under attack: stalled sockets, a crowd of clients, malformed bodies, the token."""

from __future__ import annotations

import http.client
import json
import logging
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from gcc_envs import httpd
from gcc_envs.errors import GCCError, InvalidActionError

TOKEN = "httpd-test-token-1234"
IDLE_S = 1.0  # short deadlines keep the attacks quick
BODY_S = 1.0
ROOT = Path(__file__).resolve().parents[1]


class Echo(httpd.JSONHandler):
    """POST /echo answers its JSON body; /boom fails unexpectedly; /bad refuses."""

    def answer(self, method: str, url: Any, body: bytes) -> httpd.Reply:
        if url.path == "/boom":
            raise RuntimeError("secret detail")
        if url.path == "/bad":
            raise InvalidActionError("refused on purpose")
        return httpd.json_reply(200, {"echo": httpd.parse_json(body)})


@pytest.fixture
def server() -> Iterator[httpd.Server]:
    limits = httpd.Limits(idle_s=IDLE_S, body_s=BODY_S)
    s = httpd.Server(("127.0.0.1", 0), Echo, TOKEN, limits)
    thread = threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield s
    s.shutdown()
    s.server_close()


def post(s: httpd.Server, body: bytes = b"{}", token: str | None = TOKEN, path: str = "/echo"):
    conn = http.client.HTTPConnection(*s.server_address[:2], timeout=10)
    try:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        conn.request("POST", path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def exchange(s: httpd.Server, raw: bytes, shut_write: bool = False) -> tuple[int, Any]:
    """Send ``raw`` on a fresh connection; the answer's status and JSON body (0, None: none)."""
    with socket.create_connection(s.server_address[:2], timeout=10) as c:
        c.sendall(raw)
        if shut_write:
            c.shutdown(socket.SHUT_WR)
        resp = http.client.HTTPResponse(c)
        try:
            resp.begin()
        except (http.client.HTTPException, OSError):
            return 0, None  # the connection was dropped unanswered
        assert resp.getheader("Content-Type") == "application/json"
        return resp.status, json.loads(resp.read())


def head(length: str | None = "0", token: str | None = TOKEN, extra: str = "") -> bytes:
    lines = ["POST /echo HTTP/1.1", "Host: test"]
    lines += [f"Authorization: Bearer {token}"] if token else []
    lines += [f"Content-Length: {length}"] if length is not None else []
    return ("\r\n".join(lines) + "\r\n" + extra + "\r\n").encode()


def closed_within(sockets: list[socket.socket], timeout_s: float) -> int:
    """How many of ``sockets`` the server closed (EOF or reset) within ``timeout_s``."""
    sel = selectors.DefaultSelector()
    for s in sockets:
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
    closed, deadline = 0, time.monotonic() + timeout_s
    while closed < len(sockets) and (left := deadline - time.monotonic()) > 0:
        for key, _ in sel.select(left):
            try:
                data = key.fileobj.recv(4096)
            except ConnectionError:
                data = b""
            if not data:
                sel.unregister(key.fileobj)
                closed += 1
    sel.close()
    return closed


def test_800_stalled_sockets_are_dropped_at_their_deadline_and_others_still_answered(server):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2000:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    stalled = []
    try:
        for i in range(800):  # half say nothing, half stop in the middle of a header
            c = socket.create_connection(server.server_address[:2], timeout=10)
            if i % 2:
                c.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nAuthoriz")
            stalled.append(c)
        t0 = time.monotonic()
        assert post(server, b'{"a": 1}') == (200, {"echo": {"a": 1}})
        assert time.monotonic() - t0 < 1.0
        assert closed_within(stalled, IDLE_S + 3.0) == 800
        assert time.monotonic() - t0 < IDLE_S + 3.0
    finally:
        for c in stalled:
            c.close()


def test_a_header_trickled_a_byte_at_a_time_is_cut_off_at_the_deadline(server):
    with socket.create_connection(server.server_address[:2], timeout=10) as c:
        t0, cut = time.monotonic(), False
        for byte in b"POST /echo HTTP/1.1\r\nHost: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx":
            try:
                c.sendall(bytes([byte]))
            except OSError:
                cut = True
                break
            time.sleep(0.1)
        assert cut or c.recv(1) == b""
        assert time.monotonic() - t0 < IDLE_S + 1.0


def test_1000_concurrent_authorized_requests_are_each_answered_within_5s(server):
    def one(i: int) -> float:
        t0 = time.monotonic()
        assert post(server, json.dumps({"i": i}).encode()) == (200, {"echo": {"i": i}})
        return time.monotonic() - t0

    with ThreadPoolExecutor(64) as pool:
        latencies = list(pool.map(one, range(1000)))
    assert len(latencies) == 1000 and max(latencies) < 5.0


MALFORMED = {
    "length not a number": (head("abc") + b"{}", 400, "Content-Length"),
    "negative length": (head("-5") + b"{}", 400, "Content-Length"),
    "length with a sign": (head("+2") + b"{}", 400, "Content-Length"),
    "two lengths": (head("2", extra="Content-Length: 3\r\n") + b"{}", 400, "Content-Length"),
    "no length": (head(None) + b"{}", 411, "Content-Length"),
    "chunked": (head(None, extra="Transfer-Encoding: chunked\r\n") + b"2\r\n{}\r\n", 411, ""),
    "too large": (head(str(10**12)), 413, "over"),
    "deep list": (head("100000") + b"[" * 100_000, 400, "nests deeper"),
    "deep object": (head("25001") + b'{"a":' * 5000 + b"1", 400, "nests deeper"),
    "not JSON": (head("9") + b"{not json", 400, "not JSON"),
    "not UTF-8": (head("4") + b"\xff\xfe\xfa\xfb", 400, "not JSON"),
    "a 5000-digit number": (head("5000") + b"1" * 5000, 400, "bad value"),
    "no token": (head("2", token=None) + b"{}", 401, "Authorization"),
    "wrong token": (head("2", token="wrong-token-5678") + b"{}", 401, "wrong token"),
    "garbage request line": (b"HELLO THERE\r\n\r\n", 400, "request"),
    "bad version": (b"GET /echo HTTP/one\r\n\r\n", 400, "version"),
    "unknown method": (b"BREW /echo HTTP/1.1\r\nHost: x\r\n\r\n", 501, "method"),
    "header line too long": (head("2", extra="X: " + "a" * 70_000 + "\r\n") + b"{}", 431, ""),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_a_malformed_request_gets_a_4xx_with_a_json_message(server, name):
    raw, status, words = MALFORMED[name]
    got, answer = exchange(server, raw)
    assert got == status, (name, answer)
    assert isinstance(answer["error"], str) and words in answer["error"]


def test_a_truncated_body_gets_a_408_when_its_sender_stalls_or_hangs_up(server):
    t0 = time.monotonic()
    assert exchange(server, head("100") + b'{"a":')[0] == 408
    assert BODY_S <= time.monotonic() - t0 < BODY_S + 1.0
    assert exchange(server, head("100") + b'{"a":', shut_write=True)[0] == 408


def test_an_unexpected_failure_is_a_500_whose_details_stay_in_the_log(server, caplog):
    with caplog.at_level(logging.ERROR, logger="gcc_envs.httpd"):
        status, answer = post(server, path="/boom")
    assert status == 500 and "RuntimeError" in answer["error"]
    assert "secret detail" not in answer["error"] and "secret detail" in caplog.text
    assert post(server, path="/bad") == (400, {"error": "refused on purpose"})


def test_the_server_listens_with_a_real_backlog_on_loopback(server):
    assert server.request_queue_size == 1024 and server.server_address[0] == "127.0.0.1"


def test_closing_the_server_ends_connections_waiting_for_a_request_at_once():
    s = httpd.Server(("127.0.0.1", 0), Echo, TOKEN, httpd.Limits(idle_s=30.0))
    thread = threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    idle = [socket.create_connection(s.server_address[:2]) for _ in range(20)]
    time.sleep(0.2)  # accepted: each has a thread waiting for its request line
    t0 = time.monotonic()
    s.shutdown()
    s.server_close()
    assert time.monotonic() - t0 < 2.0
    for c in idle:
        c.close()


def test_the_token_comes_from_a_file_the_environment_or_argv_and_must_be_given(tmp_path):
    f = tmp_path / "token"
    f.write_text("from-the-file\n")
    env = {httpd.TOKEN_ENV: "from-the-env"}
    assert httpd.read_token(None, f, env) == "from-the-file"
    assert httpd.read_token("from-argv", None, env) == "from-argv"
    assert httpd.read_token(None, None, env) == "from-the-env"
    with pytest.raises(GCCError, match="not both"):
        httpd.read_token("from-argv", f, env)
    with pytest.raises(GCCError, match="no token"):
        httpd.read_token(None, None, {})
    with pytest.raises(GCCError, match="cannot read"):
        httpd.read_token(None, tmp_path / "missing", {})
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(GCCError, match="empty"):
        httpd.read_token(None, tmp_path / "empty", {})


def test_the_cli_servers_refuse_to_start_without_a_token(monkeypatch, capsys):
    from agents.cli import main

    monkeypatch.delenv(httpd.TOKEN_ENV, raising=False)
    assert main(["serve-desktop"]) == 2
    assert main(["osworld", "serve", "--display", ":999"]) == 2
    assert capsys.readouterr().err.count("no token") == 2


def test_the_sites_server_drops_stalled_sockets_and_serves_without_a_token(tmp_path):
    from gcc_envs.apps.chrome.sites import SitesServer

    (tmp_path / "site.json").write_text("{}")
    s = SitesServer(0, tmp_path)
    s.limits = httpd.Limits(idle_s=IDLE_S)
    thread = threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        stalled = [socket.create_connection(s.server_address[:2]) for _ in range(50)]
        conn = http.client.HTTPConnection(*s.server_address[:2], timeout=5)
        conn.request("GET", "/favicon.ico")
        assert conn.getresponse().status == 404
        conn.close()
        assert closed_within(stalled, IDLE_S + 3.0) == 50
    finally:
        s.shutdown()
        s.server_close()


# ---------------------------------------------------------------------- a real server process
@pytest.fixture(scope="module")
def vdisplay():
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay((320, 240))
    yield d
    d.close()


@pytest.mark.desktop
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
@pytest.mark.parametrize("command", [["serve-desktop"], ["osworld", "serve"]])
def test_a_token_given_by_file_is_not_in_ps_and_is_required(command, vdisplay, tmp_path):
    token = "file-token-" + "9" * 16
    (tmp_path / "token").write_text(token + "\n")
    argv = [sys.executable, "-m", "agents.cli", *command, "--token-file", str(tmp_path / "token")]
    argv += ["--port", "0", "--display", vdisplay.name]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving on "), (line, proc.poll())
        host, port = line.split()[-1].removeprefix("http://").split(":")
        shown = subprocess.run(
            ["ps", "-ww", "-o", "args=", "-p", str(proc.pid)], capture_output=True, text=True
        ).stdout
        assert "--token-file" in shown and token not in shown
        for given, status in ((token, 404), ("wrong-token-0000", 401)):
            conn = http.client.HTTPConnection(host, int(port), timeout=10)
            conn.request("POST", "/no-such-route", b"{}", {"Authorization": f"Bearer {given}"})
            resp = conn.getresponse()
            assert resp.status == status and "error" in json.loads(resp.read())
            conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
