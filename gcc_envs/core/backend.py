"""The interfaces the core needs from what is below it: a :class:`Backend` and a :class:`Simulator`.

The core owns these protocols; implementations live in ``gcc_envs.backends`` (and games provide
simulators) and import the core, never the other way round.

Beyond the protocol sketched in DESIGN §3, a backend also has ``reset`` (a sim restarts its
world, a desktop runs a task's setup), ``probe`` (the state a task check reads: a simulator's
state object, or ``None`` for a real screen) and ``clock_driven`` (whether game time passes
only when ``advance`` is called).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np

from gcc_envs.core.events import KeyDown, KeyUp, MouseDown, MouseUp, MoveBy, MoveTo, Scroll

PrimitiveEvent = KeyDown | KeyUp | MoveTo | MoveBy | MouseDown | MouseUp | Scroll


@runtime_checkable
class Backend(Protocol):
    """Where the screen comes from and where input goes."""

    #: (W, H) of the frames ``capture`` returns; event coordinates are in these pixels.
    size: tuple[int, int]
    #: True when game time passes only inside ``advance`` (simulators); False for real screens.
    clock_driven: bool

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None) -> None: ...
    def capture(self) -> np.ndarray: ...
    def send(self, event: PrimitiveEvent) -> None: ...
    def advance(self, seconds: float) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def release_all(self) -> None: ...
    def probe(self) -> Any: ...
    def close(self) -> None: ...


@runtime_checkable
class Simulator(Protocol):
    """A game simulated in-process. ``SimBackend`` hosts one.

    Coordinates are normalised window coordinates (u, v) in [0, 1]; the simulator renders at
    any size directly. ``advance`` runs the game's fixed-step physics for ``seconds`` with the
    input currently held; while paused the world does not move.
    """

    #: Key names the game reacts to, in a fixed order (the ``state`` action mode's ``keys``).
    keys: tuple[str, ...]
    #: Native window size (W, H) the game is designed for, e.g. (1280, 720).
    native_size: tuple[int, int]

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None = None) -> None: ...
    def key_down(self, key: str) -> None: ...
    def key_up(self, key: str) -> None: ...
    def pointer_move(self, u: float, v: float) -> None: ...

    # Games with a camera mouse also have ``pointer_move_by(du, dv)``: relative motion in
    # window fractions (unbounded). It is optional, so it is not part of this protocol.
    def mouse_down(self, button: str) -> None: ...
    def mouse_up(self, button: str) -> None: ...
    def scroll(self, dy: int, dx: int) -> None: ...
    def advance(self, seconds: float) -> None: ...
    def render(self, height: int, width: int) -> np.ndarray: ...
    def set_paused(self, paused: bool) -> None: ...
    @property
    def state(self) -> Any: ...
