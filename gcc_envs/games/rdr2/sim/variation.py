"""What the seed changes in a mission: :func:`vary` draws this episode's content.

A mission file's ``[variation]`` table (:class:`~gcc_envs.games.rdr2.sim.data.VariationSpec`)
says what may change and by how much; :func:`vary` returns a :class:`GameData` whose mission
(and region) are this episode's, drawn from ``rng`` in this order:

1. the general store's plot (Mission 3): walls, door, counter, clerk and shelf move with it;
2. slots: things that stand at one of a few candidate poses (the hitching post, the barn horse;
   then they move only up to :data:`SLOT_JITTER_M`, keeping :data:`SLOT_ROOM_M` clear);
3. groups: points inside an area move together (John and everything placed around him);
4. jitter: every distinct point of the mission (starts, placements, NPC routes, the route
   lines) moves up to ``jitter_m``, to open ground of the same kind (indoors or out, same
   level, same named areas, in clear line of the old spot); a route segment that a move would
   put through a wall keeps its old ends. A point shared by two routes moves once, so routes
   still meet;
5. start views turn (``yaw_deg``; ``free_yaw`` checkpoints face any way);
6. strays: the horse a checkpoint starts beside has wandered off some metres instead;
7. containers: how many drawers and cupboards, where along the walls, which hold supplies;
8. squads: how many enemies or wolves, where they appear, their cover and their temper.

Pure: the same data and generator state give the same episode.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.data import (
    CheckpointSpec,
    ContainerSpec,
    GameData,
    MissionData,
    Point,
    Pose,
    PropSpec,
    Rect,
    RegionData,
    SquadSpec,
)
from gcc_envs.games.rdr2.sim.state import BLOCKS, CELL_M
from gcc_envs.games.rdr2.sim.store_plot import build_store

#: Tries to find a spot before a point keeps where it was.
TRIES = 16
#: Clearance (metres) a moved point keeps from walls.
CLEARANCE_M = 0.5
#: Room (metres) a walker on a route segment keeps from walls and crates, where it had it.
NEEDED_M = 0.9
#: How far a thing on a drawn slot may move, and the room it keeps from walls (metres).
SLOT_JITTER_M = 1.5
SLOT_ROOM_M = 3.2
#: Moved points keep at least this far apart (metres), or as far as they were.
SPACING_M = 1.2
#: Cover blocks enemies hide behind.
COVER_BLOCKS = frozenset({BLOCKS["rock"], BLOCKS["tree"]})
Key = tuple[float, float]


def _key(p: Point) -> Key:
    return (round(p[0], 3), round(p[1], 3))


class Ground:
    """Questions about a region's cells that placing things asks."""

    def __init__(self, region: RegionData) -> None:
        self.r = region
        self.rows, self.cols = region.walls.shape

    def cell(self, p: Point) -> tuple[int, int] | None:
        c, r = int(math.floor(p[0] / CELL_M)), int(math.floor(p[1] / CELL_M))
        return (c, r) if 0 <= c < self.cols and 0 <= r < self.rows else None

    def areas(self, p: Point) -> frozenset[str]:
        cx, cy = p[0] / CELL_M, p[1] / CELL_M
        return frozenset(
            n for n, (x0, y0, x1, y1) in self.r.areas.items() if x0 <= cx < x1 and y0 <= cy < y1
        )

    def open(self, p: Point, room: float = CLEARANCE_M) -> bool:
        c = self.cell(p)
        if c is None or self.r.walls[c[1], c[0]] != 0:
            return False
        z = int(self.r.level[c[1], c[0]])
        return geo.circle_free(self.r.walls, self.r.level, CELL_M, *p, room, z)

    def like(self, old: Point, new: Point, room: float = CLEARANCE_M) -> bool:
        """Whether ``new`` is open ground of the same kind as ``old`` (``room`` metres clear)."""
        a, b = self.cell(old), self.cell(new)
        if a is None or b is None or not self.open(new, room):
            return False
        r = self.r
        return (
            bool(r.roof[a[1], a[0]]) == bool(r.roof[b[1], b[0]])
            and int(r.level[a[1], a[0]]) == int(r.level[b[1], b[0]])
            and self.areas(old) == self.areas(new)
        )

    def clear(self, a: Point, b: Point) -> bool:
        return geo.line_of_sight(self.r.walls, CELL_M, a[0], a[1], b[0], b[1])

    def clearance(self, a: Point, b: Point, solids: list[Point]) -> float:
        """How far (metres, up to 3) a walker on segment AB stays from walls to either side
        and from solid props (crates, barrels); 0 when a wall crosses it."""
        d = geo.dist(*a, *b) or 1.0
        ux, uy = -(b[1] - a[1]) / d, (b[0] - a[0]) / d
        walls = 0.0
        for off in (0.0, 0.3, 0.6, 0.9):
            if not all(
                self.clear((a[0] + k * ux, a[1] + k * uy), (b[0] + k * ux, b[1] + k * uy))
                for k in (-off, off)
            ):
                break
            walls = off + 0.3
        props = min((geo.segment_point_distance(*a, *b, *c) - 0.6 for c in solids), default=3.0)
        return max(0.0, min(walls, props, 3.0))

    def cells(self, rect: Rect) -> Iterator[tuple[int, int]]:
        x0, y0, x1, y1 = rect
        for r in range(max(y0, 0), min(y1, self.rows)):
            for c in range(max(x0, 0), min(x1, self.cols)):
                yield c, r


