"""What the spec-driven suites read about the registered ids: everything comes from the specs
(``gcc_envs.registration``), so a new game or suite is covered the day it is registered."""

from __future__ import annotations

import shutil

import gymnasium as gym
import pytest

import gcc_envs
from gcc_envs.core.spec import GameSpec, SuiteSpec, WalkHint
from gcc_envs.registration import spec_of, specs, task_of


def ids(default_backend: str | None = None) -> list[str]:
    return gcc_envs.env_ids(default_backend)


def registry_ids() -> list[str]:
    """What the registry suite checks: every game id, and of each desktop suite its open id and
    its first task (a suite's tasks share one env class; each suite tests all its own tasks,
    each of which starts real programs and takes seconds to reset)."""
    out = [i for i in gcc_envs.env_ids() if spec_of(i).default_backend == "sim"]
    for suite in suites():
        first = next((t for t in suite.tasks if t.registered), None)
        out += [i for i in (suite.open_id, first and first.env_id(suite.title)) if i]
    return out


def sim_ids() -> list[str]:
    return gcc_envs.env_ids("sim")


def games() -> list[GameSpec]:
    return [s for s in specs().values() if isinstance(s, GameSpec)]


def suites() -> list[SuiteSpec]:
    return [s for s in specs().values() if isinstance(s, SuiteSpec)]


def walk_of(env_id: str) -> WalkHint:
    spec = spec_of(env_id)
    assert isinstance(spec, GameSpec) and spec.walk is not None, f"{env_id} has no walk hint"
    return spec.walk


def walking_ids() -> list[str]:
    """Sim ids whose game says how to walk (the wrapper suites' skill calls)."""
    return [i for i in sim_ids() if getattr(spec_of(i), "walk", None) is not None]


def still_ids() -> list[str]:
    """Sim ids whose screen stands still while nobody acts (a simulated desktop does)."""
    return [i for i in sim_ids() if not getattr(spec_of(i), "moves_on_its_own", False)]


def programs_of(env_id: str) -> list[str]:
    """The programs a desktop task's setup launches (argv[0] of its launch steps)."""
    row = task_of(env_id)
    setup = getattr(row, "setup", ())
    return [str(s.args["argv"][0]) for s in setup if s.kind == "launch"]


def desktop_param(env_id: str) -> object:
    """``env_id`` as a pytest param, marked desktop and skipped when Xvfb or a program the
    task launches is missing."""
    if spec_of(env_id).default_backend == "sim":
        return env_id
    missing = [p for p in ("Xvfb", *programs_of(env_id)) if shutil.which(p) is None]
    marks = [pytest.mark.desktop]
    if missing:
        marks.append(pytest.mark.skipif(True, reason=f"not installed: {', '.join(missing)}"))
    return pytest.param(env_id, marks=marks)


def step_limit(env_id: str) -> int:
    return int(gym.spec(env_id).max_episode_steps)
