"""The suite half of the seam on the toy suite (``tests/specs/toy_suite.py``): no X, no programs.

The same checks the desktop suites pass on real programs — a scripted solution that reads only
the instruction scores 1 on held-out seeds; doing nothing, random input and another seed's
input score 0; the episode's home is gone after reset and close; the checker reads only the
home — run here through ``SuiteEnv`` with the episode class and simulator the spec names.
"""

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from gcc_envs import Done, Hotkey, TypeText
from gcc_envs.apps.suite_env import SuiteEnv
from gcc_envs.core.spec import SetupStep
from gcc_envs.errors import GCCError
from gcc_envs.registration import spec_of

ID = "GCC/ToyDesktop-SaveNote"


def make():
    return gym.make(ID, obs_size=(90, 160))


def solution(instruction):
    return [TypeText(instruction.split("'")[1]), Hotkey(("ctrl", "s"))]


def finish(env, actions):
    for a in actions:
        *_, info = env.step(a)
        assert info["last_action_error"] is None
    _, reward, term, _, info = env.step(Done())
    assert term
    return info, reward


def test_the_spec_names_its_episode_and_simulator_and_gym_makes_a_suite_env() -> None:
    env = make()
    try:
        assert isinstance(env.unwrapped, SuiteEnv) and env.unwrapped.suite is spec_of(ID)
        assert type(env.unwrapped.backend).__name__ == "SimBackend"
    finally:
        env.close()


def test_the_scripted_solution_succeeds_and_nothing_random_and_replay_fail() -> None:
    env = make()
    try:
        seen, inputs = set(), {}
        for seed in (11, 12, 13):  # held out: the solution reads the instruction only
            _, info = env.reset(seed=seed)
            seen.add(info["instruction"])
            inputs[seed] = solution(info["instruction"])
            info, reward = finish(env, inputs[seed])
            assert info["score"] == 1.0 and info["success"] and reward == 1.0
            assert info["metrics"]["efficiency"] == pytest.approx(2 / 3)
        assert len(seen) == 3  # the seed varies what the agent must type

        env.reset(seed=11)
        info, reward = finish(env, [])
        assert info["score"] == 0.0 and reward == 0.0 and "never saved" in info["check_error"]

        _, info = env.reset(seed=12)  # seed 11's input, replayed: it types another phrase
        assert info["instruction"] != inputs[12] and inputs[11] != inputs[12]
        info, _ = finish(env, inputs[11])
        assert info["score"] == 0.0

        env.action_space.seed(0)
        for seed in (21, 22):
            env.reset(seed=seed)
            for _ in range(14):
                *_, term, trunc, info = env.step(env.action_space.sample())
                if term or trunc:
                    break
            assert not info["success"]
    finally:
        env.close()


def test_the_home_is_removed_at_reset_and_close_and_the_checker_reads_only_the_home() -> None:
    env = make()
    env.reset(seed=5)
    first = env.unwrapped.episode.home
    probe = env.unwrapped.backend.probe()
    assert probe.home == first and first.is_dir()
    assert not probe.exists("/etc/hostname") and not probe.exists("../../etc/hostname")
    with pytest.raises(GCCError, match="no file"):
        probe.read_file("../" * 8 + "etc/hostname")
    assert probe.run(["ls"]).returncode == 127  # no programs on the toy desktop
    env.reset(seed=6)
    second = env.unwrapped.episode.home
    assert not first.exists() and second.is_dir()
    env.close()
    assert not second.exists()


def test_a_setup_step_the_toy_desktop_cannot_run_is_refused_by_name() -> None:
    env = make()
    inner = env.unwrapped
    row = inner.task_spec
    bad = (*row.setup[:2], SetupStep("launch", {"argv": ["vim", "$name.txt"]}))
    inner.task_spec = type(row)(**{**vars(row), "setup": bad})
    try:
        with pytest.raises(GCCError, match="runs only 'notepad FILE'"):
            env.reset(seed=1)
        assert inner.episode is None  # the half-made episode was closed
    finally:
        env.close()


def test_a_suite_without_a_simulator_refuses_backend_sim() -> None:
    with pytest.raises(GCCError, match="has no simulator"):
        gym.make("GCC/Desktop-SaveText", backend="sim")
