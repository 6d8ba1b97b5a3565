"""``DealersLife2Sim``: the pawn shop behind the ``Simulator`` protocol.

Point and click with an absolute pointer, the keyboard for prices: digits type into the price
box of the haggle screen, ``backspace`` deletes, ``enter`` offers the price (and is OK on a
dialog, or opens the shop on the newspaper), ``esc`` closes a page, ``1``/``2`` answer the
customer. Any other key, and a click on nothing, is ignored, as in the real game. The game is
turn based: game time passes (``advance``) but nothing changes until the player acts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from gcc_envs.games.dealers_life2.live import KEYS
from gcc_envs.games.dealers_life2.sim import layout as L
from gcc_envs.games.dealers_life2.sim import shop
from gcc_envs.games.dealers_life2.sim.data import GameData, load_data
from gcc_envs.games.dealers_life2.sim.render import render
from gcc_envs.games.dealers_life2.sim.state import ShopState

_ALIASES = {"escape": "esc", "return": "enter", "kp_enter": "enter"}


def buttons(s: ShopState) -> list[tuple[str, L.Rect]]:
    """The clickable buttons now, topmost first."""
    if s.dialog is not None:
        return [("ok", L.OK_BTN)]
    out: list[tuple[str, L.Rect]] = []
    if s.page is not None or s.screen == "stats":
        out.append(("close", L.CLOSE_BTN))
        if s.page == "stock":
            out.append(("stock", L.STOCK_BTN))
        return out
    out.append(("stock", L.STOCK_BTN))
    if s.screen == "news" and not s.over:
        out.append(("open", L.OPEN_BTN))
    elif s.screen == "customer":
        out += [(f"option{i + 1}", r) for i, r in enumerate(L.OPTION_ROWS[: len(shop.options(s))])]
        if s.customer is not None and s.customer.role != "redeem":
            out.append(("traits", L.TRAITS_BTN))
    elif s.screen == "haggle":
        out += [("accept", L.ACCEPT_BTN), ("reject", L.REJECT_BTN), ("item", L.ITEM_BTN)]
        out += [("traits", L.H_TRAITS_BTN), ("price", L.PRICE_BOX)]
    return out


class DealersLife2Sim:
    """A pawn shop for a week (or ``days`` days): newspaper, customers, haggling, stats.

    >>> sim = DealersLife2Sim()
    >>> sim.reset(np.random.default_rng(0))
    >>> sim.state.screen, sim.state.day, sim.state.cash
    ('news', 1, 2500)
    >>> sim.render(72, 128).shape
    (72, 128, 3)
    """

    keys: tuple[str, ...] = KEYS
    native_size: tuple[int, int] = (1280, 720)

    def __init__(self, data: GameData | None = None) -> None:
        self._data = data if data is not None else load_data()
        self._state: ShopState | None = None
        self._rng = np.random.default_rng(0)
        self._paused = False
        self._cache: dict[str, Any] = {}
        self.game_time = 0.0

    def __getstate__(self) -> dict[str, Any]:
        d = self.__dict__.copy()
        d["_cache"] = {}
        return d

    @property
    def state(self) -> ShopState:
        if self._state is None:
            raise RuntimeError("DealersLife2Sim.reset() must be called before use")
        return self._state

    @property
    def data(self) -> GameData:
        return self._data

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None = None) -> None:
        """A new week; ``options["days"]`` (default 7) sets how many days it lasts."""
        opts = dict(options or {})
        days = opts.pop("days", self._data.economy.days)
        if opts:
            raise ValueError(
                f"unknown DealersLife2Sim reset options {sorted(opts)}; the only one is 'days'"
            )
        if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 28:
            raise ValueError(f"days must be an int from 1 to 28, got {days!r}")
        # the sim keeps its own stream, drawn from the env's, so the week is seeded
        self._rng = np.random.default_rng(int(rng.integers(2**63 - 1)))
        self._state = shop.new_week(self._data, self._rng, days)
        self._paused = False
        self.game_time = 0.0

    def set_paused(self, paused: bool) -> None:
        self._paused = bool(paused)

    # ---- input
    def key_down(self, key: str) -> None:
        if self._paused:
            return
        k = _ALIASES.get(key.lower(), key.lower())
        s, d, rng = self.state, self._data, self._rng
        if s.dialog is not None:
            if k in ("enter", "esc"):
                shop.ok(s, d, rng)
            return
        if k.isdigit() and len(k) == 1:
            if s.screen == "customer" and s.page is None:
                shop.choose(s, d, rng, int(k))
            else:
                shop.type_digit(s, d, k)
        elif k == "backspace":
            shop.backspace(s)
        elif k == "enter":
            if s.screen == "news" and s.page is None:
                shop.open_shop(s, d, rng)
            elif s.screen == "stats":
                shop.close_page(s, d, rng)
            else:
                shop.submit(s, d, rng)
        elif k == "esc" and (s.page is not None or s.screen == "stats"):
            shop.close_page(s, d, rng)
        # any other key: ignored, as the real game ignores letters in the price box

    def key_up(self, key: str) -> None:
        del key  # keys act when pressed

    def pointer_move(self, u: float, v: float) -> None:
        self.state.pointer = (min(max(float(u), 0.0), 1.0), min(max(float(v), 0.0), 1.0))

    def mouse_down(self, button: str) -> None:
        if self._paused or button != "left":
            return
        s, d, rng = self.state, self._data, self._rng
        u, v = s.pointer
        hit = next((name for name, r in buttons(s) if r.contains(u, v)), None)
        if hit is None:
            return  # a click on nothing
        if hit == "ok":
            shop.ok(s, d, rng)
        elif hit == "close":
            shop.close_page(s, d, rng)
        elif hit == "stock":
            shop.open_page(s, "stock")
        elif hit == "open":
            shop.open_shop(s, d, rng)
        elif hit.startswith("option"):
            shop.choose(s, d, rng, int(hit[6:]))
        elif hit in ("traits", "item"):
            shop.open_page(s, hit)
        elif hit == "accept":
            shop.accept(s, d)
        elif hit == "reject":
            shop.reject(s, d, rng)
        # "price": the box has the keyboard already; clicking it changes nothing

    def mouse_up(self, button: str) -> None:
        del button

    def scroll(self, dy: int, dx: int = 0) -> None:
        del dy, dx  # nothing scrolls

    def advance(self, seconds: float) -> None:
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"advance needs a finite, non-negative duration, got {seconds!r}")
        if not self._paused:
            self.game_time += seconds

    def render(self, height: int, width: int) -> np.ndarray:
        """The screen at (height, width) pixels, RGB uint8, a fresh array."""
        return render(self.state, self._data, int(height), int(width), self._cache)
