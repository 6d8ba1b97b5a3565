"""``StardewSim``: the Stardew Valley simulator behind the ``Simulator`` protocol.

Input arrives as key/mouse events between calls to :meth:`StardewSim.advance`, which runs the
fixed-rate world (:data:`~gcc_envs.games.stardew.sim.state.TICK_HZ` ticks per game second).
Movement keys are held state; every other key acts once when pressed. While nothing moves,
``advance`` only moves the clock (no per-tick work).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from gcc_envs.games.stardew.live import PROFILE
from gcc_envs.games.stardew.sim import actions, clock, layout, menus
from gcc_envs.games.stardew.sim.data import GameData
from gcc_envs.games.stardew.sim.loader import load_data
from gcc_envs.games.stardew.sim.render import render
from gcc_envs.games.stardew.sim.state import TICK_HZ, TOOLBAR, WorldState
from gcc_envs.games.stardew.sim.world import SPEED, blocked, walk
from gcc_envs.games.stardew.sim.worldgen import new_world

MOVE_KEYS = {"w": "up", "s": "down", "a": "left", "d": "right"}
SLOT_KEYS = {k: i for i, k in enumerate("1234567890-=")}
_ALIASES = {"escape": "esc", "return": "enter"}
_DIAGONAL = 1.0 / math.sqrt(2.0)


class StardewSim:
    """A little Stardew Valley: farm, farmhouse, bus stop, Pelican Town, Pierre's store.

    Controls (lowercase pyautogui key names): ``w a s d`` walk (up = north), ``c`` or the left
    button uses the selected tool or seed on the tile in front, ``x`` or the right button acts
    there (doors, bed, shop counter, harvest, plant), ``1``-``9 0 - =`` or the wheel select a
    toolbar slot, ``e``/``esc`` open and close the inventory and close menus, ``w``/``s`` +
    ``x``/``enter`` (or a click) answer dialogues. The pointer is normalised (u, v) in [0, 1].
    """

    keys: tuple[str, ...] = PROFILE.keys
    native_size: tuple[int, int] = (1280, 720)

    def __init__(self, data: GameData | None = None) -> None:
        self._data = data if data is not None else load_data()
        self._state: WorldState | None = None
        self._held: list[str] = []  # movement keys in the order they were pressed
        self._acc = 0.0  # ticks owed but not yet run (fraction of one)
        self._paused = False
        self._cache: dict[str, Any] = {}

    # ---- pickling: the render cache is rebuilt on demand
    def __getstate__(self) -> dict[str, Any]:
        d = self.__dict__.copy()
        d["_cache"] = {}
        return d

    # ---- protocol
    @property
    def state(self) -> WorldState:
        if self._state is None:
            raise RuntimeError("StardewSim.reset() must be called before use")
        return self._state

    @property
    def data(self) -> GameData:
        return self._data

    @property
    def paused(self) -> bool:
        return self._paused

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None = None) -> None:
        """Start ``options["scenario"]`` (default ``"default"``); ``rng`` places obstacles."""
        opts = dict(options or {})
        scenario = opts.pop("scenario", "default")
        if opts:
            raise ValueError(
                f"unknown StardewSim reset options {sorted(opts)}; the only option is 'scenario'"
            )
        self._state = new_world(self._data, str(scenario), rng)
        self._held.clear()
        self._acc = 0.0
        self._paused = False
        # cached map layers are keyed by location identity and version: drop them
        self._cache.pop("layers", None)
        self._cache.pop("canvases", None)

    def set_paused(self, paused: bool) -> None:
        self._paused = bool(paused)

    def key_down(self, key: str) -> None:
        k = _ALIASES.get(key.lower(), key.lower())
        s = self.state
        if k in MOVE_KEYS:
            if k in self._held:
                return
            self._held.append(k)
            if self._paused:
                return
            if s.menu is not None:
                menus.key(s, k)
            elif not s.busy:
                s.player.facing = MOVE_KEYS[k]
            return
        if self._paused:
            return
        if s.menu is not None:
            menus.key(s, k)
        elif k in ("e", "esc"):
            s.menu = "inventory"
        elif k == "c":
            actions.use_selected(s)
        elif k == "x":
            actions.act(s)
        elif k in SLOT_KEYS:
            actions.select(s, SLOT_KEYS[k])

    def key_up(self, key: str) -> None:
        k = _ALIASES.get(key.lower(), key.lower())
        if k in self._held:
            self._held.remove(k)

    def pointer_move(self, u: float, v: float) -> None:
        s = self.state
        s.pointer = (min(max(float(u), 0.0), 1.0), min(max(float(v), 0.0), 1.0))
        if not self._paused and s.menu is not None:
            menus.hover(s)

    def mouse_down(self, button: str) -> None:
        s = self.state
        if self._paused:
            return
        if s.menu is not None:
            menus.click(s, button)
        elif button == "left":
            top = layout.toolbar_on_top(s)
            rects = layout.TOOLBAR_SLOTS_TOP if top else layout.TOOLBAR_SLOTS
            slot = layout.hit(rects, *s.pointer)
            if slot >= 0:
                actions.select(s, slot)
            else:
                actions.use_selected(s)
        elif button == "right":
            actions.act(s)

    def mouse_up(self, button: str) -> None:
        del button  # nothing happens on release

    def scroll(self, dy: int, dx: int = 0) -> None:
        s = self.state
        if self._paused or s.menu is not None or not dy:
            return
        step = -1 if dy > 0 else 1  # wheel up: previous slot, as in the game
        s.selected = (s.selected + step) % TOOLBAR

    def advance(self, seconds: float) -> None:
        """Run the world for ``seconds`` of game time with the input currently held."""
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"advance needs a finite, non-negative duration, got {seconds!r}")
        s = self.state
        if self._paused:
            return
        self._acc += seconds * TICK_HZ
        n = int(self._acc + 1e-6)
        if n <= 0:
            return
        self._acc = max(self._acc - n, 0.0)
        moved = False
        while n > 0:
            menu_open = s.menu is not None
            k = n
            if not menu_open:
                left = clock.ticks_to_pass_out(s)
                if left <= 0:
                    clock.pass_out(s)
                    continue
                k = min(n, left)
            if self._held and not menu_open:
                v = self._velocity()
                frozen = 0
                if s.swing is not None and s.tick < s.swing.until:
                    frozen = min(k, s.swing.until - s.tick)
                if k > frozen:
                    s.player.facing = MOVE_KEYS[self._held[-1]]
                    if v is not None:
                        k = frozen + walk(s, v[0], v[1], k - frozen)
                        moved = True
            s.tick += k
            if not menu_open:
                clock.run(s, k)
            n -= k
        s.player.moving = moved

    def _velocity(self) -> tuple[float, float] | None:
        """Per-tick step of the held movement keys (None when they cancel out)."""
        held = self._held
        dx = ("d" in held) - ("a" in held)
        dy = ("s" in held) - ("w" in held)
        if not dx and not dy:
            return None
        step = SPEED / TICK_HZ * (_DIAGONAL if dx and dy else 1.0)
        return dx * step, dy * step

    def render(self, height: int, width: int) -> np.ndarray:
        """The screen at (height, width) pixels, RGB uint8, a fresh array."""
        return render(self.state, self._data, int(height), int(width), self._cache)

    # ---- helpers for scripted players and tasks
    def walkable(self, location: str, x: int, y: int) -> bool:
        """Whether tile (x, y) of ``location`` can be walked on now."""
        return not blocked(self.state, location, x, y)

    @property
    def held_keys(self) -> tuple[str, ...]:
        return tuple(self._held)
