"""Suite files: parsed into runs with clear errors, expanded into episodes with full settings."""

from __future__ import annotations

from pathlib import Path

import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.bench import expand, load_suite, parse_suite
from agents.bench.plan import redact
from gcc_envs.errors import DataError

SUITES = Path(__file__).resolve().parents[3] / "benchmarks" / "suites"


def suite(text: str):
    return parse_suite(text, "test.toml")


def test_seeds_come_as_a_list_a_range_or_episodes_from_a_first_seed() -> None:
    s = suite(
        """
        [[run]]
        name = "list"
        env = "GCC/Stardew-Shopping"
        policy = "random"
        seeds = [3, 1]
        [[run]]
        name = "range"
        env = "GCC/Stardew-Shopping"
        policy = "random"
        seeds = { start = 5, count = 3 }
        [[run]]
        name = "episodes"
        env = "GCC/Stardew-Shopping"
        policy = "random"
        episodes = 2
        """
    )
    assert [r.seeds for r in s.runs] == [(3, 1), (5, 6, 7), (0, 1)]


def test_defaults_merge_into_runs_and_kwargs_merge_key_by_key() -> None:
    s = suite(
        """
        [defaults]
        seeds = [0]
        kwargs = { obs_size = [90, 160], time_mode = "lockstep" }
        [[run]]
        name = "a"
        env = "GCC/Stardew-Shopping"
        policy = "random"
        kwargs = { obs_size = [72, 128] }
        [[run]]
        name = "b"
        env = "GCC/Stardew-Shopping"
        policy = "random"
        episodes = 2
        """
    )
    a, b = s.runs
    assert dict(a.kwargs) == {"obs_size": [72, 128], "time_mode": "lockstep"} and a.seeds == (0,)
    assert b.seeds == (0, 1)  # the run's own episodes replace the default seeds


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"', "needs 'seeds'"),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [1, 1]', "a seed twice"),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [0]\nsteps = 3', "unknown keys"),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [0]\nmax_steps = 0', "max_steps"),
        ('name = "r"\nenv = "GCC/X"\nseeds = [0]', "'policy'"),
        (
            'name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [0]\nepisodes = 2',
            "not both",
        ),
    ],
)
def test_a_bad_run_is_an_error_naming_the_file_the_run_and_the_problem(body, problem) -> None:
    with pytest.raises(DataError, match=problem) as e:
        suite(f"[[run]]\n{body}\n")
    assert str(e.value).startswith("test.toml: run ")


def test_a_suite_without_runs_or_with_twice_the_same_name_is_an_error() -> None:
    with pytest.raises(DataError, match="no \\[\\[run\\]\\]"):
        suite("[suite]\nname = 'x'\n")
    run = '[[run]]\nname = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [0]\n'
    with pytest.raises(DataError, match="unique"):
        suite(run + run)


def test_a_glob_expands_over_the_registered_ids_and_each_seed_is_an_episode() -> None:
    s = suite('[[run]]\nname = "r"\nenv = "GCC/Stardew-*"\npolicy = "random"\nseeds = [0, 1]\n')
    eps = expand(s)
    assert len(eps) == 6 and {e.env_id for e in eps} == {
        "GCC/Stardew-FarmClearup",
        "GCC/Stardew-Cultivation",
        "GCC/Stardew-Shopping",
    }
    assert len({e.key for e in eps}) == 6
    assert [e.policy_kwargs["seed"] for e in eps[:2]] == [0, 1]  # the policy gets the seed
    assert all(e.task_info["game"] == "Stardew" for e in eps)


def test_an_env_that_matches_nothing_is_an_error() -> None:
    s = suite('[[run]]\nname = "r"\nenv = "GCC/Nope-*"\npolicy = "random"\nseeds = [0]\n')
    with pytest.raises(DataError, match="matches no registered id"):
        expand(s)


def test_per_task_runs_each_checkpoint_alone_with_its_difficulty_and_step_limit() -> None:
    s = suite(
        '[[run]]\nname = "r"\nenv = "GCC/RDR2-Mission1"\npolicy = "scripted"\nseeds = [0]\n'
        "per_task = true\nkwargs = { obs_size = [90, 160] }\n"
    )
    eps = expand(s)
    assert len(eps) == 8
    protect = next(e for e in eps if e.task == "mission1:protect_dutch")
    assert protect.env_kwargs["task"] == "mission1:protect_dutch"
    assert protect.env_kwargs["max_episode_steps"] == 500
    assert protect.task_info["difficulty"] == "hard"
    assert protect.task_info["parent"] == "mission1"
    assert protect.policy_kwargs["privileged"] is True


def test_max_steps_becomes_the_step_limit_and_secrets_are_masked_in_the_config() -> None:
    s = suite(
        '[[run]]\nname = "r"\nenv = "GCC/Stardew-Shopping"\npolicy = "random"\nseeds = [0]\n'
        'max_steps = 7\npolicy_kwargs = { api_key = "sk-123", model = "m" }\n'
    )
    (ep,) = expand(s)
    assert ep.env_kwargs["max_episode_steps"] == 7
    assert ep.config()["policy_kwargs"]["api_key"] == "***"
    assert ep.config()["policy_kwargs"]["model"] == "m"
    assert redact({"api_key_env": "OPENAI_API_KEY"}) == {"api_key_env": "OPENAI_API_KEY"}


@pytest.mark.parametrize("name", ["smoke.toml", "paper.toml", "stardew_scripted.toml"])
def test_shipped_suites_parse_and_expand(name: str) -> None:
    eps = expand(load_suite(SUITES / name))
    assert eps and len({e.key for e in eps}) == len(eps)
    assert {e.policy for e in eps} <= {"random", "scripted"}


def test_task_info_reads_difficulty_expected_steps_and_parent_from_the_specs() -> None:
    from agents.bench.plan import task_info
    from gcc_envs.registration import spec_of

    assert task_info("GCC/RDR2-Mission1", "mission1:protect_dutch") == {
        "game": "RDR2",
        "difficulty": "hard",
        "expected_steps": None,
        "parent": "mission1",
    }
    made = spec_of("GCC/Desktop-MakeFile").task("make_file")
    info = task_info("GCC/Desktop-MakeFile", None)
    assert info["game"] == "Desktop" and info["expected_steps"] == made.expected_steps
    assert task_info("GCC/Desktop", None)["expected_steps"] is None  # an open id: no task row
