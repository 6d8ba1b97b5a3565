"""Grid ray casting: one ray per screen column, all columns stepped at once (vectorised DDA).

Everything here is in grid cells: a position ``(x, y)`` lies in cell ``(floor(x), floor(y))``,
``x`` grows along columns and ``y`` along rows. Rays are the classic camera-plane rays
``dir + plane * c`` for ``c`` in [-1, 1], so the distance the caster returns is the
perpendicular distance to the camera plane: walls facing the camera come out flat, with no
fisheye bulge.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from gcc_envs.games.rdr2.sim import jit


class Rays(NamedTuple):  # named tuples: made every frame
    """Camera rays of one frame: ``(x, y)`` components per column, plus the view basis."""

    x: np.ndarray
    y: np.ndarray
    dir: tuple[float, float]
    plane: tuple[float, float]


class Hits(NamedTuple):
    """First blocking cell along each ray.

    ``dist`` is the perpendicular distance (``inf`` where the ray left the map or went past
    ``max_dist``), ``col``/``row`` the cell hit (-1 when none), ``side`` 0 when the ray crossed
    a vertical grid line (an east or west face) and 1 for a north or south face, and ``u`` the
    hit position along that face in [0, 1).
    """

    dist: np.ndarray
    col: np.ndarray
    row: np.ndarray
    side: np.ndarray
    u: np.ndarray


def camera_rays(yaw_rad: float, fov_rad: float, n: int) -> Rays:
    """Rays through the centres of ``n`` columns for a view ``yaw_rad`` wide ``fov_rad``.

    >>> r = camera_rays(0.0, math.radians(90), 2)
    >>> [round(float(v), 3) for v in r.y]
    [-0.5, 0.5]
    """
    dx, dy = math.cos(yaw_rad), math.sin(yaw_rad)
    half = math.tan(fov_rad / 2.0)
    # The plane points to the right of the view: with y growing "down" (south), right of
    # east is south, so the plane is the direction rotated +90 degrees.
    px, py = -dy * half, dx * half
    c = _columns(n)
    return Rays(dx + px * c, dy + py * c, (dx, dy), (px, py))


@lru_cache(maxsize=8)
def _columns(n: int) -> np.ndarray:
    """Each column centre's place across the camera plane, -1 to 1 (read-only)."""
    c = (2.0 * (np.arange(n, dtype=np.float64) + 0.5) / n - 1.0).astype(np.float64)
    c.flags.writeable = False
    return c


def cast(
    stops: np.ndarray,
    x: float,
    y: float,
    ray_x: np.ndarray,
    ray_y: np.ndarray,
    max_dist: float | np.ndarray = 64.0,
) -> Hits:
    """Cast every ray from ``(x, y)`` through the boolean grid ``stops`` (rows, cols).

    The starting cell never stops its own rays. ``max_dist`` (a scalar or one value per ray)
    ends rays early; they report no hit.

    >>> g = np.zeros((5, 5), bool); g[2, 4] = True
    >>> h = cast(g, 0.5, 2.5, np.array([1.0]), np.array([0.0]))
    >>> float(h.dist[0]), int(h.col[0]), int(h.side[0])
    (3.5, 4, 0)
    """
    n = len(ray_x)
    if isinstance(max_dist, (int, float)):
        limit = np.full(n, float(max_dist))
    else:
        limit = np.broadcast_to(np.asarray(max_dist, np.float64), (n,))
    rx = np.asarray(ray_x, np.float64)
    ry = np.asarray(ray_y, np.float64)
    compiled = jit.compiled(_cast_rays)
    if compiled is not None:  # the kernel fills every ray's entries, misses included
        dist, u = np.empty(n), np.empty(n)
        hit_col, hit_row = np.empty(n, np.int32), np.empty(n, np.int32)
        side = np.empty(n, np.int8)
        compiled(
            np.ascontiguousarray(stops, np.bool_),
            float(x),
            float(y),
            rx,
            ry,
            np.ascontiguousarray(limit),
            dist,
            hit_col,
            hit_row,
            side,
            u,
        )
        return Hits(dist, hit_col, hit_row, side, u)
    dist = np.full(n, np.inf)
    hit_col = np.full(n, -1, np.int32)
    hit_row = np.full(n, -1, np.int32)
    side = np.zeros(n, np.int8)
    _cast_numpy(stops, x, y, rx, ry, limit, dist, hit_col, hit_row, side)
    found = np.isfinite(dist)
    safe = np.where(found, dist, 0.0)
    along = np.where(side == 0, y + safe * ry, x + safe * rx)
    u = np.where(found, along - np.floor(along), 0.0)
    return Hits(dist, hit_col, hit_row, side, u)


