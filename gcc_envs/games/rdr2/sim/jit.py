"""Compiled kernels for the render path's loops and a line of sight's walk (numba, a core
dependency), numpy where numba is missing or ``GCC_NO_JIT=1`` asks for it.

Each kernel does exactly the float operations of the numpy code it replaces, in the same
order, so frames are identical bit for bit with or without numba (``tests/games/rdr2/
test_render_fast.py`` renders both ways and compares; ``test_play_digests.py`` plays both ways
against committed digests). Without numba, :func:`kernel` and :func:`compiled` return None and
callers run their numpy path. A kernel used by one module may live there, compiled with
:func:`compiled` (``layers.layer_ops``). Compiling takes a second or two per kernel on first
use in a process; numba's on-disk cache (in the user's cache folder, :func:`_user_cache`)
makes later processes start at once.
"""

from __future__ import annotations

import functools
import glob
import logging
import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

log = logging.getLogger(__name__)


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


def _billboard(
    canvas: np.ndarray,
    img: np.ndarray,
    c0: int,
    c1: int,
    r0: int,
    r1: int,
    x0: float,
    x1: float,
    y0: float,
    y1: float,
    depth_cells: float,
    mirrored: bool,
    depth: np.ndarray,
    px_depth: np.ndarray,
    depth_out: bool,
    alpha_shift: int,
) -> None:
    """``sprites._draw_one`` for the clipped box ``c0..c1`` x ``r0..r1``: the columns where the
    billboard is nearer than the wall, the art sampled per pixel in float64 as numpy does,
    painted where its alpha byte (``alpha_shift`` bits up the packed word) is set."""
    first = -1
    last = -1
    for c in range(c0, c1):
        if depth[c] > depth_cells:
            if first < 0:
                first = c
            last = c
    if first < 0:
        return
    ih, iw = img.shape
    sx = x1 - x0
    sy = y1 - y0
    d32 = np.float32(depth_cells)
    for r in range(r0, r1):
        sr = np.int32((np.float64(r) + 0.5 - y0) / sy * ih)
        sr = min(max(sr, 0), ih - 1)
        for c in range(first, last + 1):
            if not depth[c] > depth_cells:
                continue
            sc = np.int32((np.float64(c) + 0.5 - x0) / sx * iw)
            if mirrored:
                sc = iw - 1 - sc
            sc = min(max(sc, 0), iw - 1)
            texel = img[sr, sc]
            if (texel >> alpha_shift) & 255:
                canvas[r, c] = texel
                if depth_out:
                    px_depth[r, c] = d32


def _minimap_patch(
    patch: np.ndarray,
    offs: np.ndarray,
    m_per_px: float,
    px: float,
    py: float,
    fx: float,
    fy: float,
    cell_m: float,
    walls: np.ndarray,
    ground: np.ndarray,
    gpal: np.ndarray,
    wpal: np.ndarray,
) -> None:
    """The map under ``minimap.draw``'s disc: float32 world positions of every pixel as numpy
    computes them (the six terms taken to float32 first, as numpy takes Python floats), the
    wall's colour where a wall stands, the ground's elsewhere, dark outside the grid."""
    m_per_px, px, py = np.float32(m_per_px), np.float32(px), np.float32(py)
    fx, fy, cell_m = np.float32(fx), np.float32(fy), np.float32(cell_m)
    rows, cols = walls.shape
    n = patch.shape[0]
    for i in range(n):
        for j in range(n):
            right = offs[0, i, j] * m_per_px
            up = offs[1, i, j] * m_per_px
            wx = (px + up * fx - right * fy) / cell_m
            wy = (py + up * fy + right * fx) / cell_m
            ci = min(max(np.int32(math.floor(wx)), 0), cols - 1)
            ri = min(max(np.int32(math.floor(wy)), 0), rows - 1)
            if wx < 0 or wy < 0 or wx >= cols or wy >= rows:
                patch[i, j, 0] = 40
                patch[i, j, 1] = 36
                patch[i, j, 2] = 32
                continue
            wall = np.int32(walls[ri, ci])
            for k in range(3):
                patch[i, j, k] = wpal[wall, k] if wall != 0 else gpal[np.int32(ground[ri, ci]), k]


def _minimap_blend(
    region: np.ndarray,
    patch: np.ndarray,
    inside: np.ndarray,
    rim: np.ndarray,
    r0: int,
    r1: int,
    r2: int,
) -> None:
    """``minimap.draw``'s composite: 13/16 map over the view inside the disc (uint16 sums
    as numpy does them), the rim colour on the rim."""
    for i in range(region.shape[0]):
        for j in range(region.shape[1]):
            if rim[i, j]:
                region[i, j, 0] = r0
                region[i, j, 1] = r1
                region[i, j, 2] = r2
            elif inside[i, j]:
                for k in range(3):
                    a = np.uint16(region[i, j, k]) * np.uint16(3)
                    region[i, j, k] = (a + np.uint16(patch[i, j, k]) * np.uint16(13)) // 16


