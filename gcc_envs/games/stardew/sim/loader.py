"""Loading the game data: tiles, items and crops, obstacles, maps and scenarios."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gcc_envs.core.toml_data import Entry, entries, read
from gcc_envs.errors import DataError
from gcc_envs.games.stardew.sim.data import (
    BUILTIN_TILES,
    DATA_DIR,
    FACINGS,
    ICON_ARTS,
    ITEM_KINDS,
    OBSTACLE_ARTS,
    TILE_ARTS,
    TOOLS,
    Crop,
    GameData,
    Item,
    MapData,
    ObstacleKind,
    Scenario,
    TileKind,
)
from gcc_envs.games.stardew.sim.layout import SHOP_ROWS
from gcc_envs.games.stardew.sim.loader_maps import check_links, load_map

MAX_SHOP_ROWS = len(SHOP_ROWS)


def _load_tiles(directory: Path) -> tuple[TileKind, ...]:
    file = "tiles.toml"
    tiles: list[TileKind] = []
    names: set[str] = set()
    chars: set[str] = set()
    for e in entries(file, read(directory / file), "tile"):
        name = e.get("name", str)
        char = e.get("char", str, None)
        if name in names:
            e.fail(f"duplicate tile name {name!r}")
        if char is not None and (len(char) != 1 or char in chars):
            e.fail(f"char {char!r} must be one character not used by another tile")
        tiles.append(
            TileKind(
                index=len(tiles),
                name=name,
                char=char,
                art=e.choice("art", TILE_ARTS),
                color=e.color("color"),
                under=e.get("under", str, None),
                solid=e.get("solid", bool, False),
                farmable=e.get("farmable", bool, False),
                spawn=e.get("spawn", bool, False),
                water=e.get("water", bool, False),
                door=e.get("door", bool, False),
            )
        )
        names.add(name)
        if char is not None:
            chars.add(char)
    for t in tiles:
        if t.under is not None and (t.under not in names or t.under == t.name):
            raise DataError(f"{file}: tile {t.name!r}: under={t.under!r} is not another tile")
    for name in BUILTIN_TILES:
        if name not in names:
            raise DataError(f"{file}: the built-in tile {name!r} is missing")
    return tuple(tiles)


def _load_items(
    directory: Path,
) -> tuple[
    dict[str, Item],
    dict[str, Crop],
    str,
    tuple[str, ...],
    tuple[tuple[float, float], tuple[str, ...], int],
]:
    file = "items.toml"
    doc = read(directory / file)
    items: dict[str, Item] = {}
    for e in entries(file, doc, "item"):
        item = Item(
            id=e.get("id", str),
            name=e.get("name", str),
            kind=e.choice("kind", ITEM_KINDS),
            icon=e.choice("icon", ICON_ARTS),
            color=e.color("color"),
            price=e.int("price", 0, lo=0),
            sell=e.int("sell", 0, lo=0),
            tool=e.choice("tool", TOOLS, None),
            energy=e.int("energy", 0, lo=0),
            crop=e.get("crop", str, None),
        )
        if item.id in items:
            e.fail(f"duplicate item id {item.id!r}")
        if (item.kind == "tool") != (item.tool is not None):
            e.fail("a tool item needs `tool`, and only tools may have it")
        if (item.kind == "seed") != (item.crop is not None):
            e.fail("a seed item needs `crop`, and only seeds may have it")
        items[item.id] = item
    crops: dict[str, Crop] = {}
    for e in entries(file, doc, "crop"):
        crop = Crop(
            id=e.get("id", str),
            seed=e.get("seed", str),
            produce=e.get("produce", str),
            days=e.int("days", lo=1),
        )
        for key in ("seed", "produce"):
            if getattr(crop, key) not in items:
                e.fail(f"{key} {getattr(crop, key)!r} is not an item")
        crops[crop.id] = crop
    for item in items.values():
        if item.crop is not None and item.crop not in crops:
            raise DataError(f"{file}: item {item.id!r}: crop {item.crop!r} is not a [[crop]]")
    shop = Entry(file, "[shop]", doc.get("shop", {}))
    stock = tuple(shop.get("stock", list))
    if not 1 <= len(stock) <= MAX_SHOP_ROWS:
        shop.fail(f"stock lists {len(stock)} items; the shop menu shows 1 to {MAX_SHOP_ROWS}")
    for sid in stock:
        if sid not in items or items[sid].price <= 0:
            shop.fail(f"stock item {sid!r} is not an item with a price")
    markup = shop.get("price_markup", list, [1.0, 1.0])
    if not (
        len(markup) == 2
        and all(isinstance(v, (int, float)) for v in markup)
        and 0 < markup[0] <= markup[1]
    ):
        shop.fail(f"price_markup must be [lo, hi] with 0 < lo <= hi, got {markup!r}")
    always = tuple(shop.get("always", list, []))
    if any(a not in stock for a in always):
        shop.fail(f"always lists items that are not in stock: {sorted(set(always) - set(stock))}")
    least = shop.int("min_items", len(stock), lo=max(1, len(always)))
    if least > len(stock):
        shop.fail(f"min_items {least} is more than the {len(stock)} items in stock")
    variation = ((float(markup[0]), float(markup[1])), always, least)
    return items, crops, shop.get("title", str, "Shop"), stock, variation


def _load_obstacles(directory: Path, items: dict[str, Item]) -> dict[str, ObstacleKind]:
    file = "obstacles.toml"
    kinds: dict[str, ObstacleKind] = {}
    for e in entries(file, read(directory / file), "obstacle"):
        tools = e.get("tools", list)
        if not tools or any(t not in TOOLS for t in tools):
            e.fail(f"tools must list some of {list(TOOLS)}, got {tools!r}")
        drops = e.get("drops", dict, {})
        for item_id, n in drops.items():
            if item_id not in items or not isinstance(n, int) or n < 1:
                e.fail(f"drop {item_id!r} = {n!r} must name an item with a positive count")
        kind = ObstacleKind(
            kind=e.get("kind", str),
            art=e.choice("art", OBSTACLE_ARTS),
            tools=tuple(tools),
            hits=e.int("hits", lo=0),
            size=e.int("size", 1, lo=1),
            variants=e.int("variants", 1, lo=1),
            becomes=e.get("becomes", str, None),
            drops=tuple(drops.items()),
            message=e.get("message", str, ""),
        )
        if kind.size > 2:
            e.fail(f"size must be 1 or 2, got {kind.size}")
        if kind.hits == 0 and not kind.message:
            e.fail("an unbreakable obstacle (hits = 0) needs a message")
        kinds[kind.kind] = kind
    for k in kinds.values():
        if k.becomes is not None and k.becomes not in kinds:
            raise DataError(f"{file}: obstacle {k.kind!r}: becomes {k.becomes!r} is not a kind")
    return kinds


def _load_scenarios(
    directory: Path, maps: dict[str, MapData], items: dict[str, Item]
) -> dict[str, Scenario]:
    file = "scenarios.toml"
    raw = read(directory / file).get("scenario", {})
    out: dict[str, Scenario] = {}
    for name, table in raw.items():
        e = Entry(file, f"scenario {name!r}", table)
        inv = e.get("inventory", list)
        for pair in inv:
            if not (
                isinstance(pair, list)
                and len(pair) == 2
                and pair[0] in items
                and isinstance(pair[1], int)
                and pair[1] > 0
            ):
                e.fail(f"inventory entry {pair!r} must be [item id, positive count]")
        if len(inv) > 36:
            e.fail("inventory holds at most 36 stacks")
        s = Scenario(
            name=name,
            location=e.choice("location", maps),
            x=e.int("x", lo=0),
            y=e.int("y", lo=0),
            facing=e.choice("facing", FACINGS, "down"),
            day=e.int("day", 1, lo=1),
            minutes=e.int("minutes", 360, lo=0),
            money=e.int("money", 500, lo=0),
            inventory=tuple((p[0], p[1]) for p in inv),
            energy=e.int("energy", None, lo=0),
            **_variation(e, maps),
        )
        m = maps[s.location]
        if not (s.x < m.width and s.y < m.height) or m.solid[s.y * m.width + s.x]:
            e.fail(f"start ({s.x}, {s.y}) is outside {s.location!r} or not walkable")
        for key, where in (("start_area", s.location), ("plot_area", s.field or s.location)):
            r, mm = getattr(s, key), maps[where]
            if r is not None and not (r[0] <= r[2] < mm.width and r[1] <= r[3] < mm.height):
                e.fail(f"{key} {list(r)} must be [x0, y0, x1, y1] inside {where!r}")
        out[name] = s
    if "default" not in out:
        raise DataError(f"{file}: a scenario named 'default' is required")
    return out


def _ints(e: Entry, key: str, n: int) -> tuple[int, ...] | None:
    v = e.get(key, list, None)
    if v is None:
        return None
    if len(v) != n or not all(isinstance(i, int) and not isinstance(i, bool) for i in v):
        e.fail(f"{key} must be a list of {n} integers, got {v!r}")
    return tuple(v)


def _variation(e: Entry, maps: dict[str, MapData]) -> dict[str, Any]:
    """The optional seeded-variation keys of a scenario (see ``Scenario``)."""
    out: dict[str, Any] = {
        "start_area": _ints(e, "start_area", 4),
        "random_facing": e.get("random_facing", bool, False),
        "start_wake": e.get("start_wake", bool, False),
        "money_range": _ints(e, "money_range", 2),
        "rain_chance": float(e.get("rain_chance", (int, float), 0.0)),
        "plot_area": _ints(e, "plot_area", 4),
        "plot_size": _ints(e, "plot_size", 2) or (3, 3),
        "field": e.choice("field", maps, None),
    }
    if not 0.0 <= out["rain_chance"] <= 1.0:
        e.fail(f"rain_chance must lie in [0, 1], got {out['rain_chance']}")
    lo_hi = out["money_range"]
    if lo_hi is not None and not 0 <= lo_hi[0] <= lo_hi[1]:
        e.fail(f"money_range must be [lo, hi] with 0 <= lo <= hi, got {list(lo_hi)}")
    for key in ("scatter", "meadow_scatter"):
        counts = e.get(key, dict, None)
        if counts is not None:
            if not all(isinstance(n, int) and n >= 0 for n in counts.values()):
                e.fail(f"{key} counts must be non-negative integers, got {counts!r}")
            out[key] = tuple(counts.items())
    out["lane_to"] = e.int("lane_to", 0, lo=0)
    return out


def load(d: Path) -> GameData:
    """Load and validate the TOML files in folder ``d`` (see :func:`load_data`)."""
    tiles = _load_tiles(d)
    items, crops, shop_title, stock, (markup, always, least) = _load_items(d)
    obstacles = _load_obstacles(d, items)
    maps: dict[str, MapData] = {}
    for path in sorted(d.glob("map_*.toml")):
        m = load_map(path, tiles, obstacles)
        if m.name in maps:
            raise DataError(f"{path.name}: map name {m.name!r} is used twice")
        maps[m.name] = m
    if not maps:
        raise DataError(f"no map_*.toml files in {d}")
    check_links(maps)
    for m in maps.values():
        if m.shop is not None and not m.npcs:
            raise DataError(f"map_{m.name}.toml: shop: a shop needs an [[npcs]] clerk")
    if not any(m.wake for m in maps.values()):
        raise DataError("no map has a `wake` spot (where the player wakes up)")
    return GameData(
        tiles=tiles,
        tile={t.name: t for t in tiles},
        items=items,
        crops=crops,
        obstacles=obstacles,
        shop_title=shop_title,
        shop_stock=stock,
        scenarios=_load_scenarios(d, maps, items),
        maps=maps,
        shop_markup=markup,
        shop_always=always,
        shop_min_items=least,
    )


def load_data(directory: Path | str | None = None) -> GameData:
    """Load and validate every TOML file of the game (``DATA_DIR`` unless given).

    Raises :class:`~gcc_envs.errors.DataError` naming the file, the entry and the problem.
    """
    return load(Path(directory) if directory is not None else DATA_DIR)
