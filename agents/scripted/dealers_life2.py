"""Scripted Dealer's Life 2 traders: every action is one skill call of code text.

``TraderScript`` with ``privileged=True`` is the expert: it reads the simulator's state — the
item's true value, whether it is fake, the customer's hidden reservation price, concession
rate, mood and patience — and plans the haggle exactly on copies of the customer (the
customer's answer is a pure function, :func:`gcc_envs.games.dealers_life2.sim.haggle.respond`):
either close now at the lowest (highest) price the customer takes, or stall one round with
the most extreme offer that is not an insult and plan again. It buys when the price leaves a
margin over the item's value, sells above what the shop paid, never buys fakes, and lends
the full ask to a pawner who will come back (25 % interest). Without ``privileged`` it is the
screen-reading trader of :mod:`agents.scripted.dealers_life2_screen`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gcc_envs.errors import GCCError
from gcc_envs.games.dealers_life2.sim.data import GameData
from gcc_envs.games.dealers_life2.sim.haggle import Haggler, respond
from gcc_envs.games.dealers_life2.sim.state import Customer, ShopState

#: Buy only at most this share of the item's true value.
BUY_SHARE = 0.95
#: Sell only at least this multiple of the item's true value.
SELL_MARGIN = 1.02
#: Cash kept back for the rent.
CASH_BUFFER = 120


def _params(data: GameData) -> dict[str, float]:
    e = data.economy
    return {
        "insult": e.insult,
        "insult_mood": e.insult_mood,
        "round_mood": e.round_mood,
        "final_mood": e.final_mood,
    }


def haggler(c: Customer) -> Haggler:
    return Haggler(c.reserve, c.offer, c.concede, c.patience, c.mood, c.touchiness, c.buys, c.final)


def closing_price(h: Haggler, p: dict[str, float]) -> int:
    """The best price the customer accepts right now (binary search on the pure answer)."""
    if h.final:
        return h.offer
    if h.buys:  # the highest ask the buyer takes
        lo, hi = h.offer, max(h.offer, math.floor(h.reserve))
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if respond(h, mid, **p).kind == "accept":
                lo = mid
            else:
                hi = mid - 1
        return lo
    lo, hi = max(1, math.ceil(h.reserve)), h.offer  # the lowest price the seller takes
    while lo < hi:
        mid = (lo + hi) // 2
        if respond(h, mid, **p).kind == "accept":
            hi = mid
        else:
            lo = mid + 1
    return lo


def stall_price(h: Haggler, p: dict[str, float]) -> int:
    """The most extreme price that is not an insult (it buys a concession)."""
    if h.buys:
        return math.floor(h.reserve * (1 + p["insult"]))
    return max(1, math.ceil(h.reserve * (1 - p["insult"])))


def plan(h: Haggler, p: dict[str, float], depth: int = 8) -> tuple[int, int]:
    """(best final price, price to give now) over "close now" and "stall, then plan again"."""
    now = closing_price(h, p)
    best = (now, now)
    if depth <= 0 or h.final:
        return best
    stall = stall_price(h, p)
    r = respond(h, stall, **p)
    if r.kind in ("counter", "final"):
        later, _ = plan(r.after, p, depth - 1)
        if (later > best[0]) if h.buys else (later < best[0]):
            best = (later, stall)
    return best


class PrivilegedTrader:
    """The expert (reads the simulator's state; acts only through skill calls)."""

    def __init__(self, env: Any) -> None:
        sim = getattr(getattr(env, "backend", None), "sim", None)
        if sim is None or type(sim).__name__ != "DealersLife2Sim":
            raise GCCError("the privileged trader needs the Dealer's Life 2 simulator")
        self.env, self.sim = env, sim
        self.p = _params(sim.data)

    @property
    def state(self) -> ShopState:
        return self.env.backend.probe()

    def act(self) -> str:
        s = self.state
        if s.dialog is not None:
            return "finish_sell()" if s.dialog.kind in ("sold", "repaid") else "finish_buy()"
        if s.page is not None or s.screen == "stats":
            return "close_description_page()"
        if s.screen == "news":
            return "open_shop()"
        if s.screen == "customer":
            return "process_dialog()"
        c = s.customer
        assert c is not None
        return self.haggle(s, c)

    def haggle(self, s: ShopState, c: Customer) -> str:
        h = haggler(c)
        final, now = plan(h, self.p)
        it = c.item
        if c.buys:
            if final < SELL_MARGIN * it.value:
                return "reject_deal()"
            return "accept_deal()" if now <= c.offer else f"give_price(price={now})"
        budget = s.cash - CASH_BUFFER
        if c.role == "pawner" and 0 < c.returns_on <= s.days and c.offer <= budget:
            return "accept_deal()"  # they pay back the loan with interest: lend what they ask
        if not it.genuine or final > BUY_SHARE * it.value or final > budget:
            return "reject_deal()"
        return "accept_deal()" if now >= c.offer else f"give_price(price={now})"


class TraderScript:
    """The trader behind ``ScriptedPolicy`` for both tasks (see the module docstring)."""

    def __init__(self, env: Any, privileged: bool = False) -> None:
        if privileged:
            self.impl: Any = PrivilegedTrader(env)
        else:
            from agents.scripted.dealers_life2_screen import ScreenTrader

            self.impl = ScreenTrader()

    def reset(self, info: dict[str, Any]) -> None:
        reset = getattr(self.impl, "reset", None)
        if reset is not None:
            reset()

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> str:
        if isinstance(self.impl, PrivilegedTrader):
            return self.impl.act()
        return self.impl.act(obs)
