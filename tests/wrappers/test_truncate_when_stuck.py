"""TruncateWhenStuck: an episode whose screen stops changing is truncated after ``patience``."""

import gymnasium as gym
import numpy as np
import pytest
from spec_helpers import still_ids, walking_ids

from gcc_envs.errors import GCCError
from wrappers import ChunkVideo, TruncateWhenStuck
from wrappers.truncate_when_stuck import digest

IDS = walking_ids()
# Envs whose screen stands still when nobody acts (their specs say so).
STILL = still_ids()
SIZE = (72, 128)
PATIENCE = 10  # the HUD clock first changes after 7 game seconds = 28 idle steps


def noop(env):
    if "keys" not in getattr(env.action_space, "spaces", {}):  # event mode (a suite's default)
        return "WAIT"
    return {
        "keys": np.zeros(env.action_space["keys"].n, np.int8),
        "buttons": np.zeros(3, np.int8),
        "mouse": np.zeros(2, np.float32),
        "scroll": 0,
    }


@pytest.mark.parametrize("env_id", STILL)
def test_a_no_op_policy_is_truncated_after_patience_steps(env_id):
    env = TruncateWhenStuck(gym.make(env_id, obs_size=SIZE), patience=PATIENCE)
    _, info = env.reset(seed=0)
    assert info["stuck_steps"] == 0
    for step in range(1, PATIENCE + 1):
        _, _, term, trunc, info = env.step(noop(env))
        assert info["stuck_steps"] == step and not term
        assert trunc == (step == PATIENCE)
    assert info["truncated_reason"] == "stuck"


@pytest.mark.parametrize("env_id", IDS)
def test_a_walking_policy_is_not_truncated(env_id, walk):
    env = TruncateWhenStuck(gym.make(env_id, obs_size=SIZE), patience=PATIENCE)
    env.reset(seed=0)
    w = walk(env_id)
    for i in range(3 * PATIENCE):
        code = w.code if i % 2 else w.other
        _, _, term, trunc, info = env.step(code)
        assert not trunc and info["stuck_steps"] == 0
        assert "truncated_reason" not in info


def test_reset_starts_the_count_again_and_chunks_are_hashed_too():
    env = TruncateWhenStuck(ChunkVideo(gym.make(IDS[0], obs_size=SIZE)), patience=3)
    for _ in range(2):
        env.reset(seed=0)
        truncs = [env.step(noop(env))[3] for _ in range(3)]
        assert truncs == [False, False, True]


def test_the_time_limit_truncation_is_not_called_stuck():
    env = TruncateWhenStuck(gym.make(IDS[0], obs_size=SIZE, max_episode_steps=2), patience=2)
    env.reset(seed=0)
    env.step(noop(env))
    _, _, _, trunc, info = env.step(noop(env))
    assert trunc and info["stuck_steps"] == 2 and "truncated_reason" not in info


def test_digest_tells_observations_apart():
    a = {"frames": np.zeros((2, 3), np.uint8), "count": 1}
    assert digest(a) == digest({"count": 1, "frames": np.zeros((2, 3), np.uint8)})
    assert digest(a) != digest({**a, "count": 2})
    assert digest(np.zeros((2, 3), np.uint8)) != digest(np.zeros((3, 2), np.uint8))
    assert digest((np.ones(2),)) != digest((np.ones(2), np.ones(2)))


def test_patience_must_be_positive():
    with pytest.raises(GCCError):
        TruncateWhenStuck(gym.make(IDS[0], obs_size=SIZE), patience=0)
