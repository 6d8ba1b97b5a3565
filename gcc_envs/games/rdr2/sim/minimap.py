"""The round minimap at the bottom left: map turned with the view, red route, coloured dots.

The map is sampled per minimap pixel from the ground and wall grids (one gather), rotated so
the player's heading points up; the player's arrow sits at the centre. Allies are blue dots,
enemies and wolves red, the objective (the route's end) yellow; off-map dots stick to the rim.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim import jit, text
from gcc_envs.games.rdr2.sim.state import BLOCKS, CELL_M, GROUNDS

ROUTE_RED = (214, 24, 24)
ALLY_BLUE = (60, 140, 255)
ENEMY_RED = (236, 40, 32)
OBJECTIVE_YELLOW = (255, 214, 40)
HORSE_WHITE = (236, 236, 236)
#: The player's own horse when not ridden (RDR2 shows it on the minimap).
OWN_HORSE = (250, 140, 30)
RIM = (24, 20, 16)
WHITE = (255, 255, 255)
#: Metres from the minimap's centre to its rim, on foot and mounted.
VIEW_FOOT_M = 34.0
VIEW_MOUNTED_M = 48.0
ALLIES = frozenset({"dutch", "micah", "javier", "john"})
HOSTILE_KINDS = frozenset({"enemy", "wolf"})

#: Minimap colours of ground types and wall blocks (muted, paper-like).
GROUND_COLORS: dict[int, tuple[int, int, int]] = {
    GROUNDS["grass"]: (124, 132, 96),
    GROUNDS["dirt"]: (150, 134, 104),
    GROUNDS["snow"]: (222, 224, 226),
    GROUNDS["floor"]: (140, 112, 84),
    GROUNDS["road"]: (196, 176, 136),
    GROUNDS["water"]: (96, 128, 150),
    GROUNDS["ice"]: (190, 206, 216),
}
WALL_COLOR = (70, 58, 48)
WALL_COLORS: dict[int, tuple[int, int, int]] = {
    BLOCKS["rock"]: (104, 102, 100),
    BLOCKS["tree"]: (62, 86, 60),
    BLOCKS["fence"]: (112, 88, 64),
}


@dataclass(frozen=True)
class MapBox:
    """Minimap placement in a frame: centre and radius in pixels, metres per pixel."""

    cx: int
    cy: int
    r: int
    m_per_px: float


@lru_cache(maxsize=64)  # asked every frame with the same few sizes
def box(height: int, width: int, view_m: float | None = None) -> MapBox:
    """Where the minimap lies in a frame of this size (radius ~ 13 % of the height), showing
    ``view_m`` metres from centre to rim (default: the on-foot view)."""
    view_m = VIEW_FOOT_M if view_m is None else view_m
    s = min(height / 720.0, width / 1280.0)
    r = max(6, round(92 * s))
    margin = max(2, round(26 * s))
    return MapBox(margin + r, height - margin - r, r, view_m / r)


@lru_cache(maxsize=16)
def _disc(r: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pixel offsets (right, up) of a (2r+1)^2 square and the disc / rim masks."""
    d = np.arange(-r, r + 1, dtype=np.float32)
    right = np.broadcast_to(d[None, :], (2 * r + 1, 2 * r + 1))
    up = np.broadcast_to(-d[:, None], (2 * r + 1, 2 * r + 1))
    rr = np.sqrt(right**2 + up**2)
    inside = rr <= r
    rim = inside & (rr > r - max(2.0, r / 30.0))
    return np.stack([right, up]), inside, rim


@lru_cache(maxsize=4)
def _palette() -> tuple[np.ndarray, np.ndarray]:
    ground = np.zeros((256, 3), np.uint8)
    for gid, c in GROUND_COLORS.items():
        ground[gid] = c
    walls = np.zeros((256, 3), np.uint8)
    walls[:] = WALL_COLOR
    for bid, c in WALL_COLORS.items():
        walls[bid] = c
    return ground, walls


