"""``LiveEnv``: a Cradle software task on the real app, on a person's own machine.

The real Chrome, Outlook, CapCut, Meitu XiuXiu or Feishu runs on Windows or macOS (or the
Linux program on a person's own X display); the env captures and drives it through the
desktop backend. Nothing can read those programs' internals, so success is an explicit
judge's call (``judge=``): ``human`` (asked at the end), ``template:<png>`` (each step) or
an ``LMMJudge(base_url, model)`` (one yes/no question about the final screenshot, prompt and reply
recorded in ``info["judge_record"]``). Before each step the window in front must be the app
or one of its allowed dialogs (the live profile), as Cradle's app focus check requires;
otherwise the app's window is brought back, or the step is refused with an error.
Only the Linux/X11 path has run; the Windows and macOS input paths are unrun.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any, SupportsFloat

import numpy as np

from gcc_envs.apps.software.live import AppProfile, profile
from gcc_envs.apps.software.lmm_judge import LMMJudge
from gcc_envs.apps.suite_env import KEYS
from gcc_envs.core.env import GCCEnv
from gcc_envs.core.spec import SuiteSpec
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.errors import GCCError


class JudgedByVerdict(Task):
    def __init__(self, row: Any) -> None:
        self.name, self.instruction, self.max_steps = row.name, row.instruction, row.max_steps

    def evaluate(self, probe: Any) -> TaskStatus:
        ok = bool(getattr(probe, "success", False))
        return TaskStatus(progress=float(ok), success=ok)


class LiveEnv(GCCEnv):
    """A Cradle software task on the real app, judged explicitly (see the module docstring)."""

    def __init__(self, backend: Any, task: str, *, suite: SuiteSpec, judge: Any = None,
                 action_mode: str = "event", time_mode: str = "paused", fps: float = 2.0,
                 step_seconds: float = 0.25, render_mode: str | None = None,
                 app: AppProfile | None = None) -> None:  # fmt: skip
        self.row = suite.task(task)
        self.app = app or profile(suite.key)
        if judge is None:
            backend.close()
            raise GCCError(
                "a real app needs an explicit judge: judge='human', 'template:<png>' or an "
                "LMMJudge(base_url, model) (gcc_envs.apps.software.lmm_judge)"
            )
        self.judge = judge
        super().__init__(backend, JudgedByVerdict(self.row), keys=KEYS, action_mode=action_mode,
                         time_mode=time_mode, fps=fps, step_seconds=step_seconds,
                         render_mode=render_mode)  # fmt: skip
        self.game = "desktop/software"

    def _front_ok(self) -> str | None:
        """None when the app (or an allowed dialog) is in front, else what is wrong."""
        x = getattr(self.backend, "x", None)
        if x is None:  # Windows/macOS: the backend's own target guard applies
            return None
        active = x.active()
        title = next((x.title(w) for w in x.clients() if w.id == active), "") if active else ""
        if self.app.allows(title or "", "linux"):
            return None
        main = next((w for w in x.clients() if re.search(self.app.title("linux"), x.title(w) or "")),
                    None)  # fmt: skip
        if main is not None and x.focus(main):
            return None
        return f"{title!r} is in front, not {self.app.name} or one of its dialogs"

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        wrong = self._front_ok()
        if wrong is not None:
            action = []  # nothing is sent while another program is in front
        obs, reward, terminated, truncated, info = super().step(action)
        if wrong is not None:
            info["last_action_error"] = wrong
        end = terminated or truncated or self._steps >= self.row.max_steps
        if end and not info["success"] and hasattr(self.judge, "decide"):  # human or LMM
            if isinstance(self.judge, LMMJudge):
                record = self.judge.decide(self.row.instruction, obs)
                info["judge_record"] = asdict(record)
                ok = record.success
            else:
                ok = self.judge.decide(self.row.instruction)
            if ok:
                info["success"], reward = True, float(reward) + 1.0
                info.pop("failure", None)
            terminated = True
        info["judge"] = getattr(self.judge, "spec", type(self.judge).__name__)
        expected, steps = self.row.expected_steps, self._steps
        info["metrics"] = {**info["metrics"], "steps": steps, "expected_steps": expected,
                           "efficiency": expected / steps if info["success"] and expected else 0.0}  # fmt: skip
        return obs, reward, terminated, truncated, info
