"""Stardew Valley's task table: the Cradle paper's three early-game tasks.

Each task reads the simulator's state (the backend's probe) and reports progress, success and
metrics. Shaping is ``0.5 × Δprogress`` on top of ``+1`` for success (see the env card).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gcc_envs.core.spec import TaskSpec
from gcc_envs.core.task import Task, TaskStatus

#: Obstacles FarmClearup must clear to count as a success (the paper reports the count). About
#: three steps per obstacle for an agent that moves, picks the tool and swings: 20 in 100 steps
#: leaves room for mistakes while a wandering policy clears none.
CLEARUP_TARGET = 20
#: Nights a watered parsnip needs to ripen.
PARSNIP_NIGHTS = 4
SHAPING = 0.5


def _total(counts: Any) -> int:
    return int(sum(counts.values())) if counts else 0


class FarmClearup(Task):
    name = "FarmClearup"
    instruction = (
        "Clear the obstacles on the farm, such as weeds, stones and trees, as much as possible "
        "to prepare for farming."
    )
    max_steps = 100
    shaping = SHAPING

    def reset_options(self) -> dict[str, Any]:
        return {"scenario": "farm_clearup"}

    def evaluate(self, probe: Any) -> TaskStatus:
        stats = probe.stats
        cleared = _total(stats.cleared)
        metrics = {
            "cleared": float(cleared),
            "energy_used": float(probe.player.max_energy - probe.player.energy),
        }
        metrics.update(
            {f"cleared_{k}": float(stats.cleared.get(k, 0)) for k in sorted(probe.data.obstacles)}
        )
        return TaskStatus(
            progress=min(1.0, cleared / CLEARUP_TARGET),
            success=cleared >= CLEARUP_TARGET,
            flags={"target_reached": cleared >= CLEARUP_TARGET},
            metrics=metrics,
        )


class FarmClearupCount(FarmClearup):
    """The paper's measure: every obstacle cleared in all 100 steps (``metrics["cleared"]``);
    the episode never ends early on a target (``task="farm_clearup:count"``)."""

    name = "FarmClearupCount"
    scored = False

    def evaluate(self, probe: Any) -> TaskStatus:
        st = super().evaluate(probe)
        total = max(1, int(probe.initial_obstacles.get("farm", 0)))
        return replace(
            st, success=False, progress=min(1.0, st.metrics["cleared"] / total), flags={}
        )


class Cultivation(Task):
    name = "Cultivation"
    instruction = (
        "Use the hoe to till the soil, use a parsnip seed packet on the tilled soil to sow a "
        "crop, water the crop every day and harvest at least one parsnip."
    )
    max_steps = 100
    shaping = SHAPING

    def __init__(self) -> None:
        self._nights = 0

    def reset_options(self) -> dict[str, Any]:
        return {"scenario": "cultivation"}

    def begin(self, probe: Any) -> None:
        self._nights = 0

    def evaluate(self, probe: Any) -> TaskStatus:
        stats = probe.stats
        soil = probe.locations["farm"].soil.values()
        now = max((s.crop.days for s in soil if s.crop is not None), default=0)
        # harvesting removes the crop: remember the most nights any crop has grown
        self._nights = nights = max(self._nights, now)
        harvested = int(stats.harvested)
        flags = {
            "tilled": stats.tilled > 0,
            "planted": stats.planted > 0,
            # watering counts only on sown soil (or a crop the rain watered that grew)
            "watered": stats.watered_crops > 0 or nights > 0,
            "ripe": nights >= PARSNIP_NIGHTS or harvested > 0,
            "harvested": harvested > 0,
        }
        grown = 1.0 if harvested else min(nights, PARSNIP_NIGHTS) / PARSNIP_NIGHTS
        parts = [flags["tilled"], flags["planted"], flags["watered"], grown, flags["harvested"]]
        progress = sum(float(p) for p in parts) / len(parts)
        return TaskStatus(
            progress=progress,
            success=harvested > 0,
            checkpoint=sum(bool(p) for p in parts[:3]) + int(flags["ripe"]),
            flags=flags,
            metrics={
                "harvested": float(harvested),
                "planted": float(stats.planted),
                "days": float(probe.day),
                "nights_grown": float(nights),
            },
        )


class Shopping(Task):
    name = "Shopping"
    instruction = (
        "Go to the general store in the town, which is on another map, buy parsnip seeds and "
        "return home."
    )
    max_steps = 100
    shaping = SHAPING

    def __init__(self) -> None:
        self._reached_town = False
        self._reached_store = False

    def reset_options(self) -> dict[str, Any]:
        return {"scenario": "shopping"}

    def begin(self, probe: Any) -> None:
        self._reached_town = self._reached_store = False

    def evaluate(self, probe: Any) -> TaskStatus:
        loc = probe.location
        self._reached_town |= loc in ("town", "store")
        self._reached_store |= loc == "store"
        bought = int(probe.stats.bought.get("parsnip_seeds", 0))
        home = loc == "farmhouse"
        flags = {
            "in_town": self._reached_town,
            "in_store": self._reached_store,
            "bought": bought > 0,
            "home": home and bought > 0,
        }
        done = sum(flags.values())
        return TaskStatus(
            progress=done / len(flags),
            success=flags["home"],
            checkpoint=done,
            flags=flags,
            metrics={"seeds_bought": float(bought), "money": float(probe.money)},
        )


TASKS: dict[str, type[Task]] = {
    "farm_clearup": FarmClearup,
    "farm_clearup:count": FarmClearupCount,
    "cultivation": Cultivation,
    "shopping": Shopping,
}

_SCRIPTS = "agents.scripted.stardew"
#: The task table: the paper gives each Stardew task 100 steps and no difficulty label. A
#: ``<task>:<variant>`` key runs through its task's id (``task="farm_clearup:count"``).
TABLE: tuple[TaskSpec, ...] = tuple(
    TaskSpec(
        key,
        cls.name,
        max_steps=cls.max_steps,
        instruction=cls.instruction,
        registered=":" not in key,
        parent=key.partition(":")[0] if ":" in key else "",
        script=f"{_SCRIPTS}:{TASKS[key.partition(':')[0]].name}Script",
        scored=cls.scored,
    )
    for key, cls in TASKS.items()
)


def make_task(key: str) -> Task:
    """A fresh task for ``key`` (tasks keep per-episode state)."""
    return TASKS[key]()
