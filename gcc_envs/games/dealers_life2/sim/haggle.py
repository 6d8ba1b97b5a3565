"""Alternating offers: how a customer answers a price, as a pure function of numbers.

A seller (or pawner) asks ``offer`` and will not go under ``reserve``; a buyer bids ``offer``
and will not go over it. Each counter-offer gives up ``concede`` of the gap to the reservation
(down to 60 % of it when the customer is in a bad mood, a quarter of it after an insult). A price at or
beyond the customer's next counter-offer is accepted. An offer more than ``insult`` past the
reservation is an insult and costs ``insult_mood x touchiness`` of mood; any other refused
price costs ``round_mood``. At mood 0 the customer walks out; when patience runs out (or the
mood falls under ``final_mood``) the counter is a final offer, and refusing it ends the talk.

The answer depends only on its inputs (the seeded draws were made when the customer arrived),
so a planner can try offers on copies.

>>> h = Haggler(reserve=400.0, offer=900, concede=0.5, patience=3, mood=80, touchiness=1.0,
...             buys=False)
>>> r = respond(h, 300, insult=0.3, insult_mood=30, round_mood=6, final_mood=25)
>>> r.kind, r.price, r.insulted
('counter', 680, False)
>>> respond(h, 690, insult=0.3, insult_mood=30, round_mood=6, final_mood=25).kind
'accept'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Haggler:
    """The numbers of one customer's side of a haggle."""

    reserve: float
    offer: int
    concede: float
    patience: int
    mood: float
    touchiness: float
    #: True for a buyer (the player asks; lower is better for the customer).
    buys: bool
    final: bool = False


@dataclass(frozen=True)
class Reply:
    #: "accept" (at the player's price), "counter", "final" (a last counter) or "leave".
    kind: str
    #: The deal price (accept) or the new counter-offer.
    price: int
    insulted: bool
    #: The customer after answering.
    after: Haggler

    @property
    def angry(self) -> bool:
        return self.kind == "leave" and self.after.mood <= 0


def nice(price: float, up: bool) -> int:
    """Round a customer's price to a number people say ($5 steps over $50), up or down."""
    step = 5 if price > 50 else 1
    q = price / step
    return int((math.ceil(q - 1e-9) if up else math.floor(q + 1e-9)) * step)


def respond(
    h: Haggler,
    price: int,
    *,
    insult: float,
    insult_mood: float,
    round_mood: float,
    final_mood: float,
) -> Reply:
    """The customer's answer to the player's ``price``."""
    sign = -1 if h.buys else 1  # +1: the customer sells and wants more
    if sign * (price - h.offer) >= 0:  # as good as their own offer: taken at once
        return Reply("accept", price, False, h)
    insulted = sign * (h.reserve - price) > insult * h.reserve
    mood = h.mood - (insult_mood * h.touchiness if insulted else round_mood)
    mood = max(mood, 0.0)
    if mood <= 0:
        return Reply("leave", h.offer, insulted, replace(h, mood=0.0))
    if h.final:  # the final offer was refused
        return Reply("leave", h.offer, insulted, replace(h, mood=mood))
    rate = h.concede * (0.6 + 0.4 * mood / 100.0) * (0.25 if insulted else 1.0)
    target = h.offer - rate * (h.offer - h.reserve)
    # a seller never goes under the reservation, a buyer never over it
    nxt = nice(target, up=not h.buys)
    nxt = max(nxt, nice(h.reserve, up=True)) if not h.buys else min(nxt, nice(h.reserve, False))
    if sign * (price - nxt) >= 0:
        return Reply("accept", price, insulted, replace(h, mood=mood))
    patience = h.patience - 1
    final = patience <= 0 or mood < final_mood
    after = replace(h, offer=nxt, mood=mood, patience=patience, final=final)
    return Reply("final" if final else "counter", nxt, insulted, after)
