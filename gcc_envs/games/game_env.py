"""``GameEnv``: what every game's env does with its live profile, skills and task table.

A game's env class sets class attributes (``title``, ``TASKS``, ``default_task``,
``profile``, ``skill_library``, ``max_skill_calls``, ``skill_grid``), builds a task from a
key in :meth:`make_task`, and carries its card as its docstring. The keys, the mouse scale and
the mouse kind (absolute pointer or camera) all come from the profile, so the simulated game
and the real one are driven the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gcc_envs.core.backend import Backend
from gcc_envs.core.env import GCCEnv, ThinkTime
from gcc_envs.core.profile import LiveProfile
from gcc_envs.core.skills import SkillLibrary
from gcc_envs.core.task import Task
from gcc_envs.errors import GCCError


class GameEnv(GCCEnv):
    """A game's env, configured by its class attributes (see the module docstring)."""

    #: The game's name in error messages, e.g. ``"Stardew"``.
    title: str
    TASKS: Mapping[str, Any]
    default_task: str
    profile: LiveProfile
    skill_library: SkillLibrary

    def __init__(
        self,
        backend: Backend,
        task: str | None = None,
        *,
        action_mode: str = "state",
        time_mode: str = "lockstep",
        fps: float = 2.0,
        step_seconds: float = 0.25,
        think_time: ThinkTime = None,
        render_mode: str | None = None,
        shaping: float | None = None,
        **kwargs: Any,
    ) -> None:
        if kwargs:
            raise GCCError(f"{type(self).__name__} got unknown arguments: {sorted(kwargs)}")
        task = self.default_task if task is None else task
        if task not in self.TASKS:
            raise GCCError(f"unknown {self.title} task {task!r}; known: {list(self.TASKS)}")
        self.task_key = task
        super().__init__(
            backend,
            self.make_task(task),
            keys=self.profile.keys,
            skills=self.skill_library,
            action_mode=action_mode,
            time_mode=time_mode,
            fps=fps,
            step_seconds=step_seconds,
            max_mouse_px=self.profile.max_mouse_px,
            mouse=self.profile.mouse,
            think_time=think_time,
            render_mode=render_mode,
            shaping=shaping,
        )

    def make_task(self, key: str) -> Task:
        """A fresh task for ``key`` (tasks keep per-episode state)."""
        raise NotImplementedError