def vary(data: GameData, mission: str, rng: np.random.Generator) -> GameData:
    """This episode's content of ``mission`` (see the module docstring)."""
    md = data.missions[mission]
    v = md.variation
    region = data.regions[md.region]
    if v.store:
        region, md = build_store(region, md, v.store, int(rng.integers(len(v.store))))
    ground = Ground(region)
    points = _points(md)
    base: dict[Key, Point] = {}
    yaws: dict[str, float] = {}
    for thing, poses in v.slots:
        x, y, yaw = poses[int(rng.integers(len(poses)))]
        base[_key(_thing_at(md, thing))] = (x, y)
        yaws[thing] = yaw
    for g in v.groups:
        _shift_group(md, g.area, g.shift, g.anchor, points, base, ground, rng)
    slotted = set(base)  # things on a drawn slot stay near it
    moved = _jitter(md, points, base, ground, v.jitter_m, rng, slotted)
    md = _apply(md, moved, yaws, rng)
    for cp_name, horse, ring in v.strays:
        md = _stray(md, cp_name, horse, ring, ground, rng)
    if v.containers is not None:
        md = _containers(md, region, v.containers, rng)
    for sq in v.squads:
        md = _squad(md, ground, sq, rng)
    if v.shuffle_shop and md.shop:
        order = rng.permutation(len(md.shop))
        md = replace(md, shop=tuple(md.shop[int(i)] for i in order))
    return replace(
        data,
        missions={**data.missions, mission: md},
        regions={**data.regions, md.region: region},
    )


# ---- points


def _points(md: MissionData) -> dict[Key, Point]:
    """Every distinct point of the mission that may move."""
    out: dict[Key, Point] = {}
    pts: list[Point] = [h.at[:2] for h in md.horses]
    pts += [n.at[:2] for n in md.npcs]
    pts += [n.cover for n in md.npcs if n.cover is not None]
    pts += [p.at[:2] for p in md.props if p.cell is None and not p.solid]
    for path in md.paths.values():
        pts += list(path)
    for cp in md.checkpoints:
        pts.append(cp.player[:2])
        pts += [pose[:2] for _, pose in cp.place]
    for p in pts:
        out.setdefault(_key(p), (float(p[0]), float(p[1])))
    return out


def _thing_at(md: MissionData, thing: str) -> Point:
    for h in md.horses:
        if h.id == thing:
            return h.at[:2]
    for n in md.npcs:
        if n.name == thing:
            return n.at[:2]
    for p in md.props:
        if p.id == thing:
            return p.at[:2]
    raise KeyError(thing)


def _shift_group(
    md: MissionData,
    area: Rect,
    shift: tuple[float, float],
    anchor: str,
    points: dict[Key, Point],
    base: dict[Key, Point],
    ground: Ground,
    rng: np.random.Generator,
) -> None:
    """Move every point inside ``area`` by one offset that keeps them all on good ground."""
    x0, y0, x1, y1 = area
    inside = [k for k, p in points.items() if x0 <= p[0] / CELL_M < x1 and y0 <= p[1] / CELL_M < y1]
    ax, ay = _thing_at(md, anchor)
    for _ in range(TRIES * 4):
        dx = float(rng.uniform(-shift[0], shift[0])) * CELL_M
        dy = float(rng.uniform(-shift[1], shift[1])) * CELL_M
        moved = {k: (points[k][0] + dx, points[k][1] + dy) for k in inside}
        if ground.like((ax, ay), (ax + dx, ay + dy)) and all(
            ground.like(points[k], q) for k, q in moved.items()
        ):
            base.update(moved)
            return


