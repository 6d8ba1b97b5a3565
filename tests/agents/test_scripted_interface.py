"""Every scripted policy plays through the agent's own interface: code text of at most the
env's ``max_skill_calls`` skill calls per step, through ``UseSkills`` — never a ``Program`` or
an event list that would pack a whole errand into one step.

The games, their tasks (a mission's checkpoints too) and their scripts come from the specs,
so a new game's script is held to the cap the day its task row names it.
"""

from __future__ import annotations

import gymnasium as gym
import pytest
from spec_helpers import games

import agents
from wrappers import UseSkills
from wrappers.use_skills import skill_calls

#: Steps checked per task (enough to see the script's errands start; the game's own tests
#: check that it succeeds).
STEPS = 25


def _cases() -> list[tuple[str, str, int]]:
    out = []
    for g in games():
        if g.simulator is None:
            continue
        for t in g.tasks:
            if t.script is None:
                continue
            owner = t if t.registered else g.task(t.parent)
            out.append((owner.env_id(g.title), t.key, g.max_skill_calls))
    return out


CASES = _cases()


def test_there_are_scripted_tasks_to_check():
    assert CASES


@pytest.mark.parametrize(("env_id", "task", "cap"), CASES, ids=[f"{i}:{t}" for i, t, _ in CASES])
def test_scripted_policy_acts_only_through_capped_skill_calls(env_id, task, cap):
    env = UseSkills(gym.make(env_id, task=task, obs_size=(180, 320)))
    assert env.max_calls == cap
    policy = agents.make_policy("scripted", env, privileged=True)
    obs, info = env.reset(seed=11)
    policy.reset(info)
    try:
        for _ in range(STEPS):
            action = policy.act(obs, info)
            assert isinstance(action, str), f"{task}: the script sent a {type(action).__name__}"
            calls = skill_calls(action, env.skills)
            assert len(calls) <= cap, f"{task}: {len(calls)} calls in one step ({action!r})"
            obs, _, term, trunc, info = env.step(action)
            assert info["last_action_error"] is None, (task, action, info["last_action_error"])
            if term or trunc:
                break
    finally:
        env.close()
