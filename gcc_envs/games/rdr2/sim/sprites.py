"""Billboards: project world points to the screen and draw RGBA art with a depth test.

A billboard stands on the ground at ``(x, y)`` (cells), ``width_m`` x ``height_m`` metres,
always facing the camera. :func:`project` is the pure projection; :func:`draw_billboards`
sorts far to near and paints each one where it is nearer than the wall in its column,
blending it towards the fog colour with distance.
"""

from __future__ import annotations

import functools
import math
import sys
from typing import Any, NamedTuple

import numpy as np

from gcc_envs.games.rdr2.sim import jit
from gcc_envs.games.rdr2.sim import sprite_art as art
from gcc_envs.games.rdr2.sim.pixels import alpha
from gcc_envs.games.rdr2.sim.scene import Camera
from gcc_envs.games.rdr2.sim.sprite_art import ArtKey
from gcc_envs.games.rdr2.sim.state import CELL_M

#: Billboards nearer than this (cells) are not drawn (the camera is inside them).
NEAR = 0.15
#: Where the alpha byte (the 4th in memory, see :mod:`pixels`) sits in a packed word.
_ALPHA_SHIFT = 24 if sys.byteorder == "little" else 0


class Billboard(NamedTuple):  # a named tuple: some are made every frame (walkers, riders)
    x: float
    y: float
    width_m: float
    height_m: float
    #: Art key (see :func:`sprite_art.image`): RGBA, alpha > 0 where painted.
    art: ArtKey
    #: Heading (degrees) of side-view art (horses, wolves), which is painted facing right;
    #: the art is mirrored when the animal heads to the camera's left. None: never mirrored.
    yaw_deg: float | None = None


class Placement(NamedTuple):  # a named tuple: one is made per billboard per frame
    """Where a billboard lands: its box in (fractional) pixels and its depth in cells."""

    depth: float
    x0: float
    x1: float
    y0: float
    y1: float
    mirrored: bool = False


def project(cam: Camera, x: float, y: float, width_m: float, height_m: float) -> Placement | None:
    """The screen box of a billboard, or None when it is behind the camera or too near.

    >>> cam = Camera(0.0, 0.0, 0.0, 0.0, 1.0, math.radians(90), 100, 100)
    >>> p = project(cam, 5.0, 0.0, 2.0, 2.0)
    >>> round(p.depth, 3), round((p.x0 + p.x1) / 2, 3), round(p.y1, 3)
    (5.0, 50.0, 55.0)
    """
    dx, dy = x - cam.x, y - cam.y
    cos_y, sin_y = math.cos(cam.yaw), math.sin(cam.yaw)
    depth = dx * cos_y + dy * sin_y
    if depth < NEAR:
        return None
    lateral = -dx * sin_y + dy * cos_y  # to the right of the view
    k = cam.proj / (depth * CELL_M)  # pixels per metre at this depth
    cx = cam.width / 2.0 + cam.proj * lateral / depth
    half = width_m * k / 2.0
    bottom = cam.horizon + cam.eye_m * k
    top = bottom - height_m * k
    return Placement(float(depth), cx - half, cx + half, top, bottom)


def _draw_one(
    canvas: np.ndarray,
    bb: Billboard,
    p: Placement,
    depth: np.ndarray,
    px_depth: np.ndarray | None,
    fog: tuple[int, int, int],
    fog_m: float,
    light: float,
) -> None:
    h, w = canvas.shape[:2]
    c0, c1 = max(0, math.ceil(p.x0 - 0.5)), min(w, math.ceil(p.x1 - 0.5))
    r0, r1 = max(0, math.ceil(p.y0 - 0.5)), min(h, math.ceil(p.y1 - 0.5))
    if c0 >= c1 or r0 >= r1:
        return
    fog_f = float(1.0 - np.exp(-p.depth * CELL_M / fog_m)) ** 1.2
    fog_step = round(fog_f * (art.FOG_STEPS - 1))
    compiled = jit.compiled(_billboard)
    if compiled is not None:
        compiled(
            canvas,
            art.fogged(bb.art, fog_step, fog, light),
            c0,
            c1,
            r0,
            r1,
            p.x0,
            p.x1,
            p.y0,
            p.y1,
            p.depth,
            p.mirrored,
            depth,
            _no_depth() if px_depth is None else px_depth,
            px_depth is not None,
            _ALPHA_SHIFT,
        )
        return
    visible = depth[c0:c1] > p.depth
    seen = np.flatnonzero(visible)
    if len(seen) == 0:
        return
    c0, c1, visible = c0 + seen[0], c0 + seen[-1] + 1, visible[seen[0] : seen[-1] + 1]
    img = art.fogged(bb.art, fog_step, fog, light)
    ih, iw = img.shape[:2]
    sc = ((np.arange(c0, c1) + 0.5 - p.x0) / (p.x1 - p.x0) * iw).astype(np.int32)
    if p.mirrored:
        sc = iw - 1 - sc
    sr = ((np.arange(r0, r1) + 0.5 - p.y0) / (p.y1 - p.y0) * ih).astype(np.int32)
    patch = img[np.clip(sr, 0, ih - 1)[:, None], np.clip(sc, 0, iw - 1)[None, :]]
    mask = (alpha(patch) > 0) & visible[None, :]
    np.copyto(canvas[r0:r1, c0:c1], patch, where=mask)
    if px_depth is not None:
        region = px_depth[r0:r1, c0:c1]
        region[mask] = p.depth