def _jitter(
    md: MissionData,
    points: dict[Key, Point],
    base: dict[Key, Point],
    ground: Ground,
    radius: float,
    rng: np.random.Generator,
    fixed: set[Key],
) -> dict[Key, Point]:
    keys = list(points)
    orig = np.array([points[k] for k in keys], np.float64).reshape(-1, 2)
    start = {k: base.get(k, p) for k, p in points.items()}
    final = np.array([start[k] for k in keys], np.float64).reshape(-1, 2)
    # moved points keep apart as far as they were (up to SPACING_M), so two actors never merge
    gap = np.minimum(np.hypot(*(orig[:, None, :] - orig[None, :, :]).transpose(2, 0, 1)), SPACING_M)
    if radius > 0:
        for i, k in enumerate(keys):
            p = start[k]
            # a thing on a drawn slot moves less and keeps room for what stands by it (the
            # horses hitched to a post)
            reach, room = (SLOT_JITTER_M, SLOT_ROOM_M) if k in fixed else (radius, CLEARANCE_M)
            for _ in range(TRIES):
                r, a = reach * math.sqrt(rng.random()), rng.uniform(0.0, 2.0 * math.pi)
                q = (p[0] + r * math.cos(a), p[1] + r * math.sin(a))
                d = np.hypot(final[:, 0] - q[0], final[:, 1] - q[1])
                d[i] = np.inf
                if (
                    (d >= gap[i] - 1e-9).all()
                    and ground.like(points[k], q, room)
                    and ground.clear(p, q)
                ):
                    final[i] = q
                    break
    moved = {k: (float(final[i, 0]), float(final[i, 1])) for i, k in enumerate(keys)}
    # a route segment keeps the room to walk along it that it had (up to NEEDED_M): where a
    # move put it through a wall or against a crate, its ends go back (jitter, then slots)
    solids = [p.at[:2] for p in md.props if p.solid]
    for _ in range(8):
        changed = False
        for path in md.paths.values():
            for a, b in zip(path, path[1:]):
                ka, kb = _key(a), _key(b)
                had = min(ground.clearance(a, b, solids), NEEDED_M)
                if ground.clearance(moved[ka], moved[kb], solids) >= had - 1e-9:
                    continue
                for k in (ka, kb):
                    # a drawn slot or group offset is kept; a jitter goes back first
                    back = start[k] if moved[k] != start[k] or k in base else points[k]
                    if moved[k] != back:
                        moved[k], changed = back, True
        if not changed:
            break
    return moved


def _apply(
    md: MissionData, moved: dict[Key, Point], yaws: dict[str, float], rng: np.random.Generator
) -> MissionData:
    v = md.variation

    def pt(p: Point) -> Point:
        return moved.get(_key(p), p)

    def pose(p: Pose, yaw: float | None = None) -> Pose:
        x, y = pt(p[:2])
        return (x, y, p[2] if yaw is None else yaw)

    def turned(yaw: float, free: bool = False) -> float:
        if free:
            return float(rng.uniform(0.0, 360.0))
        return (yaw + float(rng.uniform(-v.yaw_deg, v.yaw_deg))) % 360.0

    horses = tuple(replace(h, at=pose(h.at, yaws.get(h.id, turned(h.at[2])))) for h in md.horses)
    npcs = tuple(
        replace(
            n,
            at=pose(n.at, yaws.get(n.name)),
            cover=None if n.cover is None else pt(n.cover),
        )
        for n in md.npcs
    )
    props = tuple(
        p if p.cell is not None else replace(p, at=pose(p.at, yaws.get(p.id))) for p in md.props
    )
    paths = {name: tuple(pt(p) for p in path) for name, path in md.paths.items()}
    cps: list[CheckpointSpec] = []
    for cp in md.checkpoints:
        x, y = pt(cp.player[:2])
        yaw = turned(cp.player[2], cp.name in v.free_yaw)
        place = tuple((who, pose(p)) for who, p in cp.place)
        cps.append(replace(cp, player=(x, y, yaw), place=place))
    return replace(md, horses=horses, npcs=npcs, props=props, paths=paths, checkpoints=tuple(cps))


