"""``OSWorldEnv``: an OSWorld task file as a Gymnasium env on a local (or remote) desktop."""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Mapping
from typing import Any, SupportsFloat

import numpy as np

from gcc_envs.core import events as ev
from gcc_envs.core.backend import Backend
from gcc_envs.core.env import GCCEnv
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.errors import GCCError, InvalidActionError
from gcc_envs.osworld.cache import CacheConfig
from gcc_envs.osworld.code_sandbox import (
    CODE_TIMEOUT_S,
    SIGNALS,
    CodeResult,
    check_mode,
    run_code,
)
from gcc_envs.osworld.episode import EpisodeRunner, Outcome
from gcc_envs.osworld.shortcuts import opens_terminal
from gcc_envs.osworld.taskfile import OSWorldTask, load_task

log = logging.getLogger(__name__)

#: OSWorld's step limit per task.
MAX_STEPS = 15
#: What ``GCC/OSWorld`` says without a task (a bare desktop, as OSWorld's ``reset()``).
OPEN_INSTRUCTION = "Use the computer as you are instructed."
#: The ``state`` action mode's keys (the event mode takes any key by name).
KEYS = ("enter", "esc", "tab", "space", "backspace", "up", "down", "left", "right", "ctrl",
        "shift", "alt")  # fmt: skip


class _Current(Task):
    """The running episode's task: nothing is claimed while it runs; the evaluator judges the
    end (``final``: the agent's ``DONE``/``FAIL`` or the step limit)."""

    name = "OSWorld"

    def __init__(self, env: OSWorldEnv) -> None:
        # Weakly: the env holds this task, and a strong reference back would make the pair a
        # cycle that keeps a closed env (its spaces, frames, backend) until a full gc.
        self._env = weakref.ref(env)
        self.task: OSWorldTask | None = None
        self.max_steps = env.max_steps
        #: ``"DONE"``/``"FAIL"`` when the step under way ends with that signal, else None.
        self.last_action: str | None = None

    # A pickle holds the env strongly; the copy holds its own env weakly again.
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_env"] = self.env
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        env = state.pop("_env")
        self.__dict__.update(state)
        self._env = weakref.ref(env)

    @property
    def env(self) -> OSWorldEnv:
        env = self._env()
        if env is None:
            raise GCCError("the OSWorld env of this task is gone")
        return env

    @property
    def instruction(self) -> str:  # type: ignore[override]
        return self.task.instruction if self.task is not None else OPEN_INSTRUCTION

    @property
    def infeasible(self) -> bool:  # type: ignore[override]
        return self.task is not None and self.task.evaluator.infeasible

    def evaluate(self, probe: Any) -> TaskStatus:
        return TaskStatus()

    def final(self, probe: Any, status: TaskStatus) -> TaskStatus:
        if self.task is None:  # a bare desktop: nothing to score
            self.env.outcome = Outcome(0.0, notes=("no task: a bare desktop is not scored",))
            return TaskStatus(metrics={"score": 0.0})
        outcome = self.env.outcome = self.env.runner.finish(self.last_action)
        return TaskStatus(progress=outcome.score, success=outcome.score >= 1.0,
                          metrics={"score": outcome.score})  # fmt: skip


