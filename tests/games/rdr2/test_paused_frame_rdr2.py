"""While paused, the simulator keeps the view behind the pause menu instead of drawing it
again: the frames it gives are exactly what the pure renderer draws from the same state, through random
play that pauses, moves the menu cursor, aims, resumes and restarts, at every step."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs.games.rdr2.sim import game
from gcc_envs.games.rdr2.sim.render import render, render_screen

MISSIONS = ("GCC/RDR2-Mission1", "GCC/RDR2-Mission2", "GCC/RDR2-Mission3")


@pytest.mark.parametrize("env_id", MISSIONS)
def test_paused_frames_are_the_frames_the_renderer_draws(env_id, monkeypatch):
    drawn = []

    def counted(state, height, width, memo=None):
        drawn.append(state.ui.pause.phase)
        return render_screen(state, height, width, memo)

    monkeypatch.setattr(game, "render_screen", counted)
    env = gym.make(env_id, obs_size=(84, 84))
    sim = env.unwrapped.backend.sim
    env.action_space.seed(3)
    env.reset(seed=3)
    paused = 0
    for _ in range(400):
        obs, _, terminated, truncated, _ = env.step(env.action_space.sample())
        paused += sim.state.ui.pause.phase == "paused"
        np.testing.assert_array_equal(obs, render(sim.state, 84, 84))
        if terminated or truncated:
            env.reset()
    env.close()
    assert paused >= 50, f"random play paused on only {paused} of 400 steps"
    kept = paused - drawn.count("paused")
    assert kept >= paused // 2, f"the view was kept on {kept} of {paused} paused frames"


def test_a_paused_frame_changes_with_the_hovered_entry_and_a_new_episode():
    env = gym.make("GCC/RDR2-Mission1", obs_size=(96, 160))
    sim = env.unwrapped.backend.sim
    env.reset(seed=0)
    sim.set_paused(True)
    first = sim.render(96, 160)
    first[:] = 0  # a fresh array each time: the kept view is not handed out
    np.testing.assert_array_equal(sim.render(96, 160), render(sim.state, 96, 160))
    sim.pointer_move(0.1, 0.35)  # onto a menu entry
    np.testing.assert_array_equal(sim.render(96, 160), render(sim.state, 96, 160))
    env.reset(seed=1)
    sim.set_paused(True)
    np.testing.assert_array_equal(sim.render(96, 160), render(sim.state, 96, 160))
    env.close()
