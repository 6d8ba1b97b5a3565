"""RemoteBackend through a real ``gcc-gym serve-desktop`` process on loopback, driving xterm on Xvfb."""

import http.client
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import KeyDown, KeyPress, KeyUp, TypeText, Wait
from gcc_envs.backends.remote import RemoteBackend
from gcc_envs.errors import BackendError, GCCError
from gcc_envs.judges import remote_judge

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(shutil.which("xterm") is None, reason="xterm is not installed"),
]
TOKEN = "test-token-1234"
XTERM = ["xterm", "-geometry", "80x24+20+20", "-title", "gcc-remote-xterm", "-e", "/bin/sh"]
IDLE_S = 2.0
ROOT = Path(__file__).resolve().parents[2]


def start_server(*flags: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agents.cli",
            "serve-desktop",
            "--token",
            TOKEN,
            "--port",
            "0",
            *flags,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    line = proc.stdout.readline()  # "serving on http://127.0.0.1:PORT", once it listens
    if not line.startswith("serving on "):
        proc.kill()
        raise RuntimeError(f"serve-desktop did not start: {line!r} {proc.stderr.read()}")
    return proc, line.split()[-1]


def stop_server(proc: subprocess.Popen[str]) -> int:
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(15)
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.fixture(scope="module")
def vdisplay():
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay((1024, 768))
    yield d
    d.close()


@pytest.fixture(scope="module")
def state_file(tmp_path_factory):
    return tmp_path_factory.mktemp("judge") / "state.json"


@pytest.fixture(scope="module")
def server(vdisplay, state_file):
    flags = ("--allow-launch", "--idle-s", str(IDLE_S), "--state-file", str(state_file))
    proc, url = start_server("--display", vdisplay.name, *flags)
    yield url
    stop_server(proc)


@pytest.fixture
def x11(vdisplay):
    from gcc_envs.backends.desktop.x11 import X11

    x = X11(vdisplay.name)
    yield x
    x.close()


def raw(url: str, method: str, path: str, body: bytes | None = None, token: str | None = TOKEN):
    """One HTTP request as a plain client would send it: (status, parsed JSON or bytes)."""
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    conn.request(method, path, body=body, headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    is_json = resp.headers.get("Content-Type") == "application/json"
    return resp.status, json.loads(data) if is_json else data


def until(condition, timeout_s: float, step=None) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        step() if step is not None else time.sleep(0.05)
    return condition()


def test_a_remote_env_types_a_shell_command_into_xterm_and_its_file_appears(server, tmp_path):
    env = gym.make(
        "GCC/Desktop", backend="remote", url=server, token=TOKEN, launch=XTERM, obs_size=(240, 320)
    )
    try:
        obs, _ = env.reset(seed=0)
        assert obs.shape == (240, 320, 3) and obs.std() > 1.0  # the xterm window's pixels
        made = tmp_path / "made-remotely"
        _, _, _, _, info = env.step([TypeText(f"touch {made}"), KeyPress("enter", 0.05)])
        assert info["last_action_error"] is None
        assert until(made.exists, 10.0, step=lambda: env.step(Wait(0.1)))
    finally:
        env.close()


def test_the_token_can_come_from_the_environment(server, monkeypatch):
    monkeypatch.setenv("GCC_REMOTE_TOKEN", TOKEN)
    backend = RemoteBackend(url=server)
    try:
        assert backend.size == (1024, 768)  # no obs_size: the served screen's size
    finally:
        backend.close()


def test_a_request_without_the_token_is_refused_with_401(server, x11):
    status, answer = raw(server, "POST", "/events", b'[{"type": "KeyDown", "key": "a"}]', None)
    assert status == 401 and "Authorization" in answer["error"]
    assert x11.stroke("a").keycode not in x11.pressed_keycodes()


def test_a_request_with_a_wrong_token_is_refused_with_401(server):
    status, answer = raw(server, "GET", "/capture", token="wrong-token-9999")
    assert status == 401 and answer == {"error": "wrong token"}
    with pytest.raises(BackendError, match="refused the token"):
        RemoteBackend(url=server, token="wrong-token-9999")


@pytest.mark.parametrize(
    "body",
    [
        b"[\"pyautogui.press('a')\"]",
        b"import os; os.system('touch /tmp/pwned')",
        b'{"type": "KeyDown", "key": "a"}',
        b'[{"type": "exec", "code": "print(1)"}]',
        b'[{"type": "KeyPress", "key": "a"}]',
        b'[{"type": "KeyDown", "key": "a", "code": "x"}]',
        b'[{"type": "KeyDown", "key": "a"}, {"type": "KeyDown", "key": "nosuchkey"}]',
    ],
)
def test_code_or_a_bad_event_is_refused_with_400_and_nothing_is_sent(server, x11, body):
    raw(server, "POST", "/configure", b"{}")
    status, answer = raw(server, "POST", "/events", body)
    assert status == 400 and answer["error"] and "Traceback" not in answer["error"]
    assert x11.stroke("a").keycode not in x11.pressed_keycodes()  # validated before sending


def test_bad_json_an_unknown_route_and_a_huge_body_get_clear_4xx_answers(server):
    status, answer = raw(server, "POST", "/reset", b"{not json")
    assert status == 400 and "not JSON" in answer["error"]
    status, answer = raw(server, "GET", "/etc/passwd")
    assert status == 404 and "no route GET /etc/passwd" in answer["error"]
    status, answer = raw(server, "POST", "/events", b"[" + b" " * (1 << 20) + b"]")
    assert status == 413 and "bytes" in answer["error"]
    status, answer = raw(server, "POST", "/configure", b'{"obs_size": "big"}')
    assert status == 400 and "obs_size" in answer["error"]


def test_the_server_binds_loopback_only_by_default(server):
    from gcc_envs.backends.desktop.server import ServerConfig

    assert ServerConfig(token=TOKEN).host == "127.0.0.1"
    port = int(server.rsplit(":", 1)[1])
    listening = [
        line.split()[1]
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
        if line.split()[3] == "0A" and int(line.split()[1].split(":")[1], 16) == port
    ]
    assert listening == [f"0100007F:{port:04X}"]  # 127.0.0.1, not 0.0.0.0
    v6 = Path("/proc/net/tcp6")
    if v6.exists():
        assert not any(
            int(line.split()[1].split(":")[1], 16) == port
            for line in v6.read_text().splitlines()[1:]
        )


def test_the_idle_watchdog_releases_keys_a_silent_client_left_held(server, x11):
    backend = RemoteBackend(url=server, token=TOKEN)
    try:
        shift = x11.stroke("shift").keycode
        backend.send(KeyDown("shift"))
        assert shift in x11.pressed_keycodes()
        backend.advance(IDLE_S + 1.0)  # a living client pings while it sleeps: still held
        assert shift in x11.pressed_keycodes()
        assert until(lambda: shift not in x11.pressed_keycodes(), IDLE_S + 3.0)  # then silence
    finally:
        backend.close()


def test_sigterm_releases_held_keys_and_stops_the_server(vdisplay, x11):
    proc, url = start_server("--display", vdisplay.name)
    backend = RemoteBackend(url=url, token=TOKEN)
    ctrl = x11.stroke("ctrl").keycode
    backend.send(KeyDown("ctrl"))
    assert ctrl in x11.pressed_keycodes()
    assert stop_server(proc) == 0
    assert ctrl not in x11.pressed_keycodes()
    with pytest.raises(BackendError, match="serve-desktop"):
        backend.send(KeyUp("ctrl"))


def test_launch_is_refused_unless_the_server_allows_it(vdisplay):
    proc, url = start_server("--display", vdisplay.name)
    try:
        status, answer = raw(url, "POST", "/launch", b'{"argv": ["xterm"]}')
        assert status == 403 and "--allow-launch" in answer["error"]
        status, answer = raw(url, "POST", "/configure", b'{"launch": ["xterm"]}')
        assert status == 403
    finally:
        stop_server(proc)


def test_windows_are_listed_and_focused_by_title(server):
    backend = RemoteBackend(url=server, token=TOKEN)
    try:
        pid = backend.launch(["xterm", "-title", "remote-listed"])
        assert until(lambda: any(w["title"] == "remote-listed" for w in backend.windows()), 10.0)
        (win,) = [w for w in backend.windows() if w["title"] == "remote-listed"]
        assert win["pid"] == pid and len(win["geometry"]) == 4
        assert backend.focus("^remote-listed$")
        with pytest.raises(BackendError, match="no window"):
            backend.focus("^no such window$")
    finally:
        os.kill(pid, signal.SIGTERM)
        backend.close()


def test_every_frame_format_carries_the_same_pixels(server):
    backend = RemoteBackend((120, 160), url=server, token=TOKEN)
    try:
        frames = []
        for fmt in ("raw", "zlib", "png"):
            backend.capture_format = fmt
            frames.append(backend.capture())
        assert all(f.shape == (120, 160, 3) for f in frames)
        assert np.array_equal(frames[0], frames[1]) and np.array_equal(frames[0], frames[2])
    finally:
        backend.close()


def test_a_template_judge_here_matches_the_servers_window_pixels(server, tmp_path):
    import cv2

    backend = RemoteBackend((120, 160), url=server, token=TOKEN)
    pid = backend.launch(["xterm", "-geometry", "40x10+100+100", "-title", "remote-judged"])
    try:
        assert until(lambda: any(w["title"] == "remote-judged" for w in backend.windows()), 10.0)
        time.sleep(0.5)  # drawn
        screen = backend.grab_window()  # the screen at its own size, not the obs size
        assert screen.shape == (768, 1024, 3)
        x, y, w, h = next(w for w in backend.windows() if w["title"] == "remote-judged")["geometry"]
        cv2.imwrite(str(tmp_path / "seen.png"), screen[y : y + h, x : x + w][..., ::-1])
        noise = np.random.default_rng(0).integers(0, 256, (h, w, 3), dtype=np.uint8)
        cv2.imwrite(str(tmp_path / "unseen.png"), noise)
        seen = remote_judge(f"template:{tmp_path / 'seen.png'}").probe(backend)
        unseen = remote_judge(f"template:{tmp_path / 'unseen.png'}").probe(backend)
        assert seen.success and not unseen.success
    finally:
        os.kill(pid, signal.SIGTERM)
        backend.close()


def test_a_pickled_remote_backend_reaches_the_same_server(server):
    backend = RemoteBackend((60, 80), url=server, token=TOKEN)
    try:
        clone = pickle.loads(pickle.dumps(backend))
        assert clone.size == (80, 60) and clone.capture().shape == (60, 80, 3)
    finally:
        backend.close()


def test_remote_kwargs_are_checked_when_the_env_is_made(server):
    with pytest.raises(GCCError, match="display"):
        gym.make("GCC/Desktop", backend="remote", url=server, token=TOKEN, display=":0")
    with pytest.raises(GCCError, match="url"):
        gym.make("GCC/Desktop", backend="desktop", url=server)
    with pytest.raises(GCCError, match="cannot reach serve-desktop"):
        RemoteBackend(url="http://127.0.0.1:9", token=TOKEN, timeout=2)


def test_a_relative_mouse_move_crosses_the_wire_and_moves_the_pointer(server, x11):
    from gcc_envs import MoveBy, MoveTo

    backend = RemoteBackend(url=server, token=TOKEN)  # the whole 1024x768 screen
    try:
        backend.send(MoveTo(100, 100))
        backend.send(MoveBy(30, -20))
        p = x11.root.query_pointer()
        assert (p.root_x, p.root_y) == (130, 80)
    finally:
        backend.close()


def test_a_state_file_judge_reads_the_shared_file_through_the_server(server, state_file):
    """The judge runs here; the server only serves the one file it shares (no other path, no
    judge setting), and its window's pixels for a template judge."""
    import threading

    path = state_file
    stop = threading.Event()

    def publish():  # a program publishing its state, as gcc-gym play --state-file does
        frame = 0
        while not stop.is_set():
            frame += 1
            path.with_suffix(".tmp").write_text(json.dumps({"frame": frame, "gold": 500}))
            path.with_suffix(".tmp").replace(path)
            time.sleep(0.01)

    backend = RemoteBackend(url=server, token=TOKEN, judge=remote_judge(f"state-file:{path}"))
    assert not path.exists() and backend.read_file(path) is None  # not published yet
    thread = threading.Thread(target=publish, daemon=True)
    thread.start()
    try:
        state = backend.probe()
        assert state["gold"] == 500 and state["frame"] > 2
        with pytest.raises(GCCError, match="unknown judge"):
            remote_judge("oracle")
        for other in ("/etc/passwd", f"{path}.tmp", f"{path.parent}/../{path.name}"):
            status, answer = raw(server, "GET", f"/file?path={other}")
            assert status == 403 and "--state-file" in answer["error"], other
        with pytest.raises(BackendError, match="shares no file"):
            backend.read_file("/etc/passwd")
        status, answer = raw(server, "POST", "/configure", b'{"judge": "state-file:/etc/x"}')
        assert status == 400 and "unknown settings" in answer["error"]  # it judges nothing
    finally:
        stop.set()
        backend.close()


def test_a_small_request_answers_without_a_nagle_delay(server):
    """Headers and body are two writes: without TCP_NODELAY each answer waited ~40 ms."""
    import statistics

    backend = RemoteBackend(url=server, token=TOKEN)
    try:
        times = []
        for _ in range(20):
            t0 = time.perf_counter()
            backend.release_all()
            times.append(time.perf_counter() - t0)
        assert statistics.median(times) < 0.02, times
    finally:
        backend.close()


def test_without_a_display_the_server_runs_its_own_xvfb_and_stops_it():
    proc, url = start_server("--screen-size", "320", "240")
    backend = RemoteBackend(url=url, token=TOKEN)
    info = backend.info()
    assert backend.size == (320, 240) and backend.capture().shape == (240, 320, 3)
    assert stop_server(proc) == 0
    socket = Path(f"/tmp/.X11-unix/X{info['display'].lstrip(':')}")
    assert until(lambda: not socket.exists(), 5.0)


def test_the_cli_refuses_to_serve_without_a_proper_token(monkeypatch, capsys):
    from agents.cli import main

    monkeypatch.delenv("GCC_REMOTE_TOKEN", raising=False)
    assert main(["serve-desktop"]) == 2
    assert main(["serve-desktop", "--token", "short"]) == 2
    assert "at least 8 characters" in capsys.readouterr().err
