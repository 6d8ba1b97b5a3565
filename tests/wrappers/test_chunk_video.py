"""ChunkVideo: the observation is the video chunk sampled at ``fps`` during the last step."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from spec_helpers import sim_ids, still_ids, walk_of, walking_ids

from gcc_envs.errors import GCCError
from wrappers import ChunkVideo, UseSkills

IDS = sim_ids()
SIZE = (72, 128)
#: Games whose screen changes only when the player acts, so frames tell what a walk did.
STILL = [i for i in still_ids() if i in walking_ids() and walk_of(i).seconds * 2 >= 1]  # fps 2
#: The toy game of tests/specs: ChunkVideo's own mechanics are tested on it.
TOY = "GCC/Toy-ReachCorner"


def make(env_id, max_frames=8, **kw):
    base = gym.make(env_id, obs_size=SIZE, **kw)
    return UseSkills(ChunkVideo(base, max_frames=max_frames))


def walk(env_id, max_frames=8, seed=0, **kw):
    """One step of the game's walking (its spec's walk hint)."""
    env = make(env_id, max_frames, **kw)
    env.reset(seed=seed)
    obs, *_, info = env.step(walk_of(env_id).code)
    return env, obs, info


def checked(env):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env warns that a wrapper is not the raw env
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("action_mode", ["state", "event"])
@pytest.mark.parametrize("as_list", [False, True])
def test_chunked_env_passes_check_env(env_id, action_mode, as_list):
    env = ChunkVideo(gym.make(env_id, obs_size=SIZE, action_mode=action_mode), as_list=as_list)
    checked(env)
    obs, _ = env.reset(seed=1)
    assert obs in env.observation_space
    obs, *_ = env.step(env.action_space.sample())
    assert obs in env.observation_space


@pytest.mark.parametrize("env_id", IDS)
def test_reset_gives_the_reset_frame_as_a_chunk_of_one(env_id):
    env = ChunkVideo(gym.make(env_id, obs_size=SIZE), max_frames=4)
    raw, _ = gym.make(env_id, obs_size=SIZE).reset(seed=3)
    obs, _ = env.reset(seed=3)
    assert obs["count"] == 1
    assert np.array_equal(obs["frames"][0], raw)
    assert not obs["frames"][1:].any()


def test_two_seconds_of_walking_at_2_fps_give_4_frames_that_differ():
    env = make(TOY)
    env.reset(seed=0)
    obs, *_, info = env.step("walk_up(duration=1.0)\nwalk_left(duration=1.0)")
    assert info["last_action_error"] is None
    assert info["frames_recorded"] == 4 and obs["count"] == 4
    frames = obs["frames"]
    assert all(not np.array_equal(frames[i], frames[i + 1]) for i in range(3))
    assert np.array_equal(frames[3], env.unwrapped.backend.capture())
    assert not frames[4:].any()


@pytest.mark.parametrize("env_id", STILL)
def test_a_walk_gives_fps_times_its_seconds_and_max_frames_1_keeps_the_last(env_id):
    env, full, info = walk(env_id, max_frames=8)
    n = int(2 * walk_of(env_id).seconds + 1e-9)  # fps 2
    assert info["last_action_error"] is None and full["count"] == n == info["frames_recorded"]
    assert np.array_equal(full["frames"][n - 1], env.unwrapped.backend.capture())
    _, one, _ = walk(env_id, max_frames=1)
    assert one["count"] == 1 and one["frames"].shape[0] == 1
    assert np.array_equal(one["frames"][0], full["frames"][n - 1])


def test_max_frames_2_samples_the_first_and_the_last_frame():
    def chunk(max_frames):
        env = make(TOY, max_frames)
        env.reset(seed=0)
        return env.step("walk_up(duration=1.0)\nwalk_left(duration=1.0)")[0]

    full, two = chunk(8), chunk(2)
    assert two["count"] == 2 and two["frames"].shape[0] == 2
    assert np.array_equal(two["frames"][0], full["frames"][0])
    assert np.array_equal(two["frames"][1], full["frames"][3])


@pytest.mark.parametrize("fps, count", [(1, 2), (4, 8), (8, 8)])
def test_count_is_fps_times_game_time_bounded_by_max_frames(fps, count):
    env = make(TOY, fps=fps)
    env.reset(seed=0)
    obs, *_, info = env.step("walk_up(duration=1.0)\nwalk_left(duration=1.0)")
    assert obs["count"] == count
    assert info["frames_recorded"] == 2 * fps


def test_low_res_and_as_list_give_a_tuple_of_small_frames():
    env = UseSkills(ChunkVideo(gym.make(TOY, obs_size=SIZE), low_res=(36, 64), as_list=True))
    assert env.observation_space == spaces.Sequence(spaces.Box(0, 255, (36, 64, 3), np.uint8))
    env.reset(seed=0)
    obs, *_ = env.step("walk_up(duration=1.0)\nwalk_left(duration=1.0)")
    assert isinstance(obs, tuple) and len(obs) == 4
    assert all(f.shape == (36, 64, 3) and f.dtype == np.uint8 for f in obs)
    assert obs in env.observation_space


def test_chunk_frames_are_fresh_arrays():
    env, obs, _ = walk(TOY)
    obs["frames"][:] = 0
    assert any(f.any() for f in env.unwrapped.recorded_frames)


@pytest.mark.parametrize("bad", [{"max_frames": 0}, {"low_res": (0, 5)}, {"low_res": (8,)}])
def test_bad_arguments_are_refused(bad):
    with pytest.raises(GCCError):
        ChunkVideo(gym.make(TOY, obs_size=SIZE), **bad)


def test_an_env_whose_observation_is_not_the_frame_is_refused():
    env = gym.wrappers.ResizeObservation(gym.make(TOY, obs_size=SIZE), (36, 64))
    with pytest.raises(GCCError, match="below wrappers"):
        ChunkVideo(env)