@functools.cache
def _no_depth() -> np.ndarray:
    """The compiled kernel's stand-in for a missing pixel depth buffer (never touched; numba
    takes no read-only array where the kernel may write)."""
    return np.zeros((1, 1), np.float32)


class FixedBoards(NamedTuple):
    """Billboards that stand still, as arrays for one compiled placement pass: the tree cells
    (``billboards.tree_cells``) or the props (``billboards.prop_boards``), with the near test
    ``tree_billboards`` makes: those within ``max_cells`` of cell position (``x``, ``y``) are
    drawn (inf for props). Their art is never mirrored (none has a heading)."""

    cx: np.ndarray
    cy: np.ndarray
    width_m: np.ndarray
    height_m: np.ndarray
    boards: tuple[Billboard, ...]
    x: float
    y: float
    max_cells: float

    def near(self) -> np.ndarray:
        """Indices of the boards within ``max_cells`` of (``x``, ``y``), in order."""
        return np.flatnonzero(
            (self.cx - self.x) ** 2 + (self.cy - self.y) ** 2 <= self.max_cells**2
        )


def draw_billboards(
    canvas: np.ndarray,
    cam: Camera,
    boards: list[Billboard],
    depth: np.ndarray,
    fog: tuple[int, int, int],
    px_depth: np.ndarray | None = None,
    light: float = 1.0,
    trees: FixedBoards | None = None,
    props: FixedBoards | None = None,
) -> list[tuple[Billboard, Placement]]:
    """Draw ``trees``, ``boards`` and ``props`` (those given) into a packed canvas far to near,
    where nearer than ``depth`` (cells); boards at one depth are drawn in that order.

    ``px_depth`` (H, W), when given, receives the depth of every pixel a billboard covers, so
    low walls drawn afterwards can stay behind nearer billboards. Returns what was placed
    within the view.
    """
    placed: list[tuple[Billboard, Placement]] = []
    # project()'s arithmetic, with the camera's terms taken once for every board
    cos_y, sin_y = math.cos(cam.yaw), math.sin(cam.yaw)
    cx0, cy0, proj, max_dist = cam.x, cam.y, cam.proj, cam.max_dist
    mid, horizon, eye = cam.width / 2.0, cam.horizon, cam.eye_m
    h, w = canvas.shape[:2]
    ceil = math.ceil
    place = jit.compiled(_place_trees)
    first: list[Billboard] = []  # without numba the fixed boards go through the loop below
    last: list[Billboard] = []
    later: list[tuple[Billboard, Placement]] = []
    if trees is not None and trees.boards:
        if place is None:
            first = [trees.boards[i] for i in trees.near().tolist()]
        else:  # the same tests compiled: only the boards in view come back
            placed = _placed(place, trees, cam, cos_y, sin_y, mid, w, h)
    if props is not None and props.boards:
        if place is None:
            last = [props.boards[i] for i in props.near().tolist()]
        else:
            later = _placed(place, props, cam, cos_y, sin_y, mid, w, h)
    if first or last:
        boards = first + list(boards) + last
    for bb in boards:
        dx, dy = bb.x - cx0, bb.y - cy0
        d = dx * cos_y + dy * sin_y
        if d < NEAR or not d < max_dist:
            continue
        lateral = -dx * sin_y + dy * cos_y
        k = proj / (d * CELL_M)
        cx = mid + proj * lateral / d
        half = bb.width_m * k / 2.0
        if max(0, ceil(cx - half - 0.5)) >= min(w, ceil(cx + half - 0.5)):
            continue  # left or right of the view: _draw_one's column range is empty
        bottom = horizon + eye * k
        top = bottom - bb.height_m * k
        if max(0, ceil(top - 0.5)) >= min(h, ceil(bottom - 0.5)):
            continue  # above or below the view (the view pitched far up or down): no rows
        mirrored = bb.yaw_deg is not None and math.sin(math.radians(bb.yaw_deg) - cam.yaw) < 0
        p = Placement(d, cx - half, cx + half, top, bottom, mirrored)
        placed.append((bb, p))
    placed += later  # (after the loop's: the order boards at one depth are drawn in)
    placed.sort(key=lambda bp: -bp[1].depth)
    for bb, p in placed:
        _draw_one(canvas, bb, p, depth, px_depth, fog, cam.fog_m, light)
    return placed


def _placed(
    place: Any,
    fixed: FixedBoards,
    cam: Camera,
    cos_y: float,
    sin_y: float,
    mid: float,
    w: int,
    h: int,
) -> list[tuple[Billboard, Placement]]:
    """The placement loop of :func:`draw_billboards` compiled (``place``: the ``place_trees``
    kernel) over ``fixed``: the boards in view and where they land, in order."""
    n_all = len(fixed.boards)
    idx = np.empty(n_all, np.int64)
    out = np.empty((5, n_all))
    n = place(
        fixed.cx, fixed.cy, fixed.x, fixed.y, fixed.max_cells**2, cos_y, sin_y,
        cam.x, cam.y, cam.proj, cam.max_dist, mid, cam.horizon, cam.eye_m,
        fixed.width_m, fixed.height_m, w, h, NEAR, CELL_M, idx, out,
    )  # fmt: skip
    boards = fixed.boards
    return [
        (boards[i], Placement(*out[:, j].tolist(), False)) for j, i in enumerate(idx[:n].tolist())
    ]


# ---- compiled with numba where it is installed (jit.compiled); the same float operations
# as the numpy code above, in the same order


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
