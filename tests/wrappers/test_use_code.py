"""UseCode: pyautogui code text and OSWorld computer_13 dicts become input events."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

import gcc_envs
from gcc_envs import (
    Click,
    Done,
    DragTo,
    Fail,
    Hotkey,
    KeyDown,
    KeyPress,
    KeyUp,
    MouseDown,
    MouseUp,
    MoveTo,
    Scroll,
    TypeText,
    Wait,
)
from gcc_envs.core.computer13 import OSWORLD_TYPES
from gcc_envs.core.events import MIN_TAP_S
from gcc_envs.registration import spec_of
from wrappers import UseCode
from wrappers.use_code import COMPUTER_13

IDS = gcc_envs.env_ids("sim")
SIZE = (72, 128)  # frames are 128 px wide, 72 px tall

TAP = [MouseDown("left"), Wait(MIN_TAP_S), MouseUp("left")]
C13 = [
    ("MOVE_TO", {"x": 10, "y": 20}, [MoveTo(10, 20)]),
    ("MOVE_TO", {}, []),
    ("CLICK", {"x": 10, "y": 20, "button": "left", "num_clicks": 1}, [Click(10, 20)]),
    ("CLICK", {"x": 10, "y": 20, "button": "right", "num_clicks": 2}, [Click(10, 20, "right", 2)]),
    ("CLICK", {}, TAP),
    ("MOUSE_DOWN", {"button": "right"}, [MouseDown("right")]),
    ("MOUSE_UP", {}, [MouseUp("left")]),
    ("RIGHT_CLICK", {"x": 5, "y": 6}, [Click(5, 6, "right")]),
    ("DOUBLE_CLICK", {"x": 5, "y": 6}, [Click(5, 6, "left", 2)]),
    ("DOUBLE_CLICK", {}, [*TAP, Wait(MIN_TAP_S), *TAP]),
    ("DRAG_TO", {"x": 30, "y": 40}, [DragTo(30, 40, "left", 1.0)]),
    ("SCROLL", {"dx": 0, "dy": -3}, [Scroll(dy=-3)]),
    ("SCROLL", {"dx": 2, "dy": 1}, [Scroll(dx=2), Scroll(dy=1)]),
    ("TYPING", {"text": "hi!"}, [TypeText("hi!")]),
    ("PRESS", {"key": "c"}, [KeyPress("c")]),
    ("KEY_DOWN", {"key": "w"}, [KeyDown("w")]),
    ("KEY_UP", {"key": "w"}, [KeyUp("w")]),
    ("HOTKEY", {"keys": ["ctrl", "c"]}, [Hotkey(("ctrl", "c"))]),
    ("WAIT", {}, [Wait(1.0)]),
    ("FAIL", {}, [Fail()]),
    ("DONE", {}, [Done()]),
]
CODE = [
    ("pyautogui.moveTo(10, 20)", [MoveTo(10, 20)]),
    ("pyautogui.click(10, 20)", [Click(10, 20)]),
    ("pyautogui.rightClick(5, 6)", [Click(5, 6, "right")]),
    ("pyautogui.doubleClick(5, 6)", [Click(5, 6, "left", 2)]),
    ("pyautogui.mouseDown(); pyautogui.mouseUp()", [MouseDown(), MouseUp()]),
    ("pyautogui.dragTo(30, 40, duration=0.5)", [DragTo(30, 40, "left", 0.5)]),
    ("pyautogui.scroll(-3)", [Scroll(dy=-3)]),
    ("pyautogui.typewrite('hi!')", [TypeText("hi!")]),
    ("pyautogui.press('c')", [KeyPress("c")]),
    ("pyautogui.keyDown('w'); pyautogui.keyUp('w')", [KeyDown("w"), KeyUp("w")]),
    ("pyautogui.hotkey('ctrl', 'c')", [Hotkey(("ctrl", "c"))]),
    ("import pyautogui\ntime.sleep(0.5)", [Wait(0.5)]),
    ("WAIT", [Wait(1.0)]),
    ("FAIL", [Fail()]),
    ("DONE", [Done()]),
]
BAD = [
    {"action_type": "JUMP"},
    {"parameters": {"x": 1, "y": 2}},
    {"action_type": "CLICK", "parameters": {"x": 10}},
    {"action_type": "CLICK", "parameters": {"x": 10, "y": 20, "num_clicks": 7}},
    {"action_type": "CLICK", "parameters": {"x": "a", "y": 3}},
    {"action_type": "CLICK", "parameters": {"x": 5000, "y": 5}},
    {"action_type": "CLICK", "parameters": {"button": "thumb"}},
    {"action_type": "MOVE_TO", "parameters": {"x": 10, "y": 20, "speed": 3}},
    {"action_type": "MOVE_TO", "x": 1, "y": 2, "parameters": {}},
    {"action_type": "DRAG_TO", "parameters": {}},
    {"action_type": "PRESS", "parameters": {"key": "nosuchkey"}},
    {"action_type": "PRESS", "parameters": {}},
    {"action_type": "HOTKEY", "parameters": {"keys": "ctrl"}},
    {"action_type": "TYPING", "parameters": {"text": 5}},
    {"action_type": "SCROLL", "parameters": {"dx": 0, "dy": 0}},
    {"action_type": "SCROLL", "parameters": {"dy": 1.5}},
    {"action_type": "WAIT", "parameters": {"seconds": 3}},
    {"action_type": "CLICK", "parameters": [1, 2]},
    "move_up(duration=1)",
    "pyautogui.locateCenterOnScreen('x.png')",
    "import os",
    3.5,
]


def make(env_id, **kw):
    return UseCode(gym.make(env_id, obs_size=SIZE, **kw))


def sent(info):
    return [{k: v for k, v in e.items() if k != "t"} for e in info["events"]]


def test_every_computer_13_action_type_is_covered():
    assert {kind for kind, _, _ in C13} == set(OSWORLD_TYPES)
    assert len(OSWORLD_TYPES) == 16
    assert set(COMPUTER_13) - set(OSWORLD_TYPES) == {"MOVE_BY"}  # the camera-mouse extension


def test_the_event_mode_and_use_code_share_one_computer_13_table():
    from gcc_envs.core import spaces

    assert spaces.OPS == tuple(COMPUTER_13)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("action_mode", ["state", "event"])
def test_use_code_passes_check_env(env_id, action_mode):
    env = make(env_id, action_mode=action_mode)
    assert isinstance(env.action_space, spaces.Text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env warns that a wrapper is not the raw env
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("kind, params, events", C13, ids=[f"{k}{p}" for k, p, _ in C13])
def test_computer_13_dicts_send_the_expected_events(env_id, kind, params, events):
    for action in ({"action_type": kind, "parameters": params}, {"action_type": kind, **params}):
        env = make(env_id)
        env.reset(seed=0)
        _, _, term, _, info = env.step(action)
        assert info["last_action_error"] is None
        assert sent(info) == [e.to_dict() for e in events]
        assert term == (kind in ("DONE", "FAIL"))


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("code, events", CODE, ids=[c for c, _ in CODE])
def test_pyautogui_code_sends_the_expected_events(env_id, code, events):
    env = make(env_id)
    env.reset(seed=0)
    info = env.step(code)[-1]
    assert info["last_action_error"] is None
    assert sent(info) == [e.to_dict() for e in events]


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("action", BAD, ids=[str(a) for a in BAD])
def test_bad_actions_are_reported_and_run_nothing(env_id, action):
    env = make(env_id)
    obs0, _ = env.reset(seed=0)
    obs, _, term, _, info = env.step(action)
    assert isinstance(info["last_action_error"], str) and info["last_action_error"]
    assert info["events"] == [] and info["invalid_actions"] == 1 and not term
    if not getattr(spec_of(env_id), "moves_on_its_own", False):
        assert np.array_equal(obs, obs0)


def test_skill_calls_are_refused_with_a_pointer_to_use_skills():
    env = make(IDS[0])
    env.reset(seed=0)
    error = env.step("move_up(duration=1)")[-1]["last_action_error"]
    assert "skill calls are not accepted" in error and "UseSkills" in error
