"""The first-person 3D view: sky, distant mountains, ground, ceilings and textured walls.

:func:`draw_scene` fills a packed canvas (see :mod:`pixels`) for a :class:`Camera` over a map's grids and returns the
per-column distance to the nearest opaque wall (the depth buffer sprites are tested against)
together with the low walls (fences, counters, ledges) to draw after the sprites.

Geometry is in grid cells horizontally and metres vertically; a point ``d`` cells in front of
the camera and ``z`` metres above the eye lands on row ``horizon - z / CELL_M * proj / d``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from gcc_envs.games.rdr2.sim import jit
from gcc_envs.games.rdr2.sim import sky as sky_mod
from gcc_envs.games.rdr2.sim import textures as tx
from gcc_envs.games.rdr2.sim.raycast import Hits, Rays, camera_rays, cast
from gcc_envs.games.rdr2.sim.state import BLOCKS, CELL_M, GROUNDS

#: Ceiling height indoors (metres above the floor).
CEILING_M = 3.0


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the grid: position in cells, angles in radians, eye in metres."""

    x: float
    y: float
    yaw: float
    pitch: float
    eye_m: float
    fov: float
    width: int
    height: int
    #: Fog distance scale (metres): fog reaches 63 % at this distance.
    fog_m: float = 80.0
    #: Focal length in pixels (square pixels: the same vertically).
    proj: float = field(init=False)
    #: Row of the horizon; looking up (positive pitch) moves it down.
    horizon: float = field(init=False)
    #: Cells beyond which everything is fog.
    max_dist: float = field(init=False)

    def __post_init__(self) -> None:  # worked out once: a frame asks for each many times
        proj = (self.width / 2.0) / math.tan(self.fov / 2.0)
        object.__setattr__(self, "proj", proj)
        object.__setattr__(self, "horizon", self.height / 2.0 + math.tan(self.pitch) * proj)
        object.__setattr__(self, "max_dist", 4.0 * self.fog_m / CELL_M)

    def rays(self) -> Rays:
        return camera_rays(self.yaw, self.fov, self.width)

    def fog_level(self, dist_cells: np.ndarray) -> np.ndarray:
        """Baked fog level (int) for distances in cells."""
        return fog_level(dist_cells, self.fog_m)


def fog_level(dist_cells: np.ndarray, fog_m: float) -> np.ndarray:
    """Baked fog level (int) for distances in cells, fog scale ``fog_m`` metres."""
    f = 1.0 - np.exp(-np.asarray(dist_cells, np.float32) * (CELL_M / fog_m))
    return np.minimum((f * tx.FOG_LEVELS).astype(np.int32), tx.FOG_LEVELS - 1)


class Walls(NamedTuple):  # a named tuple: made every frame
    """What the caster found: opaque walls (depth buffer) and the low walls in front of them."""

    depth: np.ndarray  # (W,) cells, inf where only sky
    low: Hits
    low_height: np.ndarray  # (W,) metres


