"""A toy game that lives only in the tests: the fake simulator behind a spec of its own.

It proves the seam: registered through ``register_spec`` by ``tests/conftest.py``, it passes
the registry and wrapper suites, which read everything they need from its ``GAME``.
"""

from __future__ import annotations

from typing import Any

from gcc_envs.core.events import KeyPress
from gcc_envs.core.profile import LiveProfile
from gcc_envs.core.skills import SkillLibrary
from gcc_envs.core.spec import GameSpec, PerfTargets, TaskSpec, WalkHint
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.games.game_env import GameEnv
from gcc_envs.testing import FAKE_KEYS

_HERE = "gcc_test_specs.toy_game"


class ReachCorner(Task):
    """Walk the dot into the top-left corner."""

    name = "ReachCorner"
    instruction = "Walk the green square into the top-left corner."
    max_steps = 60
    shaping = 0.5

    def evaluate(self, probe: Any) -> TaskStatus:
        d = max(probe.x, probe.y)
        return TaskStatus(progress=max(0.0, 1.0 - d), success=d < 0.05, metrics={"d": d})


def make_task(key: str) -> Task:
    return ReachCorner()


def walk_up(duration: float = 0.5):
    """Walk up for ``duration`` seconds."""
    return [KeyPress("w", duration)]


def walk_left(duration: float = 0.5):
    """Walk left for ``duration`` seconds."""
    return [KeyPress("a", duration)]


def walk_back(duration: float = 0.5):
    """Walk down and right, each for ``duration`` seconds."""
    return [KeyPress("s", duration), KeyPress("d", duration)]


def skills_for(profile: LiveProfile, real: bool) -> SkillLibrary:
    return SkillLibrary.from_functions(walk_up, walk_left, walk_back)


class ToyEnv(GameEnv):
    """A toy game for the tests: a green square walked with WASD (the fake simulator).

    ## Description
    The seed places the square; walking it into the top-left corner succeeds.
    """

    game_spec: Any = None  # set below, once GAME exists


GAME = GameSpec(
    key="toy",
    title="Toy",
    env_class=f"{_HERE}:ToyEnv",
    profile=LiveProfile(window_title="^Toy$", keys=FAKE_KEYS, max_mouse_px=20.0),
    tasks=(TaskSpec("reach_corner", "ReachCorner", max_steps=60, difficulty="easy"),),
    make_task=f"{_HERE}:make_task",
    make_skills=f"{_HERE}:skills_for",
    simulator="gcc_envs.testing:FakeSim",
    max_skill_calls=2,
    walk=WalkHint(
        "walk_up(duration=0.5)\nwalk_left(duration=0.5)",
        (("KeyPress", "w"), ("KeyPress", "a")),
        1.0,
        "walk_back(duration=0.5)",
    ),
    perf=PerfTargets(),
)
ToyEnv.game_spec = GAME
