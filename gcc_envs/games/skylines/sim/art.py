"""The map seen from the locked camera: terrain, roads, zones, buildings, services, icons.

:func:`draw_map` paints the map area of a frame from the state alone. Cell colours are
composed at cell resolution and spread to pixels in one indexing step; details (lane marks,
trees, houses, turbines, problem icons) are drawn with OpenCV where cells are big enough to
show them. Callers cache the result per ``state.version``.
"""

from __future__ import annotations

import cv2
import numpy as np

from gcc_envs.games.skylines.sim import layout, text
from gcc_envs.games.skylines.sim.state import (
    ABANDONED,
    DEAD_END,
    NO_POWER,
    NO_SEWAGE,
    NO_WATER,
    CityState,
)

GRASS = np.array((116, 158, 82), np.float32)
SAND = np.array((212, 198, 148), np.float32)
SHALLOW = np.array((92, 156, 200), np.float32)
DEEP = np.array((30, 80, 138), np.float32)
HIGHWAY = (62, 64, 70)
RAMP = (80, 82, 88)
ROAD = (100, 102, 110)
MARK = (222, 222, 210)
TREE = (46, 92, 44)
ZONE_TINT = {1: (150, 214, 116), 2: (128, 172, 236), 3: (236, 206, 112)}
ROOFS = ((196, 92, 72), (176, 122, 84), (150, 150, 164), (206, 168, 108), (166, 84, 84))
SHOP = ((76, 120, 196), (92, 140, 214), (64, 104, 170))
WORKS = ((186, 156, 88), (168, 140, 96), (200, 172, 104))

Edges = tuple[np.ndarray, np.ndarray]


def _hash(c: np.ndarray, r: np.ndarray) -> np.ndarray:
    """A fixed per-cell number in [0, 1) (texture and house colours; not randomness)."""
    h = (c.astype(np.int64) * 73856093) ^ (r.astype(np.int64) * 19349663)
    return ((h % 1009) / 1009.0).astype(np.float32)


def cell_colours(state: CityState) -> np.ndarray:
    """(ROWS, COLS, 3) float32 colours of the bare map: land, sand, water, roads, zones."""
    t = state.terrain
    r, c = np.mgrid[0 : layout.ROWS, 0 : layout.COLS]
    jitter = (_hash(c, r) - 0.5)[..., None] * 14.0
    col = GRASS + jitter + (t.wind[..., None] - 0.6) * 10.0
    col = np.where(t.shore[..., None], SAND + jitter * 0.5, col)
    d = np.clip(t.depth / 8.0, 0.0, 1.0)[..., None]
    col = np.where(t.water[..., None], SHALLOW * (1 - d) + DEEP * d, col)
    for code, tint in ZONE_TINT.items():
        m = (state.zone == code)[..., None]
        col = np.where(m, col * 0.45 + np.array(tint, np.float32) * 0.55, col)
    col = np.where(t.highway[..., None], np.array(HIGHWAY, np.float32), col)
    col = np.where(t.ramp[..., None], np.array(RAMP, np.float32), col)
    col = np.where(state.road[..., None], np.array(ROAD, np.float32), col)
    col = np.where(t.owned[..., None], col, col * 0.62)
    return np.clip(col, 0, 255)


def upsample(cells: np.ndarray, W: int, H: int) -> np.ndarray:
    """Per-cell values (ROWS, COLS, ...) spread to the map's pixels (exact cell edges)."""
    xs, ys = layout.edges(W, H)
    return np.repeat(np.repeat(cells, np.diff(ys), axis=0), np.diff(xs), axis=1)


def spread(cells: np.ndarray, img: np.ndarray, W: int, H: int) -> None:
    """Write per-cell colours (ROWS, COLS, 3) into the map area of ``img``."""
    xs, ys = layout.edges(W, H)
    img[ys[0] : ys[-1], xs[0] : xs[-1]] = upsample(cells.astype(np.uint8), W, H)


def _rect(e: Edges, c: int, r: int, inset: float = 0.0) -> tuple[int, int, int, int]:
    xs, ys = e
    x0, x1, y0, y1 = int(xs[c]), int(xs[c + 1]), int(ys[r]), int(ys[r + 1])
    dx, dy = round((x1 - x0) * inset), round((y1 - y0) * inset)
    return x0 + dx, y0 + dy, x1 - 1 - dx, y1 - 1 - dy


