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
    assert [tuple(r.seeds) for r in s.runs] == [(3, 1), (5, 6, 7), (0, 1)]


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
    assert dict(a.kwargs) == {"obs_size": [72, 128], "time_mode": "lockstep"} and tuple(
        a.seeds
    ) == (0,)
    assert tuple(b.seeds) == (0, 1)  # the run's own episodes replace the default seeds


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"', "needs 'seeds'"),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [1, 1]', "a seed twice"),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [0]\nsteps = 3', "unknown field"),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [0]\nmax_steps = 0', "max_steps"),
        ('name = "r"\nenv = "GCC/X"\nseeds = [0]', "'policy'"),
        (
            'name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [0]\nepisodes = 2',
            "not both",
        ),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nseed = 3', "goes with 'episodes'"),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = { start = 0 }', "start = S"),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nepisodes = 0', "positive integer"),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [0]\nkwargs = 3', "table"),
        ('name = "r"\nenv = "GCC/X"\npolicy = "random"\nseeds = [0]\nper_task = 1', "true or"),
    ],
)
def test_a_bad_run_is_an_error_naming_the_file_the_run_and_the_problem(body, problem) -> None:
    with pytest.raises(DataError, match=problem) as e:
        suite(f"[[run]]\n{body}\n")
    assert str(e.value).startswith("test.toml: run ")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[[run]\nname = 1", "not valid TOML"),
        ("[runs]\nx = 1\n[[run]]\nname = 'r'", "unknown top-level keys \\['runs'\\]"),
        ("[defaults]\nsteps = 3\n[[run]]\nname = 'r'", "\\[defaults\\]: unknown keys"),
        ("[suite]\nname = ''\n[[run]]\nname='r'\nenv='E'\npolicy='random'\nseeds=[0]", "non-empty"),
    ],
)
def test_a_bad_suite_file_is_an_error_naming_the_file(text: str, problem: str) -> None:
    with pytest.raises(DataError, match=problem) as e:
        suite(text)
    assert str(e.value).startswith("test.toml: ")


def test_a_missing_suite_file_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read suite file .*nope.toml"):
        load_suite(tmp_path / "nope.toml")


def test_only_seeded_policies_get_the_episode_seed_and_a_suite_is_named_by_its_file() -> None:
    s = suite(
        """
        [defaults]
        env = "GCC/Stardew-Shopping"
        seeds = [4]
        [[run]]
        name = "sb3"
        policy = "sb3"
        policy_kwargs = { model_path = "m.zip" }
        [[run]]
        name = "llm"
        policy = "cradle"
        policy_kwargs = { model = "m", seed = 9 }
        """
    )
    assert s.name == "test"
    sb3, llm = expand(s)
    assert dict(sb3.policy_kwargs) == {"model_path": "m.zip", "seed": 4}
    assert dict(llm.policy_kwargs) == {"model": "m", "seed": 9}  # cradle's own, kept as given
    assert sb3.key == "sb3|GCC/Stardew-Shopping||4" and sb3.digest() != llm.digest()


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


def test_env_may_list_ids_and_globs_each_of_which_must_match() -> None:
    s = suite(
        '[[run]]\nname = "r"\npolicy = "random"\nseeds = [0]\n'
        'env = ["GCC/Stardew-Shopping", "GCC/Stardew-*", "GCC/RDR2-Mission3"]\n'
    )
    ids = [e.env_id for e in expand(s)]
    assert ids[0] == "GCC/Stardew-Shopping" and ids[-1] == "GCC/RDR2-Mission3"
    assert len(ids) == 4 == len(set(ids))  # an id named twice runs once
    bad = suite(
        '[[run]]\nname = "r"\npolicy = "random"\nseeds = [0]\n'
        'env = ["GCC/Stardew-*", "GCC/Nope-*"]\n'
    )
    with pytest.raises(DataError, match="'GCC/Nope-\\*' matches no registered id"):
        expand(bad)
    with pytest.raises(DataError, match="a non-empty string or a list"):
        suite('[[run]]\nname = "r"\npolicy = "random"\nseeds = [0]\nenv = [1]\n')


def test_select_keeps_the_runs_a_glob_names_and_refuses_a_name_no_run_has() -> None:
    from agents.bench.suite import select

    s = load_suite(SUITES / "smoke.toml")
    assert [r.name for r in select(s, ["*-random"]).runs] == ["stardew-random"]
    assert select(s, []) == s
    with pytest.raises(DataError, match="no run is named 'nope'"):
        select(s, ["nope"])


SHIPPED = ["smoke.toml", "paper.toml", "stardew_scripted.toml", "osworld.toml", "apps.toml"]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_suites_parse_and_expand(name: str) -> None:
    eps = expand(load_suite(SUITES / name))
    assert eps and len({e.key for e in eps}) == len(eps)
    assert {e.policy for e in eps} <= {"random", "scripted", "cradle"}
    # a game's run uses its scripted oracle and random; LMM runs only where the paper has no oracle
    assert "cradle" not in {e.policy for e in eps} or name in ("osworld.toml", "apps.toml")


def test_the_desktop_suites_files_cover_every_registered_suite_task_with_each_policy() -> None:
    from gcc_envs.core.spec import SuiteSpec, load
    from gcc_envs.registration import SPECS

    shipped = [load(path) for path in SPECS]  # not the tests' own toy suite
    wanted = {
        t.env_id(spec.title)
        for spec in shipped
        if isinstance(spec, SuiteSpec)
        for t in spec.tasks
        if t.registered
    }
    eps = expand(load_suite(SUITES / "osworld.toml")) + expand(load_suite(SUITES / "apps.toml"))
    for policy in ("random", "cradle"):
        assert {e.env_id for e in eps if e.policy == policy} == wanted, policy
    apps = [e for e in eps if e.run.endswith("-random") and e.run != "osworld-random"]
    assert {e.seed for e in apps} == set(range(5))  # five runs each, as the paper's Table 15


def test_osworld_tasks_carry_their_domain_as_the_group() -> None:
    eps = expand(load_suite(SUITES / "osworld.toml"))
    for e in eps:
        domain = e.env_id.removeprefix("GCC/OSWorld-").rpartition("-")[0]
        assert e.task_info["group"] == domain
    assert {e.seed for e in eps} == {0}  # run once, as the OSWorld paper does


def test_task_info_reads_difficulty_expected_steps_and_parent_from_the_specs() -> None:
    from agents.bench.plan import task_info
    from gcc_envs.registration import spec_of

    assert task_info("GCC/RDR2-Mission1", "mission1:protect_dutch") == {
        "game": "RDR2",
        "difficulty": "hard",
        "expected_steps": None,
        "parent": "mission1",
        "group": "",
    }
    made = spec_of("GCC/Desktop-MakeFile").task("make_file")
    info = task_info("GCC/Desktop-MakeFile", None)
    assert info["game"] == "Desktop" and info["expected_steps"] == made.expected_steps
    assert task_info("GCC/Desktop", None)["expected_steps"] is None  # an open id: no task row