def _stray(
    md: MissionData,
    cp_name: str,
    horse: str,
    ring: tuple[float, float],
    ground: Ground,
    rng: np.random.Generator,
) -> MissionData:
    """The checkpoint starts with ``horse`` ``ring`` metres away, on open ground in sight."""
    i = md.checkpoint_index(cp_name)
    cp = md.checkpoints[i]
    x, y = cp.player[:2]
    for _ in range(TRIES * 4):
        r, a = float(rng.uniform(*ring)), float(rng.uniform(0.0, 2.0 * math.pi))
        q = (x + r * math.cos(a), y + r * math.sin(a))
        if ground.open(q) and ground.clear((x, y), q) and not ground.r.roof[ground.cell(q)[::-1]]:
            place = tuple((w, p) for w, p in cp.place if w != horse)
            place += ((horse, (q[0], q[1], float(rng.uniform(0.0, 360.0)))),)
            cps = list(md.checkpoints)
            cps[i] = replace(cp, place=place, beside=None)
            return replace(md, checkpoints=tuple(cps))
    return md


# ---- containers


def _wall_spots(region: RegionData, rect: Rect) -> list[Pose]:
    """Indoor spots along a wall (not by a door or in a doorway), facing the wall."""
    w, roof = region.walls, region.roof
    rows, cols = w.shape
    door = BLOCKS["door"]
    out: list[Pose] = []
    x0, y0, x1, y1 = rect
    for r in range(y0, y1):
        for c in range(x0, x1):
            if w[r, c] != 0 or not roof[r, c]:
                continue
            near = [
                w[r + dr, c + dc]
                for dc, dr in ((0, -1), (0, 1), (-1, 0), (1, 0))
                if 0 <= r + dr < rows and 0 <= c + dc < cols
            ]
            if door in near:
                continue
            n, s = w[r - 1, c] != 0, w[r + 1, c] != 0
            e, we = w[r, c + 1] != 0, w[r, c - 1] != 0
            if (n and s) or (e and we):  # a doorway between rooms
                continue
            for blocked, dc, dr, yaw in (
                (n, 0, -1, 270.0),
                (s, 0, 1, 90.0),
                (we, -1, 0, 180.0),
                (e, 1, 0, 0.0),
            ):
                if blocked:
                    out.append(((c + 0.5 + 0.1 * dc) * CELL_M, (r + 0.5 + 0.1 * dr) * CELL_M, yaw))
    return out


