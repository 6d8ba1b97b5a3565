"""Loading the maps (``map_*.toml``): tile rows, doors, warps, signs, NPCs, obstacles."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.core.toml_data import Entry, entries, read
from gcc_envs.errors import DataError
from gcc_envs.games.stardew.sim.data import (
    DOOR,
    FACINGS,
    FREE,
    SOLID,
    Door,
    MapData,
    Npc,
    ObstacleKind,
    Placement,
    Sign,
    Spot,
    TileKind,
    Warp,
)


def _warp(e: Entry) -> Warp:
    return Warp(
        x=e.int("x", lo=0),
        y=e.int("y", lo=0),
        w=e.int("w", 1, lo=1),
        h=e.int("h", 1, lo=1),
        to=e.get("to", str),
        tx=e.int("tx", lo=0),
        ty=e.int("ty", lo=0),
        facing=e.choice("facing", FACINGS, "down"),
    )


def _spot(file: str, entry: str, table: Any) -> Spot:
    e = Entry(file, entry, table)
    return Spot(e.int("x", lo=0), e.int("y", lo=0), e.choice("facing", FACINGS, "down"))


def load_map(
    path: Path, tiles: tuple[TileKind, ...], obstacles: dict[str, ObstacleKind]
) -> MapData:
    """One map file; its ``[[layouts]]`` (other ``rows`` and ``wake``) become ``layouts``."""
    file = path.name
    doc = read(path)
    base = _parse(file, "map", doc, tiles, obstacles)
    alts = []
    for i, e in enumerate(entries(file, doc, "layouts")):
        alt = _parse(
            file,
            f"layouts[{i}]",
            {**doc, "rows": e.get("rows", str), "wake": e.get("wake", dict, doc.get("wake"))},
            tiles,
            obstacles,
        )
        if (alt.width, alt.height) != (base.width, base.height):
            e.fail(f"rows are {alt.width}x{alt.height}, the map is {base.width}x{base.height}")
        alts.append(alt)
    return replace(base, layouts=tuple(alts)) if alts else base


def _parse(
    file: str,
    what: str,
    doc: dict[str, Any],
    tiles: tuple[TileKind, ...],
    obstacles: dict[str, ObstacleKind],
) -> MapData:
    top = Entry(file, what, doc)
    name = top.get("name", str)
    rows = tuple(r for r in top.get("rows", str).split("\n") if r)
    if not rows:
        top.fail("rows is empty")
    width, height = len(rows[0]), len(rows)
    by_char = {t.char: t for t in tiles if t.char is not None}
    ids = np.zeros((height, width), np.int16)
    for y, row in enumerate(rows):
        if len(row) != width:
            top.fail(f"row {y} has {len(row)} tiles, expected {width} like row 0")
        for x, ch in enumerate(row):
            if ch not in by_char:
                top.fail(f"row {y} column {x}: {ch!r} is not a tile char in tiles.toml")
            ids[y, x] = by_char[ch].index
    ids.setflags(write=False)
    solid = bytes(DOOR if tiles[i].door else SOLID if tiles[i].solid else FREE for i in ids.ravel())

    def inside(e: Entry, x: int, y: int, w: int = 1, h: int = 1) -> None:
        if x + w > width or y + h > height:
            e.fail(f"({x}, {y}) size {w}x{h} lies outside the {width}x{height} map")

    warps = []
    for e in entries(file, doc, "warps"):
        w = _warp(e)
        inside(e, w.x, w.y, w.w, w.h)
        warps.append(w)
    doors = []
    for e in entries(file, doc, "doors"):
        to = e.get("to", str, None)
        d = Door(
            x=e.int("x", lo=0),
            y=e.int("y", lo=0),
            name=e.get("name", str),
            to=to,
            tx=e.int("tx", 0, lo=0),
            ty=e.int("ty", 0, lo=0),
            facing=e.choice("facing", FACINGS, "down"),
            open=e.clock("open"),
            close=e.clock("close"),
            locked=e.get("locked", bool, False),
            message=e.get("message", str, "Locked."),
        )
        inside(e, d.x, d.y)
        if not tiles[ids[d.y, d.x]].door:
            e.fail(f"({d.x}, {d.y}) is not a door tile in rows")
        if to is None and not d.locked:
            e.fail("a door without `to` must be `locked = true`")
        if (d.open is None) != (d.close is None):
            e.fail("give both `open` and `close`, or neither")
        doors.append(d)
    door_xy = {(d.x, d.y) for d in doors}
    door_mask = np.array([t.door for t in tiles])[ids]
    for y, x in zip(*np.nonzero(door_mask), strict=True):
        if (int(x), int(y)) not in door_xy:
            top.fail(f"door tile at ({x}, {y}) has no [[doors]] entry")
    signs = []
    for e in entries(file, doc, "signs"):
        s = Sign(
            x=e.int("x", lo=0), y=e.int("y", lo=0), w=e.int("w", 1, lo=1), text=e.get("text", str)
        )
        inside(e, s.x, s.y, s.w)
        signs.append(s)
    npcs = []
    for e in entries(file, doc, "npcs"):
        n = Npc(
            name=e.get("name", str),
            x=e.int("x", lo=0),
            y=e.int("y", lo=0),
            facing=e.choice("facing", FACINGS, "down"),
            shirt=e.color("shirt"),
            hair=e.color("hair"),
        )
        inside(e, n.x, n.y)
        npcs.append(n)
    objects = []
    for e in entries(file, doc, "objects"):
        p = Placement(kind=e.choice("kind", obstacles), x=e.int("x", lo=0), y=e.int("y", lo=0))
        size = obstacles[p.kind].size
        inside(e, p.x, p.y, size, size)
        if any(solid[(p.y + j) * width + p.x + i] for j in range(size) for i in range(size)):
            e.fail(f"{p.kind} at ({p.x}, {p.y}) overlaps a solid tile")
        objects.append(p)
    scatter: tuple[tuple[str, int], ...] = ()
    keep: tuple[tuple[int, int, int, int], ...] = ()
    if "scatter" in doc:
        se = Entry(file, "[scatter]", doc["scatter"])
        counts = se.get("counts", dict)
        for kind, n in counts.items():
            if kind not in obstacles or obstacles[kind].size != 1:
                se.fail(f"counts: {kind!r} is not a one-tile obstacle kind")
            if not isinstance(n, int) or n < 0:
                se.fail(f"counts: {kind} = {n!r} must be a non-negative integer")
        scatter = tuple(counts.items())
        rects = se.get("keep_clear", list, [])
        if not all(
            isinstance(r, list) and len(r) == 4 and all(isinstance(v, int) for v in r)
            for r in rects
        ):
            se.fail("keep_clear must be a list of [x0, y0, x1, y1] integer rectangles")
        keep = tuple((r[0], r[1], r[2], r[3]) for r in rects)
    wake = _spot(file, "wake", doc["wake"]) if "wake" in doc else None
    shop = _spot(file, "shop", doc["shop"]) if "shop" in doc else None
    for entry, spot in (("wake", wake), ("shop", shop)):
        if spot is not None:
            inside(Entry(file, entry, {}), spot.x, spot.y)
    return MapData(
        name=name,
        title=top.get("title", str, name),
        outdoor=top.get("outdoor", bool, False),
        width=width,
        height=height,
        rows=rows,
        tiles=ids,
        solid=solid,
        warps=tuple(warps),
        doors=tuple(doors),
        signs=tuple(signs),
        npcs=tuple(npcs),
        objects=tuple(objects),
        scatter=scatter,
        keep_clear=keep,
        wake=wake,
        shop=shop,
        warp_at={(w.x + i, w.y + j): w for w in warps for i in range(w.w) for j in range(w.h)},
        door_at={(d.x, d.y): d for d in doors},
    )


def check_links(maps: dict[str, MapData]) -> None:
    for m in maps.values():
        targets = [(f"warp at ({w.x}, {w.y})", w.to, w.tx, w.ty) for w in m.warps]
        targets += [(f"door at ({d.x}, {d.y})", d.to, d.tx, d.ty) for d in m.doors if d.to]
        for what, to, tx, ty in targets:
            if to not in maps:
                raise DataError(f"map_{m.name}.toml: {what}: unknown map {to!r}")
            dest = maps[to]
            if not (tx < dest.width and ty < dest.height) or dest.solid[ty * dest.width + tx]:
                raise DataError(
                    f"map_{m.name}.toml: {what}: arrival ({tx}, {ty}) in {to!r} "
                    "is outside the map or not walkable"
                )