def _cast_numpy(
    stops: np.ndarray,
    x: float,
    y: float,
    rx: np.ndarray,
    ry: np.ndarray,
    limit: np.ndarray,
    dist: np.ndarray,
    hit_col: np.ndarray,
    hit_row: np.ndarray,
    side: np.ndarray,
) -> None:
    """All rays stepped at once, one grid crossing per pass; fills the four output arrays."""
    n = len(rx)
    rows, cols = stops.shape
    with np.errstate(divide="ignore"):
        ddx = np.where(rx == 0.0, np.inf, np.abs(1.0 / np.where(rx == 0.0, 1.0, rx)))
        ddy = np.where(ry == 0.0, np.inf, np.abs(1.0 / np.where(ry == 0.0, 1.0, ry)))
    fx, fy = math.floor(x), math.floor(y)
    stx = np.where(rx < 0, -1, 1).astype(np.int32)
    sty = np.where(ry < 0, -1, 1).astype(np.int32)
    with np.errstate(invalid="ignore"):
        sx = np.where(rx < 0, (x - fx) * ddx, (fx + 1.0 - x) * ddx)
        sy = np.where(ry < 0, (y - fy) * ddy, (fy + 1.0 - y) * ddy)
    sx = np.nan_to_num(sx, nan=np.inf)
    sy = np.nan_to_num(sy, nan=np.inf)
    mx = np.full(n, fx, np.int32)
    my = np.full(n, fy, np.int32)
    idx = np.arange(n)
    lim = limit.copy()
    for _ in range(rows + cols + 2):
        xstep = sx < sy
        d = np.where(xstep, sx, sy)
        mx += np.where(xstep, stx, 0)
        my += np.where(xstep, 0, sty)
        sx += np.where(xstep, ddx, 0.0)
        sy += np.where(xstep, 0.0, ddy)
        inside = (mx >= 0) & (mx < cols) & (my >= 0) & (my < rows)
        hit = inside & stops[np.clip(my, 0, rows - 1), np.clip(mx, 0, cols - 1)] & (d <= lim)
        if hit.any():
            h = idx[hit]
            dist[h] = d[hit]
            hit_col[h] = mx[hit]
            hit_row[h] = my[hit]
            side[h] = np.where(xstep[hit], 0, 1)
        keep = ~hit & inside & (d <= lim)
        if not keep.all():
            if not keep.any():
                break
            idx, mx, my, sx, sy = idx[keep], mx[keep], my[keep], sx[keep], sy[keep]
            ddx, ddy, stx, sty, lim = ddx[keep], ddy[keep], stx[keep], sty[keep], lim[keep]


# ---- compiled with numba where it is installed (jit.compiled); the same float operations
# as the numpy code above, in the same order


def _cast_rays(
    stops: np.ndarray,
    x: float,
    y: float,
    rx: np.ndarray,
    ry: np.ndarray,
    lim: np.ndarray,
    dist: np.ndarray,
    col: np.ndarray,
    row: np.ndarray,
    side: np.ndarray,
    u: np.ndarray,
) -> None:
    """The DDA of :func:`raycast.cast`, one ray at a time; fills the five output arrays
    (a miss: ``dist`` inf, ``col`` and ``row`` -1, ``side`` and ``u`` 0)."""
    rows, cols = stops.shape
    fx = math.floor(x)
    fy = math.floor(y)
    inf = np.inf
    for i in range(rx.shape[0]):
        dist[i] = inf
        col[i] = -1
        row[i] = -1
        side[i] = 0
        u[i] = 0.0
        ax = rx[i]
        ay = ry[i]
        ddx = inf if ax == 0.0 else abs(1.0 / ax)
        ddy = inf if ay == 0.0 else abs(1.0 / ay)
        if ax < 0:
            stx = -1
            sx = (x - fx) * ddx
        else:
            stx = 1
            sx = (fx + 1.0 - x) * ddx
        if ay < 0:
            sty = -1
            sy = (y - fy) * ddy
        else:
            sty = 1
            sy = (fy + 1.0 - y) * ddy
        if math.isnan(sx):
            sx = inf
        if math.isnan(sy):
            sy = inf
        mx = fx
        my = fy
        limit = lim[i]
        for _ in range(rows + cols + 2):
            if sx < sy:
                d = sx
                mx += stx
                sx += ddx
                s = 0
            else:
                d = sy
                my += sty
                sy += ddy
                s = 1
            if not (0 <= mx < cols and 0 <= my < rows and d <= limit):
                break
            if stops[my, mx]:
                dist[i] = d
                col[i] = mx
                row[i] = my
                side[i] = s
                along = y + d * ay if s == 0 else x + d * ax
                u[i] = along - math.floor(along)
                break
