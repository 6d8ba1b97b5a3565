"""``SimBackend``: hosts a game :class:`~gcc_envs.core.backend.Simulator` in-process.

Lockstep and deterministic under a seed: game time passes only in ``advance``; frames are
rendered at the observation size directly; event coordinates (frame pixels) become the
simulator's normalised window coordinates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gcc_envs.core import events as ev
from gcc_envs.core.backend import PrimitiveEvent, Simulator
from gcc_envs.core.frame_size import parse_obs_size
from gcc_envs.core.held import HeldInput
from gcc_envs.errors import BackendError, GCCError


class SimBackend:
    """A backend over an in-process simulator."""

    clock_driven = True

    def __init__(self, sim: Simulator, obs_size: tuple[int, int] | None = None) -> None:
        if obs_size is None:
            W, H = sim.native_size
        else:
            H, W = _size(obs_size)
        self.sim = sim
        self.size = (W, H)
        self.held = HeldInput()
        self._focused = True
        self._closed = False

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None) -> None:
        self._check_open()
        self.held.clear()
        self.sim.reset(rng, options)

    def capture(self) -> np.ndarray:
        self._check_open()
        W, H = self.size
        return self.sim.render(H, W)

    def send(self, event: PrimitiveEvent) -> None:
        if self._closed:
            self._check_open()
        sim = self.sim
        cls = type(event)
        if cls not in _PRIMITIVE_SET:  # a subclass: dispatch on the primitive it is
            cls = next((c for c in _PRIMITIVES if isinstance(event, c)), cls)
        if cls is ev.KeyDown:
            self.held.apply(event)
            sim.key_down(event.key)  # type: ignore[union-attr]
        elif cls is ev.KeyUp:
            self.held.apply(event)
            sim.key_up(event.key)  # type: ignore[union-attr]
        elif cls is ev.MoveTo:
            W, H = self.size
            sim.pointer_move(_unit((event.x + 0.5) / W), _unit((event.y + 0.5) / H))  # type: ignore[union-attr]
        elif cls is ev.MoveBy:
            move_by = getattr(sim, "pointer_move_by", None)
            if move_by is None:
                raise BackendError(f"{type(sim).__name__} has no relative (camera) mouse")
            W, H = self.size
            move_by(event.dx / W, event.dy / H)  # type: ignore[union-attr]
        elif cls is ev.MouseDown:
            self.held.apply(event)
            sim.mouse_down(event.button)  # type: ignore[union-attr]
        elif cls is ev.MouseUp:
            self.held.apply(event)
            sim.mouse_up(event.button)  # type: ignore[union-attr]
        elif cls is ev.Scroll:
            sim.scroll(event.dy, event.dx)  # type: ignore[union-attr]
        else:
            raise BackendError(f"SimBackend.send takes primitive events, got {event!r}")

    def advance(self, seconds: float) -> None:
        self._check_open()
        self.sim.advance(seconds)

    def pause(self) -> None:
        # The seed games pause when their window loses focus; the sim honours the same signal.
        self._focused = False
        self.sim.set_paused(True)

    def resume(self) -> None:
        self._focused = True
        self.sim.set_paused(False)

    def release_all(self) -> None:
        if self._closed:
            return
        for k in self.held.keys:
            self.sim.key_up(k)
        for b in self.held.buttons:
            self.sim.mouse_up(b)
        self.held.clear()

    def probe(self) -> Any:
        return self.sim.state

    def close(self) -> None:
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise BackendError("this SimBackend is closed; make a new env")


#: The events ``send`` takes, in the order a subclass is matched.
_PRIMITIVES = (ev.KeyDown, ev.KeyUp, ev.MoveTo, ev.MoveBy, ev.MouseDown, ev.MouseUp, ev.Scroll)
_PRIMITIVE_SET = frozenset(_PRIMITIVES)


def _unit(v: float) -> float:
    return min(max(v, 0.0), 1.0)


def _size(obs_size: Any) -> tuple[int, int]:
    try:
        return parse_obs_size(obs_size)
    except GCCError as e:
        raise BackendError(str(e)) from None
