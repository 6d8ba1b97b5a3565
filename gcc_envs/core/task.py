"""Tasks: what an episode asks for, how it is checked, scored and measured.

A task reads the backend's probe (a simulator's state, or a screen-reading checker on a real
desktop) and returns a :class:`TaskStatus`. The env turns consecutive statuses into reward:
``success_reward`` once on success plus ``shaping * Δprogress`` (documented in each env card),
and ends the episode on success or failure.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gcc_envs.errors import GCCError


@dataclass(frozen=True)
class TaskStatus:
    """Where an episode stands against its task."""

    #: Partial credit in [0, 1] (checkpoints reached, obstacles cleared, ...).
    progress: float = 0.0
    success: bool = False
    #: Reason the episode failed (``"passed out"``, ``"budget below ₡1000"``), else None.
    failure: str | None = None
    #: Index of the current checkpoint (0-based) for multi-checkpoint tasks.
    checkpoint: int = 0
    #: Named sub-goals and whether each holds now.
    flags: Mapping[str, bool] = field(default_factory=dict)
    #: Task metrics, reported in ``info`` at episode end.
    metrics: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0.0 <= self.progress <= 1.0:
            raise GCCError(f"progress must lie in [0, 1], got {self.progress}")

    def info(self) -> dict[str, Any]:
        """The ``info["task"]`` form."""
        return {"checkpoint": self.checkpoint, "flags": dict(self.flags)}


class Task(ABC):
    """One task of a game or application."""

    #: Short name, used in env ids (``Cultivation``).
    name: str = ""
    #: What a person would be told; goes to ``info["instruction"]`` at reset.
    instruction: str = ""
    #: Step limit (applied by Gymnasium's TimeLimit through the registry).
    max_steps: int = 100
    #: Game-time limit in seconds, or None; exceeding it truncates the episode.
    max_game_s: float | None = None
    #: Reward given once when the task succeeds.
    success_reward: float = 1.0
    #: False for a variant that only measures (never succeeds; its progress is the figure).
    scored: bool = True
    #: Reward per unit of progress gained (0 for a purely sparse task).
    shaping: float = 0.0
    #: True when the task cannot be done: only a final ``FAIL`` succeeds (OSWorld).
    infeasible: bool = False

    def reset_options(self) -> dict[str, Any]:
        """Options for the backend's reset (a simulator's scenario, a desktop's setup)."""
        return {}

    def begin(self, probe: Any) -> None:
        """Called at reset with the starting probe (remember what the episode started with)."""

    @abstractmethod
    def evaluate(self, probe: Any) -> TaskStatus:
        """Check the task against the backend's probe (after every step: keep it cheap)."""

    def final(self, probe: Any, status: TaskStatus) -> TaskStatus:
        """The last word, called once when the episode ends: success, failure, the agent's
        ``DONE``/``FAIL``, or the step limit. A costly check (a desktop task's checker, a
        person asked, a city left to grow) runs here; the default keeps ``status``."""
        return status

    def extra_info(self) -> dict[str, Any]:
        """Keys this task adds to every step's ``info`` (e.g. ``{"judge": "human"}``)."""
        return {}

    def reward(self, before: TaskStatus, after: TaskStatus) -> float:
        """Reward for going from ``before`` to ``after`` (sparse success + shaping)."""
        r = self.shaping * (after.progress - before.progress)
        if after.success and not before.success:
            r += self.success_reward
        return float(r)
