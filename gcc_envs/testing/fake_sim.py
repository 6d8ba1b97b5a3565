"""``FakeSim``: a tiny simulator with the whole :class:`~gcc_envs.core.backend.Simulator`
protocol, for the core's tests.

A dot walks on a unit square while ``w a s d`` are held (``SPEED`` units per game second),
looks around with a camera mouse (``pointer_move_by`` turns ``heading``), counts clicks and
scroll clicks, and keeps its own game clock; nothing moves while it is paused. The frame shows
a HUD panel, the dot, the pointer and the heading, so a test can see that input changed it (and it stands
still while nobody acts). The seed places the dot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: The keys the fake game reacts to (a profile would give them to a real game's env).
FAKE_KEYS: tuple[str, ...] = ("w", "a", "s", "d", "e", "esc")
#: Units of the square per game second of walking.
SPEED = 0.25
_MOVES = {"w": (0.0, -1.0), "s": (0.0, 1.0), "a": (-1.0, 0.0), "d": (1.0, 0.0)}


@dataclass
class FakeState:
    """What a task check reads (the backend's probe)."""

    x: float = 0.5
    y: float = 0.5
    heading: float = 0.0
    pointer: tuple[float, float] = (0.5, 0.5)
    clock: float = 0.0
    clicks: dict[str, int] = field(default_factory=dict)
    scrolled: int = 0
    presses: dict[str, int] = field(default_factory=dict)
    held: set[str] = field(default_factory=set)


class FakeSim:
    """See the module docstring."""

    keys: tuple[str, ...] = FAKE_KEYS
    native_size: tuple[int, int] = (128, 72)

    def __init__(self) -> None:
        self._state = FakeState()
        self.paused = False
        self.resets: list[Mapping[str, Any]] = []

    @property
    def state(self) -> FakeState:
        return self._state

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None = None) -> None:
        self.resets.append(dict(options or {}))
        x, y = rng.uniform(0.2, 0.8, 2)
        self._state = FakeState(x=float(x), y=float(y))
        self.paused = False

    def key_down(self, key: str) -> None:
        s = self._state
        if key not in s.held:
            s.presses[key] = s.presses.get(key, 0) + 1
        s.held.add(key)

    def key_up(self, key: str) -> None:
        self._state.held.discard(key)

    def pointer_move(self, u: float, v: float) -> None:
        self._state.pointer = (u, v)

    def pointer_move_by(self, du: float, dv: float) -> None:
        self._state.heading = (self._state.heading + 90.0 * du) % 360.0

    def mouse_down(self, button: str) -> None:
        self._state.clicks[button] = self._state.clicks.get(button, 0) + 1

    def mouse_up(self, button: str) -> None:
        pass

    def scroll(self, dy: int, dx: int) -> None:
        self._state.scrolled += dy

    def advance(self, seconds: float) -> None:
        if self.paused:
            return
        s = self._state
        s.clock += seconds
        dx = sum(_MOVES[k][0] for k in s.held if k in _MOVES)
        dy = sum(_MOVES[k][1] for k in s.held if k in _MOVES)
        s.x = min(max(s.x + dx * SPEED * seconds, 0.0), 1.0)
        s.y = min(max(s.y + dy * SPEED * seconds, 0.0), 1.0)

    def set_paused(self, paused: bool) -> None:
        self.paused = paused

    def render(self, height: int, width: int) -> np.ndarray:
        s = self._state
        frame = np.full((height, width, 3), 40, np.uint8)
        ph, pw = max(4, height // 8), max(8, width // 4)  # a HUD panel, bottom left
        frame[height - ph - 2 : height - 2, 2 : pw + 2] = (30, 30, 30)
        frame[height - ph : height - 4, 4:pw] = (190, 170, 110)
        cx, cy = int(s.x * (width - 1)), int(s.y * (height - 1))
        r = max(1, min(height, width) // 16)
        frame[max(cy - r, 0) : cy + r + 1, max(cx - r, 0) : cx + r + 1] = (60, 200, 60)
        px, py = int(s.pointer[0] * (width - 1)), int(s.pointer[1] * (height - 1))
        frame[py, max(px - 3, 0) : px + 4] = 255  # a small white cross at the pointer
        frame[max(py - 3, 0) : py + 4, px] = 255
        frame[-1, : int(s.heading / 360.0 * width)] = (60, 60, 220)
        return frame