def _containers(
    md: MissionData, region: RegionData, spec: ContainerSpec, rng: np.random.Generator
) -> MissionData:
    rect = region.areas[spec.area]
    spots = _wall_spots(region, rect)
    n = min(int(rng.integers(spec.count[0], spec.count[1] + 1)), len(spots))
    chosen: list[Pose] = []
    used: set[tuple[int, int]] = set()
    for i in rng.permutation(len(spots)):
        x, y, yaw = spots[int(i)]
        cell = (int(x // CELL_M), int(y // CELL_M))
        if cell in used:
            continue
        used.add(cell)
        chosen.append((x, y, yaw))
        if len(chosen) == n:
            break
    k = min(int(rng.integers(spec.with_supplies[0], spec.with_supplies[1] + 1)), len(chosen))
    supplies = [spec.supplies[int(i)] for i in rng.permutation(len(spec.supplies))[:k]]
    contents: list[tuple[tuple[str, int], ...]] = [((s, 1),) for s in supplies]
    contents += [(e,) for e in spec.extras]
    contents += [()] * max(0, len(chosen) - len(contents))
    order = rng.permutation(len(chosen))
    x0, y0, x1, y1 = rect
    kept = tuple(
        p
        for p in md.props
        if not (
            p.kind in spec.kinds and x0 <= p.at[0] / CELL_M < x1 and y0 <= p.at[1] / CELL_M < y1
        )
    )
    new = tuple(
        PropSpec(
            id=f"container_{j + 1}",
            kind=spec.kinds[int(rng.integers(len(spec.kinds)))],
            at=chosen[int(i)],
            items=contents[j],
        )
        for j, i in enumerate(order)
    )
    return replace(md, props=kept + new)


# ---- squads


def _squad(md: MissionData, ground: Ground, sq: SquadSpec, rng: np.random.Generator) -> MissionData:
    prefix = f"{sq.prefix}_"
    template = next(n for n in md.npcs if n.name == f"{sq.prefix}_1")
    others = tuple(n for n in md.npcs if not n.name.startswith(prefix))
    start = None
    if template.spawn is not None:
        start = md.checkpoints[md.checkpoint_index(template.spawn)].player[:2]
    avoid = [cp.player[:2] for cp in md.checkpoints]
    avoid += [p for path in md.paths.values() for p in path]
    spawn_cells = []
    for c, r in ground.cells(sq.spawn):
        p = ((c + 0.5) * CELL_M, (r + 0.5) * CELL_M)
        if not ground.open(p) or ground.r.roof[r, c]:
            continue
        if sq.ring_m is not None and start is not None:
            d = geo.dist(*p, *start)
            if not sq.ring_m[0] <= d <= sq.ring_m[1]:
                continue
        spawn_cells.append(p)
    n = int(rng.integers(sq.count[0], sq.count[1] + 1))
    spots = _spread(spawn_cells, n, 3.0, rng)
    props = md.props
    covers: list[Point] = []
    if sq.cover is not None:
        covers = [
            ((c + 0.5) * CELL_M, (r + 0.5) * CELL_M)
            for c, r in ground.cells(sq.cover)
            if ground.r.walls[r, c] in COVER_BLOCKS
        ]
        covers += [
            p.at[:2]
            for p in md.props
            if p.solid and ground.cell(p.at[:2]) in set(ground.cells(sq.cover))
        ]
        free = [
            ((c + 0.5) * CELL_M, (r + 0.5) * CELL_M)
            for c, r in ground.cells(sq.cover)
            if ground.open(((c + 0.5) * CELL_M, (r + 0.5) * CELL_M))
            and not ground.r.roof[r, c]
            and all(geo.dist((c + 0.5) * CELL_M, (r + 0.5) * CELL_M, *a) > 3.0 for a in avoid)
            and all(
                geo.segment_point_distance(*a, *b, (c + 0.5) * CELL_M, (r + 0.5) * CELL_M) > 2.5
                for path in md.paths.values()
                for a, b in zip(path, path[1:])
            )
        ]
        m = int(rng.integers(sq.extra_cover[0], sq.extra_cover[1] + 1))
        crates = _spread(free, m, 4.0, rng)
        props = props + tuple(
            PropSpec(
                id=f"cover_{i + 1}",
                kind=("crate", "barrel")[int(rng.integers(2))],
                at=(x, y, 0.0),
                solid=True,
            )
            for i, (x, y) in enumerate(crates)
        )
        covers += crates
    pool = list(covers)
    made = []
    for i, (x, y) in enumerate(spots):
        cover = None
        if pool:  # one of the three nearest free covers
            near = sorted(range(len(pool)), key=lambda j: geo.dist(x, y, *pool[j]))[:3]
            cover = pool.pop(near[int(rng.integers(len(near)))])
        jx, jy = rng.uniform(-0.3, 0.3, 2) * CELL_M
        made.append(
            replace(
                template,
                name=f"{prefix}{i + 1}",
                at=(x + float(jx), y + float(jy), template.at[2]),
                cover=cover,
                hide_s=float(rng.uniform(*sq.hide_s)),
                expose_s=float(rng.uniform(*sq.expose_s)),
                flank=float(rng.uniform(*sq.flank)),
                stalk_s=float(rng.uniform(*sq.stalk_s)),
                orbit=int(rng.choice((-1, 1))),
            )
        )
    return replace(md, npcs=others + tuple(made), props=props, covers=md.covers + tuple(covers))


def _spread(cands: list[Point], n: int, apart: float, rng: np.random.Generator) -> list[Point]:
    """Up to ``n`` of ``cands``, drawn at random, at least ``apart`` metres from each other."""
    out: list[Point] = []
    for i in rng.permutation(len(cands)):
        p = cands[int(i)]
        if all(geo.dist(*p, *q) >= apart for q in out):
            out.append(p)
            if len(out) == n:
                break
    return out
