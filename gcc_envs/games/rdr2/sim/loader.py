"""Loading ``sim/data/*.toml`` into :class:`~gcc_envs.games.rdr2.sim.data.GameData`.

Files use grid cells; positions come out in metres. Every problem raises ``DataError`` naming
the file, the entry and what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.core.toml_data import Entry, entries, read
from gcc_envs.errors import DataError
from gcc_envs.games.rdr2.sim.data import (
    CheckpointSpec,
    GameData,
    HorseSpec,
    MissionData,
    NPCSpec,
    Pose,
    PropSpec,
    RegionData,
    VariationSpec,
)
from gcc_envs.games.rdr2.sim.state import BLOCKS, CELL_M, GROUNDS, NPC_KINDS, PROP_KINDS
from gcc_envs.games.rdr2.sim.variation_loader import load_variation

DATA_DIR = Path(__file__).with_name("data")
MISSIONS = ("mission1", "mission2", "mission3")


class _Entry(Entry):
    """One TOML table, with RDR2's field kinds (numbers, text, grid poses)."""

    def num(self, key: str, default: Any = ...) -> float:
        return float(self.get(key, (int, float), default))

    def text(self, key: str, default: Any = ...) -> str | None:
        v = self.get(key, str, default)
        return v or None

    def pose(self, key: str, default: Any = ...) -> Pose:
        v = self.get(key, list, default)
        return self.as_pose(key, v)

    def as_pose(self, key: str, v: Any) -> Pose:
        if not (
            isinstance(v, list)
            and len(v) in (2, 3)
            and all(isinstance(c, int | float) and not isinstance(c, bool) for c in v)
        ):
            self.fail(f"field {key!r} must be [col, row] or [col, row, yaw], got {v!r}")
        yaw = float(v[2]) if len(v) == 3 else 0.0
        return (float(v[0]) * CELL_M, float(v[1]) * CELL_M, yaw)


def load_region(path: Path, legend: dict[str, dict[str, Any]]) -> RegionData:
    file = path.name
    top = _Entry(file, "region", read(path))
    rows = [r for r in top.get("rows", str).split("\n") if r]
    if not rows or len({len(r) for r in rows}) != 1:
        top.fail("rows must be non-empty lines of equal length")
    default_ground = top.get("ground", str)
    if default_ground not in GROUNDS:
        top.fail(f"ground {default_ground!r} is not one of {sorted(GROUNDS)}")
    h, w = len(rows), len(rows[0])
    walls = np.zeros((h, w), np.int8)
    ground = np.full((h, w), GROUNDS[default_ground], np.int8)
    roof = np.zeros((h, w), bool)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            spec = legend.get(ch)
            if spec is None:
                top.fail(f"row {y} col {x}: character {ch!r} is not in legend.toml")
            walls[y, x] = BLOCKS[spec.get("wall", "open")]
            g = spec.get("ground", "default")
            ground[y, x] = GROUNDS[default_ground if g == "default" else g]
            roof[y, x] = bool(spec.get("roof", False))
    level = np.zeros((h, w), np.int8)
    bands = top.get("levels", dict, {}).get("bands", [])
    for band in bands:
        if not (
            isinstance(band, list) and len(band) == 5 and all(isinstance(v, int) for v in band)
        ):
            top.fail(f"levels.bands entries must be [x0, y0, x1, y1, level], got {band!r}")
        x0, y0, x1, y1, lv = band
        level[y0:y1, x0:x1] = lv
    areas: dict[str, tuple[int, int, int, int]] = {}
    for name, rect in top.get("areas", dict, {}).items():
        if not (
            isinstance(rect, list) and len(rect) == 4 and all(isinstance(v, int) for v in rect)
        ):
            top.fail(f"area {name!r} must be [x0, y0, x1, y1] in cells, got {rect!r}")
        areas[name] = (rect[0], rect[1], rect[2], rect[3])
    for a in (walls, ground, level, roof):
        a.setflags(write=False)
    return RegionData(
        name=top.get("name", str),
        walls=walls,
        ground=ground,
        level=level,
        roof=roof,
        areas=areas,
        snow=bool(top.get("snow", bool, False)),
    )


def _items(e: _Entry) -> tuple[tuple[str, int], ...]:
    raw = e.get("items", dict, {})
    if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in raw.values()):
        e.fail(f"items must map item names to positive counts, got {raw!r}")
    return tuple(sorted(raw.items()))


def _pairs(e: _Entry, key: str, conv: Callable[[str, Any], Any]) -> tuple[tuple[str, Any], ...]:
    return tuple((k, conv(k, v)) for k, v in e.get(key, dict, {}).items())


