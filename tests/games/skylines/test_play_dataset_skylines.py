"""A person plays Skylines with ``gcc-gym play`` (recorded as a dataset); datasets replay exactly."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from skylines_helpers import px, state

import gcc_envs  # noqa: F401  (registers the ids)
from gcc_envs.datasets import load, replay
from gcc_envs.games.skylines.sim import layout
from wrappers.record_trajectory import RecordTrajectory

SIZE = (360, 640)


@pytest.fixture
def pg(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    yield pygame
    pygame.display.quit()


def test_a_person_builds_a_road_with_the_mouse_and_the_session_is_recorded(pg, tmp_path):
    from agents.play import Player

    out = tmp_path / "demo"
    with Player("GCC/Skylines-BuildCity", seed=1, record=out, env_kwargs={"obs_size": SIZE}) as p:
        s = state(p.env)
        assert p.env.unwrapped._step_limit() > 10**9  # a play session has no step limit
        ex, ey = s.terrain.entry
        W, H = p.frame_size
        clicks = [
            layout.centre(layout.button_rect("roads"), W, H),
            layout.centre(layout.item_rect(0), W, H),
            px(p.env, ex, ey),
            px(p.env, ex - 15, ey),
        ]
        E = pg.event.Event
        for x, y in clicks:
            pg.event.post(E(pg.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0)))
            pg.event.post(E(pg.MOUSEBUTTONDOWN, pos=(x, y), button=1))
            pg.event.post(E(pg.MOUSEBUTTONUP, pos=(x, y), button=1))
            p.run(max_steps=1)
        pg.event.post(E(pg.KEYDOWN, key=pg.K_SPACE))  # unpause: the city runs
        p.run(max_steps=2)
        assert s.road.sum() == 15 and s.budget < 70000 and s.running
    (ep,) = load(out)
    assert ep.meta["policy"] == "human" and len(ep) == 6
    assert ep.frames[0].shape == (*SIZE, 3)


def test_a_recorded_skill_episode_replays_frame_for_frame(tmp_path):
    env = gym.make("GCC/Skylines-Block", obs_size=(180, 320), max_episode_steps=6)
    env = RecordTrajectory(env, tmp_path, policy_name="script")
    obs, _ = env.reset(seed=3)
    s = state(env)
    ex, ey = s.terrain.entry
    d = -1 if s.terrain.sea_side == "west" else 1  # from the ramp toward the sea
    codes = [
        "open_roads_menu()",
        "try_place_two_lane_road({}, {}, {}, {})".format(
            *px(env, ex, ey), *px(env, ex + 10 * d, ey)
        ),
        "confirm_placement()",
        "confirm_placement()",  # refused by the env: nothing previewed
        "try_place_wind_turbine({}, {})".format(*px(env, ex + 5 * d, ey - 3)),
        "confirm_placement()",
    ]
    for c in codes:
        *_, term, trunc, info = env.step(c)
    assert trunc and info["metrics"]["weeks"] == 26
    env.close()
    (ep,) = load(tmp_path)
    frames = replay(ep)
    assert len(frames) == len(ep.frames) == 7
    assert all(np.array_equal(a, b) for a, b in zip(frames, ep.frames))
    errors = [st["last_action_error"] for st in ep.steps]
    assert errors[3] and errors[:3] == [None] * 3 and s.road.sum() == 10 and s.services
