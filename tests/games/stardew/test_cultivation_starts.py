"""Cultivation starts anywhere in the farmhouse, in any of its furniture layouts, facing any way:
no two seeds share a first frame, and the farmer walks out from every start."""

from __future__ import annotations

import hashlib

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from wrappers import UseSkills

SIZE = (180, 320)
#: Starts where furniture stands between the farmer and the exit mat (a table or the bed below).
BLOCKED_STARTS = (3, 18, 28)


def test_twenty_seeds_start_on_twenty_different_frames():
    env = gym.make("GCC/Stardew-Cultivation", obs_size=SIZE)
    frames = {hashlib.sha256(env.reset(seed=s)[0].tobytes()).hexdigest() for s in range(20)}
    env.close()
    assert len(frames) == 20


def test_the_start_varies_the_layout_the_tile_and_the_facing():
    env = gym.make("GCC/Stardew-Cultivation", obs_size=SIZE)
    starts = []
    for seed in range(20):
        env.reset(seed=seed)
        s = env.unwrapped.backend.probe()
        starts.append((s.layout["farmhouse"], s.current_tile, s.player.facing))
    env.close()
    assert s.location == "farmhouse"
    layouts, tiles, facings = (set(x) for x in zip(*starts))
    assert len(layouts) >= 8 and len(tiles) >= 12 and len(facings) == 4


@pytest.mark.parametrize("seed", BLOCKED_STARTS)
def test_get_out_of_house_walks_around_the_furniture_from_any_start(seed):
    env = UseSkills(gym.make("GCC/Stardew-Cultivation", obs_size=SIZE))
    env.reset(seed=seed)
    _, _, _, _, info = env.step("get_out_of_house()")
    assert info["last_action_error"] is None
    assert env.unwrapped.backend.probe().location == "farm"
    env.close()
