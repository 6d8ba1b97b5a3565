"""``RecordingBackend``: a backend that records what it is asked to do; ``ManualClock``: a
wall clock that only moves when slept on.

With ``clock_driven=False`` the recording backend behaves like a real screen (game time is
wall time), and with a :class:`ManualClock` the paused and realtime modes can be tested
without sleeping: ``advance`` and ``sleep`` move the manual clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gcc_envs.core.backend import PrimitiveEvent
from gcc_envs.core.clock import WallClock
from gcc_envs.core.held import HeldInput
from gcc_envs.errors import BackendError


class ManualClock:
    """Time that passes only in ``sleep`` (or ``tick``); hand ``wall`` to a ``Clock``."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = float(start)

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += max(0.0, float(seconds))

    tick = sleep

    @property
    def wall(self) -> WallClock:
        return WallClock(sleep=self.sleep, now=self.now)


class RecordingBackend:
    """Records every call; frames show how many events arrived and how much time passed."""

    def __init__(
        self,
        size: tuple[int, int] = (64, 48),
        *,
        clock_driven: bool = True,
        clock: ManualClock | None = None,
        fail_on: type | None = None,
        judge: Any = None,
    ) -> None:
        self.size = size
        self.clock_driven = clock_driven
        self.clock = clock
        #: An event type whose ``send`` raises :class:`BackendError` (a refusing window).
        self.fail_on = fail_on
        #: A judge whose reading ``probe`` returns (as a real screen's backend does).
        self.judge = judge
        self.sent: list[PrimitiveEvent] = []
        self.calls: list[str] = []
        self.held = HeldInput()
        self.advanced = 0.0
        self.paused = False
        self.closed = False

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None) -> None:
        self.calls.append("reset")
        self.sent.clear()
        self.held.clear()
        self.advanced = 0.0
        self.options = dict(options or {})

    def capture(self) -> np.ndarray:
        W, H = self.size
        frame = np.zeros((H, W, 3), np.uint8)
        frame[0, : min(len(self.sent), W)] = 255
        frame[1, : min(int(self.advanced * 10), W)] = 255
        return frame

    def send(self, event: PrimitiveEvent) -> None:
        if self.closed:
            raise BackendError("closed")
        if self.fail_on is not None and isinstance(event, self.fail_on):
            raise BackendError(f"refused {type(event).__name__}")
        self.sent.append(event)
        self.held.apply(event)

    def advance(self, seconds: float) -> None:
        self.advanced += seconds
        if self.clock is not None and not self.clock_driven:
            self.clock.sleep(seconds)  # a real screen: advancing is waiting

    def pause(self) -> None:
        self.calls.append("pause")
        self.paused = True

    def resume(self) -> None:
        self.calls.append("resume")
        self.paused = False

    def release_all(self) -> None:
        self.calls.append("release_all")
        self.held.clear()

    def probe(self) -> Any:
        if self.judge is not None:
            return self.judge.probe(self)
        return {"sent": len(self.sent), "advanced": self.advanced}

    def close(self) -> None:
        self.calls.append("close")
        self.closed = True
