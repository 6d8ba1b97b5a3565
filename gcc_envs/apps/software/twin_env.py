"""``TwinEnv``: a Cradle software task on real Linux programs, checked by a program.

Temporary stand-in for the seam's generic ``SuiteEnv``: it runs a :class:`SuiteTask`'s setup
steps on a fresh :class:`~.session.TwinSession` (its own Xvfb + openbox through the desktop
backend), then judges the end state with the suite's checker through the same object as a probe.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, SupportsFloat

import numpy as np

from gcc_envs.apps.desktop.env import KEYS
from gcc_envs.apps.software.session import TwinSession
from gcc_envs.backends.desktop.backend import DesktopBackend
from gcc_envs.core.env import GCCEnv
from gcc_envs.core.spec import SuiteSpec, SuiteTask, load
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.errors import BackendError, GCCError

Step = Callable[..., Any]


def _launch(s: TwinSession, argv: list[str], window: str | None = None, timeout_s: float = 20.0):
    s.launch(argv, window=window, timeout_s=timeout_s)


def _write_file(s: TwinSession, path: str, text: str, name: str | None = None) -> None:
    p = s.home / path
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    s.files[name or Path(path).name] = p


def _command(s: TwinSession, argv: list[str], timeout_s: float = 30.0) -> None:
    r = s.run(argv, timeout_s)
    if r.returncode != 0:
        raise BackendError(f"setup command {argv[:3]} failed ({r.returncode}): {r.stderr[-300:]}")


def _sleep(s: TwinSession, seconds: float) -> None:
    time.sleep(float(seconds))


def _wait_window(s: TwinSession, title: str, timeout_s: float = 20.0) -> None:
    s.wait_window(title, timeout_s)


COMMON_STEPS: Mapping[str, Step] = {
    "launch": _launch,
    "write_file": _write_file,
    "command": _command,
    "sleep": _sleep,
    "wait_window": _wait_window,
}


class CheckedTask(Task):
    """A suite task: nothing is claimed while it runs; its checker judges the end state."""

    def __init__(self, row: SuiteTask, checker: Callable[..., float | bool]) -> None:
        self.row, self.checker = row, checker
        self.name, self.instruction, self.max_steps = row.name, row.instruction, row.max_steps

    def evaluate(self, probe: Any) -> TaskStatus:
        return TaskStatus()

    def score(self, probe: Any) -> float:
        """The checker's score of the desktop now, in [0, 1]."""
        return min(max(float(self.checker(probe, **self.row.checker_args)), 0.0), 1.0)


class TwinEnv(GCCEnv):
    """A Cradle software task's Linux twin: its programs' pixels in, keyboard and mouse out.

    ## Description
    One task of a software suite (its ``tasks.toml``): at reset a fresh home folder, the
    setup's programs and loopback servers, and the seed's variation of the task's content;
    at the end a checker reads the real end state (files, servers' records, preferences).

    ## Action Space
    ``action_mode="event"``: one computer_13 operation per step; every step also takes a
    ``Program``, a list of events or pyautogui code text (parsed, never executed).

    ## Observation Space
    ``Box(0, 255, (H, W, 3), uint8)``: the whole virtual screen (dialogs included), resized to
    ``obs_size`` (default 720×1280 of a 1280×720 screen... see ``screen_size``).

    ## Rewards
    1 at the end when the checker scores 1, else 0 (``info["score"]`` holds its score).

    ## Starting State
    The programs of the task's setup, started afresh in a new home on every reset.

    ## Episode End
    Terminated on the agent's ``DONE``/``FAIL`` or at the task's ``max_steps``; then the
    checker reads the end state (``info["score"]``, ``info["success"]``), as the seam's
    ``SuiteEnv`` does. ``info["metrics"]["efficiency"]`` = expected steps / steps on success.

    ## Arguments
    ``suite`` (``"module:SUITE"``), ``task`` (its key), ``obs_size``, ``screen_size``
    (1280×800), ``display`` (None: own Xvfb), ``time_mode`` (``"paused"``/``"realtime"``),
    ``fps``, ``step_seconds``, ``render_mode``.

    ## Version History
    * v0: first release (Linux/X11).
    """

    def __init__(
        self,
        suite: str,
        task: str | None = None,
        *,
        obs_size: tuple[int, int] | None = None,
        screen_size: tuple[int, int] = (1280, 800),
        display: str | None = None,
        action_mode: str = "event",
        time_mode: str = "paused",
        fps: float = 2.0,
        step_seconds: float = 0.25,
        render_mode: str | None = None,
    ) -> None:
        spec = load(suite)
        if not isinstance(spec, SuiteSpec):
            raise GCCError(f"{suite!r} is not a SuiteSpec")
        self.suite = spec
        self.row = spec.task(task or spec.tasks[0].key)
        checkers = load(f"{spec.checkers}:{self.row.checker}")
        self.steps: dict[str, Step] = dict(COMMON_STEPS)
        if spec.setup_steps:
            self.steps.update(load(spec.setup_steps)())
        unknown = {s.kind for s in self.row.setup} - set(self.steps)
        if unknown:
            raise GCCError(f"task {self.row.key!r}: unknown setup step kind(s) {sorted(unknown)}")
        obs_size = obs_size or (screen_size[1], screen_size[0])
        backend = DesktopBackend(obs_size, display=display, screen_size=screen_size, pause="none")
        super().__init__(
            backend, CheckedTask(self.row, checkers), keys=KEYS, action_mode=action_mode,
            time_mode=time_mode, fps=fps, step_seconds=step_seconds, render_mode=render_mode,
        )  # fmt: skip
        self.game = "desktop/software"  # the Cradle prompt folder
        self.session: TwinSession | None = None
        #: Seconds the last reset's setup took.
        self.setup_s = 0.0

    def _new_session(self, seed: int) -> TwinSession:
        b = self.backend
        assert isinstance(b, DesktopBackend)
        b._start()  # noqa: SLF001 - the display must exist before the setup runs
        W, H = b.x.screen_size
        session = TwinSession(b.x.name, b.x, lambda: b._grabber.grab(0, 0, W, H, (W, H), (W, H)),
                              seed)  # fmt: skip
        t0 = time.perf_counter()
        try:
            for step in self.row.setup:
                self.steps[step.kind](session, **dict(step.args))
        except BaseException:
            session.close()
            raise
        self.setup_s = time.perf_counter() - t0
        return session

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if self.session is not None:
            self.session.close()
            self.session = None
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        self.session = self._new_session(seed)
        self.backend.probe = lambda: self.session  # type: ignore[method-assign]
        obs, info = super().reset(seed=seed, options=options)
        info["setup_s"] = self.setup_s
        return obs, info

    def score(self) -> float:
        """What the task's checker says of the desktop now (the end state if it ended here)."""
        if self.session is None:
            raise GCCError("call reset() first: there is no episode to score")
        assert isinstance(self.task, CheckedTask)
        return self.task.score(self.session)

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = super().step(action)
        steps, expected = self._steps, self.row.expected_steps
        if terminated or truncated or steps >= self.row.max_steps:  # the end: judge it
            score = self.score()
            info["score"] = score
            if score >= 1.0:
                info["success"], reward = True, float(reward) + self.task.success_reward
                info.pop("failure", None)
            terminated = terminated or not truncated
        info["metrics"] = {
            **info["metrics"],
            "steps": steps,
            "expected_steps": expected,
            "efficiency": (expected / steps) if info["success"] and expected else 0.0,
        }
        return obs, reward, terminated, truncated, info

    def close(self) -> None:
        try:
            if self.session is not None:
                self.session.close()
                self.session = None
        finally:
            super().close()
