"""The frame-only planner: what it reads from 180 x 320 frames is the plot itself, and it builds
a working block with no access to the simulator."""

from __future__ import annotations

from types import SimpleNamespace

import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.scripted.skylines import BlockScript
from agents.scripted.skylines_frames import seen_city, wind_probe_cell
from gcc_envs.games.skylines import vision
from gcc_envs.games.skylines.sim.layout import cell_centre
from wrappers import UseSkills

SIZE = (180, 320)


@pytest.mark.parametrize(("task", "seed"), [("build_city", 404), ("block", 505)])
def test_the_plot_read_from_two_frames_is_the_terrain(task, seed):
    env = UseSkills(gym.make("GCC/Skylines-BuildCity", task=task, obs_size=SIZE))
    bare, _ = env.reset(seed=seed)
    c, r = wind_probe_cell(vision.read_ground(bare))
    x, y = cell_centre(c, r, SIZE[1], SIZE[0])
    view = env.step(f"try_place_wind_turbine(x={x}, y={y})")[0]
    true = env.unwrapped.backend.probe().terrain
    seen = seen_city(bare, view, "city" if task == "build_city" else "block").terrain
    assert (seen.sea_side, seen.entry, seen.exit) == (true.sea_side, true.entry, true.exit)
    for grid in ("water", "shore", "highway", "ramp", "owned", "trees"):
        assert np.array_equal(getattr(seen, grid), getattr(true, grid)), grid
    # the wind on the land (the probe's preview, on the highway, hides its own cells)
    land = true.buildable.copy()
    land[:, max(c - 3, 0) : c + 4] = False
    assert np.abs(seen.wind - true.wind)[land].max() <= 0.02
    env.close()


def test_the_frame_only_planner_builds_the_block_without_the_simulator():
    env = UseSkills(gym.make("GCC/Skylines-Block", obs_size=SIZE))
    # the policy gets only the task (its instruction's plot and budget), no backend to read
    blind_env = SimpleNamespace(unwrapped=SimpleNamespace(task=SimpleNamespace(scenario="block")))
    policy = BlockScript(blind_env, privileged=False)
    obs, info = env.reset(seed=606)
    policy.reset(info)
    while True:
        obs, _, term, trunc, info = env.step(policy.act(obs, info))
        assert info["last_action_error"] is None
        if term or trunc:
            break
    assert term and info["success"], info["metrics"]
    env.close()