def _checkpoint(e: _Entry) -> CheckpointSpec:
    def strv(k: str, v: Any) -> str:
        return v if isinstance(v, str) else e.fail(f"{k} must name a string, got {v!r}")

    difficulty = e.get("difficulty", str)
    if difficulty not in ("easy", "hard"):
        e.fail(f"difficulty must be 'easy' or 'hard', got {difficulty!r}")
    dismount = e.get("dismount", list, [])
    ledge = e.get("tutorial_ledge_m", (int, float), None)
    delay = e.get("tutorial_delay", (int, float), None)
    abandon = e.get("abandon_horse_m", (int, float), None)
    abandon_c = e.get("abandon_companion_m", (int, float), None)
    patience = e.get("patience_s", (int, float), None)
    limit = e.get("time_limit_s", (int, float), None)
    return CheckpointSpec(
        name=e.get("name", str),
        difficulty=difficulty,
        objective=e.get("objective", str),
        route=e.text("route"),
        player=e.pose("player"),
        player_mounted=e.text("player_mounted", ""),
        place=_pairs(e, "place", e.as_pose),
        paths=_pairs(e, "paths", strv),
        mount=_pairs(e, "mount", strv),
        dismount=tuple(str(d) for d in dismount),
        tutorial=e.text("tutorial", ""),
        tutorial_delay=None if delay is None else float(delay),
        tutorial_near=e.text("tutorial_near", ""),
        tutorial_radius_m=e.num("tutorial_radius_m", 6.0),
        tutorial_area=e.text("tutorial_area", ""),
        tutorial_ledge_m=None if ledge is None else float(ledge),
        need=int(e.num("need", 1)),
        say=e.text("say", ""),
        beside=e.text("beside", ""),
        abandon_horse_m=None if abandon is None else float(abandon),
        abandon_companion_m=None if abandon_c is None else float(abandon_c),
        patience_s=None if patience is None else float(patience),
        time_limit_s=None if limit is None else float(limit),
        time_up=e.get("time_up", str, "took too long"),
        release_led=bool(e.get("release_led", bool, False)),
    )


def load_mission(
    path: Path, regions: dict[str, RegionData], tutorials: dict[str, str]
) -> MissionData:
    file = path.name
    doc = read(path)
    top = _Entry(file, "mission", doc)
    region = top.get("region", str)
    if region not in regions:
        top.fail(f"region {region!r} is not one of {sorted(regions)}")
    horses = tuple(
        HorseSpec(
            id=e.get("id", str),
            name=e.get("name", str),
            owner=e.get("owner", str),
            at=e.pose("at"),
            rider=e.text("rider", ""),
            calm=bool(e.get("calm", bool, True)),
        )
        for e in entries(file, doc, "horses", _Entry)
    )
    npcs = []
    for e in entries(file, doc, "npcs", _Entry):
        kind = e.get("kind", str)
        if kind not in NPC_KINDS:
            e.fail(f"kind {kind!r} is not one of {list(NPC_KINDS)}")
        cover = e.get("cover", list, None)
        npcs.append(
            NPCSpec(
                name=e.get("name", str),
                kind=kind,
                at=e.pose("at"),
                health=e.num("health"),
                hostile=bool(e.get("hostile", bool, False)),
                mounted=e.text("mounted", ""),
                speed=e.num("speed", 3.0),
                state=e.get("state", str, "idle"),
                spawn=e.text("spawn", ""),
                cover=None if cover is None else e.as_pose("cover", cover)[:2],
            )
        )
    props = []
    for e in entries(file, doc, "props", _Entry):
        kind = e.get("kind", str)
        if kind not in PROP_KINDS:
            e.fail(f"kind {kind!r} is not one of {list(PROP_KINDS)}")
        cell = e.get("cell", list, None)
        props.append(
            PropSpec(
                id=e.get("id", str),
                kind=kind,
                at=e.pose("at"),
                items=_items(e),
                solid=bool(e.get("solid", bool, False)),
                cell=None if cell is None else (int(cell[0]), int(cell[1])),
            )
        )
    paths = {}
    for name, pts in top.get("paths", dict, {}).items():
        paths[name] = tuple(top.as_pose(f"paths.{name}", p)[:2] for p in pts)
    checkpoints = tuple(_checkpoint(e) for e in entries(file, doc, "checkpoints", _Entry))
    if not checkpoints:
        top.fail("a mission needs at least one [[checkpoints]] table")
    actors = {n.name for n in npcs} | {h.id for h in horses}
    things = actors | {p.id for p in props}
    for c in checkpoints:
        where = f"checkpoint {c.name!r}"
        for ref in [c.route] + [p for _, p in c.paths]:
            if ref is not None and ref not in paths:
                top.fail(f"{where}: path {ref!r} is not in [paths]")
        for who in [a for a, _ in c.place] + [a for a, _ in c.paths] + list(c.dismount):
            if who not in actors:
                top.fail(f"{where}: {who!r} is not an NPC or horse of this mission")
        if c.tutorial is not None and c.tutorial not in tutorials:
            top.fail(f"{where}: tutorial {c.tutorial!r} is not in tutorials.toml")
        if c.tutorial_near is not None and c.tutorial_near not in things:
            top.fail(f"{where}: tutorial_near {c.tutorial_near!r} names nothing in this mission")
        if c.beside is not None and c.beside not in {h.id for h in horses}:
            top.fail(f"{where}: beside {c.beside!r} is not a horse of this mission")
    shop = []
    for row in top.get("shop", list, []):
        if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)):
            top.fail(f"shop rows must be [item, price, is_supply], got {row!r}")
        shop.append((row[0], float(row[1]), bool(row[2])))
    variation = load_variation(file, top.get("variation", dict, {}))
    _check_variation(
        top,
        variation,
        things,
        {n.name for n in npcs},
        set(paths),
        {c.name for c in checkpoints},
        regions[region],
    )
    known = tuple(top.get("known_tutorials", list, []))
    for tid in known:
        if tid not in tutorials:
            top.fail(f"known_tutorials: {tid!r} is not in tutorials.toml")
    weapon = top.get("weapon", str)
    weapons = tuple(top.get("weapons", list))
    if weapon not in weapons:
        top.fail(f"weapon {weapon!r} is not among weapons {weapons}")
    return MissionData(
        name=top.get("name", str),
        title=top.get("title", str),
        region=region,
        start_hour=top.num("start_hour"),
        money=top.num("money"),
        weapons=weapons,
        weapon=weapon,
        abandon_companion_m=top.num("abandon_companion_m"),
        abandon_horse_m=top.num("abandon_horse_m"),
        abandon_area=top.text("abandon_area", ""),
        abandon_area_m=top.num("abandon_area_m"),
        horses=horses,
        npcs=tuple(npcs),
        props=tuple(props),
        paths=paths,
        checkpoints=checkpoints,
        shop=tuple(shop),
        known_tutorials=known,
        variation=variation,
    )


