"""``SuiteEnv``: a desktop task of a :class:`~gcc_envs.core.spec.SuiteSpec`, on real programs.

The class docstring is the card of every desktop suite's ids (a suite with its own env class
subclasses it).
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable
from typing import Any, SupportsFloat

import numpy as np

from gcc_envs.apps.episode import EpisodeDesktop
from gcc_envs.apps.setup import StepFn, expand, run_setup
from gcc_envs.core.backend import Backend
from gcc_envs.core.clock import WallClock
from gcc_envs.core.env import GCCEnv
from gcc_envs.core.spec import SuiteSpec, SuiteTask, load
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.errors import GCCError
from gcc_envs.judges import JudgedTask
from gcc_envs.sandbox import Limits

#: The ``state`` action mode's keys: letters, digits and the common named keys.
KEYS: tuple[str, ...] = (
    *string.ascii_lowercase,
    *string.digits,
    "enter",
    "esc",
    "tab",
    "space",
    "backspace",
    "up",
    "down",
    "left",
    "right",
    "shift",
    "ctrl",
    "alt",
)


class OpenTask(Task):
    """No success check: the instruction comes from ``reset(options={"instruction": ...})``."""

    name = "Open"
    instruction = "Use the computer as you are instructed."
    max_steps = 100

    def evaluate(self, probe: Any) -> TaskStatus:
        return TaskStatus()


class CheckedTask(Task):
    """A suite task: nothing is claimed while it runs; its checker judges the end state."""

    def __init__(self, row: SuiteTask, checker: Callable[..., Any]) -> None:
        self.row = row
        self.checker = checker
        self.name = row.name
        self.instruction = row.instruction
        self.max_steps = row.max_steps
        self.infeasible = row.infeasible
        #: The checker's arguments for this episode (the row's, with setup values filled in).
        self.args: dict[str, Any] = dict(row.checker_args)
        #: Why the last check scored 0 without judging (a file the agent never made), or None.
        self.check_error: str | None = None

    def evaluate(self, probe: Any) -> TaskStatus:
        return TaskStatus()

    def final(self, probe: Any, status: TaskStatus) -> TaskStatus:
        if status.success or status.failure:
            return status
        if self.infeasible:  # only the agent's FAIL succeeds; the env handles that signal
            return TaskStatus(metrics={"score": 0.0})
        self.check_error = None
        try:
            raw = self.checker(probe, **self.args)
        except GCCError as e:
            self.check_error, raw = str(e), 0.0
        score = float(raw)
        if not math.isfinite(score) or not 0.0 <= score <= 1.0:
            raise GCCError(f"checker {self.row.checker} returned {raw!r}; scores lie in [0, 1]")
        return TaskStatus(progress=score, success=score >= 1.0, metrics={"score": score})


class SuiteEnv(GCCEnv):
    """A desktop application task, run on real programs and judged by a program.

    ## Description
    Each id of a desktop suite (``GCC/<Suite>-<Task>``) is one task of the suite's table: at
    reset the env gives the episode a fresh home folder (``$HOME`` of every program it
    starts), runs the task's setup steps on its own virtual display (it starts Xvfb and a
    window manager when no ``display=`` is given), starts the programs and loopback servers the
    task needs, and makes the task's window the target. When the episode ends undecided (the
    agent's ``DONE``/``FAIL`` or the step limit) the suite's checker reads the end state —
    files in the home, the windows' titles, the screen, commands' output — through a
    :class:`~gcc_envs.core.probe.DesktopProbe` and scores it. ``GCC/Desktop`` is the open id:
    any window, no task (the instruction comes from ``reset(options={"instruction": ...})``).

    ## Action Space
    ``action_mode="event"`` (default): one computer_13 operation per step (see
    :class:`gcc_envs.core.spaces.EventActions`); coordinates are observation pixels, scaled to
    the window. ``action_mode="state"``: ``Dict(keys=MultiBinary(50), buttons, mouse, scroll)``
    over letters, digits and ``enter esc tab space backspace up down left right shift ctrl alt``.
    Every step also takes a ``Program``, a list of events, or pyautogui code text (parsed,
    never run).

    ## Observation Space
    ``Box(0, 255, (H, W, 3), uint8)``: the target window (or the whole screen) captured with
    ``mss`` and resized (INTER_AREA) to ``obs_size=(H, W)`` (default: the screen's size).

    ## Rewards
    ``+1`` once when the checker scores 1 at the end; 0 otherwise (``info["score"]`` holds the
    checker's score in [0, 1]). The open id always gives 0.

    ## Starting State
    What the task's setup leaves: its programs started, its files written, its window focused.

    ## Episode End
    Terminated on the agent's ``DONE``/``FAIL`` (an infeasible task succeeds only on ``FAIL``);
    truncated at the task's step limit. ``info["score"]``, ``info["success"]`` and
    ``info["metrics"]["efficiency"]`` (a person's steps / steps taken, on success) are set at
    the end. Every program and server of the episode is stopped and its home removed at the
    next reset and at ``close()``.

    ## Arguments
    ``task``; ``display`` (an X display name; ``None`` starts Xvfb + openbox),
    ``screen_size`` of that Xvfb (W, H), ``pause`` (``"none"`` by default: a desktop program
    does nothing while nobody acts; ``"signal"`` stops the target between steps), ``target``
    and ``launch`` (the open id), ``obs_size``, ``action_mode`` (``"event"``), ``time_mode``
    (``"paused"`` or ``"realtime"``; ``"lockstep"`` on a suite's simulated desktop), ``fps``,
    ``step_seconds`` (0.25), ``render_mode``.

    ## Version History
    * v0 (unversioned ids): first release (X11 only).
    """

    def __init__(
        self,
        backend: Backend,
        task: str = "open",
        *,
        suite: SuiteSpec,
        action_mode: str = "event",
        time_mode: str | None = None,
        fps: float = 2.0,
        step_seconds: float = 0.25,
        render_mode: str | None = None,
        judge: Any = None,
        wall_clock: WallClock | None = None,
        **kwargs: Any,
    ) -> None:
        if kwargs:
            raise GCCError(f"{type(self).__name__} got unknown arguments: {sorted(kwargs)}")
        self.suite = suite
        self.task_key = task
        self.task_spec: SuiteTask | None = None if task == "open" else suite.task(task)
        made: Task = OpenTask() if self.task_spec is None else self._make_task(self.task_spec)
        if judge is not None:
            made = JudgedTask(made, judge)
        self.episode: EpisodeDesktop | Any = None
        self._kinds: dict[str, StepFn] = load(suite.setup_steps)() if suite.setup_steps else {}
        if time_mode is None:  # a simulated desktop keeps time in lockstep, as games do
            time_mode = "lockstep" if getattr(backend, "clock_driven", False) else "paused"
        super().__init__(
            backend,
            made,
            keys=KEYS,
            action_mode=action_mode,
            time_mode=time_mode,
            fps=fps,
            step_seconds=step_seconds,
            render_mode=render_mode,
            wall_clock=wall_clock,
        )

    def _make_task(self, row: SuiteTask) -> Task:
        import importlib

        module = importlib.import_module(self.suite.checkers)
        checker = getattr(module, row.checker, None)
        if not callable(checker):
            raise GCCError(
                f"suite {self.suite.key}: no checker {row.checker!r} in {module.__name__}"
            )
        return CheckedTask(row, checker)

    # ------------------------------------------------------------------ episode
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        self._end_episode()
        if self.task_spec is not None:  # the last episode's windows are gone
            retarget = getattr(self.backend, "retarget", None)
            if retarget is not None:
                retarget(None)
            elif self.suite.simulator is None:  # real programs: they run on this machine
                raise GCCError(
                    f"{self.task_spec.env_id(self.suite.title)} needs a local desktop backend"
                )
        obs, info = super().reset(seed=seed, options=options)
        if self.episode is not None and not (options or {}).get("instruction"):
            info["instruction"] = self.instruction
        return obs, info

    def _setup_episode(self, options: dict[str, Any] | None) -> None:
        row = self.task_spec
        if row is None:
            return
        limits = Limits(home_size=self.suite.home_size) if self.suite.home_size else None
        self.episode = load(self.suite.episode)(self.backend, self.np_random, limits=limits)
        try:
            run_setup(self.episode, row.setup, self._kinds)
            task = self.task.inner if isinstance(self.task, JudgedTask) else self.task
            if isinstance(task, CheckedTask):  # the checker's arguments name setup values too
                values = {**self.episode.vars, "home": str(self.episode.home)}
                task.args = expand(dict(row.checker_args), values)
        except BaseException:
            self._end_episode()
            raise
        if hasattr(self.backend, "desktop_probe"):  # a simulated desktop's state is the probe
            self.backend.desktop_probe = self.episode.probe()

    @property
    def instruction(self) -> str:
        """The task's instruction with the episode's values (``$url``) filled in."""
        text = self.task.instruction
        if self.episode is None:
            return text
        values = {**self.episode.vars, "home": str(self.episode.home)}
        return string.Template(text).safe_substitute(values)

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = super().step(action)
        metrics = info["metrics"]
        if "score" in metrics:  # the checker ran: the episode's end
            if info["success"]:  # an infeasible task's FAIL scores too
                metrics["score"] = 1.0
            info["score"] = metrics["score"]
            expected = self.task_spec.expected_steps if self.task_spec else None
            if expected is not None:
                metrics["efficiency"] = expected / self._steps if info["success"] else 0.0
            error = getattr(self.task, "check_error", None)
            if error:
                info["check_error"] = error
        return obs, reward, terminated, truncated, info

    def _end_episode(self) -> None:
        if self.episode is not None:
            episode, self.episode = self.episode, None
            if hasattr(self.backend, "desktop_probe"):
                self.backend.desktop_probe = None
            episode.close()

    def close(self) -> None:
        try:
            self._end_episode()
        finally:
            super().close()
