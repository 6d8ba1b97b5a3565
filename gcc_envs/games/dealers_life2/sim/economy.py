"""Seeded draws: items brought in, customers and their hidden numbers, the day's news.

Every function takes the episode's generator, so the same seed and the same play give the
same week. Values follow ``data/economy.toml`` and ``data/customers.toml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from gcc_envs.games.dealers_life2.sim.data import GameData
from gcc_envs.games.dealers_life2.sim.haggle import nice
from gcc_envs.games.dealers_life2.sim.state import Customer, Item, ShopState

T = TypeVar("T")
#: Palette sizes of a drawn customer (sim/art.py): skin, hair, shirt, hair style, glasses.
LOOKS = (6, 7, 9, 4, 3)


def pick(rng: np.random.Generator, options: Sequence[T], weights: Sequence[float]) -> T:
    w = np.asarray(weights, float)
    return options[int(rng.choice(len(options), p=w / w.sum()))]


def uniform(rng: np.random.Generator, lo_hi: tuple[float, float]) -> float:
    return float(rng.uniform(lo_hi[0], lo_hi[1]))


def new_item(
    s: ShopState, data: GameData, rng: np.random.Generator, *, may_fake: bool = True
) -> Item:
    """An item as a customer brings it in: kind, rarity, condition, maybe a fake."""
    kinds = list(data.items.values())
    kind = kinds[int(rng.integers(len(kinds)))]
    rarity = pick(rng, data.rarities, [r.weight for r in data.rarities])
    cond = pick(rng, data.conditions, [c.weight for c in data.conditions])
    apparent = max(5, nice(kind.value * rarity.mult * cond.mult, up=True))
    eco = data.economy
    fake = may_fake and kind.fakeable and rng.random() < eco.fake_chance
    value = max(1, nice(apparent * eco.fake_value, up=False)) if fake else apparent
    estimate = None
    if rng.random() >= rarity.estimate_missing:
        centre = apparent * (1.0 + rng.uniform(-0.5, 0.5) * rarity.estimate_width)
        w = rarity.estimate_width
        estimate = (nice(centre * (1 - w), up=False), nice(centre * (1 + w), up=True))
    cat = data.categories[kind.category]
    notes = (cat.notes[int(rng.integers(len(cat.notes)))],)
    tell = None
    if fake and rng.random() < cond.tell:
        tell = cat.tells[int(rng.integers(len(cat.tells)))]
    uid = s.next_uid
    s.next_uid += 1
    return Item(
        uid=uid,
        kind=kind.id,
        name=kind.name,
        category=kind.category,
        rarity=rarity.name,
        condition=cond.name,
        genuine=not fake,
        apparent=apparent,
        value=value,
        estimate=estimate,
        notes=notes,
        tell=tell,
        day_in=s.day,
    )


def start_stock(s: ShopState, data: GameData, rng: np.random.Generator) -> list[Item]:
    lo, hi = data.economy.start_stock
    out = []
    for _ in range(int(rng.integers(lo, hi + 1))):
        it = new_item(s, data, rng, may_fake=False)
        it.paid = nice(it.value * uniform(rng, data.economy.start_cost), up=False)
        it.day_in = 0
        out.append(it)
    return out


def day_roles(s: ShopState, data: GameData, rng: np.random.Generator) -> list[str]:
    """Who comes today, in order (buyers need stock; redeemers come first, added by the shop)."""
    eco = data.economy
    lo, hi = eco.customers
    n = int(rng.integers(lo, hi + 1))
    n += (s.reputation > eco.busy_above) - (s.reputation < eco.quiet_below)
    # the day's count, pawners coming back included, stays within the economy's range
    back = sum(p.returns_on == s.day for p in s.pawns)
    n = max(min(max(n, lo), hi) - back, 1)
    names = [r for r, _ in eco.roles]
    roles = [pick(rng, names, [w for _, w in eco.roles]) for _ in range(n)]
    want = min(eco.min_buyers, n)
    for i in rng.permutation(n):  # at least ``min_buyers`` buyers
        if roles.count("buyer") >= want:
            break
        roles[int(i)] = "buyer"
    return roles


def news(data: GameData, rng: np.random.Generator) -> tuple[str, str, str, str]:
    cats = list(data.categories.values())
    hot, cold = rng.choice(len(cats), 2, replace=False)
    h, c = cats[int(hot)], cats[int(cold)]
    head = data.headlines[int(rng.integers(len(data.headlines)))].format(hot=h.name.lower())
    line = data.cold_lines[int(rng.integers(len(data.cold_lines)))].format(cold=c.name.lower())
    return head[:1].upper() + head[1:], line[:1].upper() + line[1:], h.id, c.id


def _say(rng: np.random.Generator, lines: Sequence[str], **kw: object) -> str:
    return lines[int(rng.integers(len(lines)))].format(**kw)


def customer(s: ShopState, data: GameData, rng: np.random.Generator, role: str) -> Customer | None:
    """The customer who walks in now (a buyer picks an item on the shelf), or None."""
    eco = data.economy
    if role == "buyer" and not s.stock:
        role = "seller"
    trait = pick(rng, data.traits, [t.weight for t in data.traits])
    temper = pick(rng, data.tempers, [t.weight for t in data.tempers])
    if role == "buyer":
        hot = [i for i in s.stock if i.category == s.news[2]]
        pool = hot if hot and rng.random() < eco.hot_buyers else s.stock
        item = pool[int(rng.integers(len(pool)))]
        lo, hi = eco.buyer_pay
        mult = lo + (hi - lo) * s.reputation / 100.0
        mult *= 1 + (eco.trend_hot if item.category == s.news[2] else 0.0)
        mult *= 1 + (eco.trend_cold if item.category == s.news[3] else 0.0)
        reserve = item.apparent * uniform(rng, trait.buy) * mult
        opening = nice(reserve * uniform(rng, trait.bid), up=False)
        line = _say(rng, data.lines["buyer"], item=item.name)
    else:
        item = new_item(s, data, rng)
        reserve = item.apparent * uniform(rng, trait.sell)
        if role == "pawner":
            reserve *= eco.pawn_loan
        opening = nice(reserve * uniform(rng, trait.ask), up=True)
        key = "pawner" if role == "pawner" else "seller"
        line = _say(rng, data.lines[key], item=item.name, days=eco.pawn_days)
    reserve = max(reserve, 1.0)
    opening = max(opening, 1)
    lo_p, hi_p = temper.patience
    mood = uniform(rng, temper.mood)
    c = Customer(
        uid=s.next_uid,
        name=f"{data.first_names[int(rng.integers(len(data.first_names)))]} "
        f"{data.last_names[int(rng.integers(len(data.last_names)))]}",
        role=role,
        trait=trait.id,
        temper=temper.id,
        item=item,
        reserve=float(reserve),
        offer=int(opening),
        opening=int(opening),
        concede=uniform(rng, trait.concede),
        patience=int(rng.integers(lo_p, hi_p + 1)),
        mood=mood,
        touchiness=temper.touchiness,
        look=tuple(int(rng.integers(n)) for n in LOOKS),  # type: ignore[arg-type]
        said=line,
        mood0=mood,
    )
    s.next_uid += 1
    if role == "pawner":
        back = rng.random() < (0.5 if trait.id == "desperate" else 0.8)
        c.returns_on = s.day + int(rng.integers(1, eco.pawn_days + 1)) if back else 0
    return c
