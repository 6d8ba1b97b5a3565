"""``GCCEnv``: a screen-in, keyboard-and-mouse-out Gymnasium environment (DESIGN §2).

The env knows no game and no backend implementation: it receives a :class:`Backend`, a
:class:`Task`, the game's key set and skill library, and turns actions into input events,
game time into observations and task checks into rewards.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gcc_envs.core import events as ev
from gcc_envs.core.backend import Backend
from gcc_envs.core.clock import Clock, TimeMode, WallClock
from gcc_envs.core.code import parse_code
from gcc_envs.core.expand import PointerTracker, event_points, expand
from gcc_envs.core.held import HeldInput
from gcc_envs.core.program import MAX_PROGRAM_EVENTS, MAX_PROGRAM_S, Program, sequence
from gcc_envs.core.skills import SkillCall, SkillLibrary
from gcc_envs.core.spaces import EventActions, StateActions
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.errors import BackendError, GCCError, InvalidActionError

ThinkTime = float | Callable[[int], float] | None
#: ``step_limit`` when nothing set it: the task's own ``max_steps`` applies.
_TASKS_OWN = "task"
#: Event types that name a point of the frame (checked against its bounds).
_POINTED = frozenset({ev.MoveTo, ev.Click, ev.DragTo, ev.Scroll})
#: Primitives that change what is held: noted, then sent as they are.
_HELD = frozenset({ev.KeyDown, ev.KeyUp, ev.MouseDown, ev.MouseUp})


class GCCEnv(gym.Env[np.ndarray, Any]):
    """A General Computer Control environment over a backend (see each game's env for its card).

    ``step`` takes a member of ``action_space`` (``state`` or ``event`` mode), a
    :class:`~gcc_envs.Program`, a list of events, or code text (pyautogui calls, skill calls,
    ``WAIT``/``FAIL``/``DONE``) parsed safely against the env's skill library. Input that cannot
    be carried out is refused as a whole and reported in ``info["last_action_error"]``; the step
    still returns and game time still passes.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(
        self,
        backend: Backend,
        task: Task,
        *,
        keys: Sequence[str],
        skills: SkillLibrary | None = None,
        action_mode: str = "state",
        time_mode: str = "lockstep",
        fps: float = 2.0,
        step_seconds: float = 0.25,
        max_mouse_px: float = 100.0,
        mouse: str = "absolute",
        think_time: ThinkTime = None,
        render_mode: str | None = None,
        shaping: float | None = None,
        wall_clock: WallClock | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise GCCError(
                f"render_mode {render_mode!r} not supported; use one of "
                f"{self.metadata['render_modes']}"
            )
        if not (isinstance(step_seconds, (int, float)) and 0 < step_seconds <= 10):
            raise GCCError(f"step_seconds must lie in (0, 10], got {step_seconds!r}")
        self.backend = backend
        self.task = task
        if shaping is not None:  # a learning variant: denser reward, documented in the card
            if not (isinstance(shaping, (int, float)) and math.isfinite(shaping) and shaping >= 0):
                raise GCCError(f"shaping must be a non-negative number, got {shaping!r}")
            task.shaping = float(shaping)
        self.skills = skills if skills is not None else SkillLibrary()
        self.render_mode = render_mode
        self.time_mode = TimeMode.parse(time_mode)
        if think_time is not None and self.time_mode is not TimeMode.LOCKSTEP:
            raise GCCError("think_time= applies to time_mode='lockstep' only")
        if isinstance(think_time, (int, float)) and not (
            math.isfinite(think_time) and think_time >= 0
        ):
            raise GCCError(f"think_time must be a non-negative number, got {think_time!r}")
        self.think_time = think_time
        self.step_seconds = float(step_seconds)
        if mouse not in ("absolute", "camera"):
            raise GCCError(f"mouse must be 'absolute' or 'camera', got {mouse!r}")
        #: ``"camera"``: relative moves reach the game as motion (it turns the view).
        self.mouse = mouse
        W, H = backend.size
        self.observation_space = spaces.Box(0, 255, (H, W, 3), np.uint8)
        self.action_mode = action_mode
        if action_mode == "state":
            self._state_mode: StateActions | None = StateActions(keys, max_mouse_px, step_seconds)
            self._event_mode: EventActions | None = None
            self.action_space = self._state_mode.space
        elif action_mode == "event":
            self._state_mode = None
            self._event_mode = EventActions(keys, (W, H), max_mouse_px)
            self.action_space = self._event_mode.space
        else:
            raise GCCError(f"unknown action_mode {action_mode!r}; use 'state' or 'event'")
        self.clock = Clock(self.time_mode, backend, fps, self._grab_frame, wall_clock)
        #: Frames sampled at ``fps`` during the last step (when frame recording is on).
        self.recorded_frames: list[np.ndarray] = []
        #: Keys and buttons held now (what this env has sent down and not yet up).
        self.held = HeldInput()
        self._pointer = PointerTracker(W // 2, H // 2)
        self._status = TaskStatus()
        self._steps = 0
        self._invalid = 0
        self._needs_reset = True
        #: Wall-clock seconds the last step took (also in lockstep, where info has None).
        self.last_wall_s = 0.0
        #: Steps after which the episode ends (its last step runs the task's last word);
        #: ``gym.make`` sets it to its ``TimeLimit``'s figure, None meaning no limit.
        self.step_limit: Any = _TASKS_OWN

    # ------------------------------------------------------------------ public API
    @property
    def record_frames(self) -> bool:
        """Whether frames are sampled at ``fps`` while steps run (video-chunk observations)."""
        return self.clock.record

    @record_frames.setter
    def record_frames(self, on: bool) -> None:
        self.clock.set_recording(bool(on))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._release_all()
        backend_options = {**self.task.reset_options(), **(options or {})}
        self.backend.reset(self.np_random, backend_options)
        self._setup_episode(options)
        self.clock.reset()
        W, H = self.backend.size
        self._pointer = PointerTracker(W // 2, H // 2)
        self._steps = 0
        self._invalid = 0
        self.recorded_frames = []
        probe = self.backend.probe()
        self.task.begin(probe)
        self._status = self.task.evaluate(probe)
        self._needs_reset = False
        obs = self.backend.capture()
        info = self._info(0.0, None if self.time_mode is TimeMode.LOCKSTEP else 0.0, 0.0, [], None)
        info["instruction"] = (options or {}).get("instruction", self.task.instruction)
        return obs, info

    def _setup_episode(self, options: dict[str, Any] | None) -> None:
        """Prepare the episode after the backend's reset (a desktop task runs its setup)."""

    def _step_limit(self) -> float:
        """The episode's step limit: the one ``gym.make`` applies (``step_limit``, set by
        :class:`~gcc_envs.step_limit.TellStepLimit`; None for none), else the task's."""
        if self.step_limit is _TASKS_OWN:
            return self.task.max_steps
        return math.inf if self.step_limit is None else int(self.step_limit)

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._needs_reset:
            raise GCCError("call reset() before step() (the episode has ended or not begun)")
        self.recorded_frames = []
        sent: list[dict[str, Any]] = []
        error: str | None = None
        signal: ev.Event | None = None
        try:
            program = self._to_input(action)
        except InvalidActionError as e:
            program, error = None, str(e)
        self.clock.begin_step(self._think(self._steps))
        t_start = self.clock.game_time
        try:
            if program is not None:
                signal = self._run(program, sent)
        except (InvalidActionError, BackendError) as e:  # e.g. the target window refused focus
            error = str(e)
            self._release_all()
        except BaseException:
            self._release_all()
            self.clock.end_step()  # pause the game again before the error leaves the step
            raise
        pad = self.step_seconds - (self.clock.game_time - t_start)
        if pad > 1e-9 and signal is None:
            self.clock.wait(pad)
        t_game, self.last_wall_s, t_paused = self.clock.end_step()
        if error is not None:
            self._invalid += 1
        self._steps += 1
        probe = self.backend.probe()
        before, status = self._status, self.task.evaluate(probe)
        at_limit = self._steps >= self._step_limit()
        # the step limit, not the task, ends an episode the limit found undecided (TimeLimit's
        # truncation), whatever the last word says of it
        limit_ends = at_limit and signal is None and not (status.success or status.failure)
        if signal is not None or status.success or status.failure or at_limit:
            status = self.task.final(probe, status)  # the episode ends: the last word
        if isinstance(signal, ev.Fail) and self.task.infeasible and not status.success:
            status = replace(status, progress=1.0, success=True)  # the right answer: FAIL
        self._status = status
        reward = self.task.reward(before, self._status)
        success = self._status.success
        decided = (success or self._status.failure) and not limit_ends
        terminated = bool(decided or signal is not None)
        limit = self.task.max_game_s
        out_of_time = limit is not None and self.clock.game_time >= limit
        # the env ends at its step limit itself (as TimeLimit does above it), after the last word
        truncated = bool(not terminated and (at_limit or out_of_time))
        obs = self.backend.capture()
        # Lockstep infos are a pure function of seed and actions (Gymnasium's determinism
        # checks compare them), so the measured wall time is reported there as None and kept
        # on ``last_wall_s``.
        t_wall = None if self.time_mode is TimeMode.LOCKSTEP else self.last_wall_s
        info = self._info(t_game, t_wall, t_paused, sent, error)
        info["success"] = bool(success)
        if terminated or truncated:
            self._needs_reset = True
            self._release_all()
            if self._status.failure:
                info["failure"] = self._status.failure
            elif signal is not None and not success:
                info["failure"] = f"agent declared {type(signal).__name__.upper()}"
        return obs, reward, terminated, truncated, info

    def render(self) -> np.ndarray | None:
        if self.render_mode == "rgb_array":
            return self.backend.capture()
        return None

    def close(self) -> None:
        try:
            self._release_all()
        finally:
            self.backend.close()

    # ------------------------------------------------------------------ internals
    def _think(self, step: int) -> float:
        if self.think_time is None:
            return 0.0
        s = self.think_time(step) if callable(self.think_time) else self.think_time
        s = float(s)
        if not math.isfinite(s) or s < 0:
            raise GCCError(f"think_time gave {s!r} for step {step}; it must be >= 0")
        return s

    def _to_input(self, action: Any) -> Program | list[ev.Event]:
        """What ``step`` runs: a member of the action space as the list of (checked) events
        it means, anything else as its :meth:`_to_program`."""
        if isinstance(action, Mapping):
            if self._state_mode is not None:
                return self._state_mode.to_events(action, self.held)
            assert self._event_mode is not None
            return [self._event_mode.to_event(action)]
        return self._to_program(action)

    def _to_program(self, action: Any) -> Program:
        if isinstance(action, Program):
            return action
        if isinstance(action, ev.Event):
            return Program([action])
        if isinstance(action, str):
            parts = parse_code(action, self.skills)
            return sequence(
                self.skills.program(p) if isinstance(p, SkillCall) else p for p in parts
            )
        if isinstance(action, Mapping):
            return Program(self._to_input(action))
        if isinstance(action, (list, tuple)):
            return Program(action)
        raise InvalidActionError(
            f"cannot act with a {type(action).__name__}: give a member of action_space, "
            "a Program, a list of events or code text"
        )

    def _check(self, event: ev.Event) -> None:
        if type(event) not in _POINTED:
            return
        W, H = self.backend.size
        for x, y in event_points(event):
            if not (0 <= x < W and 0 <= y < H):
                raise InvalidActionError(
                    f"{type(event).__name__} at ({x}, {y}) is outside the {W}x{H} frame"
                )

    def _run(
        self, program: Program | list[ev.Event], sent: list[dict[str, Any]]
    ) -> ev.Event | None:
        if type(program) is list:  # events built from an action-space member
            return self._run_events(program, False, sent)
        assert isinstance(program, Program)
        closed = program.closed_loop
        if not closed:
            return self._run_events(program.events, program.fresh_input, sent)
        if program.fresh_input and self.held:  # a skill starts from nothing held
            self._release_held(sent)
        gen = program.start()
        t0 = self.clock.game_time
        count = 0
        try:
            event = next(gen)
            while True:
                count += 1
                if count > MAX_PROGRAM_EVENTS:
                    raise InvalidActionError(
                        f"program stopped after {MAX_PROGRAM_EVENTS} events in one step"
                    )
                if not isinstance(event, ev.Event):
                    raise InvalidActionError(f"program yielded a non-event: {event!r}")
                if isinstance(event, (ev.Done, ev.Fail)):
                    sent.append(ev.stamped(event, self.clock.game_time))
                    return event
                self._check(event)
                sent.append(ev.stamped(event, self.clock.game_time))
                self._execute(event)
                if self.clock.game_time - t0 > MAX_PROGRAM_S:
                    raise InvalidActionError(
                        f"program stopped after {MAX_PROGRAM_S:.0f} game seconds in one step"
                    )
                event = gen.send(self.backend.capture())
        except StopIteration:
            return None
        finally:
            gen.close()

    def _run_events(
        self, events: Sequence[ev.Event], fresh_input: bool, sent: list[dict[str, Any]]
    ) -> ev.Event | None:
        """Run an open-loop program's events (each an :class:`~gcc_envs.core.events.Event`)."""
        for e in events:
            if type(e) in _POINTED:
                self._check(e)
        if fresh_input and self.held:  # a skill starts from nothing held
            self._release_held(sent)
        clock, held, send = self.clock, self.held, self.backend.send
        t0 = clock.game_time
        for count, event in enumerate(events, 1):
            if count > MAX_PROGRAM_EVENTS:
                raise InvalidActionError(
                    f"program stopped after {MAX_PROGRAM_EVENTS} events in one step"
                )
            sent.append(ev.stamped(event, clock.game_time))
            cls = type(event)
            if cls in _HELD:  # as _execute does it, without the call
                held.apply(event)
                send(event)  # type: ignore[arg-type]
                continue
            if cls is ev.Done or cls is ev.Fail:
                return event
            self._execute(event)
            if clock.game_time - t0 > MAX_PROGRAM_S:
                raise InvalidActionError(
                    f"program stopped after {MAX_PROGRAM_S:.0f} game seconds in one step"
                )
        return None

    def _release_held(self, sent: list[dict[str, Any]]) -> None:
        for e in self.held.releases():
            sent.append(ev.stamped(e, self.clock.game_time))
            self._execute(e)

    def _execute(self, event: ev.Event) -> None:
        cls = type(event)
        if cls in _HELD:  # the common primitives skip expansion
            self.held.apply(event)
            self.backend.send(event)  # type: ignore[arg-type]
            return
        if cls is ev.Wait:
            self.clock.wait(event.seconds)  # type: ignore[attr-defined]
            return
        W, H = self.backend.size
        if cls is ev.MoveBy and not event.duration_s:  # type: ignore[attr-defined]
            dx, dy = event.dx, event.dy  # type: ignore[attr-defined]
            if self.mouse == "camera":  # as expand gives it: the motion, if any
                if dx or dy:
                    self.backend.send(event)  # type: ignore[arg-type]
                return
            x, y = self._pointer.x + dx, self._pointer.y + dy
            if abs(x) <= ev.MAX_COORD and abs(y) <= ev.MAX_COORD:  # else expand refuses it
                x, y = min(max(x, 0), W - 1), min(max(y, 0), H - 1)
                self._pointer.x, self._pointer.y = x, y
                self.backend.send(ev.prechecked(ev.MoveTo, x=x, y=y, duration_s=0.0))
                return
        elif cls is ev.Scroll and event.x is None:  # type: ignore[attr-defined]
            self.backend.send(event)  # type: ignore[arg-type]
            return
        for p in expand(event, self._pointer, relative=self.mouse == "camera"):
            if isinstance(p, float):
                self.clock.wait(p)
                continue
            if isinstance(p, ev.MoveTo):
                x, y = min(max(p.x, 0), W - 1), min(max(p.y, 0), H - 1)
                self._pointer.x, self._pointer.y = x, y
                if (x, y) != (p.x, p.y):
                    p = ev.MoveTo(x, y)
            else:
                self.held.apply(p)
            self.backend.send(p)

    def _release_all(self) -> None:
        self.held.clear()
        self.backend.release_all()

    def _grab_frame(self) -> None:
        self.recorded_frames.append(self.backend.capture())

    def _info(
        self,
        t_game: float,
        t_wall: float | None,
        t_paused: float,
        sent: list[dict[str, Any]],
        error: str | None,
    ) -> dict[str, Any]:
        s = self._status
        return {
            # sums of float steps (0.05 + 0.2 = 0.25000000000000006): shown to the microsecond
            "t_game": round(t_game, 6),
            "t_wall": t_wall,
            "t_paused": t_paused,
            "game_time": round(self.clock.game_time, 6),
            "held_keys": list(self.held.keys),
            "pointer": (self._pointer.x, self._pointer.y),
            "events": sent,
            "frames_recorded": len(self.recorded_frames),
            "last_action_error": error,
            "task": s.info(),
            "progress": s.progress,
            "invalid_actions": self._invalid,
            "success": s.success,
            "metrics": dict(s.metrics),
            **self.task.extra_info(),
        }