def _wall_columns(
    dist: np.ndarray,
    col: np.ndarray,
    row: np.ndarray,
    side: np.ndarray,
    u: np.ndarray,
    lvl: np.ndarray,
    ids: np.ndarray,
    slots: np.ndarray,
    height: np.ndarray,
    tex_m: np.ndarray,
    height_m: np.ndarray,
    given: bool,
    proj: float,
    horizon: float,
    eye_m: float,
    cell_m: float,
    t: int,
    rough_a: int,
    rough_b: int,
    heights: np.ndarray,
    bottom32: np.ndarray,
    span: np.ndarray,
    per_px: np.ndarray,
    base: np.ndarray,
    alpha_base: np.ndarray,
) -> tuple[float, float, bool]:
    """The per-column part of ``scene._paint_walls`` with numpy's dtypes (float64 spans from
    float32 heights, float32 texel steps, int32 indices); fills the six output arrays and
    returns the topmost wall top, the lowest wall foot and whether any ray found a wall."""
    s_count = height.shape[0]
    eye32 = np.float32(eye_m)
    tiny = np.float32(1e-6)
    top_min = np.inf
    bottom_max = -np.inf
    any_found = False
    for c in range(dist.shape[0]):
        d = dist[c]
        found = math.isfinite(d)
        block = np.int32(ids[max(row[c], 0), max(col[c], 0)]) if found else np.int32(0)
        slot = max(slots[block], 0)
        h = np.float32(0.0)
        if found:
            h = np.float32(height_m[c]) if given else height[slot]
        k = proj / (max(d, 1e-3) * cell_m)
        bottom = horizon + eye_m * k
        top = horizon - np.float64(np.float32(h - eye32)) * k
        if found:
            any_found = True
            top_min = min(top_min, top)
            bottom_max = max(bottom_max, bottom)
        else:
            top = 0.0
            bottom = -1.0
        sp = np.float32(bottom - top)
        heights[c] = h
        bottom32[c] = np.float32(bottom)
        span[c] = sp
        per_px[c] = np.float32(np.float32(h / tex_m[slot]) * np.float32(t)) / max(sp, tiny)
        ucol = min(np.int32(u[c] * t), np.int32(t - 1))
        if block == rough_a or block == rough_b:
            ucol = (ucol + (np.int32(col[c]) * 37 + np.int32(row[c]) * 23) * 5) & (t - 1)
        sl = np.int32(slot)
        base[c] = ((np.int32(lvl[c]) * s_count + sl) * 2 + np.int32(side[c])) * t * t + ucol
        alpha_base[c] = np.int64(sl) * t * t + ucol
    return top_min, bottom_max, any_found


def _low_heights(
    dist: np.ndarray,
    col: np.ndarray,
    row: np.ndarray,
    ids: np.ndarray,
    level: np.ndarray,
    slots: np.ndarray,
    height: np.ndarray,
    z: int,
    ledge: int,
    out: np.ndarray,
) -> None:
    """``scene.draw_scene``'s low-wall heights: a ledge's rise above the player's level
    (float32), else the wall kind's height; rays that found nothing read cell (0, 0)."""
    z32 = np.float32(z)
    for c in range(dist.shape[0]):
        r = max(row[c], 0)
        k = max(col[c], 0)
        block = np.int32(ids[r, k]) if math.isfinite(dist[c]) else np.int32(0)
        if block == ledge:
            out[c] = np.float32(level[r, k]) - z32
        else:
            out[c] = height[max(slots[block], 0)]


