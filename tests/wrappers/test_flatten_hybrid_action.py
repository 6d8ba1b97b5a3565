"""FlattenHybridAction: either action mode as a MultiDiscrete vector, and back."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

import gcc_envs
from gcc_envs.errors import GCCError, InvalidActionError
from wrappers import FlattenHybridAction
from wrappers.flatten_hybrid_action import mu_law_bins

IDS = gcc_envs.env_ids("sim")
MODES = ["state", "event"]
SIZE = (84, 84)


def make(env_id, action_mode="state", **kw):
    return FlattenHybridAction(gym.make(env_id, obs_size=SIZE, action_mode=action_mode), **kw)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("action_mode", MODES)
def test_flattened_env_passes_check_env(env_id, action_mode):
    env = make(env_id, action_mode)
    assert isinstance(env.action_space, spaces.MultiDiscrete)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env warns that a wrapper is not the raw env
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("action_mode", MODES)
def test_random_vectors_map_into_the_dict_space_and_back(env_id, action_mode):
    env = make(env_id, action_mode, texts=("", "hello"))
    env.action_space.seed(0)
    for _ in range(300):
        v = env.action_space.sample()
        act = env.action(v)
        assert act in env.env.action_space
        assert np.array_equal(env.flatten(act), v)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("action_mode", MODES)
def test_any_dict_action_flattens_to_its_nearest_bins(env_id, action_mode):
    env = make(env_id, action_mode)
    inner = env.env.action_space
    inner.seed(1)
    for _ in range(100):
        act = inner.sample()
        if "text" in act:
            act["text"] = ""
        v = env.flatten(act)
        assert v in env.action_space
        back = env.action(v)
        for key, part in zip(inner.spaces, env.parts):
            if part.kind == "bins":
                step = np.max(np.diff(part.values))
                assert np.all(np.abs(back[key] - act[key]) <= step / 2 + 1e-6)
            elif part.kind != "text":
                assert np.array_equal(back[key], act[key])


def test_state_mode_layout():
    env = make(IDS[0])
    k = env.env.action_space["keys"].n
    assert env.layout == (("buttons", 3), ("keys", k), ("mouse", 2), ("scroll", 1))
    assert env.action_space.nvec.tolist() == [2] * 3 + [2] * k + [11, 11] + [3]
    noop = env.flatten({"keys": np.zeros(k), "buttons": np.zeros(3), "mouse": [0, 0], "scroll": 0})
    assert noop.tolist() == [0] * (3 + k) + [5, 5, 1]


def test_event_mode_layout_and_defaults():
    env = make(IDS[0], "event", xy_bins=16, duration_bins=4, texts=("", "yes"))
    fields = dict(env.layout)
    assert list(fields) == list(env.env.action_space.spaces)
    nvec = dict(zip([f for f, n in env.layout for _ in range(n)], env.action_space.nvec))
    assert nvec["op"] == 17 and nvec["xy"] == 16 and nvec["dxy"] == 11
    assert nvec["duration"] == 4 and nvec["text"] == 2 and nvec["scroll"] == 11
    act = env.action(env.flatten({"op": "CLICK"}))
    assert act["scroll"] == 0 and act["clicks"] == 1 and act["text"] == ""
    assert act["xy"].tolist() == [1 / 32, 1 / 32]
    with pytest.raises(InvalidActionError, match="texts"):
        env.flatten({"op": 8, "text": "maybe"})
    with pytest.raises(InvalidActionError, match="dxy"):
        env.flatten({"op": "MOVE_BY", "dxy": [0.5]})


def test_mu_law_bins_are_symmetric_and_densest_near_zero():
    b = mu_law_bins(11, 10.0)
    assert b[0] == -1 and b[5] == 0 and b[-1] == 1
    assert np.allclose(b, -b[::-1])
    gaps = np.diff(b[5:])
    assert np.all(np.diff(gaps) > 0)  # bins spread out away from 0
    assert gaps[0] < 0.2 < gaps[-1]  # finer than the uniform grid (step 0.2) near 0
    assert np.diff(mu_law_bins(11, 50.0))[5] < gaps[0]  # a larger mu is finer still


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("action_mode", MODES)
def test_fifty_random_steps(env_id, action_mode):
    env = make(env_id, action_mode)
    env.action_space.seed(2)
    obs, _ = env.reset(seed=2)
    for _ in range(50):
        obs, r, term, trunc, info = env.step(env.action_space.sample())
        assert obs.shape == (*SIZE, 3)
        if term or trunc:
            obs, _ = env.reset()


def test_bad_vectors_are_reported_and_code_passes_through():
    env = make(IDS[0])
    env.reset(seed=0)
    n = len(env.action_space.nvec)
    for bad in (np.zeros(n - 1, int), np.full(n, 99), np.full(n, 0.5), [None] * n):
        info = env.step(bad)[-1]
        assert info["last_action_error"] and info["events"] == []
    info = env.step("pyautogui.press('c')")[-1]
    assert info["last_action_error"] is None and info["events"][0]["type"] == "KeyPress"


@pytest.mark.parametrize(
    "bad", [{"mouse_bins": 10}, {"mouse_bins": 1}, {"mu": 0}, {"xy_bins": 0}, {"texts": ()}]
)
def test_bad_arguments_are_refused(bad):
    with pytest.raises(GCCError):
        make(IDS[0], "event", **bad)
