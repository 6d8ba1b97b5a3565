"""Compiled kernels for the render path's loops (numba, the ``fast`` extra), numpy otherwise.

Each kernel does exactly the float operations of the numpy code it replaces, in the same
order, so frames are identical bit for bit with or without numba (``tests/games/rdr2/
test_render_fast.py`` renders both ways and compares). Without numba, :func:`kernel` returns
None and callers run their numpy path. Compiling takes a second or two per kernel on first
use in a process; numba's on-disk cache makes later processes start at once.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np


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
    (``u``: where along the face each ray hit, 0 for a miss)."""
    rows, cols = stops.shape
    fx = math.floor(x)
    fy = math.floor(y)
    inf = np.inf
    for i in range(rx.shape[0]):
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


def _ground_rows(
    out: np.ndarray,
    dt: np.ndarray,
    row_base: np.ndarray,
    rx: np.ndarray,
    ry: np.ndarray,
    cx: np.float32,
    cy: np.float32,
    ground: np.ndarray,
    atlas: np.ndarray,
    t: int,
) -> None:
    """The per-pixel part of ``scene._paint_ground`` (float32 texel coordinates, one gather).

    ``dt`` is each row's distance times the texture size, ``row_base`` each row's fog-level
    offset into the atlas; ``out`` is the canvas rows below the horizon.
    """
    rows, cols = ground.shape
    shift = 0
    while (1 << shift) < t:
        shift += 1
    mask = t - 1
    tt = t * t
    for r in range(out.shape[0]):
        d = dt[r]
        base = row_base[r]
        for c in range(out.shape[1]):
            tx = np.int32(np.float32(d * rx[c]) + cx)
            ty = np.int32(np.float32(d * ry[c]) + cy)
            gy = min(max(ty >> shift, 0), rows - 1)
            gx = min(max(tx >> shift, 0), cols - 1)
            gid = np.int32(ground[gy, gx])
            out[r, c] = atlas[base + gid * tt + ((ty & mask) << shift) + (tx & mask)]


def _blend_mask(region: np.ndarray, m: np.ndarray, c0: int, c1: int, c2: int, alpha: float) -> None:
    """``text.blend_mask`` on its clipped region: colour through coverage, uint16 rounding as
    numpy does it; pixels without coverage keep their value, as they do there."""
    scale = alpha < 1.0
    a_max = max(alpha, 0.0)
    for i in range(region.shape[0]):
        for j in range(region.shape[1]):
            a = np.uint16(m[i, j])
            if scale:
                a = np.uint16(a * a_max)
            if a == 0:
                continue
            inv = np.uint16(255) - a
            region[i, j, 0] = (np.uint16(region[i, j, 0]) * inv + np.uint16(c0) * a + 127) // 255
            region[i, j, 1] = (np.uint16(region[i, j, 1]) * inv + np.uint16(c1) * a + 127) // 255
            region[i, j, 2] = (np.uint16(region[i, j, 2]) * inv + np.uint16(c2) * a + 127) // 255


def _wall_rows(
    out: np.ndarray,
    r0: int,
    bottom: np.ndarray,
    span: np.ndarray,
    per_px: np.ndarray,
    base: np.ndarray,
    rgb: np.ndarray,
    t: int,
    alpha_base: np.ndarray,
    alpha: np.ndarray,
    low: bool,
    dist: np.ndarray,
    depth_px: np.ndarray,
    depth_test: bool,
) -> None:
    """The per-pixel part of ``scene._paint_walls`` for canvas rows ``r0..``: float32 spans
    and texel rows as numpy computes them, the texel gathered where the wall covers."""
    half = np.float32(0.5)
    for i in range(out.shape[0]):
        ys = np.float32(r0 + i) + half
        for c in range(out.shape[1]):
            below = bottom[c] - ys
            if not (below > 0.0 and below <= span[c]):
                continue
            q = np.int32(below * per_px[c])
            vrow = (t - 1) - (q & (t - 1))
            if low:
                if not alpha[alpha_base[c] + vrow * t]:
                    continue
                if depth_test and not dist[c] < depth_px[i, c]:
                    continue
            out[i, c] = rgb[base[c] + vrow * t]


_PYTHON: dict[str, Callable[..., Any]] = {
    "wall_rows": _wall_rows,
    "cast_rays": _cast_rays,
    "ground_rows": _ground_rows,
    "blend_mask": _blend_mask,
}


@functools.cache
def kernel(name: str) -> Callable[..., Any] | None:
    """The compiled kernel ``name`` (see ``_PYTHON``), or None when numba is not installed."""
    try:
        import numba
    except ImportError:
        return None
    return numba.njit(cache=True, nogil=True)(_PYTHON[name])
