"""Scripted Stardew players: they solve the tasks through the skills; random play does not."""

from __future__ import annotations

import gymnasium as gym
import pytest

import agents
import gcc_envs  # noqa: F401  (registers the ids)
from agents.evaluate import evaluate, run_episode
from gcc_envs import Program, parse_code
from gcc_envs.core.skills import SkillCall
from gcc_envs.errors import GCCError
from gcc_envs.games.stardew import tasks
from gcc_envs.games.stardew.skills import SKILLS

SKILL_EVENTS = {"KeyPress", "Wait", "Click"}


@pytest.mark.parametrize("task", ["Cultivation", "Shopping"])
def test_scripted_policy_succeeds(task):
    records = evaluate(
        f"GCC/Stardew-{task}",
        "scripted",
        seeds=[0, 1],
        video=False,
        progress=False,
        policy_kwargs={"privileged": True},
    )
    assert [r.success for r in records] == [True, True]
    assert all(r.steps <= 30 and r.invalid_actions == 0 for r in records)


def test_scripted_farm_clearup_reaches_the_target_in_about_one_step_per_obstacle():
    (rec,) = evaluate(
        "GCC/Stardew-FarmClearup",
        "scripted",
        seeds=[2],
        video=False,
        progress=False,
        policy_kwargs={"privileged": True},
    )
    assert rec.success and rec.metrics["cleared"] >= tasks.CLEARUP_TARGET
    assert rec.steps <= tasks.CLEARUP_TARGET + 2


def test_scripted_farm_clearup_keeps_clearing_for_all_100_steps(monkeypatch):
    monkeypatch.setattr(tasks, "CLEARUP_TARGET", 10**6)  # measure past the success threshold
    env = gym.make("GCC/Stardew-FarmClearup")
    policy = agents.make_policy("scripted", env, privileged=True)
    rec = run_episode(env, policy, seed=0)
    assert rec.steps == 100 and rec.invalid_actions == 0
    assert rec.metrics["cleared"] >= 90
    kinds = {k for k, v in rec.metrics.items() if k.startswith("cleared_") and v > 0}
    assert {"cleared_weeds", "cleared_twig", "cleared_stone"} <= kinds  # scythe, axe, pickaxe


@pytest.mark.parametrize("task", ["Cultivation", "Shopping", "FarmClearup"])
def test_random_policy_does_not_succeed(task):
    records = evaluate(f"GCC/Stardew-{task}", "random", seeds=[0], video=False, progress=False)
    assert not records[0].success and records[0].steps == 100


@pytest.mark.parametrize("task", ["Cultivation", "Shopping", "FarmClearup"])
def test_scripts_need_privileged_state(task):
    env = gym.make(f"GCC/Stardew-{task}")
    with pytest.raises(GCCError, match="privileged=True"):
        agents.make_policy("scripted", env)


def test_every_input_goes_through_the_skills():
    env = gym.make("GCC/Stardew-Cultivation")
    policy = agents.make_policy("scripted", env, privileged=True)
    obs, info = env.reset(seed=0)
    policy.reset(info)
    used: set[str] = set()
    done = False
    while not done:
        action = policy.act(obs, info)
        assert isinstance(action, (str, Program))
        if isinstance(action, str):
            calls = parse_code(action, SKILLS)
            assert all(isinstance(c, SkillCall) for c in calls)
            used |= {c.name for c in calls}
        obs, _, term, trunc, info = env.step(action)
        assert info["last_action_error"] is None
        assert {e["type"] for e in info["events"]} <= SKILL_EVENTS
        done = term or trunc
    assert info["success"]
    assert {"get_out_of_house", "enter_door_and_sleep"} <= used
