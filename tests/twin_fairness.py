"""The check every software twin's tests run per task (tests/apps/<app>/test_<app>_twins.py)."""

from __future__ import annotations

import gymnasium as gym

import agents
from gcc_envs.apps.software import fairness


def assert_scripted_fair(env: gym.Env) -> fairness.Episode:
    """The scripted policy (through ``agents.make_policy``) solves seed 0 from a desktop that
    doing nothing leaves unsolved, and seed 0's input replayed on a seed whose choices differ
    (all of them where a seed does) does not solve it; returns the solved episode."""
    solved = fairness.run_policy(env, agents.make_policy("scripted", env), seed=0)
    assert solved.start_score == 0.0, "doing nothing succeeded"
    assert solved.success and not solved.errors, (solved.info.get("check_error"), solved)
    assert solved.info["metrics"]["efficiency"] > 0  # expected steps / steps
    seed = fairness.other_seed(env, solved.chosen)
    replayed = fairness.replay(env, solved.inputs, seed)
    assert replayed.chosen != solved.chosen, "the seed did not vary the task"
    assert replayed.start_score == 0.0 and not replayed.success, "seed 0's input solved it"
    return solved
