"""Stardew's tasks are fair tests: the scripted oracle succeeds through the capped skill
interface on held-out seeds (with the simulator's state, or reading only frames), random
skill calls and a blind replay of seed 0's inputs do not, and the seed changes the episode."""

from __future__ import annotations

import gymnasium as gym
import pytest

import agents
import gcc_envs  # noqa: F401  (registers the ids)
from agents.scripted.stardew_fair import (
    TASKS,
    make_env,
    overlap,
    run_oracle,
    run_random,
    run_replay,
)
from gcc_envs.games.stardew import tasks

#: Seeds the scripts were not written against.
HELD_OUT = (11, 12)


@pytest.mark.slow  # 5-30 s each on 2 cores: outside the fast subset
@pytest.mark.parametrize("task", TASKS)
def test_oracle_succeeds_through_the_capped_skill_interface(task):
    for seed in HELD_OUT:
        info, sent = run_oracle(task, seed)  # raises if a step has more than 2 calls
        assert info["success"], f"{task} seed {seed}"
        assert info["steps"] <= 60


@pytest.mark.slow
@pytest.mark.parametrize("task", TASKS)
def test_frame_reading_oracle_succeeds_without_the_simulator_state(task, monkeypatch):
    env = make_env(task)
    backend = env.unwrapped.backend

    def no_peeking():
        raise AssertionError("the frame-reading script read the simulator's state")

    info, _ = run_oracle(task, 13, privileged=False)
    assert info["success"]
    # the same policy object never calls the probe: build it and act once with the probe gone
    obs, info = env.reset(seed=14)
    policy = agents.make_policy("scripted", env, privileged=False)
    policy.reset(info)
    monkeypatch.setattr(backend, "probe", no_peeking)
    code = policy.act(obs, info)
    assert code and len(code.splitlines()) <= 2


@pytest.mark.parametrize("task", TASKS)
def test_random_skill_calls_do_not_succeed(task):
    assert not run_random(task, seed=3).get("success")


@pytest.mark.slow  # 5-30 s each on 2 cores: outside the fast subset
@pytest.mark.parametrize("task", TASKS)
def test_blind_replay_of_seed_0_fails_on_other_seeds(task):
    _, codes = run_oracle(task, 0)
    assert not any(run_replay(task, codes, seed).get("success") for seed in (1, 2, 3))


@pytest.mark.slow  # 5-30 s each on 2 cores: outside the fast subset
@pytest.mark.parametrize("task", ["Cultivation", "Shopping", "FarmClearup"])
def test_seeds_move_the_objects_and_change_the_oracles_calls(task):
    assert overlap(task, range(5)) <= 0.3
    runs = {tuple(run_oracle(task, seed)[1]) for seed in (1, 2)}
    assert len(runs) == 2


def test_count_variant_runs_all_100_steps_and_reports_cleared():
    info, sent = run_oracle("FarmClearup", 0, variant="farm_clearup:count")
    assert info["steps"] == 100 and not info["success"]
    assert info["metrics"]["cleared"] > 2 * tasks.CLEARUP_TARGET
    kinds = {k for k, v in info["metrics"].items() if k.startswith("cleared_") and v > 0}
    assert {"cleared_weeds", "cleared_twig", "cleared_stone"} <= kinds  # scythe, axe, pickaxe


def test_random_policy_of_the_native_action_space_does_not_succeed():
    from agents.evaluate import evaluate

    (rec,) = evaluate("GCC/Stardew-Cultivation", "random", seeds=[0], video=False, progress=False)
    assert not rec.success and rec.steps == 100


def test_the_frame_reader_refuses_frames_too_small_to_read():
    env = gym.make("GCC/Stardew-Shopping", obs_size=(84, 84))
    obs, info = env.reset(seed=0)
    policy = agents.make_policy("scripted", env)
    policy.reset(info)
    with pytest.raises(gcc_envs.GCCError, match="too small"):
        policy.act(obs, info)


def test_the_frame_reader_looks_around_when_a_hud_panel_hides_the_farmer():
    """Shopping's seed 345 starts the farmer at the map's top right, under the clock panel at
    180x320: the frame-only script steps to bring it into view, then plays on and succeeds."""
    env = gym.make("GCC/Stardew-Shopping", obs_size=(180, 320))
    try:
        obs, info = env.reset(seed=345)
        policy = agents.make_policy("scripted", env, privileged=False)
        policy.reset(info)
        assert policy.act(obs, info) == "move_down(duration=0.3)"
    finally:
        env.close()
    info, _ = run_oracle("Shopping", 345, privileged=False, size=(180, 320))
    assert info["success"]
