"""``SkylinesSim``: the Cities: Skylines simulator behind the ``Simulator`` protocol.

Input arrives as pointer moves, clicks and keys (:mod:`.ui`); :meth:`SkylinesSim.advance`
moves game time, and while the simulation runs (the play/pause control, ``space``) it
simulates one week per ``week_seconds / speed`` game seconds (:mod:`.growth`). The city starts
paused, as in the Cradle paper's first turn. The camera is locked: the wheel does nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from gcc_envs.games.skylines.sim import growth, ui
from gcc_envs.games.skylines.sim.data import GameData, load_data
from gcc_envs.games.skylines.sim.layout import DESIGN
from gcc_envs.games.skylines.sim.render import render
from gcc_envs.games.skylines.sim.state import CityState
from gcc_envs.games.skylines.sim.terrain import generate

_ALIASES = {"escape": "esc", "return": "enter", "del": "delete"}


def new_city(data: GameData, scenario: str, rng: np.random.Generator) -> CityState:
    """A fresh city for ``scenario``: terrain and the growth generator both come from ``rng``."""
    if scenario not in data.scenarios:
        raise ValueError(f"unknown Skylines scenario {scenario!r}; known: {sorted(data.scenarios)}")
    scn = data.scenarios[scenario]
    terrain = generate(scn, rng)
    seed = int(rng.integers(0, 2**63 - 1))
    return CityState(data, scn, terrain, np.random.default_rng(seed), float(scn.budget))


class SkylinesSim:
    """A first-turn Cities: Skylines plot by the sea, seen from a locked camera.

    Controls (lowercase pyautogui key names): the left button clicks the toolbar, the panels
    and the map; the right button or ``esc`` cancels; ``space`` pauses and unpauses the city,
    ``1`` ``2`` ``3`` set its speed, ``delete`` picks the bulldozer (``enter`` does nothing).
    The pointer is normalised (u, v) in [0, 1].
    """

    keys: tuple[str, ...] = ("esc", "space", "1", "2", "3", "delete", "enter")
    native_size: tuple[int, int] = DESIGN

    def __init__(self, data: GameData | None = None) -> None:
        self._data = data if data is not None else load_data()
        self._state: CityState | None = None
        self._paused = False
        self._held: set[str] = set()
        self._cache: dict[str, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        d = self.__dict__.copy()
        d["_cache"] = {}
        return d

    @property
    def state(self) -> CityState:
        if self._state is None:
            raise RuntimeError("SkylinesSim.reset() must be called before use")
        return self._state

    @property
    def data(self) -> GameData:
        return self._data

    @property
    def paused(self) -> bool:
        return self._paused

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None = None) -> None:
        """Start ``options["scenario"]`` (``"city"`` by default; ``"block"``)."""
        opts = dict(options or {})
        scenario = opts.pop("scenario", "city")
        if opts:
            raise ValueError(
                f"unknown SkylinesSim reset options {sorted(opts)}; the only option is 'scenario'"
            )
        self._state = new_city(self._data, str(scenario), rng)
        self._held.clear()
        self._paused = False
        self._cache.clear()

    def set_paused(self, paused: bool) -> None:
        self._paused = bool(paused)

    def key_down(self, key: str) -> None:
        k = _ALIASES.get(key.lower(), key.lower())
        if k in self._held:
            return
        self._held.add(k)
        if not self._paused:
            ui.key(self.state, k)

    def key_up(self, key: str) -> None:
        self._held.discard(_ALIASES.get(key.lower(), key.lower()))

    def pointer_move(self, u: float, v: float) -> None:
        self.state.ui.pointer = (min(max(float(u), 0.0), 1.0), min(max(float(v), 0.0), 1.0))

    def mouse_down(self, button: str) -> None:
        if self._paused:
            return
        if button == "left":
            ui.left_down(self.state)
        elif button == "right":
            ui.cancel(self.state)

    def mouse_up(self, button: str) -> None:
        if button == "left" and not self._paused:
            ui.left_up(self.state)

    def scroll(self, dy: int, dx: int = 0) -> None:
        del dy, dx  # the camera is locked

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` of game time pass (weeks go by while the city runs)."""
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"advance needs a finite, non-negative duration, got {seconds!r}")
        s = self.state
        if self._paused:
            return
        s.t += seconds
        if not s.running:
            return
        s.week_acc += seconds * s.speed / s.data.growth.week_seconds
        while s.week_acc >= 1.0:
            s.week_acc -= 1.0
            growth.week(s)

    def render(self, height: int, width: int) -> np.ndarray:
        """The screen at (height, width) pixels, RGB uint8, a fresh array."""
        return render(self.state, int(height), int(width), self._cache)

    @property
    def held_keys(self) -> tuple[str, ...]:
        return tuple(sorted(self._held))
