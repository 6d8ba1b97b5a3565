"""Dealer's Life 2's blind policies: skill calls in a fixed round, whatever the screen shows.

``benchmarks/reference_policies.py`` runs each as a ``game-blind`` column (``POLICIES``: name ->
``seed -> act(obs, info) -> skill code text``). Every policy plays each customer with the same
round of calls: greet (``process_dialog``), close the item page, its prices, then
``accept_deal``, OK on the dialog and ``reject_deal`` (which sends away a customer still
haggling, one the bank could not pay); ``open_shop`` and the close button move the days on.
A skill whose button is not on the screen clicks nothing, so the round stays in step with
the customers without looking. Prices are dollars (``counter_offer(price)``): with the
offer unread, a blind agent can only name fixed sums, the middle of what items cost.

* ``accept-all``: accept every customer's first offer (a 100 % deal rate);
* ``ask-<P>``: one counter-offer of $P, then accept the customer's answer;
* ``twice-<A>-<B>``: counter-offers of $A then $B, then accept;
* ``random-price``: one counter-offer drawn per customer, log-uniform on $20-$2,000;
* ``overpay-fixed``: offer $2,000 to everyone (sellers take it at once);
* ``overpay-3x``: the reviewer's farm, which does read the offer: three times what the
  customer asks (their bid, for a buyer), then accept. It passed a Day when stock was
  valued at cost; at true worth it loses.

A fair task is lost by all of them (``benchmarks/reference_policies.py``'s bar: ≤ 10 %).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import numpy as np

from gcc_envs.games.dealers_life2 import vision
from gcc_envs.games.dealers_life2.skills import OFFER_TEXT

Act = Callable[[np.ndarray, dict], str]

OPEN = ("open_shop()", "close_description_page()", "process_dialog()", "close_description_page()")
CLOSE = ("accept_deal()", "finish_buy()", "reject_deal()")


def _round(prices: Callable[[], list[str]]) -> Act:
    """Per customer: the opening calls, ``prices()``'s calls, then accept, OK and reject."""

    def calls() -> Iterator[str]:
        while True:
            yield from OPEN
            yield from prices()
            yield from CLOSE

    it = calls()
    return lambda obs, info: next(it)


def fixed(*prices: int) -> Callable[[int], Act]:
    def make(seed: int) -> Act:
        del seed
        return _round(lambda: [f"counter_offer(price={p})" for p in prices])

    return make


def accept_all(seed: int) -> Act:
    del seed
    return _round(list)


def random_price(seed: int) -> Act:
    rng = np.random.default_rng(seed + 30_000)

    def prices() -> list[str]:
        return [f"counter_offer(price={int(round(np.exp(rng.uniform(np.log(20), np.log(2000)))))})"]

    return _round(prices)


def overpay_3x(seed: int) -> Act:
    """Read the customer's offer off the frame and offer three times it (see the docstring)."""
    del seed
    rect, size = OFFER_TEXT
    it = itertools.cycle(OPEN)
    pending: list[str] = []

    def act(obs: np.ndarray, info: dict) -> str:
        if pending:
            return pending.pop(0)
        if vision.screen_kind(obs) == "haggle":
            amounts = vision.parse_money(vision.read_text_line(obs, rect, size, True))
            price = min(999_999, 3 * amounts[0]) if amounts else None
            pending.extend(CLOSE)
            return f"counter_offer(price={price})" if price else pending.pop(0)
        return next(it)

    return act


POLICIES: dict[str, Callable[[int], Act]] = {
    "accept-all": accept_all,
    "ask-150": fixed(150),
    "ask-400": fixed(400),
    "twice-100-300": fixed(100, 300),
    "random-price": random_price,
    "overpay-fixed": fixed(2000),
    "overpay-3x": overpay_3x,
}