def wall_grids(
    walls: np.ndarray, level: np.ndarray, z: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Block ids with ledges marked, and the opaque / low stop masks (pure; read-only arrays,
    cached by the grids' contents, so a door that opens gives new grids)."""
    w = np.ascontiguousarray(walls)
    lv = np.ascontiguousarray(level)
    return _wall_grids(w.tobytes(), w.dtype.str, lv.tobytes(), lv.dtype.str, w.shape, int(z))


@lru_cache(maxsize=16)
def _wall_grids(
    walls_b: bytes, walls_t: str, level_b: bytes, level_t: str, shape: tuple[int, ...], z: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    walls = np.frombuffer(walls_b, walls_t).reshape(shape)
    level = np.frombuffer(level_b, level_t).reshape(shape)
    ids = walls.astype(np.int32)
    ids[ids == BLOCKS["tree"]] = 0  # trees are billboards (see billboards.tree_billboards)
    ledge = (ids == 0) & (level.astype(np.int32) > z)
    ids = np.where(ledge, tx.LEDGE, ids)
    low_ids = [i for i, k in tx.WALL_KINDS.items() if k.low]
    low = np.isin(ids, low_ids)
    opaque = (ids != 0) & ~low
    for a in (ids, opaque, low):
        a.flags.writeable = False
    return ids, opaque, low


def _column_spans(
    cam: Camera, dist: np.ndarray, height_m: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Top and bottom rows (floats) of walls ``height_m`` tall at ``dist`` cells."""
    k = cam.proj / (np.maximum(dist, 1e-3) * CELL_M)
    bottom = cam.horizon + cam.eye_m * k
    top = cam.horizon - (height_m - cam.eye_m) * k
    return top, bottom


def _paint_walls(
    canvas: np.ndarray,
    cam: Camera,
    hits: Hits,
    ids: np.ndarray,
    atlas: tx.WallAtlas,
    low: bool,
    height_m: np.ndarray | None = None,
    depth_px: np.ndarray | None = None,
) -> np.ndarray:
    """Draw the walls ``hits`` found; returns each column's wall height (metres)."""
    columns = jit.compiled(_wall_columns)
    if columns is not None:
        return _paint_walls_compiled(canvas, cam, hits, ids, atlas, low, height_m, depth_px)
    found = np.isfinite(hits.dist)
    w = cam.width
    heights = np.zeros(w, np.float32)
    if not found.any():
        return heights
    block = np.where(found, ids[np.maximum(hits.row, 0), np.maximum(hits.col, 0)], 0)
    slot = np.maximum(atlas.slots[block], 0)
    heights = atlas.height[slot].copy() if height_m is None else height_m.astype(np.float32)
    heights[~found] = 0.0
    tex_m = atlas.tex_m[slot]
    top, bottom = _column_spans(cam, hits.dist, heights)
    r0 = max(0, int(np.floor(top[found].min())))
    r1 = min(cam.height, int(np.ceil(bottom[found].max())))
    top = np.where(found, top, 0.0)
    bottom = np.where(found, bottom, -1.0)  # an empty span: no row falls inside
    if r1 <= r0:
        return heights
    t = atlas.t
    span = (bottom - top).astype(np.float32)
    # texels counted up from the foot; the texture repeats every tex_m metres
    per_px = (heights / tex_m * t / np.maximum(span, 1e-6)).astype(np.float32)
    ucol = np.minimum((hits.u * t).astype(np.int32), t - 1)
    # rock faces slide their texture by a per-cell amount so neighbours do not repeat
    rough = (block == BLOCKS["rock"]) | (block == tx.LEDGE)
    ucol = np.where(rough, (ucol + (hits.col * 37 + hits.row * 23) * 5) & (t - 1), ucol)
    lvl = cam.fog_level(hits.dist)
    s_count = len(atlas.height)
    base = (((lvl * s_count + slot) * 2 + hits.side) * t * t + ucol).astype(np.int32)
    compiled = jit.compiled(_wall_rows)
    if compiled is not None:
        depth_test = low and depth_px is not None
        compiled(
            canvas[r0:r1],
            r0,
            bottom.astype(np.float32),
            span,
            per_px,
            base,
            atlas.rgb,
            t,
            (slot * t * t + ucol).astype(np.int64),
            atlas.alpha,
            low,
            hits.dist.astype(np.float32),
            depth_px[r0:r1] if depth_test else np.zeros((1, 1), np.float32),
            depth_test,
        )
        return heights
    ys = np.arange(r0, r1, dtype=np.float32)[:, None] + 0.5
    below = bottom.astype(np.float32)[None, :] - ys  # pixels above the wall's foot
    inside = (below > 0.0) & (below <= span[None, :])
    q = (below * per_px[None, :]).astype(np.int32)
    vrow = (t - 1) - (q & (t - 1))
    idx = base[None, :] + vrow * t
    if low:
        inside &= atlas.alpha[(slot * t * t + ucol)[None, :] + vrow * t]
        if depth_px is not None:
            inside &= hits.dist.astype(np.float32)[None, :] < depth_px[r0:r1]
    np.copyto(canvas[r0:r1], atlas.rgb[idx], where=inside)
    return heights


def _paint_walls_compiled(
    canvas: np.ndarray,
    cam: Camera,
    hits: Hits,
    ids: np.ndarray,
    atlas: tx.WallAtlas,
    low: bool,
    height_m: np.ndarray | None,
    depth_px: np.ndarray | None,
) -> np.ndarray:
    """:func:`_paint_walls` in two compiled passes: per column, then per pixel."""
    w, t = cam.width, atlas.t
    heights = np.empty(w, np.float32)
    bottom = np.empty(w, np.float32)
    span = np.empty(w, np.float32)
    per_px = np.empty(w, np.float32)
    base = np.empty(w, np.int32)
    alpha_base = np.empty(w, np.int64)
    top_min, bottom_max, any_found = jit.compiled(_wall_columns)(
        hits.dist,
        hits.col,
        hits.row,
        hits.side,
        hits.u,
        cam.fog_level(hits.dist),
        ids,
        atlas.slots,
        atlas.height,
        atlas.tex_m,
        heights if height_m is None else height_m,
        height_m is not None,
        cam.proj,
        cam.horizon,
        cam.eye_m,
        CELL_M,
        t,
        BLOCKS["rock"],
        tx.LEDGE,
        heights,
        bottom,
        span,
        per_px,
        base,
        alpha_base,
    )
    if not any_found:
        return heights
    r0 = max(0, int(np.floor(top_min)))
    r1 = min(cam.height, int(np.ceil(bottom_max)))
    if r1 <= r0:
        return heights
    depth_test = low and depth_px is not None
    jit.compiled(_wall_rows)(
        canvas[r0:r1],
        r0,
        bottom,
        span,
        per_px,
        base,
        atlas.rgb,
        t,
        alpha_base,
        atlas.alpha,
        low,
        hits.dist.astype(np.float32),
        depth_px[r0:r1] if depth_test else np.zeros((1, 1), np.float32),
        depth_test,
    )
    return heights


def _paint_ground(
    canvas: np.ndarray, cam: Camera, rays: Rays, ground: np.ndarray, sky: sky_mod.SkyColors
) -> None:
    h = cam.height
    hz = cam.horizon
    r0 = max(0, int(math.floor(hz + 0.5)))
    if r0 >= h:
        return
    t = tx.GROUND_T
    compiled = jit.compiled(_ground_rows)
    if compiled is not None:
        dt, base = _ground_row_terms(h, hz, cam.eye_m, cam.proj, cam.fog_m)
        compiled(
            canvas[r0:h],
            dt,
            base,
            rays.x.astype(np.float32),
            rays.y.astype(np.float32),
            np.float32(cam.x * t),
            np.float32(cam.y * t),
            np.ascontiguousarray(ground),
            tx.ground_atlas(sky.fog, sky.light),
            t,
        )
        return
    ys = np.arange(r0, h, dtype=np.float32) + 0.5
    dist = (cam.eye_m / CELL_M) * cam.proj / np.maximum(ys - hz, 1e-3)  # cells per row
    shift = t.bit_length() - 1
    # texel coordinates: cell = texel >> shift, in-cell texel = texel & (t - 1)
    dt = (dist * t)[:, None]
    tx_ = (dt * rays.x.astype(np.float32)[None, :] + np.float32(cam.x * t)).astype(np.int32)
    ty_ = (dt * rays.y.astype(np.float32)[None, :] + np.float32(cam.y * t)).astype(np.int32)
    rows, cols = ground.shape
    cell = np.clip(ty_ >> shift, 0, rows - 1) * cols + np.clip(tx_ >> shift, 0, cols - 1)
    gid = ground.reshape(-1)[cell].astype(np.int32)
    lvl = cam.fog_level(dist)
    n_ground = len(GROUNDS)
    idx = (lvl * (n_ground * t * t))[:, None] + gid * (t * t) + ((ty_ & (t - 1)) << shift)
    idx += tx_ & (t - 1)
    canvas[r0:h] = tx.ground_atlas(sky.fog, sky.light)[idx]


@lru_cache(maxsize=16)
def _ground_row_terms(
    h: int, hz: float, eye_m: float, proj: float, fog_m: float
) -> tuple[np.ndarray, np.ndarray]:
    """Per ground row below the horizon: its distance (cells) times the texture size, float32,
    and its fog level's offset into the ground atlas (read-only; the view's pitch and eye
    height rarely change from one frame to the next)."""
    r0 = max(0, int(math.floor(hz + 0.5)))
    ys = np.arange(r0, h, dtype=np.float32) + 0.5
    dist = (eye_m / CELL_M) * proj / np.maximum(ys - hz, 1e-3)  # cells per row
    t = tx.GROUND_T
    dt = (dist * t).astype(np.float32)
    base = (fog_level(dist, fog_m) * (len(GROUNDS) * t * t)).astype(np.int64)
    for a in (dt, base):
        a.flags.writeable = False
    return dt, base


def _paint_ceiling(
    canvas: np.ndarray, cam: Camera, rays: Rays, roof: np.ndarray, depth: np.ndarray
) -> None:
    """Roof boards over roofed cells, where nearer than the wall in each column."""
    hz = cam.horizon
    r1 = min(cam.height, int(math.floor(hz)))
    if r1 <= 0:
        return
    ys = np.arange(0, r1, dtype=np.float32) + 0.5
    dist = ((CEILING_M - cam.eye_m) / CELL_M) * cam.proj / np.maximum(hz - ys, 1e-3)
    gx = cam.x + dist[:, None] * rays.x.astype(np.float32)[None, :]
    gy = cam.y + dist[:, None] * rays.y.astype(np.float32)[None, :]
    rows, cols = roof.shape
    cx = np.floor(gx).astype(np.int32)
    cy = np.floor(gy).astype(np.int32)
    covered = roof[np.clip(cy, 0, rows - 1), np.clip(cx, 0, cols - 1)]
    covered &= (cx >= 0) & (cx < cols) & (cy >= 0) & (cy < rows)
    covered &= dist[:, None] < depth.astype(np.float32)[None, :]
    t = tx.GROUND_T
    u = ((gx - cx) * t).astype(np.int32) & (t - 1)
    v = ((gy - cy) * t).astype(np.int32) & (t - 1)
    step = np.clip((0.12 * dist - 0.4) / 0.65 * (tx.CEILING_STEPS - 1), 0, tx.CEILING_STEPS - 1)
    idx = (step.astype(np.int32) * (t * t))[:, None] + v * t + u
    np.copyto(canvas[:r1], tx.ceiling_atlas()[idx], where=covered)


def under_roof(roof: np.ndarray, x: float, y: float) -> bool:
    """Whether cell position (x, y) lies under a roof."""
    rows, cols = roof.shape
    c, r = int(math.floor(x)), int(math.floor(y))
    return bool(0 <= r < rows and 0 <= c < cols and roof[r, c])


def draw_scene(
    canvas: np.ndarray,
    cam: Camera,
    walls: np.ndarray,
    ground: np.ndarray,
    level: np.ndarray,
    roof: np.ndarray,
    z: int,
    snow: bool,
    hour: float,
) -> Walls:
    """Paint sky, ground, ceiling and opaque walls into ``canvas``; return the depth buffer."""
    rays = cam.rays()
    colors = sky_mod.sky_colors(hour, snow)
    sky_mod.paint_sky(canvas, cam.horizon, cam.proj, cam.yaw, cam.fov, colors)
    _paint_ground(canvas, cam, rays, ground, colors)
    ids, opaque, low = wall_grids(walls, level, z)
    atlas = tx.wall_atlas(snow, colors.fog, colors.light)
    hits = cast(opaque, cam.x, cam.y, rays.x, rays.y, cam.max_dist)
    _paint_walls(canvas, cam, hits, ids, atlas, low=False)
    if under_roof(roof, cam.x, cam.y):
        _paint_ceiling(canvas, cam, rays, roof, hits.dist)
    limit = np.minimum(hits.dist, cam.max_dist)
    low_hits = cast(low, cam.x, cam.y, rays.x, rays.y, limit)
    compiled = jit.compiled(_low_heights)
    if compiled is not None:
        heights = np.empty(cam.width, np.float32)
        compiled(
            low_hits.dist,
            low_hits.col,
            low_hits.row,
            ids,
            level,
            atlas.slots,
            atlas.height,
            z,
            tx.LEDGE,
            heights,
        )
        return Walls(hits.dist, low_hits, heights)
    found = np.isfinite(low_hits.dist)
    block = np.where(found, ids[np.maximum(low_hits.row, 0), np.maximum(low_hits.col, 0)], 0)
    lvl = level.astype(np.float32)[np.maximum(low_hits.row, 0), np.maximum(low_hits.col, 0)]
    heights = np.where(
        block == tx.LEDGE,
        (lvl - z) * 1.0,
        atlas.height[np.maximum(atlas.slots[block], 0)],
    ).astype(np.float32)
    return Walls(hits.dist, low_hits, heights)


class SceneMemo:
    """The last scene :func:`draw_scene` painted and what it was painted from.

    A view that has not moved since the frame before has the same sky, ground and walls: the
    pause menu fading in or out (the player cannot act), a player standing still. Then the
    scene is copied, not cast again (:meth:`draw`). The key is everything the scene reads: the
    camera, the palette, the level and the map's grids, which are held here and compared by
    identity (a grid edited in place bumps ``version``, also part of the key).
    """

    __slots__ = ("_canvas", "_found", "_grids", "_key")

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._grids: tuple[np.ndarray, ...] = ()
        self._canvas: np.ndarray | None = None
        self._found: Walls | None = None

    def draw(
        self,
        canvas: np.ndarray,
        cam: Camera,
        grids: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        version: int,
        z: int,
        snow: bool,
        hour: float,
    ) -> Walls:
        """:func:`draw_scene` of (walls, ground, level, roof) ``grids``, from the memo when
        nothing it reads has changed since the last call (the same pixels and depths)."""
        key = (cam, sky_mod.sky_colors(hour, snow), version, z, bool(snow), canvas.shape)
        kept = self._canvas
        if (
            kept is not None
            and key == self._key
            and all(a is b for a, b in zip(grids, self._grids, strict=True))
        ):
            np.copyto(canvas, kept)
            return self._found  # type: ignore[return-value]
        found = draw_scene(canvas, cam, *grids, z, snow, hour)
        self._key, self._grids = key, grids
        self._canvas, self._found = canvas.copy(), found
        return found


def draw_low_walls(
    canvas: np.ndarray,
    cam: Camera,
    found: Walls,
    walls: np.ndarray,
    level: np.ndarray,
    z: int,
    snow: bool,
    hour: float,
    sprite_depth: np.ndarray | None,
) -> None:
    """Paint fences, counters and ledges over the sprites that stand behind them."""
    if not np.isfinite(found.low.dist).any():
        return
    ids, _, _ = wall_grids(walls, level, z)
    colors = sky_mod.sky_colors(hour, snow)
    atlas = tx.wall_atlas(snow, colors.fog, colors.light)
    _paint_walls(canvas, cam, found.low, ids, atlas, True, found.low_height, sprite_depth)


# ---- compiled with numba where it is installed (jit.compiled); the same float operations
# as the numpy code above, in the same order


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