def line_of_sight(
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


def circle_cells_free(
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


def _place_trees(
    cx: np.ndarray,
    cy: np.ndarray,
    px: float,
    py: float,
    max2: float,
    cos_y: float,
    sin_y: float,
    cam_x: float,
    cam_y: float,
    proj: float,
    max_dist: float,
    mid: float,
    horizon: float,
    eye: float,
    width_m: np.ndarray,
    height_m: np.ndarray,
    w: int,
    h: int,
    near: float,
    cell_m: float,
    idx: np.ndarray,
    out: np.ndarray,
) -> int:
    """``billboards.tree_billboards``' distance test, then ``sprites.draw_billboards``'
    placement and view tests, for every fixed board (centres ``cx``, ``cy``, sizes
    ``width_m``, ``height_m``: tree cells or props), in the same float operations; the boards
    left fill ``idx`` (their index) and the columns of ``out`` (depth, x0, x1, top, bottom)
    in order."""
    n = 0
    for i in range(cx.shape[0]):
        if not (cx[i] - px) ** 2 + (cy[i] - py) ** 2 <= max2:
            continue
        dx = cx[i] - cam_x
        dy = cy[i] - cam_y
        d = dx * cos_y + dy * sin_y
        if d < near or not d < max_dist:
            continue
        lateral = -dx * sin_y + dy * cos_y
        k = proj / (d * cell_m)
        c = mid + proj * lateral / d
        half = width_m[i] * k / 2.0
        if max(0, math.ceil(c - half - 0.5)) >= min(w, math.ceil(c + half - 0.5)):
            continue
        b = horizon + eye * k
        t = b - height_m[i] * k
        if max(0, math.ceil(t - 0.5)) >= min(h, math.ceil(b - 0.5)):
            continue
        idx[n] = i
        out[0, n] = d
        out[1, n] = c - half
        out[2, n] = c + half
        out[3, n] = t
        out[4, n] = b
        n += 1
    return n


def _snowfall(
    frame: np.ndarray,
    across: np.ndarray,
    down: np.ndarray,
    sway: np.ndarray,
    fall: np.ndarray,
    turn: float,
    clock: float,
    k: int,
    r: int,
    g: int,
    b: int,
) -> None:
    """``hands.draw_snowfall``'s flakes after its ``np.sin``: every term in float32 as numpy
    takes the Python floats, the place truncated to int32, a ``k``-pixel square per flake."""
    h, w = frame.shape[0], frame.shape[1]
    t, c = np.float32(turn), np.float32(clock)
    amp, one = np.float32(0.05), np.float32(1.0)
    fw, fh = np.float32(w), np.float32(h)
    for i in range(across.shape[0]):
        u = (across[i] - t + amp * sway[i]) % one
        v = (down[i] + c * fall[i]) % one
        x, y = np.int32(u * fw), np.int32(v * fh)
        for dx in range(k):
            col = min(x + dx, w - 1)
            for dy in range(k):
                row = min(y + dy, h - 1)
                frame[row, col, 0] = r
                frame[row, col, 1] = g
                frame[row, col, 2] = b


_PYTHON: dict[str, Callable[..., Any]] = {
    "place_trees": _place_trees,
    "snowfall": _snowfall,
    "circle_cells_free": circle_cells_free,
    "low_heights": _low_heights,
    "wall_columns": _wall_columns,
    "minimap_patch": _minimap_patch,
    "minimap_blend": _minimap_blend,
    "billboard": _billboard,
    "wall_rows": _wall_rows,
    "cast_rays": _cast_rays,
    "ground_rows": _ground_rows,
    "blend_mask": _blend_mask,
    "line_of_sight": line_of_sight,
}


def kernel(name: str) -> Callable[..., Any] | None:
    """The compiled kernel ``name`` (see ``_PYTHON``), or None when numba is not installed."""
    return compiled(_PYTHON[name])


@functools.cache
def compiled(fn: Callable[..., Any]) -> Callable[..., Any] | None:
    """``fn`` compiled by numba (a kernel kept beside the numpy code it speeds up, in its own
    module), or None when numba is not installed or ``GCC_NO_JIT=1`` asks for the numpy
    path."""
    if os.environ.get("GCC_NO_JIT", "") not in ("", "0"):
        return None
    try:
        import numba
    except ImportError:
        return None
    _user_cache()
    return numba.njit(cache=True, nogil=True)(fn)


@functools.cache
def _user_cache() -> None:
    """numba's on-disk cache in the user's cache folder, not beside the source: the user's
    ``NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/gcc-gym/numba`` (``~/.cache/...``); a
    note when it holds no kernels of this file yet (the first steps then compile them)."""
    from numba.core import caching, config

    if not os.environ.get("NUMBA_CACHE_DIR"):
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        os.environ["NUMBA_CACHE_DIR"] = os.path.join(base, "gcc-gym", "numba")
        config.reload_config()  # numba's compiler reloads its config from the environment
    here = os.path.join(
        config.CACHE_DIR, caching._CacheLocator.get_suitable_cache_subpath(__file__)
    )
    if not glob.glob(os.path.join(glob.escape(here), "*.nbi")):
        log.warning(
            "compiling RDR2's render kernels with numba: the first steps take up to half a "
            "minute, once (cached in %s)",
            config.CACHE_DIR,
        )
