"""Placing what the seed adds to a mission: drawers and cupboards along a room's walls, and
squads of enemies or wolves with their cover and tempers (steps 7 and 8 of
:mod:`~gcc_envs.games.rdr2.sim.variation`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.data import (
    ContainerSpec,
    MissionData,
    Point,
    Pose,
    PropSpec,
    Rect,
    RegionData,
    SquadSpec,
)
from gcc_envs.games.rdr2.sim.ground import Ground
from gcc_envs.games.rdr2.sim.state import BLOCKS, CELL_M

#: Cover blocks enemies hide behind.
COVER_BLOCKS = frozenset({BLOCKS["rock"], BLOCKS["tree"]})


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


def containers(
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


def squad(md: MissionData, ground: Ground, sq: SquadSpec, rng: np.random.Generator) -> MissionData:
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
        if not ground.centre_open(c, r) or ground.r.roof[r, c]:
            continue
        p = ((c + 0.5) * CELL_M, (r + 0.5) * CELL_M)
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
        area = list(ground.cells(sq.cover))
        walls, roof = ground.r.walls, ground.r.roof
        covers = [
            ((c + 0.5) * CELL_M, (r + 0.5) * CELL_M) for c, r in area if walls[r, c] in COVER_BLOCKS
        ]
        in_area = set(area)
        covers += [p.at[:2] for p in md.props if p.solid and ground.cell(p.at[:2]) in in_area]
        outdoors = [(c, r) for c, r in area if not roof[r, c]]
        cells = [((c + 0.5) * CELL_M, (r + 0.5) * CELL_M) for c, r in outdoors]
        segs = [(a, b) for path in md.paths.values() for a, b in zip(path, path[1:])]
        clear = _clear_of(cells, avoid, 3.0, segs, 2.5)
        free = [
            q
            for (c, r), q, ok in zip(outdoors, cells, clear, strict=True)
            if ok and ground.centre_open(c, r)
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


#: Distances within this of a threshold are decided in Python floats, as :mod:`geometry` works
#: them out (numpy's ``hypot`` may differ from ``math.hypot`` in the last bit).
_EXACT_NEAR_M = 1e-6


def _clear_of(
    cands: list[Point],
    pts: list[Point],
    point_m: float,
    segs: list[tuple[Point, Point]],
    seg_m: float,
) -> list[bool]:
    """For each candidate: whether it is further than ``point_m`` from every point of ``pts``
    and further than ``seg_m`` from every segment of ``segs`` (``geo.dist`` and
    ``geo.segment_point_distance``, exactly: numpy decides all but the near-ties)."""
    if not cands:
        return []
    c = np.asarray(cands, np.float64)
    cx, cy = c[:, 0:1], c[:, 1:2]
    near_pt = np.full(len(cands), np.inf)
    if pts:
        p = np.asarray(pts, np.float64)
        near_pt = np.hypot(p[None, :, 0] - cx, p[None, :, 1] - cy).min(axis=1)
    near_seg = np.full(len(cands), np.inf)
    if segs:
        s = np.asarray(segs, np.float64)  # (k, 2, 2)
        ax, ay = s[None, :, 0, 0], s[None, :, 0, 1]
        vx, vy = s[None, :, 1, 0] - ax, s[None, :, 1, 1] - ay
        n = vx * vx + vy * vy
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.where(n == 0, 0.0, np.clip(((cx - ax) * vx + (cy - ay) * vy) / n, 0.0, 1.0))
        near_seg = np.hypot(ax + t * vx - cx, ay + t * vy - cy).min(axis=1)
    out = ((near_pt > point_m) & (near_seg > seg_m)).tolist()
    ties = (np.abs(near_pt - point_m) <= _EXACT_NEAR_M) | (
        np.abs(near_seg - seg_m) <= _EXACT_NEAR_M
    )
    for i in np.flatnonzero(ties).tolist():
        q = cands[i]
        out[i] = all(geo.dist(*q, *a) > point_m for a in pts) and all(
            geo.segment_point_distance(*a, *b, *q) > seg_m for a, b in segs
        )
    return out


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
