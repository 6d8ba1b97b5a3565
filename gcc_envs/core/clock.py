"""Timing modes: how game time relates to the agent's steps and to wall time (DESIGN §2.1).

* ``lockstep`` — game time advances exactly by the step's input program, simulated without
  sleeping; ``think_time`` adds game seconds before each action as if the agent had thought
  that long (deterministic latency cost). Simulators only.
* ``paused`` — the game runs only while a step runs: resume → program → capture → pause.
* ``realtime`` — the game runs all the time; on a simulator the wall time that passed between
  steps is simulated at the start of the next step, so a slow agent meets the consequences.

The :class:`Clock` also samples frames at ``fps`` frames per game second while time advances
(for video-chunk observations; at most :data:`MAX_STEP_FRAMES` per step) and keeps the
``t_game / t_wall / t_paused`` accounting.
"""

from __future__ import annotations

import inspect
import math
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from gcc_envs.core.backend import Backend
from gcc_envs.errors import GCCError

#: Highest frame sampling rate, frames per game second.
MAX_FPS = 60.0
#: Most frames one step may sample (5 minutes at the default 2 fps); later ones are skipped.
MAX_STEP_FRAMES = 600


class TimeMode(str, Enum):
    LOCKSTEP = "lockstep"
    PAUSED = "paused"
    REALTIME = "realtime"

    @classmethod
    def parse(cls, value: str | TimeMode) -> TimeMode:
        try:
            return cls(value)
        except ValueError:
            raise GCCError(
                f"unknown time_mode {value!r}; use one of {[m.value for m in cls]}"
            ) from None


@dataclass(frozen=True)
class WallClock:
    """The real clock a :class:`Clock` reads and sleeps on (tests inject a manual one)."""

    sleep: Callable[[float], None] = time.sleep
    now: Callable[[], float] = time.perf_counter


class Clock:
    """Advances a backend's game time according to a :class:`TimeMode`."""

    def __init__(
        self,
        mode: TimeMode,
        backend: Backend,
        fps: float,
        on_frame: Callable[[], None] | None = None,
        wall: WallClock | None = None,
    ) -> None:
        if mode is TimeMode.LOCKSTEP and not backend.clock_driven:
            raise GCCError(
                "time_mode='lockstep' needs a simulated backend; a real screen runs in real "
                "time: use time_mode='paused' or 'realtime'"
            )
        if (
            isinstance(fps, bool)
            or not isinstance(fps, (int, float))
            or not math.isfinite(fps)
            or not 0 < fps <= MAX_FPS
        ):
            raise GCCError(
                f"fps must be a number in (0, {MAX_FPS:g}] frames per second, got {fps!r}"
            )
        self.mode = mode
        self.backend = backend
        self.frame_period = 1.0 / fps
        self.on_frame = on_frame
        self.record = False
        wall = WallClock() if wall is None else wall
        self._sleep = wall.sleep
        self._now = wall.now
        self.game_time = 0.0
        self._next_frame = self.frame_period
        self._last_end = self._now()
        self._step_wall0 = 0.0
        self.t_game = 0.0
        self.t_paused = 0.0
        self._step_frames = 0  # frames sampled this step (at most MAX_STEP_FRAMES)

    @property
    def on_frame(self) -> Callable[[], None] | None:
        """Called for each sampled frame. A bound method is held weakly: the env that owns
        this clock passes its own method, and a strong one would make env and clock a
        reference cycle that keeps the env (its spaces, frames, backend) alive after the
        last reference to it goes, until the cyclic garbage collector happens to run."""
        fn = self._on_frame
        return fn() if isinstance(fn, weakref.WeakMethod) else fn

    @on_frame.setter
    def on_frame(self, fn: Callable[[], None] | None) -> None:
        self._on_frame = fn
        if inspect.ismethod(fn):
            try:
                self._on_frame = weakref.WeakMethod(fn)
            except TypeError:  # its object takes no weak references: held as it is
                pass

    # A pickle (a vector env's copy, a deepcopy) holds ``on_frame`` strongly; the copy holds
    # it weakly again.
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_on_frame"] = self.on_frame
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        on_frame = state.pop("_on_frame", None)
        self.__dict__.update(state)
        self.on_frame = on_frame

    def set_recording(self, on: bool) -> None:
        """Sample frames (calling ``on_frame``) every ``1/fps`` game seconds from now on."""
        if on and not self.record:
            self._next_frame = self.game_time + self.frame_period
        self.record = on

    def reset(self) -> None:
        self.game_time = 0.0
        self._next_frame = self.frame_period
        self.t_game = self.t_paused = 0.0
        if self.mode is TimeMode.PAUSED:
            self.backend.pause()
        self._last_end = self._now()

    def begin_step(self, think_s: float = 0.0) -> None:
        """Start a step: account for the time between steps and for ``think_s``."""
        now = self._now()
        gap = now - self._last_end
        self._step_wall0 = now
        self.t_game = 0.0
        self.t_paused = 0.0
        self._step_frames = 0
        if self.mode is TimeMode.LOCKSTEP:
            if think_s:
                self._advance_game(think_s)
        elif self.mode is TimeMode.PAUSED:
            self.t_paused = gap
            self.backend.resume()
        else:  # realtime: the world kept moving while the agent thought
            if self.backend.clock_driven:
                self._advance_game(gap)
            else:
                self.game_time += gap
                self.t_game += gap

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of game time pass with the current input held."""
        if seconds <= 0:
            return
        if self.mode is TimeMode.LOCKSTEP:
            self._advance_game(seconds)
            return
        # Wall-clock modes: time really passes, in frame-sized chunks so frames are sampled.
        deadline = self._now() + seconds
        while True:
            remaining = deadline - self._now()
            if remaining <= 0:
                break
            chunk = min(remaining, max(self._next_frame - self.game_time, 1e-3))
            t0 = self._now()
            if self.backend.clock_driven:
                self._sleep(chunk)
                self._advance_game(self._now() - t0)
            else:
                self.backend.advance(chunk)
                self._count(self._now() - t0)

    def end_step(self) -> tuple[float, float, float]:
        """Finish a step; return ``(t_game, t_wall, t_paused)``."""
        if self.mode is TimeMode.PAUSED:
            self.backend.pause()
        self._last_end = self._now()
        return self.t_game, self._last_end - self._step_wall0, self.t_paused

    def _advance_game(self, seconds: float) -> None:
        if not self.record:
            self.backend.advance(seconds)
            self.game_time += seconds
            self.t_game += seconds
            return
        end = self.game_time + seconds
        while self._next_frame <= end:
            dt = self._next_frame - self.game_time
            if dt > 0:
                self.backend.advance(dt)
            self.t_game += dt
            self.game_time = self._next_frame
            self._next_frame += self.frame_period
            self._frame()
        rest = end - self.game_time
        if rest > 0:
            self.backend.advance(rest)
        self.t_game += rest
        self.game_time = end

    def _count(self, seconds: float) -> None:
        self.game_time += seconds
        self.t_game += seconds
        while self._next_frame <= self.game_time:
            self._next_frame += self.frame_period
            if self.record:
                self._frame()

    def _frame(self) -> None:
        on_frame = self.on_frame
        if on_frame is None or self._step_frames >= MAX_STEP_FRAMES:
            return
        self._step_frames += 1
        on_frame()
