"""The Cradle paper's nine financial metrics of Dealer's Life 2 (seed 000 §D.6), and more.

For every successfully traded item i — bought (or lent on) for B_i, sold (or repaid) for S_i,
with market valuation V_i — and n such items, m items that were not traded:

* TR   = n / (n + m)
* GPM  = Σ(S_i − B_i) / Σ S_i
* ROI  = Σ(S_i − B_i) / Σ B_i
* VD   = Σ(S_i − V_i) / Σ V_i
* BPVR = Σ B_i / Σ V_i
* SPVR = Σ S_i / Σ V_i
* APR  = (1/n) Σ (S_i − B_i) / B_i
* MRR  = max_i (S_i − B_i) / B_i
* mRR  = min_i (S_i − B_i) / B_i

The paper does not spell out which items count as "unsuccessfully traded" (m). Here an item
is considered when a customer put it on the counter (a seller's or pawner's item, or a shelf
item a buyer asked for); it is traded once the shop has sold it (a pawn repaid counts); m is
the number of considered items whose negotiation failed and that were never sold in the
episode. V_i is the item's true market value (a fake's is a small share of the genuine's).
With no traded item every ratio is 0 (never NaN, so ``info`` stays comparable).

>>> r = financial([Trip(100, 150, 120), Trip(200, 180, 250)], m=1)
>>> r["TR"], r["GPM"], r["ROI"], r["MRR"], r["mRR"]
(0.6666666666666666, 0.09090909090909091, 0.1, 0.5, -0.1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

NINE = ("TR", "GPM", "ROI", "VD", "BPVR", "SPVR", "APR", "MRR", "mRR")


@dataclass(frozen=True)
class Trip:
    """One traded item: bought for ``buy`` (B), sold for ``sell`` (S), valued ``value`` (V)."""

    buy: float
    sell: float
    value: float


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def financial(trips: Sequence[Trip], m: int) -> dict[str, float]:
    """The nine metrics over ``trips`` (the n traded items) and ``m`` untraded ones."""
    n = len(trips)
    B = sum(t.buy for t in trips)
    S = sum(t.sell for t in trips)
    V = sum(t.value for t in trips)
    rates = [_ratio(t.sell - t.buy, t.buy) for t in trips]
    return {
        "TR": _ratio(n, n + m),
        "GPM": _ratio(S - B, S),
        "ROI": _ratio(S - B, B),
        "VD": _ratio(S - V, V),
        "BPVR": _ratio(B, V),
        "SPVR": _ratio(S, V),
        "APR": _ratio(sum(rates), n),
        "MRR": max(rates) if rates else 0.0,
        "mRR": min(rates) if rates else 0.0,
    }


@dataclass(frozen=True)
class Talk:
    """How one potential deal went (one customer with an item to trade)."""

    closed: bool
    #: True when the player talked price (the haggle screen was reached).
    haggled: bool
    #: Prices the player gave, plus one for accepting the customer's offer.
    rounds: int
    #: Deal price, or None.
    price: float | None
    #: The customer's opening offer and hidden reservation price.
    opening: float
    reserve: float
    #: True when the customer bought from the shop.
    buys: bool


def normalised_profit(t: Talk) -> float:
    """Share of the bargaining room the player won: 0 at the customer's opening offer, 1 at
    their reservation price (bargaining benchmarks' normalised profit)."""
    if t.price is None:
        return 0.0
    room = (t.reserve - t.opening) if t.buys else (t.opening - t.reserve)
    won = (t.price - t.opening) if t.buys else (t.opening - t.price)
    return _ratio(won, room) if room > 0 else 0.0


def headline(talks: Iterable[Talk], profit: float, start_worth: float) -> dict[str, float]:
    """The paper's headline figures and the bargaining measures.

    * ``deal_share``: share of potential deals closed (every customer with an item to trade).
    * ``mean_rounds``: negotiation rounds per customer who talked price.
    * ``total_profit_pct``: ``profit``, % of ``start_worth`` (both valued the same way: the
      task passes true worth).
    * ``deal_rate``: share of negotiations (price talked) that ended in a deal.
    * ``normalized_profit``: mean of :func:`normalised_profit` over closed deals.
    """
    talks = list(talks)
    haggled = [t for t in talks if t.haggled]
    closed = [t for t in talks if t.closed]
    return {
        "deal_share": _ratio(len(closed), len(talks)),
        "mean_rounds": _ratio(sum(t.rounds for t in haggled), len(haggled)),
        "total_profit_pct": 100.0 * _ratio(profit, start_worth),
        "deal_rate": _ratio(sum(t.closed for t in haggled), len(haggled)),
        "normalized_profit": _ratio(sum(normalised_profit(t) for t in closed), len(closed)),
    }
