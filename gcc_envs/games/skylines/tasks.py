"""Cities: Skylines' task table: the Cradle paper's first-turn city build, and one block.

During the build the task reports the paper's metrics on the city as it stands (the supply
checks as if every zoned cell were built up: whether it *will* work). When the episode ends —
the agent's ``DONE``, the step limit, or the budget under the floor — the env calls
:meth:`CityTask.finish`, which unpauses the city for the scenario's ``growth_weeks`` and
measures again: success needs all five metrics, with the scenario's target population.

Progress (shaping ``0.5 × Δprogress``) is the mean of: roads in a closed loop, water
sufficient, electricity sufficient, ``min(1, zoned_fraction / 0.9)``, and
``min(1, max_population / target)``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.games.skylines.sim.assist import assisted
from gcc_envs.games.skylines.sim.growth import grow
from gcc_envs.games.skylines.sim.metrics import all_met, metrics

SHAPING = 0.5
FLAGS = ("roads_closed_loop", "water_sufficient", "electricity_sufficient", "zones_over_90")


class CityTask(Task):
    """Build, then let the city grow; scored by the paper's metrics."""

    scenario = "city"
    shaping = SHAPING

    def __init__(self) -> None:
        self._final: TaskStatus | None = None
        self._broke = False

    @property
    def finished(self) -> bool:
        return self._final is not None

    def reset_options(self) -> dict[str, Any]:
        return {"scenario": self.scenario}

    def begin(self, probe: Any) -> None:
        self._final = None
        self._broke = False

    def evaluate(self, probe: Any) -> TaskStatus:
        if self._final is not None:
            return self._final
        scn = probe.scenario
        self._broke |= probe.budget < scn.floor
        m = metrics(probe)
        flags = {k: bool(m[k]) for k in FLAGS}
        flags["population_target"] = m["max_population"] >= scn.target_population
        parts = [
            float(flags["roads_closed_loop"]),
            float(flags["water_sufficient"]),
            float(flags["electricity_sufficient"]),
            min(1.0, m["zoned_fraction"] / 0.9),
            min(1.0, m["max_population"] / scn.target_population),
        ]
        m = {**m, "target_population": float(scn.target_population)}
        return TaskStatus(
            progress=sum(parts) / len(parts),
            success=not self._broke and all_met(m, scn.target_population),
            failure=f"budget below ₡{scn.floor:,}" if self._broke else None,
            checkpoint=sum(flags.values()),
            flags=flags,
            metrics=m,
        )

    def final(self, probe: Any, status: TaskStatus) -> TaskStatus:
        """The episode's end (DONE, the step limit, the budget): the city grows, then it is
        scored (:meth:`finish`)."""
        return self.finish(probe)

    def finish(self, probe: Any) -> TaskStatus:
        """Run the growth simulation once (for ``growth_weeks``) and return the final status.

        The metrics also get ``max_population_assisted``: the same weeks after up to three
        scripted fixes of the city as built (:mod:`~gcc_envs.games.skylines.sim.assist`).
        """
        if self._final is None:
            weeks = probe.scenario.growth_weeks
            helped, ops = assisted(probe, weeks)
            grow(probe, weeks)
            st = self.evaluate(probe)
            extra = {"max_population_assisted": float(max(helped, probe.max_population)),
                     "assist_operations": float(len(ops))}  # fmt: skip
            self._final = replace(st, metrics={**st.metrics, **extra})
        return self._final


class BuildCity(CityTask):
    name = "BuildCity"
    instruction = (
        "Build a city that can support as many people as possible: starting from the highway's "
        "entry and exit with ₡70,000, build two-lane roads in a closed loop, electricity (wind "
        "turbines, power lines), water (a pumping station on the shoreline, pipes along the "
        "roads, a drain pipe on the shoreline) and zone the land by the roads for residential, "
        "commercial and industrial use. Keep the budget above ₡1,000. Say DONE when finished; "
        "the city then grows for a year."
    )
    max_steps = 1000
    scenario = "city"


class Block(CityTask):
    name = "Block"
    instruction = (
        "Build one city block on the small plot by the highway with ₡25,000: a two-lane road "
        "loop from the entry to the exit ramp, a wind turbine, a water pumping station and a "
        "drain pipe on the shoreline joined by pipes, and zones covering the land along the "
        "loop. Say DONE when finished; the block then grows for half a year."
    )
    max_steps = 200
    scenario = "block"


TASKS: dict[str, type[CityTask]] = {"build_city": BuildCity, "block": Block}


def make_task(key: str) -> CityTask:
    """A fresh task for ``key`` (``"build_city"`` or ``"block"``)."""
    return TASKS[key]()