def _check_variation(
    top: _Entry,
    v: VariationSpec,
    things: set[str],
    npcs: set[str],
    paths: set[str],
    checkpoints: set[str],
    region: RegionData,
) -> None:
    for cp in [*v.free_yaw, *(s[0] for s in v.strays), *(s[0] for s in v.spreads)]:
        if cp not in checkpoints:
            top.fail(f"variation: checkpoint {cp!r} is not in this mission's [[checkpoints]]")
    for thing, _ in v.slots:
        if thing not in things:
            top.fail(f"variation.slots: {thing!r} names nothing in this mission")
    for path, _ in v.ends:
        if path not in paths:
            top.fail(f"variation.ends: {path!r} is not in [paths]")
    for g in v.groups:
        if g.anchor not in npcs:
            top.fail(f"variation.groups: anchor {g.anchor!r} is not an NPC of this mission")
    for sq in v.squads:
        if f"{sq.prefix}_1" not in npcs:
            top.fail(f"variation.squads: no NPC {sq.prefix + '_1'!r} to serve as the template")
    if v.containers is not None and v.containers.area not in region.areas:
        top.fail(f"variation.containers: area {v.containers.area!r} is not in the region")
    h, w = region.walls.shape
    for slot in v.store:
        x0, y0, x1, y1 = slot.rect
        if x1 - x0 < 6 or y1 - y0 < 5 or x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            top.fail(f"variation.store: plot {slot.rect} is too small or off the map")


@cache
def load_data(data_dir: Path = DATA_DIR) -> GameData:
    """Parse every data file (cached per folder; the result is immutable)."""
    legend = read(data_dir / "legend.toml").get("chars", {})
    for ch, spec in legend.items():
        if spec.get("wall", "open") not in BLOCKS or spec.get("ground", "default") not in (
            *GROUNDS,
            "default",
        ):
            raise DataError(f"legend.toml: chars.{ch}: unknown wall or ground in {spec!r}")
    tutorials = {}
    for tid, t in read(data_dir / "tutorials.toml").items():
        tutorials[tid] = _Entry("tutorials.toml", tid, t).get("text", str)
    regions = {}
    for path in sorted(data_dir.glob("region_*.toml")):
        r = load_region(path, legend)
        regions[r.name] = r
    missions = {m: load_mission(data_dir / f"{m}.toml", regions, tutorials) for m in MISSIONS}
    return GameData(regions=regions, missions=missions, tutorials=tutorials)