def _centre(e: Edges, c: float, r: float) -> tuple[int, int]:
    xs, ys = e
    fx = xs[0] + (c + 0.5) * (xs[-1] - xs[0]) / layout.COLS
    fy = ys[0] + (r + 0.5) * (ys[-1] - ys[0]) / layout.ROWS
    return int(fx), int(fy)


def cell_px(e: Edges) -> float:
    xs, ys = e
    return min((xs[-1] - xs[0]) / layout.COLS, (ys[-1] - ys[0]) / layout.ROWS)


def _links(img: np.ndarray, e: Edges, mask: np.ndarray, rgb, thick: int, dashed: bool) -> None:  # type: ignore[no-untyped-def]
    """Lines between the centres of 8-adjacent cells of ``mask``."""
    rows, cols = np.nonzero(mask)
    for r, c in zip(rows.tolist(), cols.tolist()):
        a = _centre(e, c, r)
        for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            cc, rr = c + dc, r + dr
            if 0 <= cc < layout.COLS and rr < layout.ROWS and mask[rr, cc]:
                if dc and dr and (mask[r, cc] or mask[rr, c]):
                    continue  # a corner already joined straight
                b = _centre(e, cc, rr)
                if dashed:
                    m = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
                    cv2.line(img, a, ((a[0] + m[0]) // 2, (a[1] + m[1]) // 2), rgb, thick)
                    cv2.line(img, m, ((m[0] + b[0]) // 2, (m[1] + b[1]) // 2), rgb, thick)
                else:
                    cv2.line(img, a, b, rgb, thick, cv2.LINE_AA)


def _highway(img: np.ndarray, e: Edges, state: CityState, px: float) -> None:
    t = state.terrain
    cols = np.flatnonzero(t.highway[0])
    xs, ys = e
    for c in cols.tolist():
        x = (int(xs[c]) + int(xs[c + 1])) // 2
        step = max(int(px * 1.2), 4)
        for y in range(int(ys[0]), int(ys[-1]), step):
            cv2.line(img, (x, y), (x, min(y + step // 2, int(ys[-1]) - 1)), MARK, 1)
    _links(img, e, t.ramp, MARK, 1, True)


def sign_boxes(state: CityState, W: int, H: int) -> list[tuple[str, int, int, int, int]]:
    """The ramp signs as (name, x0, y0, x1, y1) pixel boxes; none where cells are too small."""
    e = layout.edges(W, H)
    px = cell_px(e)
    if px < 8:
        return []
    t = state.terrain
    fpx = max(text.MIN_PX, int(px * 0.62))
    boxes = []
    for (c, r), name in ((t.entry, "ENTRY"), (t.exit, "EXIT")):
        x, y = _centre(e, c, r)
        w, h = text.size(name, fpx, True)
        bx, by = x - w // 2, y - int(px * 0.6) - h - 4
        boxes.append((name, bx - 3, by - 2, bx + w + 3, by + h + 2))
    return boxes


def signs(img: np.ndarray, state: CityState, W: int, H: int) -> None:
    """The ENTRY and EXIT signs of the ramps (drawn over everything on the map)."""
    for name, x0, y0, x1, y1 in sign_boxes(state, W, H):
        cv2.rectangle(img, (x0, y0), (x1, y1), (30, 120, 60), -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), (235, 235, 235), 1)
        fpx = max(text.MIN_PX, int(cell_px(layout.edges(W, H)) * 0.62))
        text.draw(img, name, x0 + 3, y0 + 2, fpx, (245, 245, 245), bold=True)


def _trees(img: np.ndarray, e: Edges, state: CityState, px: float) -> None:
    t = state.terrain
    free = t.trees & ~state.road & (state.occupied == 0) & (state.bkind == 0) & ~state.line
    rows, cols = np.nonzero(free)
    rad = max(1, int(px * 0.34))
    for r, c in zip(rows.tolist(), cols.tolist()):
        x, y = _centre(e, c, r)
        cv2.circle(img, (x, y), rad, TREE, -1)
        if rad >= 3:
            cv2.circle(img, (x - rad // 3, y - rad // 3), max(1, rad // 3), (78, 128, 62), -1)


def _buildings(img: np.ndarray, e: Edges, state: CityState, px: float) -> None:
    rows, cols = np.nonzero(state.bkind > 0)
    h = _hash(cols, rows)
    for r, c, k in zip(rows.tolist(), cols.tolist(), h.tolist()):
        kind = int(state.bkind[r, c])
        x0, y0, x1, y1 = _rect(e, c, r, 0.12)
        if state.abandoned[r, c]:
            cv2.rectangle(img, (x0, y0), (x1, y1), (118, 108, 98), -1)
            cv2.line(img, (x0, y0), (x1, y1), (70, 64, 60), 1)
            cv2.line(img, (x0, y1), (x1, y0), (70, 64, 60), 1)
            continue
        if kind == 1:
            roof = ROOFS[int(k * len(ROOFS))]
            cv2.rectangle(img, (x0, y0), (x1, y1), roof, -1)
            if px >= 8:
                ym = (y0 + y1) // 2
                dark = tuple(int(v * 0.7) for v in roof)
                cv2.line(img, (x0 + 1, ym), (x1 - 1, ym), dark, 1)
        elif kind == 2:
            cv2.rectangle(img, (x0, y0), (x1, y1), SHOP[int(k * len(SHOP))], -1)
            if px >= 8:
                q = max(1, (x1 - x0) // 4)
                cv2.rectangle(img, (x0 + q, y0 + q), (x1 - q, y1 - q), (190, 214, 240), 1)
        else:
            cv2.rectangle(img, (x0, y0), (x1, y1), WORKS[int(k * len(WORKS))], -1)
            if px >= 8:
                cv2.circle(
                    img,
                    (x1 - (x1 - x0) // 4, y0 + (y1 - y0) // 4),
                    max(1, int(px * 0.14)),
                    (96, 96, 96),
                    -1,
                )
        if px >= 6:
            cv2.rectangle(img, (x0, y0), (x1, y1), (40, 40, 44), 1)


def _services(img: np.ndarray, e: Edges, state: CityState, px: float) -> None:
    xs, ys = e
    for s in state.services.values():
        x0, y0 = int(xs[s.x]), int(ys[s.y])
        x1, y1 = int(xs[s.x + s.w]) - 1, int(ys[s.y + s.h]) - 1
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        colour = state.data.tools[s.tool].color
        if s.tool == "wind_turbine":
            cv2.circle(img, (cx, cy), max(1, int(px * 0.7)), (190, 196, 186), -1)
            arm = max(2, int(px * 0.95))
            for ang in (90.0, 210.0, 330.0):
                a = np.deg2rad(ang)
                tip = (int(cx + arm * np.cos(a)), int(cy - arm * np.sin(a)))
                cv2.line(img, (cx, cy), tip, colour, max(1, int(px * 0.16)), cv2.LINE_AA)
            cv2.circle(img, (cx, cy), max(1, int(px * 0.18)), (90, 96, 104), -1)
            continue
        cv2.rectangle(img, (x0 + 1, y0 + 1), (x1 - 1, y1 - 1), colour, -1)
        cv2.rectangle(img, (x0 + 1, y0 + 1), (x1 - 1, y1 - 1), (36, 36, 40), 1)
        if s.tool == "coal_plant":
            for fx in (0.3, 0.6):
                c = (int(x0 + fx * (x1 - x0)), int(y0 + 0.3 * (y1 - y0)))
                cv2.circle(img, c, max(1, int(px * 0.3)), (120, 110, 104), -1)
                cv2.circle(
                    img,
                    (c[0] + int(px * 0.4), c[1] - int(px * 0.4)),
                    max(1, int(px * 0.35)),
                    (214, 214, 214),
                    -1,
                )
        elif s.tool == "pumping_station":
            r = max(1, int(px * 0.35))
            cv2.circle(img, (cx, cy + r // 3), r, (245, 250, 255), -1)
            pts = np.array([[cx - r, cy], [cx + r, cy], [cx, cy - 2 * r]], np.int32)
            cv2.fillPoly(img, [pts], (245, 250, 255))
        elif s.tool == "drain_pipe":
            cv2.circle(img, (cx, cy), max(1, int(px * 0.4)), (60, 44, 30), -1)
            cv2.circle(img, (cx, cy), max(1, int(px * 0.22)), (120, 92, 60), -1)


def _power_lines(img: np.ndarray, e: Edges, state: CityState, px: float) -> None:
    _links(img, e, state.line, (60, 56, 44), max(1, int(px * 0.12)), False)
    rows, cols = np.nonzero(state.line)
    for r, c in zip(rows.tolist(), cols.tolist()):
        if (r + c) % 2 == 0:
            x, y = _centre(e, c, r)
            q = max(1, int(px * 0.16))
            cv2.rectangle(img, (x - q, y - q), (x + q, y + q), (230, 190, 60), -1)


def icon(img: np.ndarray, x: int, y: int, rad: int, problem: int) -> None:
    """A problem icon centred at (x, y): red lightning, blue drop, brown drop, orange '!', X."""
    fill = {NO_POWER: (214, 48, 40), NO_WATER: (214, 48, 40), NO_SEWAGE: (120, 80, 40)}.get(
        problem, (232, 132, 30)
    )
    if problem == ABANDONED:
        fill = (60, 60, 64)
    cv2.circle(img, (x, y), rad, fill, -1, cv2.LINE_AA)
    cv2.circle(img, (x, y), rad, (250, 250, 250), 1, cv2.LINE_AA)
    q = max(1, int(rad * 0.6))
    white = (255, 255, 255)
    if problem == NO_POWER:
        pts = np.array(
            [[x + q // 3, y - q], [x - q // 2, y + q // 6], [x + q // 4, y], [x - q // 3, y + q]],
            np.int32,
        )
        cv2.polylines(img, [pts], False, (255, 236, 80), max(1, rad // 4))
    elif problem in (NO_WATER, NO_SEWAGE):
        cv2.circle(
            img,
            (x, y + q // 3),
            max(1, q * 2 // 3),
            (120, 190, 255) if problem == NO_WATER else white,
            -1,
        )
        pts = np.array(
            [[x - q * 2 // 3, y + q // 4], [x + q * 2 // 3, y + q // 4], [x, y - q]], np.int32
        )
        cv2.fillPoly(img, [pts], (120, 190, 255) if problem == NO_WATER else white)
    elif problem == ABANDONED:
        cv2.line(img, (x - q, y - q), (x + q, y + q), white, max(1, rad // 4))
        cv2.line(img, (x - q, y + q), (x + q, y - q), white, max(1, rad // 4))
    else:
        cv2.line(img, (x, y - q), (x, y + q // 4), white, max(1, rad // 4))
        cv2.circle(img, (x, y + q * 2 // 3), max(1, rad // 6), white, -1)


#: Icon shown for a building's problems, most urgent first.
ICON_ORDER = (ABANDONED, NO_POWER, NO_WATER, NO_SEWAGE, DEAD_END)


def problem_of(flags: int) -> int:
    for p in ICON_ORDER:
        if flags & p:
            return p
    return 0


def _icons(img: np.ndarray, e: Edges, state: CityState, px: float, unpowered_services) -> None:  # type: ignore[no-untyped-def]
    rad = max(2, int(px * 0.36))
    rows, cols = np.nonzero(state.problems)
    for r, c in zip(rows.tolist(), cols.tolist()):
        p = problem_of(int(state.problems[r, c]))
        if p:
            x0, y0, x1, y1 = _rect(e, c, r)
            icon(img, x1 - rad // 2, y0 + rad // 2, rad, p)
    xs, ys = e
    for s in unpowered_services:
        icon(img, int(xs[s.x + s.w]) - rad, int(ys[s.y]) + rad, rad, NO_POWER)


def draw_map(img: np.ndarray, state: CityState, W: int, H: int, unpowered_services=()) -> None:  # type: ignore[no-untyped-def]
    """Paint the map area of ``img`` (H, W, 3) in place."""
    spread(cell_colours(state), img, W, H)
    e = layout.edges(W, H)
    px = cell_px(e)
    if px < 3:
        return
    _links(img, e, state.road, MARK, 1, True)
    _highway(img, e, state, px)
    _trees(img, e, state, px)
    _buildings(img, e, state, px)
    _power_lines(img, e, state, px)
    _services(img, e, state, px)
    if px >= 6:
        _icons(img, e, state, px, unpowered_services)
