"""RDR2's blind policies: skill calls sent without looking at the screen or the state.

``benchmarks/reference_policies.py`` runs each as a ``game-blind`` column (``POLICIES``: name ->
``seed -> act(obs, info) -> skill code text``). A fair checkpoint is lost by all of them.

* ``grid``: a uniformly random call of the skill grid (:data:`SKILL_GRID`'s every combination),
  drawn from a generator seeded by the episode's seed;
* ``cycle``: the calls that make progress somewhere, in a fixed round (move along the route,
  follow, use what is in front, climb, loot, fight), whatever the screen shows.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from gcc_envs.games.rdr2.skill_grid import SKILL_GRID

Act = Callable[[np.ndarray, dict], str]


def grid_calls() -> list[str]:
    """Every call of the skill grid as code text, in the grid's order."""
    out = []
    for name, params in SKILL_GRID.items():
        keys = list(params)
        for values in itertools.product(*(params[k] for k in keys)):
            args = ", ".join(f"{k}={v!r}" for k, v in zip(keys, values))
            out.append(f"{name}({args})")
    return out


def random_grid(seed: int) -> Act:
    calls = grid_calls()
    rng = np.random.default_rng(seed + 20_000)
    return lambda obs, info: calls[int(rng.integers(len(calls)))]


CYCLE = (
    "navigate_path(duration=5)",
    "follow(duration=5)",
    "interact()",
    "move_forward(duration=1.0)",
    "climb()",
    "loot()",
    "fight()",
    "turn(degree=90)",
)


def cycle(seed: int) -> Act:
    it = itertools.cycle(CYCLE)
    return lambda obs, info: next(it)


POLICIES: dict[str, Callable[[int], Act]] = {"grid": random_grid, "cycle": cycle}
