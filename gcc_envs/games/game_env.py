"""``GameEnv``: what every game's env does with its :class:`~gcc_envs.core.spec.GameSpec`.

A game's env class sets ``game_spec`` (its folder's ``GAME``) and carries its card as its
docstring; the rest comes from the spec: the task table (``task=`` keys, a fresh task from
``make_task``), the keys, mouse scale and mouse kind of the live profile (so the simulated
game and the real one are driven the same way), the skill library built for the profile
(``real`` on a desktop, so a camera scale follows the real game), ``max_skill_calls`` and the
skill grid. A judge (a real screen's success check) decorates the task.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gcc_envs.core.backend import Backend
from gcc_envs.core.clock import WallClock
from gcc_envs.core.env import GCCEnv, ThinkTime
from gcc_envs.core.profile import LiveProfile
from gcc_envs.core.spec import GameSpec, load
from gcc_envs.core.task import Task
from gcc_envs.errors import GCCError


class GameEnv(GCCEnv):
    """A game's env, configured by its ``game_spec`` (see the module docstring)."""

    game_spec: ClassVar[GameSpec]

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
        judge: Any = None,
        wall_clock: WallClock | None = None,
        **kwargs: Any,
    ) -> None:
        if kwargs:
            raise GCCError(f"{type(self).__name__} got unknown arguments: {sorted(kwargs)}")
        spec = self.game_spec
        key = spec.default_task if task is None else task
        self.task_spec = spec.task(key)  # raises for an unknown key, listing the known ones
        self.task_key = key
        made: Task = load(spec.make_task)(key)
        if judge is not None:  # a real screen: success is the judge's call
            from gcc_envs.judges import JudgedTask

            made = JudgedTask(made, judge)
        profile = spec.profile
        grid = load(spec.skill_grid) if spec.skill_grid else None
        # a grid that names screen points is a function of the frame size (W, H)
        self.skill_grid = grid(*backend.size) if callable(grid) else grid
        #: Skill calls an agent may give per step (the paper's limit; ``UseSkills`` holds it).
        self.max_skill_calls = spec.max_skill_calls
        super().__init__(
            backend,
            made,
            keys=profile.keys,
            skills=load(spec.make_skills)(profile, not backend.clock_driven),
            action_mode=action_mode,
            time_mode=time_mode,
            fps=fps,
            step_seconds=step_seconds,
            max_mouse_px=profile.max_mouse_px,
            mouse=profile.mouse,
            think_time=think_time,
            render_mode=render_mode,
            shaping=shaping,
            wall_clock=wall_clock,
        )

    @property
    def game(self) -> str:
        """The game's key (``"stardew"``)."""
        return self.game_spec.key

    @property
    def title(self) -> str:
        return self.game_spec.title

    @property
    def profile(self) -> LiveProfile:
        return self.game_spec.profile

    @property
    def subtasks(self) -> tuple[str, ...]:
        """Keys of the tasks that are parts of this one (a mission's checkpoints)."""
        return tuple(t.key for t in self.game_spec.subtasks(self.task_key))

    @property
    def subtask_difficulty(self) -> dict[str, str]:
        return {t.key: t.difficulty for t in self.game_spec.subtasks(self.task_key)}
