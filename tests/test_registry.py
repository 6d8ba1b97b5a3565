"""One suite over every registered env: a new env is covered the day it is registered.

Everything this suite needs (which ids, their step limits, their default backends, what each
task says) comes from the specs of ``gcc_envs.registration``; no game is named here.
"""

import json
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.envs.registration import EnvSpec
from gymnasium.utils.env_checker import check_env
from spec_helpers import desktop_param, games, registry_ids, sim_ids, step_limit, suites

import gcc_envs
from gcc_envs.core.spec import GameSpec
from gcc_envs.registration import ENTRY_POINT, spec_of, task_of, versioned_id

IDS = [desktop_param(i) for i in registry_ids()]
# Seeded determinism is a property of simulators: a real desktop runs in real time.
SIM_IDS = sim_ids()
SMALL = {"obs_size": (72, 128)}
WALL_KEYS = {"t_wall", "t_paused"}


def _rollout(env_id, seed, steps=40, **kwargs):
    env = gym.make(env_id, **{**SMALL, **kwargs})
    env.action_space.seed(seed)
    obs, info = env.reset(seed=seed)
    frames, rewards, infos = [obs], [], [info]
    for _ in range(steps):
        obs, r, term, trunc, info = env.step(env.action_space.sample())
        frames.append(obs)
        rewards.append(r)
        infos.append({k: v for k, v in info.items() if k not in WALL_KEYS})
        if term or trunc:
            break
    env.close()
    return frames, rewards, infos


def test_every_id_is_versioned_and_its_unversioned_name_is_an_alias():
    assert len(IDS) >= 3
    for env_id in gcc_envs.env_ids():
        assert env_id.startswith("GCC/")
        alias, latest = gym.spec(env_id), gym.spec(versioned_id(env_id))
        assert alias.version is None and latest.version == spec_of(env_id).version
        assert latest.id == f"{env_id}-v{latest.version}"
        assert {**vars(alias), "id": None, "version": None} == {
            **vars(latest),
            "id": None,
            "version": None,
        }


def test_every_spec_round_trips_through_json():
    for env_id in gcc_envs.env_ids():
        for spec in (gym.spec(env_id), gym.spec(versioned_id(env_id))):
            assert spec.entry_point == ENTRY_POINT
            text = spec.to_json()
            json.loads(text)
            assert EnvSpec.from_json(text) == spec


@pytest.mark.parametrize("env_id", SIM_IDS[:: max(1, len(SIM_IDS) // 4)])
def test_a_spec_read_back_from_json_makes_the_same_env(env_id):
    env = gym.make(env_id, **SMALL)
    again = gym.make(EnvSpec.from_json(env.spec.to_json()))
    assert again.spec.id == env.spec.id == versioned_id(env_id)
    assert np.array_equal(env.reset(seed=4)[0], again.reset(seed=4)[0])
    env.close()
    again.close()


@pytest.mark.parametrize("env_id", SIM_IDS)
def test_a_versioned_id_gives_the_same_first_frame_as_its_alias(env_id):
    frames = []
    for name in (env_id, versioned_id(env_id)):
        env = gym.make(name, **SMALL)
        frames.append(env.reset(seed=11)[0])
        env.close()
    assert np.array_equal(*frames)


def test_every_registered_task_of_every_spec_has_an_id():
    registered = set(gcc_envs.env_ids())
    for spec in [*games(), *suites()]:
        for t in spec.tasks:
            assert (t.env_id(spec.title) in registered) == t.registered, t.key
        for t in spec.tasks:
            if t.parent:  # a subtask runs through its parent's id
                assert spec.task(t.parent).registered


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("action_mode", ["state", "event"])
def test_check_env_passes(env_id, action_mode):
    env = gym.make(env_id, action_mode=action_mode, **SMALL)
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


@pytest.mark.parametrize("env_id", SIM_IDS)
def test_same_seed_same_actions_give_identical_rollouts(env_id):
    f1, r1, i1 = _rollout(env_id, seed=3)
    f2, r2, i2 = _rollout(env_id, seed=3)
    assert len(f1) == len(f2)
    assert all(np.array_equal(a, b) for a, b in zip(f1, f2))
    assert r1 == r2
    assert i1 == i2


@pytest.mark.parametrize("env_id", SIM_IDS)
def test_different_seeds_give_different_worlds(env_id):
    f1, _, _ = _rollout(env_id, seed=1, steps=0)
    f2, _, _ = _rollout(env_id, seed=2, steps=0)
    # the camera may start on the same spot, so compare the whole first-step behaviour too
    g1, _, _ = _rollout(env_id, seed=1, steps=30)
    g2, _, _ = _rollout(env_id, seed=2, steps=30)
    assert not all(np.array_equal(a, b) for a, b in zip(f1 + g1, f2 + g2))


@pytest.mark.parametrize("env_id", IDS)
def test_fresh_env_survives_a_pickle_round_trip(env_id):
    env = gym.make(env_id, action_mode="state", **SMALL)
    clone = pickle.loads(pickle.dumps(env))
    a, _ = env.reset(seed=5)
    b, _ = clone.reset(seed=5)
    if spec_of(env_id).default_backend == "sim":  # a real desktop's two screens need not match
        assert np.array_equal(a, b)
    noop = {
        "keys": np.zeros(env.action_space["keys"].n, np.int8),
        "buttons": np.zeros(3, np.int8),
        "mouse": np.zeros(2, np.float32),
        "scroll": 0,
    }
    a1, b1 = env.step(noop)[0], clone.step(noop)[0]
    assert a1.shape == b1.shape
    if spec_of(env_id).default_backend == "sim":
        assert np.array_equal(a1, b1)
    env.close()
    clone.close()


@pytest.mark.parametrize("env_id", IDS)
def test_render_returns_the_observation_frame(env_id):
    env = gym.make(env_id, render_mode="rgb_array", obs_size=(90, 160))
    obs, _ = env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (90, 160, 3) and frame.dtype == np.uint8
    if spec_of(env_id).default_backend == "sim":
        assert np.array_equal(frame, obs)
    frame[:] = 0  # a fresh array: writing to it changes nothing inside
    again = env.render()
    assert not np.shares_memory(again, frame)
    if spec_of(env_id).default_backend == "sim":
        assert np.array_equal(again, obs)
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_spec_carries_the_step_limit_and_make_kwargs(env_id):
    row = task_of(env_id)
    if row is not None:  # an open id (a whole suite, its task given at reset) has no row
        assert step_limit(env_id) == row.max_steps
    env = gym.make(env_id, **SMALL)
    assert env.spec.id == versioned_id(env_id)  # the alias makes the latest version
    assert env.unwrapped.task.instruction
    obs, info = env.reset(seed=0)
    assert isinstance(info["instruction"], str) and info["instruction"]
    if isinstance(spec_of(env_id), GameSpec):  # a suite fills its instruction's values in
        assert info["instruction"] == env.unwrapped.task.instruction
    assert obs.shape == (72, 128, 3)
    env.close()
