"""Dealer's Life 2 players that see only the screen: a careful trader and a naive baseline.

Both classify the frame by its button colours and act with one skill call per step
(:mod:`gcc_envs.games.dealers_life2.vision`). ``ScreenTrader`` also reads numbers off the
haggle screen — the customer's offer, the estimate range, what the shop paid, the bank — and
the red mark of a fake's tell: it opens at about 55 % of the estimate when buying and 130 % of
it when selling, meets the customer halfway each round and gives up after a few rounds or
when the mood meter runs low; it never sells under the estimate. It needs legible frames
(540 px tall or more; Dealer's Life 2 is evaluated at 720x1280, the env's default).
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

#: Shares of what an item is worth (its estimate's middle): buy at most ``BUY_SHARE`` of it
#: (``BUY_LAST`` for a last answer), opening at ``BUY_OPEN``; lend a pawner up to
#: ``PAWN_SHARE``; sell at ``SELL_SHARE`` or more (``SELL_LAST`` for a last answer), opening
#: at ``SELL_OPEN``. Profit counts at true worth, so a trade on the wrong side of the
#: estimate loses money whatever the shop paid.
BUY_SHARE, BUY_LAST, BUY_OPEN = 0.8, 0.88, 0.55
PAWN_SHARE = 0.85
SELL_SHARE, SELL_LAST, SELL_OPEN = 1.08, 1.0, 1.3
#: Cash kept back for the rent.
CASH_BUFFER = 120


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
    ROUNDS = 5

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.mine: int | None = None
        #: The customer's first offer (a seller's ask stands in for a missing estimate).
        self.first: int | None = None
        self.rounds = 0
        self.warned = False

    def act(self, obs: np.ndarray) -> str:
        kind = vision.screen_kind(obs)
        if kind == "dialog:warning":
            self.warned = True
        if kind == "customer":
            self.mine, self.first, self.rounds, self.warned = None, None, 0, False
        step = common(kind)
        return step if step is not None else self.haggle(obs)

    def haggle(self, frame: np.ndarray) -> str:
        role = vision.role(frame)
        offer = read(frame, OFFER)
        if role is None or not offer or self.warned:
            return "reject_deal()"
        their = offer[0]
        self.first = their if self.first is None else self.first
        est = read(frame, ESTIMATE)
        mid = sum(est[:2]) / 2 if len(est) >= 2 else None
        mood = vision.mood(frame)
        tired = self.rounds >= self.ROUNDS or (mood is not None and mood < 30)
        if role == "buyer":
            return self._sell(frame, their, mid, tired)
        if vision.shows_tell(frame):
            return "reject_deal()"
        # no estimate: a seller's first ask is about the item's worth, often more
        worth = mid if mid is not None else 0.7 * self.first
        cash = (read(frame, BANK) or [0])[0] - CASH_BUFFER
        if role == "pawner" and their <= min(PAWN_SHARE * worth, cash):
            return "accept_deal()"  # lend what they ask: repaid with interest, or the item
        most = min(BUY_SHARE * worth, cash)
        if most <= 0:
            return "reject_deal()"
        if their <= most:
            return "accept_deal()"
        if tired:
            return "accept_deal()" if their <= min(BUY_LAST * worth, cash) else "reject_deal()"
        if self.mine is None:
            bid = round(BUY_OPEN * worth)
        else:
            bid = round(self.mine + (most - self.mine) * 0.5)
        return self._give(min(max(bid, 1), their - 1, cash))

    def _sell(self, frame: np.ndarray, their: int, mid: float | None, tired: bool) -> str:
        """Sell only above what the item is worth (the estimate; else guessed from the price paid)."""
        paid = (read(frame, PAID) or [0])[0]
        worth = mid if mid is not None else paid / 0.75
        floor = SELL_SHARE * worth
        if their >= floor:
            return "accept_deal()"
        if tired:
            return "accept_deal()" if their >= SELL_LAST * worth else "reject_deal()"
        if self.mine is None:
            ask = round(SELL_OPEN * worth)
        else:
            ask = round(self.mine - (self.mine - max(their, floor)) * 0.5)
        return self._give(max(ask, their + 1, round(floor)))

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
