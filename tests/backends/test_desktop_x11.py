"""The desktop backend against real programs on Xvfb: xterm typing, capture, held keys, pause."""

import shutil
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import Click, KeyDown, KeyPress, Program, TypeText, Wait
from gcc_envs.errors import InvalidActionError

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(shutil.which("xterm") is None, reason="xterm is not installed"),
]
XTERM = ["xterm", "-geometry", "80x24+20+20", "-title", "gcc-xterm", "-e", "/bin/sh"]


@pytest.fixture(scope="session")
def vdisplay():
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay((1024, 768))
    yield d
    d.close()


@pytest.fixture
def xterm(vdisplay):
    env = gym.make("GCC/Desktop", launch=XTERM, display=vdisplay.name, obs_size=(240, 320))
    env.reset(seed=0)
    yield env
    env.close()


@pytest.fixture
def x11(vdisplay):
    from gcc_envs.backends.desktop.x11 import X11

    x = X11(vdisplay.name)
    yield x
    x.close()


def proc_state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def until(condition, timeout_s: float, step=None) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        if step is not None:
            step()
        else:
            time.sleep(0.05)
    return condition()


def test_typing_into_xterm_runs_a_shell_command(xterm, tmp_path):
    made = tmp_path / "made-by-gcc"
    _, _, _, _, info = xterm.step([TypeText(f"touch {made}"), KeyPress("enter", 0.05)])
    assert info["last_action_error"] is None
    # paused mode stops xterm between steps: let time pass through steps while polling
    assert until(made.exists, 10.0, step=lambda: xterm.step(Wait(0.1)))


def test_capture_returns_the_xterm_window_pixels(xterm, vdisplay):
    backend = xterm.unwrapped.backend
    x, y, w, h = backend._region()
    assert (x, y) != (0, 0) and (w, h) != vdisplay.size  # the window, not the screen
    raw = backend._grabber.grab(x, y, w, h, backend.x.screen_size, (w, h))
    assert raw.shape == (h, w, 3) and raw.dtype == np.uint8
    assert raw.std() > 1.0  # text and cursor on the background, not a uniform frame
    obs = backend.capture()
    assert obs.shape == (240, 320, 3) and obs.std() > 1.0
    assert backend.capture() is not obs


def test_an_exception_mid_program_leaves_no_key_held(xterm, x11):
    backend = xterm.unwrapped.backend
    codes = {x11.stroke(k).keycode for k in ("shift", "a")}

    def boom():
        yield KeyDown("shift")
        yield KeyDown("a")
        yield Wait(0.05)
        assert codes <= x11.pressed_keycodes()  # really held now
        raise RuntimeError("policy crashed")

    with pytest.raises(RuntimeError, match="policy crashed"):
        xterm.step(Program(boom))
    assert not codes & x11.pressed_keycodes()
    assert not backend.held


def test_signal_pause_stops_the_program_and_resume_continues_it(xterm):
    pid = xterm.unwrapped.backend.pid
    stopped = lambda: proc_state(pid) == "T"  # noqa: E731 - signals land asynchronously
    assert until(stopped, 2.0)  # paused mode: stopped between steps
    seen = []

    def look():
        yield Wait(0.05)
        seen.append(until(lambda: not stopped(), 2.0))

    xterm.step(Program(look))
    assert seen == [True]  # running while the step runs
    assert until(stopped, 2.0)


def test_coordinates_outside_the_window_are_refused(xterm):
    _, _, _, _, info = xterm.step(Click(320, 10))
    assert "outside" in info["last_action_error"]
    backend = xterm.unwrapped.backend
    x, y, w, h = backend._region()
    assert backend.to_screen(10_000, -50) == (x + w - 1, y)


def test_a_key_the_layout_cannot_type_is_named(x11):
    with pytest.raises(InvalidActionError, match="nosuchkey"):
        x11.stroke("nosuchkey")
    assert x11.stroke("A").shift and not x11.stroke("a").shift


