"""The tasks are fair tests: on held-out seeds the planner succeeds through the skills (one call
per step), random play and doing nothing fail, seed 0's input replayed on other seeds fails,
and the paper's typical mistake (one disconnected pipe) leaves water insufficient and a clearly
smaller city.
"""

from __future__ import annotations

import gymnasium as gym
import pytest

import agents
import gcc_envs  # noqa: F401  (registers the ids)
from agents.scripted.skylines import DisconnectedPipeScript
from gcc_envs import Program
from gcc_envs.core.events import event_from_dict
from gcc_envs.games.skylines import GAME
from wrappers import UseSkillGrid, UseSkills

HELD_OUT = (101, 202, 303)
SIZE = (360, 640)
FIVE = ("roads_closed_loop", "water_sufficient", "electricity_sufficient", "zones_over_90")


def run(env_id: str, seed: int, policy: str = "scripted", script=None, size=SIZE):  # type: ignore[no-untyped-def]
    """One episode; the planner (or ``script``) acts through UseSkills, one call per step."""
    env = gym.make(env_id, obs_size=size)
    if policy == "random":
        target, pol = env, agents.make_policy("random", env, seed=seed)
    else:
        target = UseSkills(env, max_calls=GAME.max_skill_calls)
        if script is not None:
            pol = script(env.unwrapped, privileged=True)
        else:
            pol = agents.make_policy("scripted", target, privileged=True)
    obs, info = target.reset(seed=seed)
    pol.reset(info)
    events, steps = [], 0
    while True:
        obs, _, term, trunc, info = target.step(pol.act(obs, info))
        assert policy == "random" or info["last_action_error"] is None, info["last_action_error"]
        events.append([{k: v for k, v in e.items() if k != "t"} for e in info["events"]])
        steps += 1
        if term or trunc:
            return info, events, steps


@pytest.fixture(scope="module")
def planned():
    return {seed: run("GCC/Skylines-BuildCity", seed) for seed in HELD_OUT}


@pytest.mark.parametrize("seed", HELD_OUT)
def test_the_planner_builds_the_papers_city_of_1000_on_held_out_seeds(planned, seed):
    info, _, steps = planned[seed]
    m = info["metrics"]
    assert info["success"] and "failure" not in info, m
    assert all(m[k] == 1.0 for k in FIVE) and m["max_population"] >= 1000
    assert steps < 120 and m["budget"] >= 1000


# 103: a plot that wants a second turbine the budget cannot carry (the planner leaves it out)
@pytest.mark.parametrize("seed", (*HELD_OUT[:2], 103))
def test_the_planner_builds_the_block_on_held_out_seeds(seed):
    info, _, _ = run("GCC/Skylines-Block", seed)
    assert info["success"] and info["metrics"]["max_population"] >= 200


@pytest.mark.parametrize("env_id", ["GCC/Skylines-BuildCity", "GCC/Skylines-Block"])
def test_random_play_fails(env_id):
    for seed in HELD_OUT[:2]:
        info, _, steps = run(env_id, seed, "random", size=(84, 84))
        assert not info["success"] and steps == gym.spec(env_id).max_episode_steps
        assert info["metrics"]["max_population"] < 200 or not all(info["metrics"][k] for k in FIVE)


def test_random_skill_calls_fail_and_the_budget_only_moves_by_what_was_built():
    env = UseSkillGrid(gym.make("GCC/Skylines-Block", obs_size=SIZE))
    env.action_space.seed(7)
    env.reset(seed=HELD_OUT[0])
    s = env.unwrapped.backend.probe()
    while True:
        _, _, term, trunc, info = env.step(env.action_space.sample())
        st = s.stats
        assert s.budget == pytest.approx(25000 - st.spent + st.refunded + st.weekly_net)
        if term or trunc:
            break
    assert not info["success"] and s.stats.refused > 0


def test_doing_nothing_fails():
    env = gym.make("GCC/Skylines-Block", obs_size=SIZE)
    env.reset(seed=HELD_OUT[0])
    _, _, term, _, info = env.step("DONE")
    assert term and not info["success"] and info["metrics"]["max_population"] == 0


def test_seed_zeros_input_replayed_open_loop_on_other_seeds_fails():
    info, events, _ = run("GCC/Skylines-Block", 0)
    assert info["success"]
    for seed in HELD_OUT[:2]:
        env = gym.make("GCC/Skylines-Block", obs_size=SIZE)
        env.reset(seed=seed)
        for step in events:
            _, _, term, trunc, info = env.step(Program([event_from_dict(e) for e in step]))
            if term or trunc:
                break
        assert term and not info["success"], (seed, info["metrics"])


@pytest.mark.parametrize("seed", HELD_OUT)
def test_one_disconnected_pipe_leaves_water_insufficient_and_a_smaller_city(planned, seed):
    good = planned[seed][0]["metrics"]
    info, _, _ = run("GCC/Skylines-BuildCity", seed, script=DisconnectedPipeScript)
    m = info["metrics"]
    assert not info["success"] and m["water_sufficient"] == 0.0
    assert m["roads_closed_loop"] == m["electricity_sufficient"] == m["zones_over_90"] == 1.0
    assert m["max_population"] <= 0.85 * good["max_population"], (m, good)
    # the paper's human assistance: one fix brings the city back
    assert (
        m["assist_operations"] == 1
        and m["max_population_assisted"] >= good["max_population"] * 0.97
    )
