"""Game data: the TOML tables under ``games/dealers_life2/data`` parsed once into frozen dataclasses.

Every problem is a :class:`~gcc_envs.errors.DataError` that names the file, the entry and what
is wrong. One :class:`GameData` is immutable and may be shared by many simulators.

>>> d = load_data()
>>> len(d.items) >= 60, len(d.categories) >= 8, [r.name for r in d.rarities][:2]
(True, True, ['Common', 'Uncommon'])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gcc_envs.errors import DataError
from gcc_envs.games.toml_data import RGB, Entry, entries, read

#: The folder holding the game's TOML files.
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
Range = tuple[float, float]


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    #: Hints that an item is counterfeit (shown on the item page at some conditions).
    tells: tuple[str, ...]
    #: Harmless remarks any item may carry.
    notes: tuple[str, ...]


@dataclass(frozen=True)
class ItemKind:
    id: str
    name: str
    category: str
    #: Market value ($) of a genuine, Common, Good-condition item.
    value: int
    fakeable: bool
    color: RGB


@dataclass(frozen=True)
class Rarity:
    name: str
    mult: float
    weight: float
    estimate_width: float
    estimate_missing: float
    color: RGB


@dataclass(frozen=True)
class Condition:
    name: str
    mult: float
    weight: float
    #: Chance that a fake in this condition shows a tell on its item page.
    tell: float


@dataclass(frozen=True)
class Trait:
    id: str
    name: str
    about: str
    sell: Range
    buy: Range
    concede: Range
    ask: Range
    bid: Range
    weight: float


@dataclass(frozen=True)
class Temper:
    id: str
    name: str
    about: str
    patience: tuple[int, int]
    mood: Range
    touchiness: float
    weight: float


@dataclass(frozen=True)
class Economy:
    start_cash: int
    rent: int
    days: int
    customers: tuple[int, int]
    start_stock: tuple[int, int]
    start_cost: Range
    start_reputation: int
    max_digits: int
    min_buyers: int
    roles: tuple[tuple[str, float], ...]
    buyer_pay: Range
    busy_above: int
    quiet_below: int
    fake_discovered: int
    fair_deal: int
    fake_chance: float
    fake_value: float
    fake_discover: float
    pawn_interest: float
    pawn_days: int
    trend_hot: float
    trend_cold: float
    hot_buyers: float
    pawn_loan: float
    insult: float
    insult_mood: float
    round_mood: float
    final_mood: float


@dataclass(frozen=True)
class GameData:
    categories: dict[str, Category]
    items: dict[str, ItemKind]
    rarities: tuple[Rarity, ...]
    conditions: tuple[Condition, ...]
    traits: tuple[Trait, ...]
    tempers: tuple[Temper, ...]
    economy: Economy
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    lines: dict[str, tuple[str, ...]]
    headlines: tuple[str, ...]
    cold_lines: tuple[str, ...]

    def rarity(self, name: str) -> Rarity:
        return next(r for r in self.rarities if r.name == name)

    def condition(self, name: str) -> Condition:
        return next(c for c in self.conditions if c.name == name)


class _E(Entry):
    def num(self, key: str, lo: float = 0.0, hi: float | None = None) -> float:
        v = float(self.get(key, (int, float)))
        if v < lo or (hi is not None and v > hi):
            self.fail(f"field {key!r} must lie in [{lo}, {hi}], got {v}")
        return v

    def range(self, key: str) -> Range:
        v = self.get(key, list)
        if len(v) != 2 or not all(isinstance(x, (int, float)) for x in v) or v[0] > v[1]:
            self.fail(f"field {key!r} must be [low, high] numbers, got {v!r}")
        return (float(v[0]), float(v[1]))

    def strs(self, key: str) -> tuple[str, ...]:
        v = self.get(key, list)
        if not v or not all(isinstance(s, str) and s for s in v):
            self.fail(f"field {key!r} must be a non-empty list of strings")
        return tuple(v)


def _section(file: str, doc: dict[str, Any], key: str) -> _E:
    return _E(file, f"[{key}]", doc.get(key))


@lru_cache(maxsize=4)
def load_data(root: Path = DATA_DIR) -> GameData:
    """Read and validate every table (cached per folder)."""
    items_doc = read(root / "items.toml")
    cats: dict[str, Category] = {}
    for e in entries("items.toml", items_doc, "category", _E):
        c = Category(e.get("id", str), e.get("name", str), e.strs("tells"), e.strs("notes"))
        if c.id in cats:
            e.fail(f"category {c.id!r} defined twice")
        cats[c.id] = c
    items: dict[str, ItemKind] = {}
    for e in entries("items.toml", items_doc, "item", _E):
        it = ItemKind(
            e.get("id", str),
            e.get("name", str),
            e.choice("category", cats),
            e.int("value", lo=1),
            e.get("fakeable", bool),
            e.color("color"),
        )
        if it.id in items:
            e.fail(f"item {it.id!r} defined twice")
        items[it.id] = it
    if len(items) < 8 or len({i.category for i in items.values()}) != len(cats):
        raise DataError("items.toml: every category needs items")

    eco_doc = read(root / "economy.toml")
    rarities = tuple(
        Rarity(
            e.get("name", str),
            e.num("mult", 0.01),
            e.num("weight", 0.0),
            e.num("estimate_width", 0.0, 1.0),
            e.num("estimate_missing", 0.0, 1.0),
            e.color("color"),
        )
        for e in entries("economy.toml", eco_doc, "rarity", _E)
    )
    conditions = tuple(
        Condition(e.get("name", str), e.num("mult", 0.01), e.num("weight"), e.num("tell", 0, 1))
        for e in entries("economy.toml", eco_doc, "condition", _E)
    )
    if not rarities or not conditions:
        raise DataError("economy.toml: needs [[rarity]] and [[condition]] tables")

    cust_doc = read(root / "customers.toml")
    traits = tuple(
        Trait(
            e.get("id", str),
            e.get("name", str),
            e.get("about", str),
            e.range("sell"),
            e.range("buy"),
            e.range("concede"),
            e.range("ask"),
            e.range("bid"),
            e.num("weight"),
        )
        for e in entries("customers.toml", cust_doc, "trait", _E)
    )
    tempers = []
    for e in entries("customers.toml", cust_doc, "temper", _E):
        p = e.range("patience")
        tempers.append(
            Temper(
                e.get("id", str),
                e.get("name", str),
                e.get("about", str),
                (int(p[0]), int(p[1])),
                e.range("mood"),
                e.num("touchiness", 0.0),
                e.num("weight"),
            )
        )
    names = _section("customers.toml", cust_doc, "names")
    lines_e = _section("customers.toml", cust_doc, "lines")
    need = ("seller", "buyer", "pawner", "redeem", "counter_sell", "counter_buy", "insulted")
    need += ("final", "accept", "leave_angry", "leave")
    lines = {k: lines_e.strs(k) for k in need}
    neg = _section("customers.toml", cust_doc, "negotiation")

    shop = _section("economy.toml", eco_doc, "shop")
    roles = _section("economy.toml", eco_doc, "roles")
    rep = _section("economy.toml", eco_doc, "reputation")
    fakes = _section("economy.toml", eco_doc, "fakes")
    pawn = _section("economy.toml", eco_doc, "pawn")
    trends = _section("economy.toml", eco_doc, "trends")
    economy = Economy(
        start_cash=shop.int("start_cash", lo=0),
        rent=shop.int("rent", lo=0),
        days=shop.int("days", lo=1),
        customers=(shop.int("customers_min", lo=1), shop.int("customers_max", lo=1)),
        start_stock=(shop.int("start_stock_min", lo=0), shop.int("start_stock_max", lo=0)),
        start_cost=shop.range("start_cost"),
        start_reputation=shop.int("start_reputation", lo=0),
        max_digits=shop.int("max_digits", lo=1),
        min_buyers=shop.int("min_buyers", lo=0),
        roles=tuple((r, roles.num(r)) for r in ("seller", "buyer", "pawner")),
        buyer_pay=rep.range("buyer_pay"),
        busy_above=rep.int("busy_above"),
        quiet_below=rep.int("quiet_below"),
        fake_discovered=rep.int("fake_discovered", lo=0),
        fair_deal=rep.int("fair_deal", lo=0),
        fake_chance=fakes.num("chance", 0, 1),
        fake_value=fakes.num("value_ratio", 0, 1),
        fake_discover=fakes.num("discover", 0, 1),
        pawn_interest=pawn.num("interest", 0),
        pawn_days=pawn.int("days", lo=1),
        trend_hot=trends.num("hot", -1, 5),
        trend_cold=trends.num("cold", -1, 5),
        hot_buyers=trends.num("hot_buyers", 0, 1),
        pawn_loan=neg.num("pawn_loan", 0.01, 1),
        insult=neg.num("insult", 0, 1),
        insult_mood=neg.num("insult_mood", 0),
        round_mood=neg.num("round_mood", 0),
        final_mood=neg.num("final_mood", 0),
    )
    if economy.customers[0] > economy.customers[1]:
        raise DataError("economy.toml: [shop] customers_min exceeds customers_max")
    news = read(root / "news.toml")
    return GameData(
        categories=cats,
        items=items,
        rarities=rarities,
        conditions=conditions,
        traits=traits,
        tempers=tuple(tempers),
        economy=economy,
        first_names=names.strs("first"),
        last_names=names.strs("last"),
        lines=lines,
        headlines=tuple(e.get("text", str) for e in entries("news.toml", news, "headline", _E)),
        cold_lines=tuple(e.get("text", str) for e in entries("news.toml", news, "cold", _E)),
    )