def test_input_refocuses_the_target_when_another_window_took_focus(xterm, vdisplay, x11):
    other = vdisplay.launch(["xterm", "-title", "other-window"])
    try:
        win = x11.wait_window(10.0, title="other-window")
        assert x11.focus(win)
        _, _, _, _, info = xterm.step(KeyPress("space", 0.05))
        assert info["last_action_error"] is None
        assert x11.is_focused(xterm.unwrapped.backend.window)
    finally:
        from gcc_envs.backends.desktop.display import stop_group

        stop_group(other)


def test_a_target_that_refuses_focus_gets_no_input_and_the_step_reports_it(xterm, monkeypatch):
    x = xterm.unwrapped.backend.x
    monkeypatch.setattr(x, "is_focused", lambda win: False)
    monkeypatch.setattr(x, "focus", lambda win, timeout_s=1.0: False)
    sent = []
    monkeypatch.setattr(x, "key", lambda code, down: sent.append(code))
    _, _, term, _, info = xterm.step(KeyPress("a", 0.05))
    assert "refused focus" in info["last_action_error"] and not term
    assert sent == [] and info["held_keys"] == []


def test_focus_pause_moves_focus_away_between_steps_and_back_during_them(vdisplay, x11):
    env = gym.make("GCC/Desktop", launch=XTERM, display=vdisplay.name, pause="focus")
    try:
        env.reset(seed=0)
        win = env.unwrapped.backend.window
        assert not x11.is_focused(win)
        seen = []

        def look():
            yield Wait(0.05)
            seen.append(x11.is_focused(win))

        env.step(Program(look))
        assert seen == [True] and not x11.is_focused(win)
    finally:
        env.close()


def test_a_program_that_ignores_sigterm_is_killed_with_its_group(vdisplay):
    from gcc_envs.backends.desktop.display import stop_group

    proc = vdisplay.launch(["sh", "-c", "trap '' TERM; sleep 60 & wait"])
    time.sleep(0.2)  # let the shell install its trap
    stop_group(proc, timeout_s=0.5)
    assert proc.poll() is not None
    stats = Path("/proc").glob("[0-9]*/stat")
    alive = [p for p in stats if _pgid(p) == proc.pid and _state(p) not in ("Z", None)]
    assert not alive  # the background sleep went too (zombies wait for their reaper)


def test_closing_a_display_stops_its_server_and_window_manager():
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay((320, 240))
    procs = [d.server, d.wm]
    d.close()
    assert all(p is not None and p.poll() is not None for p in procs)
    assert not Path(f"/tmp/.X11-unix/X{d.number}").exists()


def _pgid(stat: Path) -> int | None:
    try:
        return int(stat.read_text().rsplit(")", 1)[1].split()[2])
    except (OSError, IndexError, ValueError):
        return None


def _state(stat: Path) -> str | None:
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def test_record_trajectory_records_a_real_desktop_episode(vdisplay, tmp_path):
    from gcc_envs.datasets import load
    from wrappers import RecordTrajectory

    env = gym.make("GCC/Desktop", launch=XTERM, display=vdisplay.name, obs_size=(240, 320))
    env = RecordTrajectory(env, tmp_path / "data", policy_name="typist")
    try:
        obs0, _ = env.reset(seed=0, options={"instruction": "type a word"})
        _, _, _, _, info = env.step(TypeText("echo hi"))
        env.step(KeyPress("enter"))
        env.step(Wait(0.2))
    finally:
        env.close()
    (episode,) = list(load(tmp_path / "data"))
    assert episode.meta["env_id"] == "GCC/Desktop-v0" and len(episode) == 3
    assert np.array_equal(episode.frames[0], obs0)
    assert all(f.shape == (240, 320, 3) for f in episode.frames)
    typed = [e for e in episode.steps[0]["events"] if e["type"] == "TypeText"]
    assert typed and typed[0]["text"] == "echo hi"
    assert episode.steps[0]["events"] == info["events"]
