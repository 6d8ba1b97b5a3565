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
8. squads: how many enemies or wolves, where they appear, their cover and their temper;
9. ends: where a companion's walk ends (one of a few far-apart spots, then up to
   :data:`SLOT_JITTER_M` more); the route lines that end with it end there too;
10. spreads: a checkpoint starts anywhere within some metres of its start (drawn last, so
    the rest of the episode is what it would be without it).

Pure: the same data and generator state give the same episode.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from gcc_envs.games.rdr2.sim import populate
from gcc_envs.games.rdr2.sim.data import (
    CheckpointSpec,
    GameData,
    MissionData,
    Point,
    Pose,
    Rect,
)
from gcc_envs.games.rdr2.sim.ground import CLEARANCE_M, Ground, ground_of
from gcc_envs.games.rdr2.sim.state import CELL_M
from gcc_envs.games.rdr2.sim.store_plot import build_store

#: Tries to find a spot before a point keeps where it was.
TRIES = 16
#: Room (metres) a walker on a route segment keeps from walls and crates, where it had it.
NEEDED_M = 0.9
#: How far a thing on a drawn slot may move, and the room it keeps from walls (metres).
SLOT_JITTER_M = 1.5
SLOT_ROOM_M = 3.2
#: Moved points keep at least this far apart (metres), or as far as they were.
SPACING_M = 1.2
Key = tuple[float, float]


def _key(p: Point) -> Key:
    return (round(p[0], 3), round(p[1], 3))


def vary(data: GameData, mission: str, rng: np.random.Generator) -> GameData:
    """This episode's content of ``mission`` (see the module docstring)."""
    md = data.missions[mission]
    v = md.variation
    region = data.regions[md.region]
    if v.store:
        region, md = build_store(region, md, v.store, int(rng.integers(len(v.store))))
    ground = ground_of(region)
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
        md = populate.containers(md, region, v.containers, rng)
    for sq in v.squads:
        md = populate.squad(md, ground, sq, rng)
    if v.shuffle_shop and md.shop:
        order = rng.permutation(len(md.shop))
        md = replace(md, shop=tuple(md.shop[int(i)] for i in order))
    for path, ends in v.ends:
        md = _end(md, path, ends, ground, rng)
    for cp_name, radius, far in v.spreads:
        md = _spread(md, cp_name, radius, far, ground, rng)
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
    memo = ground.clearances(tuple(solids))  # the routes' own segments: kept across episodes
    enough: dict[tuple[Point, Point, float], bool] = {}

    def needed(a: Point, b: Point) -> float:  # a pure function of the ends: asked once
        got = memo.get((a, b))
        if got is None:
            got = memo[a, b] = ground.clearance(a, b, solids)
        return min(got, NEEDED_M) - 1e-9

    def keeps(a: Point, b: Point, t: float) -> bool:  # clearance(a, b) >= t, asked once
        got = enough.get((a, b, t))
        if got is None:
            got = enough[a, b, t] = ground.clearance_at_least(a, b, solids, t)
        return got

    segments = [
        (a, b, _key(a), _key(b)) for path in md.paths.values() for a, b in zip(path, path[1:])
    ]
    for _ in range(8):
        changed = False
        for a, b, ka, kb in segments:
            if keeps(moved[ka], moved[kb], needed(a, b)):
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


def _spread(
    md: MissionData,
    cp_name: str,
    radius: float,
    far: float,
    ground: Ground,
    rng: np.random.Generator,
) -> MissionData:
    """The checkpoint starts up to ``radius`` metres from its start (uniform over the disc), on
    open ground of the same kind in clear line of it, :data:`SPACING_M` from whoever it places
    and at least ``far`` metres from where its route line ends; the route lines that began at
    the start begin there, where the first leg keeps the room to ride it. Else it keeps its
    start."""
    i = md.checkpoint_index(cp_name)
    cp = md.checkpoints[i]
    x, y, yaw = cp.player
    old = _key((x, y))
    starting = [n for n, pts in md.paths.items() if len(pts) > 1 and _key(pts[0]) == old]
    solids = [p.at[:2] for p in md.props if p.solid]
    others = [p[:2] for _, p in cp.place]
    goal = md.paths[cp.route][-1] if cp.route else None
    for _ in range(TRIES * 4):
        r, a = radius * math.sqrt(rng.random()), rng.uniform(0.0, 2.0 * math.pi)
        q = (x + r * math.cos(a), y + r * math.sin(a))
        if (
            ground.like((x, y), q)
            and ground.clear((x, y), q)
            and all(math.dist(q, o) >= SPACING_M for o in others)
            and (goal is None or math.dist(q, goal) >= far)
            and all(
                ground.clearance_at_least(q, md.paths[n][1], solids, NEEDED_M) for n in starting
            )
        ):
            cps = list(md.checkpoints)
            cps[i] = replace(cp, player=(q[0], q[1], yaw))
            paths = {n: (q, *md.paths[n][1:]) for n in starting}
            return replace(md, checkpoints=tuple(cps), paths={**md.paths, **paths})
    return md


def _end(
    md: MissionData, path: str, ends: tuple[Point, ...], ground: Ground, rng: np.random.Generator
) -> MissionData:
    """``path`` ends at one of ``ends`` (moved up to SLOT_JITTER_M, where every last leg to it
    keeps the room to walk past the crates put out by then), and so does every path that ended
    where it did."""
    old = _key(md.paths[path][-1])
    sharing = [name for name, pts in md.paths.items() if len(pts) > 1 and _key(pts[-1]) == old]
    solids = [p.at[:2] for p in md.props if p.solid]
    for i in rng.permutation(len(ends)):  # the drawn end, else the next with room
        x, y = ends[int(i)]
        for _ in range(TRIES + 1):
            r, a = SLOT_JITTER_M * math.sqrt(rng.random()), rng.uniform(0.0, 2.0 * math.pi)
            q = (x + r * math.cos(a), y + r * math.sin(a))
            if ground.open(q) and all(
                ground.clearance_at_least(md.paths[n][-2], q, solids, NEEDED_M) for n in sharing
            ):
                return replace(
                    md, paths={**md.paths, **{n: (*md.paths[n][:-1], q) for n in sharing}}
                )
    return md  # no room at any: the file's own end


# ---- containers
