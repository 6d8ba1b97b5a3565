"""A recorded Dealer's Life 2 session loads back and replays frame for frame."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import agents
import gcc_envs  # noqa: F401  (registers the ids)
from gcc_envs.datasets import load, replay
from wrappers.record_trajectory import RecordTrajectory


def test_a_recorded_skill_session_replays_exactly(tmp_path):
    env = RecordTrajectory(
        gym.make("GCC/DealersLife2-Day", obs_size=(180, 320), max_episode_steps=14),
        tmp_path,
        policy_name="scripted",
    )
    pol = agents.make_policy("scripted", env, privileged=True)
    obs, info = env.reset(seed=3)
    done = False
    codes = []
    while not done:
        codes.append(pol.act(obs, info))
        obs, _, term, trunc, info = env.step(codes[-1])
        done = term or trunc
    env.close()
    (ep,) = list(load(tmp_path))
    assert ep.actions == codes and len(ep) == 14
    frames = replay(ep)
    assert len(frames) == len(ep.frames)
    assert all(np.array_equal(a, b) for a, b in zip(frames, ep.frames))