class OSWorldEnv(GCCEnv):
    """An OSWorld task (its JSON file) run on a real local desktop, scored by its evaluator.

    ## Description
    OSWorld (Xie et al., 2024) asks an agent to do a computer task from an instruction; the
    task file sets the desktop up (programs launched, files and settings changed) and an
    evaluator reads the final state (files, settings, command output) to score it. Here the
    desktop is an Xvfb screen with a window manager and Debian programs — Chromium for Google
    Chrome, VLC, GIMP, LibreOffice, code-server for VS Code, xterm for the Ubuntu desktop's
    terminal — each episode in a fresh home folder that stands for OSWorld's ``/home/user``.
    Every program and command of the episode — task-file commands in real bash included —
    runs inside the episode's OS sandbox (:mod:`gcc_envs.sandbox`: its own user, home at
    ``/home/user``, processes and loopback network); nothing it does leaves the episode.
    ``GCC/OSWorld`` takes the task at reset; ``GCC/OSWorld-<domain>-<id8>`` is one of the 45
    bundled tasks. The task files fix what the agent must do: there is no seed variation.

    ## Action Space
    pyautogui code text (the safe parser: one call per statement, literal arguments) or
    ``WAIT``/``FAIL``/``DONE``; also a member of the ``event`` space, a ``Program`` or a list
    of events. ``wrappers.UseCode`` adds OSWorld's ``computer_13`` dicts. Ctrl+Alt+T opens a
    terminal (or focuses the open one) as on OSWorld's GNOME desktop, seen from the next step
    (``info["desktop_note"]`` says which).

    ## Observation Space
    ``Box(0, 255, (H, W, 3), uint8)``: the whole screen (default 1080×1920, OSWorld's).

    ## Rewards
    At the episode's end only: the task's score in [0, 1] (OSWorld's evaluator, with ``conj``
    and ``infeasible``: an infeasible task scores 1 only when the last action is ``FAIL``).

    ## Starting State
    The task's setup has run (programs started and painted). ``info["instruction"]``,
    ``info["task_id"]``, ``info["domain"]``, ``info["setup_s"]``, and when it applies
    ``info["unsupported"]`` (reason, and ``unsupported_kind``: setting, account, part,
    program or network; the task then scores 0, an infeasible one 1 on ``FAIL``) or
    ``info["setup_error"]``.
    ``GCC/OSWorld`` reset without a task is a bare desktop (not scored), as OSWorld's.

    ## Episode End
    Terminated by ``DONE`` or ``FAIL``; truncated after ``max_steps`` (15) steps. The final
    step's info has ``score``, ``success`` (score 1) and ``evaluation`` (what each metric read).

    ## Arguments
    ``task`` (a bundled id, a path or a dict; None for ``GCC/OSWorld``), ``max_steps`` (15),
    ``screen_size`` of the Xvfb (1920, 1080), ``obs_size``, ``display`` (an X display to use),
    ``time_mode`` (``"realtime"``: the desktop's programs run between steps; ``"paused"``
    changes nothing here, nothing is paused), ``step_seconds`` (0.5: the least a step lasts,
    for the screen to follow).
    ``code``: ``"parse"`` (default: code text is read by the safe parser, literal
    ``pyautogui`` calls only) or ``"sandbox"`` (code text runs as Python — loops, variables,
    imports — inside the episode's sandbox with a deadline, ``code_timeout_s``, 30 s;
    :mod:`gcc_envs.osworld.code_sandbox`).
    ``downloads`` (a :class:`gcc_envs.osworld.cache.CacheConfig`: the download cache's folder,
    ``offline``, a URL map; default from ``GCC_OSWORLD_CACHE``/``GCC_OSWORLD_OFFLINE``/
    ``GCC_OSWORLD_URL_MAP``): where ``download`` steps and ``cloud_file`` getters find files.
    On another machine: ``backend="remote"`` with ``url``/``token`` of its ``gcc-gym
    serve-desktop`` and ``episodes=`` the URL of its ``gcc-gym osworld serve``
    (``episodes_token``, else ``GCC_REMOTE_TOKEN``).

    ## Version History
    * v0 (unversioned id): first release (44 bundled tasks, 2 unsupported); since 2026-12-04
      also chrome/44ee5668 (a new id: the others' results are unchanged).
    """

    def __init__(
        self,
        backend: Backend,
        task: str | Mapping[str, Any] | None = "open",
        *,
        suite: Any = None,
        max_steps: int = MAX_STEPS,
        action_mode: str = "event",
        time_mode: str = "realtime",
        fps: float = 2.0,
        step_seconds: float = 0.5,
        render_mode: str | None = None,
        runner: EpisodeRunner | None = None,
        episodes: str | None = None,
        episodes_token: str | None = None,
        judge: Any = None,
        wall_clock: Any = None,
        downloads: CacheConfig | None = None,
        code: str = "parse",
        code_timeout_s: float = CODE_TIMEOUT_S,
    ) -> None:
        if not (isinstance(max_steps, int) and max_steps > 0):
            raise GCCError(f"max_steps must be a positive int, got {max_steps!r}")
        if judge is not None:
            raise GCCError("OSWorld tasks are scored by their own evaluator; judge= does not apply")
        #: How code text is read: "parse" (literal pyautogui calls) or "sandbox" (run there).
        self.code = check_mode(code)
        if not 0 < float(code_timeout_s) <= 600:
            raise GCCError(f"code_timeout_s must lie in (0, 600], got {code_timeout_s!r}")
        #: How long one code action may run in the sandbox.
        self.code_timeout_s = float(code_timeout_s)
        #: The suite's spec (the registry passes it; Cradle reads its key for its prompts).
        self.suite = suite
        self.fixed_task = load_task(task) if task not in (None, "open") else None
        self.max_steps = max_steps
        self._current = _Current(self)
        self._current.task = self.fixed_task
        #: The outcome of the last finished episode (score, what the evaluator read), or None.
        self.outcome: Outcome | None = None
        super().__init__(
            backend,
            self._current,
            keys=KEYS,
            action_mode=action_mode,
            time_mode=time_mode,
            fps=fps,
            step_seconds=step_seconds,
            render_mode=render_mode,
            wall_clock=wall_clock,
        )
        if runner is None and episodes is not None:  # the desktop is on another machine
            import os

            from gcc_envs.osworld.remote import RemoteRunner

            token = episodes_token or os.environ.get("GCC_REMOTE_TOKEN", "")
            runner = RemoteRunner(episodes, token)  # type: ignore[assignment]
        self.runner = runner if runner is not None else EpisodeRunner(backend, downloads=downloads)
        self._started: dict[str, Any] = {}
        self._setup_s = 0.0

    @property
    def osworld_task(self) -> OSWorldTask | None:
        """The task of the running episode."""
        return self._current.task

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        options = dict(options or {})
        source = options.pop("task", None)
        task = load_task(source) if source is not None else self.fixed_task
        self.runner.end()
        self._current.task = task
        self.outcome = None
        obs, info = super().reset(seed=seed, options=options)
        if task is None:  # a bare desktop: the instruction comes from the options, if any
            info.update(task_id=None, domain=None, setup_s=self._setup_s)
            return obs, info
        info.update(instruction=task.instruction, task_id=task.id, domain=task.domain,
                    setup_s=self._setup_s, **self._started)  # fmt: skip
        return obs, info

    def _setup_episode(self, options: dict[str, Any] | None) -> None:
        """The task's setup, after the backend's reset and before the first frame."""
        t0 = time.perf_counter()
        task = self._current.task
        self._started = self.runner.start(task) if task is not None else {}
        self._setup_s = time.perf_counter() - t0

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        ran: CodeResult | None = None
        if self.code == "sandbox" and isinstance(action, str) and action.strip() not in SIGNALS:
            ran, action = self._run_code(action), []
        self._current.last_action = self._signal_of(action)
        shortcut = self._opens_terminal(action)
        obs, reward, terminated, truncated, info = super().step(action)
        if ran is not None:
            info.update(last_action_error=ran.error, code_output=ran.stdout[-2000:])
        if shortcut and "score" not in info["metrics"] and info["last_action_error"] is None:
            try:  # GNOME's Ctrl+Alt+T (the desktop's, not a window's): seen from the next step
                info["desktop_note"] = self.runner.open_terminal()
            except GCCError as e:
                info["last_action_error"] = f"Ctrl+Alt+T opened no terminal: {e}"
        self.runner.note_input()
        if "score" in info["metrics"]:  # the evaluator ran: the episode's end
            assert self.outcome is not None
            info.update(score=self.outcome.score, evaluation=self.outcome.report())
            reward = self.outcome.score
            truncated = truncated or not terminated
            self._needs_reset = True
            self._release_all()
        return obs, reward, terminated, truncated, info

    def _run_code(self, code: str) -> CodeResult:
        """Run an action's code in the episode's sandbox (``code="sandbox"``)."""
        run = self.runner.running
        if self._needs_reset or run is None or getattr(run, "episode", None) is None:
            return CodeResult("code='sandbox' runs code in a task's episode; none is running")
        try:
            return run_code(run.episode, code, self.code_timeout_s)
        except InvalidActionError as e:
            return CodeResult(str(e))

    def _opens_terminal(self, action: Any) -> bool:
        """Whether ``action`` presses GNOME's terminal shortcut (parsed, not run)."""
        try:
            program = self._to_program(action)
        except GCCError:
            return False
        return not program.closed_loop and opens_terminal(program.events)

    def _signal_of(self, action: Any) -> str | None:
        """``"DONE"``/``"FAIL"`` when ``action`` ends with that signal (parsed, not run)."""
        try:
            program = self._to_program(action)
        except GCCError:
            return None
        last = program.events[-1] if not program.closed_loop and program.events else None
        if isinstance(last, (ev.Done, ev.Fail)):
            return "DONE" if isinstance(last, ev.Done) else "FAIL"
        return None

    def close(self) -> None:
        try:
            self.runner.end()
        finally:
            super().close()
