"""RDR2's task table: the Cradle paper's three missions and their checkpoints.

A mission is one episode over its checkpoints; ``progress`` is the share of checkpoints done
plus partial credit inside the current one (enemies down, supplies found, share of the way
covered; the simulator's ``mission.partial``), so 3 of 4 O'Driscolls down counts. Mission 3,
which has one checkpoint, counts its key points instead. Instructions say what the mission
asks, as the game's objective line does, never how (which key, which skill). Any checkpoint
alone is a task too, named ``<mission>:<checkpoint>`` (``mission1:protect_dutch``): the episode starts there with
everything before it done and ends when it is passed, so success rates can be measured per
checkpoint. Shaping is ``0.5 × Δprogress`` on top of ``+1`` for success (see the env card).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gcc_envs.core.spec import TaskSpec
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.errors import GCCError

SHAPING = 0.5
MAX_STEPS = 500


@dataclass(frozen=True)
class CheckpointRow:
    mission: str
    name: str
    difficulty: str  # "easy" or "hard", as the paper labels them
    summary: str


#: Every checkpoint, in mission order (the sim's mission files must list the same).
CHECKPOINTS: tuple[CheckpointRow, ...] = (
    CheckpointRow("mission1", "follow_dutch", "easy", "follow Dutch"),
    CheckpointRow("mission1", "hitch_horse", "easy", "hitch your horse"),
    CheckpointRow("mission1", "search_house", "hard", "search the house for supplies"),
    CheckpointRow("mission1", "protect_dutch", "hard", "protect Dutch"),
    CheckpointRow("mission1", "go_to_barn", "easy", "go to the barn"),
    CheckpointRow("mission1", "lead_horse", "hard", "get the horse out of the barn"),
    CheckpointRow("mission1", "follow_micah", "easy", "follow Micah"),
    CheckpointRow("mission1", "return_to_camp", "easy", "return to camp"),
    CheckpointRow("mission2", "follow_javier", "easy", "follow Javier"),
    CheckpointRow("mission2", "search_for_john", "hard", "search for John"),
    CheckpointRow("mission2", "carry_john", "hard", "get John onto a horse"),
    CheckpointRow("mission2", "kill_wolves", "hard", "fight off the wolves"),
    CheckpointRow("mission2", "return_to_camp", "easy", "return to camp"),
    CheckpointRow("mission3", "buy_supplies", "hard", "buy supplies in town"),
)

INSTRUCTIONS = {
    "mission1": (
        "Complete the mission 'Outlaws from the West': follow Dutch to the homestead, hitch your "
        "horse, search the house for supplies, protect Dutch, get the horse from the barn, "
        "follow Micah and ride back to camp."
    ),
    "mission2": (
        "Complete the mission 'Enter, Pursued by a Memory': follow Javier up the mountain, "
        "search for John, carry him to a horse, fight off the wolves and return to camp."
    ),
    "mission3": (
        "The camp is running low: go to town and buy supplies for the camp at the general store."
    ),
}
#: Cradle's success rates the papers report per checkpoint (seed 001: Protect Dutch 20 %).
PAPER_SUCCESS = {"protect_dutch": 0.2}
#: The evaluation profile for LMM agents (the spec's ``eval_kwargs``): in lockstep, a second
#: of game time passes before each action, the 0.5 s resume and 0.5 s pause animations of
#: Cradle's real-game loop, during which the world moves and the player cannot act.
EVAL_KWARGS = {"think_time": 1.0}
#: Mission 3's key points, in order, for partial credit.
MISSION3_KEYS = ("in_town", "in_store", "shop_opened", "bought")


def checkpoints(mission: str) -> tuple[CheckpointRow, ...]:
    return tuple(c for c in CHECKPOINTS if c.mission == mission)


class MissionTask(Task):
    """A whole mission (``checkpoint=None``) or one of its checkpoints alone."""

    max_steps = MAX_STEPS
    shaping = SHAPING

    def __init__(self, mission: str, checkpoint: str | None = None) -> None:
        rows = checkpoints(mission)
        if not rows:
            raise GCCError(f"unknown RDR2 mission {mission!r}; known: {sorted(INSTRUCTIONS)}")
        if checkpoint is not None and checkpoint not in [r.name for r in rows]:
            raise GCCError(
                f"{mission} has no checkpoint {checkpoint!r}; its checkpoints: "
                f"{[r.name for r in rows]}"
            )
        self.mission, self.checkpoint = mission, checkpoint
        self.rows = rows if checkpoint is None else tuple(r for r in rows if r.name == checkpoint)
        suffix = "" if checkpoint is None else f":{checkpoint}"
        self.name = mission.capitalize() + suffix
        if checkpoint is None:
            self.instruction = INSTRUCTIONS[mission]
        else:
            self.instruction = f"{INSTRUCTIONS[mission]} Now: {self.rows[0].summary}."
        self._keys: dict[str, bool] = {}

    def reset_options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"mission": self.mission}
        if self.checkpoint is not None:
            opts["checkpoint"] = self.checkpoint
        return opts

    def begin(self, probe: Any) -> None:
        self._keys = dict.fromkeys(MISSION3_KEYS, False)

    def evaluate(self, probe: Any) -> TaskStatus:
        ms = probe.mission
        total = len(self.rows)
        done = min(ms.index - ms.start_index, total)
        flags = {r.name: i < done for i, r in enumerate(self.rows)}
        if self.mission == "mission3":
            flags.update(self._mission3_keys(probe))
            progress = sum(self._keys.values()) / len(self._keys)
        else:
            progress = (done + (ms.partial if done < total else 0.0)) / total
        if ms.passed:
            progress = 1.0
        return TaskStatus(
            progress=progress,
            success=bool(ms.passed),
            failure=ms.failure,
            checkpoint=done,
            flags=flags,
            metrics={
                "checkpoints_done": float(done),
                "checkpoints_total": float(total),
                "health": float(probe.player.health),
                "game_time": float(probe.clock),
            },
        )

    def _mission3_keys(self, probe: Any) -> dict[str, bool]:
        k = self._keys
        areas, p = probe.map.areas, probe.player
        k["in_town"] |= "town" in areas and areas["town"].contains(p.x, p.y)
        k["in_store"] |= "store" in areas and areas["store"].contains(p.x, p.y)
        k["shop_opened"] |= bool(probe.ui.shop.open)
        k["bought"] |= probe.mission.counters.get("bought_supplies", 0) > 0
        return dict(k)


def make_task(key: str) -> MissionTask:
    """``mission1`` / ``mission2`` / ``mission3`` or ``<mission>:<checkpoint>``."""
    mission, _, checkpoint = key.partition(":")
    return MissionTask(mission, checkpoint or None)


def task_keys() -> list[str]:
    """Every task key: the missions, then each checkpoint alone."""
    return [*INSTRUCTIONS, *(f"{c.mission}:{c.name}" for c in CHECKPOINTS)]


_SCRIPT = "agents.scripted.rdr2:RDR2Script"
#: The task table: each mission (500 steps per checkpoint, the paper's limit per checkpoint
#: task), then each checkpoint alone (500 steps, run through its mission's id with ``task=``).
TABLE: tuple[TaskSpec, ...] = (
    *(
        TaskSpec(
            mission,
            mission.capitalize(),
            max_steps=MAX_STEPS * len(checkpoints(mission)),
            instruction=INSTRUCTIONS[mission],
            script=_SCRIPT,
        )
        for mission in INSTRUCTIONS
    ),
    *(
        TaskSpec(
            f"{c.mission}:{c.name}",
            f"{c.mission.capitalize()}:{c.name}",
            max_steps=MAX_STEPS,
            difficulty=c.difficulty,
            registered=False,
            parent=c.mission,
            script=_SCRIPT,
            paper_success=PAPER_SUCCESS.get(c.name),
        )
        for c in CHECKPOINTS
    ),
)


class TaskTable(Mapping[str, MissionTask]):
    """``TASKS[key]`` builds a fresh task for any key of :func:`task_keys` (tasks keep state)."""

    def __getitem__(self, key: str) -> MissionTask:
        if key not in task_keys():
            raise KeyError(key)
        return make_task(key)

    def __iter__(self) -> Iterator[str]:
        return iter(task_keys())

    def __len__(self) -> int:
        return len(task_keys())


TASKS = TaskTable()
