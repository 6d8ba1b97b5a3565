"""Bad sizes, rates and durations are refused with a clear error when the env is made or the
input parsed (``gym.make`` builds envs with these same constructors)."""

import math

import pytest

from gcc_envs import Wait
from gcc_envs.backends.sim import SimBackend
from gcc_envs.core import clock
from gcc_envs.core.env import GCCEnv
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.errors import GCCError
from gcc_envs.testing import FAKE_KEYS, FakeSim


class Open(Task):
    name = "Open"
    instruction = "Do anything."
    max_steps = 50

    def evaluate(self, probe):
        return TaskStatus()


def make(obs_size=(72, 128), **kwargs) -> GCCEnv:
    return GCCEnv(SimBackend(FakeSim(), obs_size), Open(), keys=FAKE_KEYS, **kwargs)


@pytest.mark.parametrize("fps", [math.nan, math.inf, 1e9, 0, -2, "2", True])
def test_make_refuses_an_fps_that_is_not_a_sane_rate(fps):
    with pytest.raises(GCCError, match="fps must be"):
        make(fps=fps)


@pytest.mark.parametrize("size", [(84.5, 84), (84, "84"), (84,), (84, 84, 3), (True, 84), 84])
def test_make_refuses_an_obs_size_that_is_not_two_whole_pixel_counts(size):
    with pytest.raises(GCCError, match="obs_size"):
        make(obs_size=size)


def test_whole_float_sides_are_read_as_pixels():
    env = make(obs_size=(72.0, 128.0))
    assert env.observation_space.shape == (72, 128, 3)
    env.close()


def test_one_step_samples_at_most_max_step_frames():
    env = make(obs_size=(16, 16), fps=60)
    env.reset(seed=0)
    env.unwrapped.record_frames = True
    # 5 waits of 60 s at 60 fps would be 18,000 frames
    _, _, _, _, info = env.step([Wait(60.0)] * 5)
    assert info["last_action_error"] is None
    assert info["frames_recorded"] == 600
    _, _, _, _, info = env.step([Wait(1.0)])
    assert info["frames_recorded"] == 60  # the bound is per step
    env.close()
    assert clock.MAX_STEP_FRAMES == 600


LONG = [
    "pyautogui.typewrite('abcdef', interval=60)",  # 360 s in one event
    f"pyautogui.typewrite('{'a' * 1000}', interval=60)",  # 60,025 s in one event
    "pyautogui.press('a', presses=100, interval=60)",
    "\n".join(["time.sleep(60)"] * 6),
    "pyautogui.moveTo(5, 5, duration=60); " * 6,
    "pyautogui.keyDown('a'); time.sleep(60); pyautogui.keyUp('a');" * 6,
]


@pytest.mark.parametrize("code", LONG, ids=range(len(LONG)))
def test_code_longer_than_max_program_s_is_refused_at_parse_time(code):
    from gcc_envs.core.code import parse_code

    with pytest.raises(GCCError, match="at most 300"):
        parse_code(code)


@pytest.fixture
def sim():
    env = make()
    env.reset(seed=0)
    yield env
    env.close()


@pytest.mark.parametrize("code", LONG[:2], ids=["6-chars", "1000-chars"])
def test_a_step_of_long_code_runs_nothing_and_says_why(sim, code):
    _, _, _, _, info = sim.step(code)
    assert "at most 300" in info["last_action_error"]
    assert info["t_game"] < 1.0 and info["events"] == []


def test_one_long_event_is_refused_whole(sim):
    from gcc_envs import TypeText

    _, _, _, _, info = sim.step(TypeText("a" * 1000, interval_s=60))
    assert "at most 300" in info["last_action_error"] and info["t_game"] < 1.0


def test_a_closed_loop_program_is_cut_before_it_passes_max_program_s(sim):
    from gcc_envs import Program

    def forever():
        while True:
            yield Wait(60.0)

    _, _, _, _, info = sim.step(Program(forever))
    assert "300 game seconds" in info["last_action_error"]
    assert info["t_game"] <= 300.0 and len(info["events"]) == 5


def test_a_closed_loop_program_cannot_hide_a_long_event(sim):
    from gcc_envs import Program, TypeText

    def sneaky():
        yield TypeText("a" * 1000, interval_s=60)

    _, _, _, _, info = sim.step(Program(sneaky))
    assert info["last_action_error"] and info["t_game"] < 1.0 and info["events"] == []


@pytest.mark.parametrize(
    "make",
    [
        lambda: __import__("gcc_envs").MoveTo(10**400, 1),
        lambda: __import__("gcc_envs").MoveBy(0, -(10**400)),
        lambda: __import__("gcc_envs").Wait(10**400),
        lambda: __import__("gcc_envs").KeyPress("a", 10**400),
    ],
    ids=["moveto", "moveby", "wait", "hold"],
)
def test_a_huge_integer_is_an_invalid_action_not_an_overflow(make):
    from gcc_envs.errors import InvalidActionError

    with pytest.raises(InvalidActionError):
        make()
