"""Bad sizes, rates and durations are refused with a clear error at make or parse time."""

import math

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import Wait
from gcc_envs.core import clock
from gcc_envs.errors import GCCError

ENV = "GCC/Stardew-FarmClearup"


@pytest.mark.parametrize("fps", [math.nan, math.inf, 1e9, 0, -2, "2", True])
def test_make_refuses_an_fps_that_is_not_a_sane_rate(fps):
    with pytest.raises(GCCError, match="fps must be"):
        gym.make(ENV, obs_size=(72, 128), fps=fps)


@pytest.mark.parametrize("size", [(84.5, 84), (84, "84"), (84,), (84, 84, 3), (True, 84), 84])
def test_make_refuses_an_obs_size_that_is_not_two_whole_pixel_counts(size):
    with pytest.raises(GCCError, match="obs_size"):
        gym.make(ENV, obs_size=size)


def test_whole_float_sides_are_read_as_pixels():
    env = gym.make(ENV, obs_size=(72.0, 128.0))
    assert env.observation_space.shape == (72, 128, 3)
    env.close()


def test_one_step_samples_at_most_max_step_frames():
    env = gym.make(ENV, obs_size=(16, 16), fps=60)
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
