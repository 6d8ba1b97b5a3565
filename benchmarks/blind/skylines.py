"""Cities: Skylines' blind policies: a fixed city sent through the skills without looking.

``benchmarks/reference_policies.py`` runs each as a ``game-blind`` column (``POLICIES``: name ->
``seed -> act(obs, info) -> skill code text``). The frame is used for its size only (where the
pixels of a cell are), never for what it shows. A fair task is lost by all of them.

* ``seed0_plan``: the planner's city for seed 0's plot (its roads, pumps, turbines, pipes and
  zones), every preview confirmed without looking, then ``DONE``;
* ``seed0_mirrored``: the same city mirrored left to right (a guess that the sea lies on the
  other side), so one of the two always has the sea on the side it assumed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import gymnasium as gym
import numpy as np

import gcc_envs  # noqa: F401  (registers the ids)
from agents.scripted.skylines_blueprint import blueprint
from gcc_envs.games.skylines.sim import layout
from gcc_envs.games.skylines.skills import SKILLS

Act = Callable[[np.ndarray, dict], str]
Placement = tuple[str, tuple[tuple[int, int], ...]]


@lru_cache(maxsize=4)
def seed0_placements(task: str) -> tuple[Placement, ...]:
    """The planner's placements on seed 0's plot of ``task`` (``build_city`` or ``block``)."""
    env = gym.make("GCC/Skylines-BuildCity", task=task, obs_size=(72, 128))
    try:
        env.reset(seed=0)
        return tuple((s.skill, s.cells) for s in blueprint(env.unwrapped.backend.probe()))
    finally:
        env.close()


def _task(info: dict) -> str:
    """The task, from its instruction (what the agent is told)."""
    return "block" if "block" in str(info.get("instruction", "")).lower() else "build_city"


def _call(skill: str, cells: tuple[tuple[int, int], ...], H: int, W: int) -> str:
    values = [v for c, r in cells for v in layout.cell_centre(c, r, W, H)]
    names = [p.name for p in SKILLS[skill].params]
    return f"{skill}({', '.join(f'{k}={v}' for k, v in zip(names, values))})"


def _plan(mirror: bool) -> Callable[[int], Act]:
    def make(seed: int) -> Act:
        del seed
        calls: list[str] | None = None

        def act(obs: np.ndarray, info: dict) -> str:
            nonlocal calls
            if calls is None:
                H, W = np.asarray(obs).shape[:2]
                calls = []
                for skill, cells in seed0_placements(_task(info)):
                    if mirror:
                        cells = tuple((layout.COLS - 1 - c, r) for c, r in cells)
                    calls += [_call(skill, cells, H, W), "confirm_placement()"]
                calls.reverse()
            return calls.pop() if calls else "DONE"

        return act

    return make


POLICIES: dict[str, Callable[[int], Act]] = {
    "seed0_plan": _plan(mirror=False),
    "seed0_mirrored": _plan(mirror=True),
}
