"""Desktop input guards on real X programs: focus, held keys, kill switch, taps, pointer."""

import shutil
import threading
import time

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import KeyDown, KeyPress, KeyUp, MoveTo, Program, TypeText, Wait
from gcc_envs.core import events as ev

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(shutil.which("xterm") is None, reason="xterm is not installed"),
]
TARGET = ["xterm", "-geometry", "80x24+20+20", "-title", "gcc-target", "-e", "/bin/sh"]


@pytest.fixture(scope="module")
def vdisplay():
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay((1024, 768))
    yield d
    d.close()


@pytest.fixture
def x11(vdisplay):
    from gcc_envs.backends.desktop.x11 import X11

    x = X11(vdisplay.name)
    yield x
    x.close()


@pytest.fixture
def target(vdisplay):
    env = gym.make(
        "GCC/Desktop",
        launch=TARGET,
        display=vdisplay.name,
        pause="none",
        time_mode="realtime",
        obs_size=(240, 320),
    )
    env.reset(seed=0)
    yield env
    env.close()


def type_with_xtest(x11, text: str) -> None:
    """Type ``text`` into whatever has the focus, straight through XTEST."""
    for ch in text:
        stroke = x11.stroke("enter" if ch == "\n" else ch)
        x11.key(stroke.keycode, True)
        time.sleep(0.03)
        x11.key(stroke.keycode, False)
        time.sleep(0.01)


def test_input_is_refused_when_the_target_cannot_be_focused_and_reaches_no_other_window(
    target, vdisplay, x11, tmp_path
):
    sink = tmp_path / "other-window-got"
    sink.touch()
    victim = vdisplay.launch(["xterm", "-title", "victim", "-e", "sh", "-c", f"cat > {sink}"])
    win = x11.wait_window(10.0, title="victim")
    backend = target.unwrapped.backend
    backend.window.unmap()  # the target is withdrawn: refocusing it must fail
    x11.d.sync()
    assert x11.focus(win)
    _, _, terminated, _, info = target.step([TypeText("leak"), KeyPress("enter")])
    assert "not focused" in info["last_action_error"] and not terminated
    assert info["held_keys"] == [] and not backend.x.pressed_keycodes()
    time.sleep(0.5)
    assert sink.read_text() == ""  # nothing reached the focused other window
    type_with_xtest(x11, "ok\n")  # control: input sent to that window does arrive
    deadline = time.monotonic() + 5
    while sink.read_text() != "ok\n" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sink.read_text() == "ok\n"
    from gcc_envs.backends.desktop.display import stop_group

    stop_group(victim)


@pytest.mark.parametrize("exc", [RuntimeError, KeyboardInterrupt])
def test_an_exception_mid_program_leaves_no_key_or_button_held(target, exc):
    backend = target.unwrapped.backend
    x = backend.x

    def crash():
        yield KeyDown("shift")
        yield KeyDown("a")
        yield ev.MouseDown("left")
        yield Wait(0.05)
        assert x.pressed_keycodes()  # really held now
        raise exc("interrupted")

    with pytest.raises(exc):
        target.step(Program(crash))
    assert not x.pressed_keycodes()
    assert x.d.screen().root.query_pointer().mask & 0x100 == 0  # Button1Mask is up
    assert not backend.held


def test_close_releases_held_keys(vdisplay, x11):
    env = gym.make("GCC/Desktop", launch=TARGET, display=vdisplay.name, time_mode="realtime")
    env.reset(seed=0)
    env.step(KeyDown("b"))
    code = x11.stroke("b").keycode
    assert code in x11.pressed_keycodes()
    env.close()
    assert code not in x11.pressed_keycodes()


def test_kill_switch_stops_input_at_once_and_refuses_more(target, x11):
    backend = target.unwrapped.backend
    a = x11.stroke("a").keycode
    combo = [x11.stroke(k).keycode for k in ("ctrl", "alt", "k")]

    def press_kill_switch():
        time.sleep(0.5)
        for code in combo:
            x11.key(code, True)
        time.sleep(0.1)
        for code in reversed(combo):
            x11.key(code, False)

    presser = threading.Thread(target=press_kill_switch)
    t0 = time.monotonic()
    presser.start()
    _, _, _, _, info = target.step([KeyDown("a"), Wait(5.0)])
    took = time.monotonic() - t0
    presser.join()
    assert "kill switch pressed" in info["last_action_error"]
    assert took < 2.5  # not the 5 s the program asked for
    assert a not in x11.pressed_keycodes() and backend.killed
    _, _, _, _, info = target.step(KeyPress("a"))
    assert "kill switch pressed" in info["last_action_error"]


def test_the_kill_switch_is_configurable_and_can_be_off(vdisplay):
    from gcc_envs.backends.desktop.backend import DesktopBackend
    from gcc_envs.errors import GCCError

    assert DesktopBackend(kill_switch=None, display=vdisplay.name).kill_switch_keys is None
    b = DesktopBackend(kill_switch=["pause"], display=vdisplay.name)
    assert b.kill_switch_keys == ("pause",)
    with pytest.raises(GCCError, match="kill_switch"):
        DesktopBackend(kill_switch="ctrl+k")


def test_taps_are_held_at_least_30_ms(target):
    backend = target.unwrapped.backend
    t0 = time.perf_counter()
    backend.send(KeyDown("a"))
    backend.send(KeyUp("a"))
    assert time.perf_counter() - t0 >= 0.03


def test_typing_waits_at_least_10_ms_between_keys(target):
    backend = target.unwrapped.backend
    t0 = time.perf_counter()
    for ch in "abcd":
        backend.send(KeyDown(ch))
        backend.send(KeyUp(ch))
    assert time.perf_counter() - t0 >= 4 * 0.03 + 3 * 0.01


def test_a_key_the_layout_cannot_type_is_reported_not_dropped(target, x11):
    missing = next(k for k in ("f24", "volumeup", "num0", "menu") if not _typeable(x11, k))
    _, _, _, _, info = target.step(KeyPress(missing))
    assert missing in info["last_action_error"] and "layout" in info["last_action_error"]


def _typeable(x11, key: str) -> bool:
    from gcc_envs.errors import InvalidActionError

    try:
        x11.stroke(key)
    except InvalidActionError:
        return False
    return True


def test_move_by_moves_the_pointer_relatively(target, x11):
    backend = target.unwrapped.backend
    target.step(MoveTo(160, 120))
    x0, y0 = x11.pointer()
    backend.send(ev.MoveBy(15, -7))
    x1, y1 = x11.pointer()
    assert x1 > x0 and y1 < y0  # the server's acceleration may scale, never reverse


def test_draw_pointer_puts_an_arrow_into_the_capture(vdisplay):
    env = gym.make(
        "GCC/Desktop",
        launch=TARGET,
        display=vdisplay.name,
        time_mode="realtime",
        obs_size=(240, 320),
        draw_pointer=True,
    )
    try:
        env.reset(seed=0)
        backend = env.unwrapped.backend
        env.step(MoveTo(100, 100))
        with_arrow = backend.capture()
        backend.draw_pointer = False
        plain = backend.capture()
        diff = (with_arrow.astype(int) - plain.astype(int)).any(axis=2)
        ys, xs = diff.nonzero()
        assert diff.sum() > 5
        assert 95 <= xs.min() <= 105 and 95 <= ys.min() <= 105  # the tip is at the pointer
    finally:
        env.close()
