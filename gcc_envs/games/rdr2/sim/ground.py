"""Questions about a region's cells that placing things asks (open, alike, in clear view)."""

from __future__ import annotations

import math
from collections.abc import Iterator

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.data import Point, Rect, RegionData
from gcc_envs.games.rdr2.sim.state import CELL_M

#: Clearance (metres) a placed point keeps from walls.
CLEARANCE_M = 0.5


#: At most this many answers of one kind are kept per region (then they start again).
_KEPT = 4096


class Ground:
    """Questions about a region's cells that placing things asks."""

    def __init__(self, region: RegionData) -> None:
        self.r = region
        self.rows, self.cols = region.walls.shape
        # answers kept for later episodes (a region's arrays never change)
        self._centres: dict[tuple[int, int], bool] = {}
        self._areas: dict[Point, frozenset[str]] = {}
        self._clearances: dict[tuple[Point, ...], dict[tuple[Point, Point], float]] = {}

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

    def centre_open(self, c: int, r: int) -> bool:
        """:meth:`open` at the centre of cell (c, r), kept (squads ask every cell of an area)."""
        got = self._centres.get((c, r))
        if got is None:
            got = self._centres[c, r] = self.open(((c + 0.5) * CELL_M, (r + 0.5) * CELL_M))
        return got

    def areas_of(self, p: Point) -> frozenset[str]:
        """:meth:`areas`, kept for the points asked about again (a jittered point's old spot)."""
        got = self._areas.get(p)
        if got is None:
            if len(self._areas) >= _KEPT:
                self._areas.clear()
            got = self._areas[p] = self.areas(p)
        return got

    def clearances(self, solids: tuple[Point, ...]) -> dict[tuple[Point, Point], float]:
        """A memo of :meth:`clearance` answers for these solids, kept for the next episode
        (a route's own segments are asked on every reset)."""
        memo = self._clearances.get(solids)
        if memo is None or len(memo) >= _KEPT:
            if len(self._clearances) >= 8:
                self._clearances.clear()
            memo = self._clearances[solids] = {}
        return memo

    def like(self, old: Point, new: Point, room: float = CLEARANCE_M) -> bool:
        """Whether ``new`` is open ground of the same kind as ``old`` (``room`` metres clear)."""
        a, b = self.cell(old), self.cell(new)
        if a is None or b is None or not self.open(new, room):
            return False
        r = self.r
        return (
            bool(r.roof[a[1], a[0]]) == bool(r.roof[b[1], b[0]])
            and int(r.level[a[1], a[0]]) == int(r.level[b[1], b[0]])
            and self.areas_of(old) == self.areas(new)
        )

    def clear(self, a: Point, b: Point) -> bool:
        return geo.line_of_sight(self.r.walls, CELL_M, a[0], a[1], b[0], b[1])

    def clearance(self, a: Point, b: Point, solids: list[Point]) -> float:
        """How far (metres, up to 3) a walker on segment AB stays from walls to either side
        and from solid props (crates, barrels); 0 when a wall crosses it."""
        walls = self._walls_room(a, b, math.inf)
        props = min((geo.segment_point_distance(*a, *b, *c) - 0.6 for c in solids), default=3.0)
        return max(0.0, min(walls, props, 3.0))

    def clearance_at_least(self, a: Point, b: Point, solids: list[Point], t: float) -> bool:
        """``self.clearance(a, b, solids) >= t``, looking only as far as that needs."""
        if t != t or t > 3.0:
            return False
        if t <= 0.0:
            return True  # a clearance is never below 0
        if not self._walls_room(a, b, t) >= t:
            return False
        return all(geo.segment_point_distance(*a, *b, *c) - 0.6 >= t for c in solids)

    def _walls_room(self, a: Point, b: Point, enough: float) -> float:
        """The walls' room beside AB: 0.3 more for each offset (0, 0.3, 0.6, 0.9 m, both
        sides) along which a parallel segment is clear, stopping at the first blocked one or
        once ``enough`` is reached (the room only grows from there)."""
        d = geo.dist(*a, *b) or 1.0
        ux, uy = -(b[1] - a[1]) / d, (b[0] - a[0]) / d
        walls = 0.0
        for off in (0.0, 0.3, 0.6, 0.9):
            if walls >= enough:
                break
            sides = (off,) if off == 0.0 else (-off, off)  # -0.0 is the segment itself again
            if not all(
                self.clear((a[0] + k * ux, a[1] + k * uy), (b[0] + k * ux, b[1] + k * uy))
                for k in sides
            ):
                break
            walls = off + 0.3
        return walls

    def cells(self, rect: Rect) -> Iterator[tuple[int, int]]:
        x0, y0, x1, y1 = rect
        for r in range(max(y0, 0), min(y1, self.rows)):
            for c in range(max(x0, 0), min(x1, self.cols)):
                yield c, r


#: The attribute of a region that holds its :class:`Ground` (made on first use).
_GROUND_ATTR = "_ground"


def ground_of(region: RegionData) -> Ground:
    """The :class:`Ground` of ``region``, made once and kept on the region itself, with its
    answers for the next episode (it lives and goes with the region: no process-wide table)."""
    g = region.__dict__.get(_GROUND_ATTR)
    if g is None:
        g = Ground(region)
        object.__setattr__(region, _GROUND_ATTR, g)  # a frozen dataclass's one cache
    return g
