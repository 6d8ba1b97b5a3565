"""RecordTrajectory: one folder per episode, written as the env runs."""

import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401
from gcc_envs import KeyPress
from gcc_envs.datasets import load
from gcc_envs.errors import GCCError
from wrappers.record_trajectory import RecordTrajectory

SIZE = (72, 128)
#: The toy game of tests/specs: the recorder's mechanics need no real game.
TOY = "GCC/Toy-ReachCorner"


def make(out, steps=5, **kw):
    env = gym.make(TOY, obs_size=SIZE, max_episode_steps=steps)
    return RecordTrajectory(env, out, **kw)


def play(env, seed, n=None):
    env.reset(seed=seed)
    done, t = False, 0
    while not done and (n is None or t < n):
        _, _, terminated, truncated, _ = env.step(KeyPress("s", 0.25))
        done, t = terminated or truncated, t + 1


def test_each_reset_opens_a_numbered_folder_and_numbering_continues(tmp_path):
    env = make(tmp_path, policy_name="walker")
    play(env, 7)
    assert env.episode_dir == tmp_path / "episode-000000-seed-7"
    play(env, 8)
    env.close()
    env = make(tmp_path)
    play(env, 7)
    env.close()
    names = [ep.path.name for ep in load(tmp_path)]
    assert names == [
        "episode-000000-seed-7",
        "episode-000001-seed-8",
        "episode-000002-seed-7",
    ]
    eps = list(load(tmp_path))
    assert all(ep.complete and len(ep) == 5 for ep in eps)
    assert eps[0].meta["policy"] == "walker" and eps[2].meta["policy"] is None
    assert [ep.meta["episode_index"] for ep in eps] == [0, 1, 2]


def test_reset_or_close_mid_episode_finishes_the_open_episode(tmp_path):
    env = make(tmp_path, steps=50)
    play(env, 1, n=3)
    play(env, 2, n=2)
    env.close()
    first, second = load(tmp_path)
    assert first.complete and len(first) == 3 and second.complete and len(second) == 2
    result = first.meta["result"]
    assert result["steps"] == 3 and not result["terminated"] and not result["truncated"]
    assert result["metrics"] and all(isinstance(v, float) for v in result["metrics"].values())


def test_the_inline_and_the_process_frame_writers_write_the_same_episode(tmp_path):
    for background in (True, False):
        env = make(tmp_path / str(background), background=background, frames="png")
        play(env, 3)
        env.close()
    (a,), (b,) = load(tmp_path / "True"), load(tmp_path / "False")
    for fa, fb in zip(a.frames, b.frames):
        assert np.array_equal(fa, fb)
    skip = {"wall_s", "wall_time"}
    strip = [[{k: v for k, v in s.items() if k not in skip} for s in ep.steps] for ep in (a, b)]
    assert strip[0] == strip[1]
    png = sorted(p.name for p in (a.path / "frames").iterdir())
    assert png == [f"{i:06d}.png" for i in range(6)]  # no temporary files left behind


def test_chosen_info_keys_become_columns(tmp_path):
    env = make(tmp_path, info_keys=("progress", "pointer"))
    play(env, 0)
    env.close()
    (ep,) = load(tmp_path)
    assert set(ep.table.column_names) >= {"progress", "pointer"}
    assert "held_keys" not in ep.table.column_names
    assert ep.steps[0]["pointer"] == [64, 36]


def test_refuses_observations_that_are_not_images_and_clashing_info_keys(tmp_path):
    with pytest.raises(GCCError, match="image observations"):
        RecordTrajectory(gym.make("CartPole-v1"), tmp_path)
    with pytest.raises(GCCError, match="clash"):
        make(tmp_path, info_keys=("reward",))
