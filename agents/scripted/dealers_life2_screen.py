"""Dealer's Life 2 players that see only the screen: a careful trader and a naive baseline.

Both classify the frame by its button colours and act with one skill call per step
(:mod:`gcc_envs.games.dealers_life2.vision`). ``ScreenTrader`` also reads numbers off the
haggle screen — the customer's offer, the estimate range, what the shop paid, the bank — and
the red mark of a fake's tell: it opens at about 45 % of the estimate when buying and 180 % of
what it paid when selling, meets the customer halfway each round and gives up after a few
rounds or when the mood meter runs low. It needs legible frames (720 px tall, the default).
``AcceptFirstScript`` accepts every customer's first offer (a "no haggling" baseline).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gcc_envs.games.dealers_life2 import vision
from gcc_envs.games.dealers_life2.sim.layout import Rect

#: Where the haggle screen writes the numbers the trader reads: (rect, font size, bold, light).
OFFER = (Rect.px(870, 300, 1230, 380), 1.6, True, False)
ESTIMATE = (Rect.px(576, 340, 826, 372), 0.66, False, False)
PAID = (Rect.px(576, 372, 826, 404), 0.66, True, False)
BANK = (Rect.px(1110, 10, 1266, 46), 0.9, True, True)


def read(frame: np.ndarray, where: tuple[Rect, float, bool, bool]) -> list[int]:
    rect, size, bold, light = where
    return vision.parse_money(vision.read_text_line(frame, rect, size, bold, light))


def finish(kind: str) -> str:
    return "finish_sell()" if kind in ("dialog:sold", "dialog:repaid") else "finish_buy()"


def common(kind: str) -> str | None:
    """The skill for every screen but the haggle (None on the haggle screen)."""
    if kind.startswith("dialog:"):
        return finish(kind)
    if kind.startswith("page:"):
        return "close_description_page()"
    if kind == "news":
        return "open_shop()"
    if kind == "customer":
        return "process_dialog()"
    if kind == "haggle":
        return None
    return "process_dialog()"


class ScreenTrader:
    """Haggles from what the screen shows (see the module docstring)."""

    #: Rounds of offers before the trader takes the customer's price or leaves.
    ROUNDS = 3

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.mine: int | None = None
        self.rounds = 0
        self.warned = False

    def act(self, obs: np.ndarray) -> str:
        kind = vision.screen_kind(obs)
        if kind == "dialog:warning":
            self.warned = True
        if kind == "customer":
            self.mine, self.rounds, self.warned = None, 0, False
        step = common(kind)
        return step if step is not None else self.haggle(obs)

    def haggle(self, frame: np.ndarray) -> str:
        role = vision.role(frame)
        offer = read(frame, OFFER)
        if role is None or not offer or self.warned:
            return "reject_deal()"
        their = offer[0]
        est = read(frame, ESTIMATE)
        mid = sum(est[:2]) / 2 if len(est) >= 2 else None
        mood = vision.mood(frame)
        tired = self.rounds >= self.ROUNDS or (mood is not None and mood < 30)
        if role == "buyer":
            paid = (read(frame, PAID) or [0])[0]
            floor = max(paid * 1.25, (mid or 0) * 1.0)
            if their >= floor:
                return "accept_deal()"
            if tired:
                return "accept_deal()" if their > paid * 1.05 else "reject_deal()"
            ask = round(max(paid * 1.8, (mid or paid) * 1.5)) if self.mine is None else None
            if ask is None:
                ask = round(self.mine - (self.mine - max(their, floor)) * 0.5)
            return self._give(max(ask, their + 1))
        if vision.shows_tell(frame):
            return "reject_deal()"
        value = mid if mid is not None else their * 0.9
        cash = (read(frame, BANK) or [0])[0]
        most = min(0.6 * value, cash - 120)
        if their <= most:
            return "accept_deal()"
        if tired:
            return "accept_deal()" if their <= min(0.72 * value, cash - 120) else "reject_deal()"
        bid = (
            round(0.45 * value)
            if self.mine is None
            else round(self.mine + (most - self.mine) * 0.5)
        )
        return self._give(min(max(bid, 1), their - 1))

    def _give(self, price: int) -> str:
        self.mine = price
        self.rounds += 1
        return f"give_price(price={max(1, int(price))})"


class AcceptFirstScript:
    """Accept the customer's first offer on every deal (reject only what the bank can't pay)."""

    def __init__(self, env: Any = None, privileged: bool = False) -> None:
        del env, privileged  # sees only the screen
        self.warned = False

    def reset(self, info: dict[str, Any]) -> None:
        self.warned = False

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> str:
        kind = vision.screen_kind(obs)
        if kind == "dialog:warning":
            self.warned = True
        elif kind == "customer":
            self.warned = False
        step = common(kind)
        if step is not None:
            return step
        return "reject_deal()" if self.warned else "accept_deal()"
