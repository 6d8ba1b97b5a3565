"""Pure geometry on the ground plane: angles, distances, grid collision and line of sight.

Positions are metres (see :mod:`gcc_envs.games.rdr2.sim.state`); grids are ``(rows, cols)``
arrays indexed ``[row, col]`` with cells of ``cell_m`` metres.

>>> wrap_deg(-90.0), angle_diff(350.0, 10.0), round(heading(0.0, 1.0), 1)
(270.0, -20.0, 90.0)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

import numpy as np

from gcc_envs.games.rdr2.sim import jit


def wrap_deg(a: float) -> float:
    """``a`` in [0, 360)."""
    return float(a % 360.0)


def angle_diff(a: float, b: float) -> float:
    """Signed ``a - b`` in [-180, 180)."""
    return float((a - b + 180.0) % 360.0 - 180.0)


def heading(dx: float, dy: float) -> float:
    """Yaw (degrees, 0 = +x, 90 = +y) of the direction (dx, dy)."""
    return wrap_deg(math.degrees(math.atan2(dy, dx)))


def dist(ax: float, ay: float, bx: float, by: float) -> float:
    return math.hypot(bx - ax, by - ay)


def segment_point_distance(
    ax: float, ay: float, bx: float, by: float, px: float, py: float
) -> float:
    """Distance from point P to segment AB."""
    vx, vy = bx - ax, by - ay
    n = vx * vx + vy * vy
    t = 0.0 if n == 0 else min(max(((px - ax) * vx + (py - ay) * vy) / n, 0.0), 1.0)
    return math.hypot(ax + t * vx - px, ay + t * vy - py)


def cell_blocked(walls: np.ndarray, level: np.ndarray, col: int, row: int, z: int) -> bool:
    """Whether a walker standing at level ``z`` cannot enter cell (col, row)."""
    rows, cols = walls.shape
    if not (0 <= col < cols and 0 <= row < rows):
        return True
    return bool(walls[row, col] != 0 or level[row, col] > z)


def circle_free(
    walls: np.ndarray,
    level: np.ndarray,
    cell_m: float,
    x: float,
    y: float,
    r: float,
    z: int,
    solids: Iterable[tuple[float, float, float]] = (),
) -> bool:
    """Whether a circle of radius ``r`` at (x, y) fits: it overlaps no wall cell and no solid
    circle, and its centre is on a cell no higher than level ``z`` (ledges block by the centre,
    so a walker can step down and move away from a ledge's foot).
    """
    cells_free = jit.compiled(_cells_free) or _cells_free
    if not cells_free(walls, level, cell_m, x, y, r, z):
        return False
    return all((sx - x) ** 2 + (sy - y) ** 2 >= (sr + r) ** 2 for sx, sy, sr in solids)


def move_circle(
    walls: np.ndarray,
    level: np.ndarray,
    cell_m: float,
    x: float,
    y: float,
    dx: float,
    dy: float,
    r: float,
    z: int,
    solids: Iterable[tuple[float, float, float]] = (),
) -> tuple[float, float]:
    """Slide a circle by (dx, dy), one axis at a time, stopping where it would overlap.

    A circle that already overlaps something (a rider mounted against a tree) is checked at
    half its radius, so it can always work its way out; one pushed head-on against a corner
    (a door frame) slides round it, as walkers in games do.
    """
    # only solids within reach of every circle tried below can stop it (those tried lie
    # within 1.7 move lengths of the start); the others are left out of every test
    reach = r + 2.0 * math.hypot(dx, dy) + 1e-6
    solids = tuple(s for s in solids if (s[0] - x) ** 2 + (s[1] - y) ** 2 < (s[2] + reach) ** 2)
    if not circle_free(walls, level, cell_m, x, y, r, z, solids):
        r *= 0.5
    x0, y0 = x, y
    if dx and circle_free(walls, level, cell_m, x + dx, y, r, z, solids):
        x += dx
    if dy and circle_free(walls, level, cell_m, x, y + dy, r, z, solids):
        y += dy
    want = math.hypot(dx, dy)
    if want == 0 or math.hypot(x - x0, y - y0) >= 0.3 * want:
        return x, y
    fallback = None  # head-on against a corner: slide round it
    for a in (0.6, -0.6, 1.1, -1.1, math.pi / 2, -math.pi / 2):
        c, sn = math.cos(a), math.sin(a)
        ex, ey = (dx * c - dy * sn) * 0.7, (dx * sn + dy * c) * 0.7
        if not circle_free(walls, level, cell_m, x0 + ex, y0 + ey, r, z, solids):
            continue
        if circle_free(walls, level, cell_m, x0 + ex + dx, y0 + ey + dy, r, z, solids):
            return x0 + ex, y0 + ey  # the side that leads on
        fallback = fallback or (x0 + ex, y0 + ey)
    return fallback if fallback is not None else (x, y)


def line_of_sight(
    walls: np.ndarray, cell_m: float, ax: float, ay: float, bx: float, by: float
) -> bool:
    """Whether no wall cell lies on the segment AB (sampled every quarter cell)."""
    d = dist(ax, ay, bx, by)
    n = max(int(d / (cell_m * 0.25)), 1)
    walk = jit.compiled(_sight_walk)
    if walk is not None:
        return bool(walk(walls, cell_m, ax, ay, bx, by, n))
    if n <= _SCALAR_SAMPLES:
        return _sight_walk(walls, cell_m, ax, ay, bx, by, n)
    t = np.linspace(0.0, 1.0, n + 1)
    cols = np.floor((ax + (bx - ax) * t) / cell_m).astype(np.int64)
    rows = np.floor((ay + (by - ay) * t) / cell_m).astype(np.int64)
    h, w = walls.shape
    if (cols < 0).any() or (rows < 0).any() or (cols >= w).any() or (rows >= h).any():
        return False
    hit = walls[rows, cols] != 0
    start, end = (rows[0], cols[0]), (rows[-1], cols[-1])
    # the cells the segment starts and ends in do not block (a door frame, a wall-hugger)
    mask = ~(((rows == start[0]) & (cols == start[1])) | ((rows == end[0]) & (cols == end[1])))
    return not bool((hit & mask).any())


#: Up to this many samples a segment is walked in Python floats when numba is missing (numpy's
#: set-up costs more); with numba every segment is walked compiled.
_SCALAR_SAMPLES = 48


def aim_error_deg(
    ox: float, oy: float, yaw_deg: float, tx: float, ty: float, radius: float
) -> float:
    """Degrees by which a ray from O along ``yaw_deg`` misses a circle (0 when it hits)."""
    d = dist(ox, oy, tx, ty)
    if d <= radius:
        return 0.0
    off = abs(angle_diff(heading(tx - ox, ty - oy), yaw_deg))
    return max(0.0, off - math.degrees(math.asin(radius / d)))


def polyline_length(points: Iterable[tuple[float, float]]) -> float:
    entry = _path_terms(points)
    if entry is not None:
        return entry.length
    return _length.__wrapped__(tuple(points))  # unhashable points: worked out, not kept


@functools.lru_cache(maxsize=256)
def _length(pts: tuple[tuple[float, float], ...]) -> float:
    return sum(dist(*a, *b) for a, b in zip(pts, pts[1:]))


def path_share(points: Iterable[tuple[float, float]], x: float, y: float) -> float:
    """``path_progress / polyline_length`` (0 for a polyline of no length)."""
    entry = _path_terms(points)
    if entry is None:
        length = polyline_length(points)
        return path_progress(points, x, y) / length if length > 0 else 0.0
    return _answer(entry, x, y) / entry.length if entry.length > 0 else 0.0


def behind_on_path(
    points: Iterable[tuple[float, float]], ax: float, ay: float, bx: float, by: float
) -> bool:
    """Whether A's :func:`path_progress` along the polyline is less than B's (one lookup of
    the polyline's kept terms for both)."""
    entry = _path_terms(points)
    if entry is None:
        return path_progress(points, ax, ay) < path_progress(points, bx, by)
    return _answer(entry, ax, ay) < _answer(entry, bx, by)


def path_progress(points: Iterable[tuple[float, float]], x: float, y: float) -> float:
    """Arc length along the polyline of the point on it closest to (x, y).

    >>> path_progress([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)], 12.0, 4.0)
    14.0
    """
    entry = _path_terms(points)
    if entry is None:  # unhashable points (lists, arrays): the same terms, not kept
        return _progress(_segments.__wrapped__(tuple(points)), x, y)
    return _answer(entry, x, y)


def _answer(entry: _PathTerms, x: float, y: float) -> float:
    answers = entry.answers
    got = answers.get((x, y))
    if got is None:
        got = _progress(entry.segments, x, y)
        if len(answers) >= _ANSWERS_KEPT:
            answers.clear()
        answers[x, y] = got
    return got


def _progress(segs: tuple[tuple[float, ...], ...], x: float, y: float) -> float:
    best_d, best_s = math.inf, 0.0
    hypot = math.hypot
    for ax, ay, vx, vy, n, length, run in segs:
        if n == 0:
            t = 0.0
        else:  # min(max(t, 0), 1), as it was written
            t = ((x - ax) * vx + (y - ay) * vy) / n
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        d = hypot(ax + t * vx - x, ay + t * vy - y)
        if d < best_d:
            best_d, best_s = d, run + t * length
    return best_s


class _PathTerms:
    """A polyline's segment terms, length and the progress answers given for it so far."""

    __slots__ = ("segments", "length", "answers")

    def __init__(self, key: tuple[tuple[float, float], ...]) -> None:
        self.segments = _segments(key)
        self.length = _length(key)
        self.answers: dict[tuple[float, float], float] = {}


#: How many polylines' terms are kept, and how many progress answers each.
_PATHS_KEPT, _ANSWERS_KEPT = 64, 16


@functools.lru_cache(maxsize=_PATHS_KEPT)
def _kept_terms(key: tuple[tuple[float, float], ...]) -> _PathTerms:
    """The terms of a polyline, kept by its points' values (a walker's path, a route: asked
    about every tick; a tuple's hash is its values', so a changed list is a new key)."""
    return _PathTerms(key)


def _path_terms(points: Iterable[tuple[float, float]]) -> _PathTerms | None:
    """The kept terms of a list or tuple of hashable points (None for anything else)."""
    if type(points) is list:
        points = tuple(points)
    elif type(points) is not tuple:
        return None
    try:
        return _kept_terms(points)  # type: ignore[arg-type]
    except TypeError:  # unhashable points
        return None


@functools.lru_cache(maxsize=256)
def _segments(
    points: tuple[tuple[float, float], ...],
) -> tuple[tuple[float, float, float, float, float, float, float], ...]:
    """Each segment's start, direction, squared length, length and the arc length before it
    (a walker's path is asked about every tick)."""
    out = []
    run = 0.0
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        vx, vy = bx - ax, by - ay
        n = vx * vx + vy * vy
        length = math.sqrt(n)
        out.append((ax, ay, vx, vy, n, length, run))
        run += length
    return tuple(out)


# ---- compiled with numba where it is installed (jit.compiled); the same float operations
# as the numpy code above, in the same order


def _sight_walk(
    walls: np.ndarray, cell_m: float, ax: float, ay: float, bx: float, by: float, n: int
) -> bool:
    """``geometry.line_of_sight``'s samples one at a time, with the float operations of
    ``np.linspace`` (``i * (1 / n)``, the last exactly 1) and of the array path."""
    h, w = walls.shape
    ex, ey = bx - ax, by - ay
    step = 1.0 / n
    c0, r0 = math.floor(ax / cell_m), math.floor(ay / cell_m)
    c1, r1 = math.floor((ax + ex) / cell_m), math.floor((ay + ey) / cell_m)
    if not (0 <= c1 < w and 0 <= r1 < h):
        return False
    blocked = False
    for i in range(n):
        t = i * step
        c, r = math.floor((ax + ex * t) / cell_m), math.floor((ay + ey * t) / cell_m)
        if not (0 <= c < w and 0 <= r < h):
            return False
        if not blocked and walls[r, c] != 0 and (r, c) != (r0, c0) and (r, c) != (r1, c1):
            blocked = True
    return not blocked


def _cells_free(
    walls: np.ndarray, level: np.ndarray, cell_m: float, x: float, y: float, r: float, z: int
) -> bool:
    """``geometry.circle_free``'s grid part (its centre's level, then every wall cell the
    circle may touch), in the same float operations."""
    rows, cols = walls.shape
    col, row = math.floor(x / cell_m), math.floor(y / cell_m)
    if not (0 <= col < cols and 0 <= row < rows) or level[row, col] > z:
        return False
    c0, c1 = math.floor((x - r) / cell_m), math.floor((x + r) / cell_m)
    r0, r1 = math.floor((y - r) / cell_m), math.floor((y + r) / cell_m)
    for rw in range(r0, r1 + 1):
        for cl in range(c0, c1 + 1):
            if 0 <= cl < cols and 0 <= rw < rows and walls[rw, cl] == 0:
                continue
            nx = min(max(x, cl * cell_m), (cl + 1) * cell_m)
            ny = min(max(y, rw * cell_m), (rw + 1) * cell_m)
            if (nx - x) ** 2 + (ny - y) ** 2 < r * r:
                return False
    return True