def to_map(
    b: MapBox, px_m: float, py_m: float, yaw_deg: float, x_m: np.ndarray, y_m: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Minimap pixel coords (relative to the box's top-left) of world points (metres)."""
    yaw = math.radians(yaw_deg)
    dx, dy = np.asarray(x_m, np.float64) - px_m, np.asarray(y_m, np.float64) - py_m
    fwd = dx * math.cos(yaw) + dy * math.sin(yaw)
    right = -dx * math.sin(yaw) + dy * math.cos(yaw)
    return b.r + right / b.m_per_px, b.r - fwd / b.m_per_px


def _clamp_rim(b: MapBox, u: float, v: float) -> tuple[float, float]:
    du, dv = u - b.r, v - b.r
    d = math.hypot(du, dv)
    lim = b.r - max(4.0, b.r * 0.08)
    if d > lim:
        du, dv = du * lim / d, dv * lim / d
    return b.r + du, b.r + dv


class MinimapMemo:
    """The last minimap disc drawn (map, dots, route, arrow) and what it was drawn from.

    The disc reads only the player's pose, the horses, the NPCs, the route and the map: a
    frame in which none of them moved (the pause menu fading, a player standing among still
    companions) blends the same disc again. The key holds those values and the map's grids
    (compared by identity, with ``map.version`` for edits in place)."""

    __slots__ = ("_grids", "_key", "_patch")

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._grids: tuple[np.ndarray, ...] = ()
        self._patch: np.ndarray | None = None

    def patch(self, state: Any, b: MapBox) -> np.ndarray:
        """:func:`disc` of ``state`` (the memo's own array: blend it, do not draw on it)."""
        key, m = _inputs(state, b), state.map
        grids = (m.walls, m.ground)
        if (
            self._patch is None
            or key != self._key
            or not all(a is g for a, g in zip(grids, self._grids, strict=True))
        ):
            self._key, self._grids, self._patch = key, grids, disc(state, b)
        return self._patch


def _inputs(state: Any, b: MapBox) -> tuple[Any, ...]:
    """Everything :func:`disc` reads besides the map's grids."""
    p = state.player
    route = getattr(state, "route", None)
    return (
        b, p.x, p.y, p.yaw_deg, p.mounted, state.map.version,
        tuple(route) if route else None,
        tuple((h.alive, h.owner, h.id, h.x, h.y) for h in state.horses.values()),
        tuple(
            (n.alive, getattr(n, "state", ""), n.kind, getattr(n, "hostile", False), n.x, n.y)
            for n in state.npcs.values()
        ),
    )  # fmt: skip


def draw(frame: np.ndarray, state: Any, memo: MinimapMemo | None = None) -> MapBox:
    """Paint the minimap of ``state`` into ``frame``; returns where it went. With ``memo`` a
    disc that shows nothing new is not drawn again (the same pixels)."""
    h, w = frame.shape[:2]
    b = box(h, w, VIEW_MOUNTED_M if state.player.mounted else VIEW_FOOT_M)
    patch = disc(state, b) if memo is None else memo.patch(state, b)
    _, inside, rim = _disc(b.r)
    region = frame[b.cy - b.r : b.cy + b.r + 1, b.cx - b.r : b.cx + b.r + 1]
    blend = jit.compiled(_minimap_blend)
    if blend is not None and region.shape == patch.shape:
        blend(region, patch, inside, rim, *RIM)
    else:
        shaded = (region.astype(np.uint16) * 3 + patch.astype(np.uint16) * 13) // 16
        np.copyto(region, shaded.astype(np.uint8), where=inside[..., None])
        region[rim] = RIM
    s = b.r / 92.0
    north_px = max(1, round(15 * s))
    if north_px >= text.MIN_PX:  # (smaller text is not drawn)
        nu, nv = _clamp_rim(b, *_at(state, b)(float(state.player.x), float(state.player.y - 1e6)))
        text.draw(frame, "N", b.cx - b.r + nu, b.cy - b.r + nv, north_px, WHITE, "mm", bold=True)
    return b


def _at(state: Any, b: MapBox) -> Callable[[float, float], tuple[float, float]]:
    """:func:`to_map` of one point, as float64 does it."""
    p = state.player
    px, py = p.x, p.y
    yaw = math.radians(p.yaw_deg)
    cos_y, sin_y = math.cos(yaw), math.sin(yaw)
    r, k = b.r, b.m_per_px

    def at(x: float, y: float) -> tuple[float, float]:
        dx, dy = x - px, y - py
        return r + (-dx * sin_y + dy * cos_y) / k, r - (dx * cos_y + dy * sin_y) / k

    return at


def disc(state: Any, b: MapBox) -> np.ndarray:
    """The minimap's square at ``b`` before it is blended over the view: the map turned with
    the view, the horse, the route, the dots and the player's arrow ((2r+1, 2r+1, 3) uint8)."""
    p = state.player
    offs, _, _ = _disc(b.r)
    patch = _map_patch(state, b, offs)
    s = b.r / 92.0
    at = _at(state, b)
    for h in state.horses.values():  # the player's own horse, when not under the player
        if h.alive and h.owner == "player" and h.id != p.mounted:
            u, v = at(float(h.x), float(h.y))
            if math.hypot(u - b.r, v - b.r) <= b.r:
                _dot(patch, u, v, max(2, round(5 * s)), OWN_HORSE)
    route = getattr(state, "route", None)  # drawn over the horse's dot
    if route:
        line = [at(float(pt[0]), float(pt[1])) for pt in route]
        cv2.polylines(
            patch,
            [
                np.array(
                    [(b.r * 16, b.r * 16)] + [(round(u * 16), round(v * 16)) for u, v in line],
                    np.int32,
                )
            ],
            False,
            ROUTE_RED,
            max(2, round(4 * s)),
            cv2.LINE_AA,
            4,
        )
        gu, gv = _clamp_rim(b, *line[-1])
        _dot(patch, gu, gv, max(3, round(6 * s)), OBJECTIVE_YELLOW)
    for npc in state.npcs.values():
        if not npc.alive or getattr(npc, "state", "") == "carried":
            continue
        if npc.kind in ALLIES:
            color = ALLY_BLUE
        elif npc.kind in HOSTILE_KINDS or getattr(npc, "hostile", False):
            color = ENEMY_RED
        else:
            continue
        u, v = at(float(npc.x), float(npc.y))
        if math.hypot(u - b.r, v - b.r) <= b.r:
            _dot(patch, u, v, max(2, round(5 * s)), color)
    _draw_arrow(patch, b.r, s)
    return patch


def _map_patch(state: Any, b: MapBox, offs: np.ndarray) -> np.ndarray:
    """The map under the disc, turned with the view: (2r+1, 2r+1, 3) uint8."""
    p = state.player
    yaw = math.radians(p.yaw_deg)
    fx, fy = math.cos(yaw), math.sin(yaw)
    walls, ground = state.map.walls, state.map.ground
    gpal, wpal = _palette()
    compiled = jit.compiled(_minimap_patch)
    if compiled is not None and type(p.x) is float and type(p.y) is float:
        # float32 throughout, as numpy takes Python floats into float32 arrays
        patch = np.empty((*offs.shape[1:], 3), np.uint8)
        compiled(
            patch,
            offs,
            float(b.m_per_px),
            p.x,
            p.y,
            fx,
            fy,
            float(CELL_M),
            walls,
            ground,
            gpal,
            wpal,
        )
        return patch
    right, up = offs[0] * b.m_per_px, offs[1] * b.m_per_px
    wx = (p.x + up * fx - right * fy) / CELL_M
    wy = (p.y + up * fy + right * fx) / CELL_M
    rows, cols = walls.shape
    ci = np.clip(np.floor(wx).astype(np.int32), 0, cols - 1)
    ri = np.clip(np.floor(wy).astype(np.int32), 0, rows - 1)
    wall = walls[ri, ci].astype(np.int32)
    patch = np.where((wall != 0)[..., None], wpal[wall], gpal[ground[ri, ci].astype(np.int32)])
    outside = (wx < 0) | (wy < 0) | (wx >= cols) | (wy >= rows)
    patch[outside] = (40, 36, 32)
    return np.ascontiguousarray(patch)


def _dot(img: np.ndarray, u: float, v: float, r: int, color: tuple[int, int, int]) -> None:
    x, y = round(u), round(v)
    cv2.circle(img, (x, y), r + 1, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.circle(img, (x, y), r, color, -1, cv2.LINE_AA)


def _draw_arrow(img: np.ndarray, r: int, s: float) -> None:
    pts = _arrow_points(r, s)
    cv2.fillPoly(img, [pts], (250, 250, 250), cv2.LINE_AA, 4)
    cv2.polylines(img, [pts], True, (20, 20, 20), 1, cv2.LINE_AA, 4)


@lru_cache(maxsize=16)
def _arrow_points(r: int, s: float) -> np.ndarray:
    """The player's arrow at the disc's centre, in 1/16 pixels (read-only)."""
    k = max(4.0, 11.0 * s)
    pts = np.array(
        [[r, r - k], [r + 0.7 * k, r + 0.8 * k], [r, r + 0.4 * k], [r - 0.7 * k, r + 0.8 * k]]
    )
    out = np.round(pts * 16).astype(np.int32)
    out.setflags(write=False)
    return out


# ---- compiled with numba where it is installed (jit.compiled); the same float operations
# as the numpy code above, in the same order


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
