"""Info views over the map: electricity, water & sewage, wind, and the zoning grid.

As in the real game, opening the Electricity menu shows the electricity view, Water & Sewage
the water view (pipes are underground and only visible there), the wind turbine tool the wind
view and the Zoning menu the zone grid along the roads; the top bar's buttons show a view on
their own. The map is greyed and coloured by what the view measures; every view has a legend
with its figures.
"""

from __future__ import annotations

import cv2
import numpy as np

from gcc_envs.games.skylines.sim import art, layout, networks, text
from gcc_envs.games.skylines.sim.state import CityState

VIEW_NAMES = ("electricity", "water", "wind", "zoning")
#: The wind view's colour scale, weak (blue) to strong (yellow), as its legend shows it.
WIND_COLOURS = np.array([(40, 70, 200), (60, 190, 210), (120, 220, 90), (250, 230, 60)], np.float32)
#: The wind view's opacity over land and over water.
WIND_ALPHA = {"land": 0.7, "water": 0.3}


def wind_colour(wind: np.ndarray) -> np.ndarray:
    """The wind view's colour (..., 3) float32 of wind strengths in [0.3, 1]."""
    w = ((np.asarray(wind, np.float32) - 0.3) / 0.7)[..., None]
    k = np.clip(w * 3, 0, 2.999)
    i = k.astype(np.int32)[..., 0]
    f = k - i[..., None]
    return WIND_COLOURS[i] * (1 - f) + WIND_COLOURS[i + 1] * f


def active_view(state: CityState) -> str | None:
    """The view the screen shows now."""
    ui = state.ui
    if ui.view is not None:
        return ui.view
    if ui.tool == "wind_turbine":
        return "wind"
    if ui.menu in ("electricity", "water", "zoning"):
        return ui.menu
    return None


def _grey(region: np.ndarray) -> None:
    g = cv2.cvtColor(region, cv2.COLOR_RGB2GRAY)
    g = (g.astype(np.uint16) * 140 // 255 + 60).astype(np.uint8)
    region[:] = g[..., None]


def _tint(region: np.ndarray, cells_rgba: np.ndarray, W: int, H: int) -> None:
    """Blend per-cell RGBA (alpha 0..1) into the map region (integer arithmetic)."""
    rgb = art.upsample(cells_rgba[..., :3].astype(np.int16), W, H)
    a = art.upsample((cells_rgba[..., 3:4] * 256).astype(np.int16), W, H)
    base = region.astype(np.int16)
    region[:] = (base + (((rgb - base) * a) >> 8)).astype(np.uint8)


def _paint(rgba: np.ndarray, mask: np.ndarray, rgb: tuple[int, int, int], alpha: float) -> None:
    rgba[mask] = (*rgb, alpha)


def draw_view(img: np.ndarray, state: CityState, view: str, W: int, H: int) -> None:
    """Apply ``view`` to the map area of ``img`` in place."""
    cols, rows, y0, y1 = layout.pixel_cells(W, H)
    region = img[y0:y1, : cols.size]
    rgba = np.zeros((layout.ROWS, layout.COLS, 4), np.float32)
    e = layout.edges(W, H)
    px = art.cell_px(e)
    t = state.terrain
    if view == "zoning":
        rd = networks.roads(state)
        free = rd.zoneable & (state.zone == 0)
        _paint(rgba, free, (255, 255, 255), 0.28)
        _tint(region, rgba, W, H)
        if px >= 6:
            xs, ys = e
            for r, c in zip(*np.nonzero(rd.zoneable)):
                cv2.rectangle(
                    img,
                    (int(xs[c]), int(ys[r])),
                    (int(xs[c + 1]) - 1, int(ys[r + 1]) - 1),
                    (236, 240, 236),
                    1,
                )
        return
    _grey(region)
    if view == "wind":
        rgba[..., :3] = wind_colour(t.wind)  # weak (blue) to strong (yellow) wind
        rgba[..., 3] = np.where(t.water, WIND_ALPHA["water"], WIND_ALPHA["land"])
        _tint(region, rgba, W, H)
    elif view == "electricity":
        pw = networks.power(state)
        aura = networks.dilate(pw.reached & pw.conducts, state.data.growth.power_gap + 1)
        _paint(rgba, aura & ~state.road, (250, 226, 110), 0.22)
        consumers = (state.bkind > 0) & (state.abandoned == 0) | (state.occupied > 0)
        _paint(rgba, consumers & pw.powered, (240, 204, 64), 0.62)
        _paint(rgba, consumers & ~pw.powered, (228, 58, 48), 0.85)
        _paint(rgba, state.line, (255, 140, 20), 0.95)
        for s in state.services.values():
            if state.data.tools[s.tool].power_mw:
                rgba[s.cells()] = (255, 255, 255, 0.85)
        _tint(region, rgba, W, H)
    elif view == "water":
        wt = networks.water(state)
        _paint(rgba, wt.covered & ~t.water, (70, 160, 250), 0.42)
        _paint(rgba, wt.no_sewage & ~t.water, (196, 128, 70), 0.42)
        lived = (state.bkind > 0) & (state.abandoned == 0)
        _paint(rgba, lived & wt.served, (40, 110, 236), 0.85)
        _paint(rgba, lived & ~wt.served, (228, 58, 48), 0.85)
        for s in state.services.values():
            if s.tool == "pumping_station":
                rgba[s.cells()] = (60, 140, 255, 0.9)
            elif s.tool == "drain_pipe":
                rgba[s.cells()] = (150, 100, 60, 0.9)
        _tint(region, rgba, W, H)
        if px >= 3:
            working = np.isin(wt.label, np.array(wt.working, np.int32)) & state.pipe
            thick = max(1, int(px * 0.28))
            art._links(img, e, working, (20, 90, 220), thick, False)
            art._links(img, e, state.pipe & ~working, (150, 152, 160), thick, False)
    legend(img, state, view, W, H)


def legend_lines(state: CityState, view: str) -> list[tuple[str, tuple[int, int, int]]]:
    """The legend of ``view``: (text, swatch colour) rows."""
    if view == "electricity":
        pw = networks.power(state)
        return [
            ("Electricity", (250, 226, 110)),
            (f"Production {pw.supply:.1f} MW", (255, 255, 255)),
            (f"Consumption {pw.demand:.1f} MW", (240, 204, 64)),
            ("Power lines", (255, 140, 20)),
            ("No electricity", (228, 58, 48)),
        ]
    if view == "water":
        wt = networks.water(state)
        return [
            ("Water & Sewage", (70, 160, 250)),
            (f"Supply {wt.supply:,.0f} m³/week", (40, 110, 236)),
            (f"Use {wt.demand:,.0f} m³/week", (70, 160, 250)),
            ("No water", (228, 58, 48)),
            ("Pipes not connected", (150, 152, 160)),
            ("No drain: sewage backs up", (196, 128, 70)),
        ]
    if view == "wind":
        return [
            ("Wind", (250, 250, 255)),
            ("Strong: up to 8 MW a turbine", (250, 230, 60)),
            ("Medium", (120, 220, 90)),
            ("Weak: 30% of that", (40, 70, 200)),
        ]
    return []


def legend_box(state: CityState, view: str, W: int, H: int) -> tuple[int, int, int, int] | None:
    """The legend's (x0, y0, x1, y1) box: in the map's top corner away from the highway ramps
    (so their signs stay readable); None when the view has none or the frame is too small."""
    rows = legend_lines(state, view)
    px = int(13 * H / layout.DESIGN[1])
    if px < text.MIN_PX or not rows:
        return None
    line = int(px * 1.45)
    width = max(text.size(s, px, i == 0)[0] for i, (s, _) in enumerate(rows)) + int(px * 2.6)
    margin = int(10 * W / layout.DESIGN[0])
    ramps_left = state.terrain.entry[0] < layout.COLS // 2
    x0 = W - margin - width if ramps_left else margin
    y0 = int((layout.MAP_Y0 + 8) * H / layout.DESIGN[1])
    return x0, y0, x0 + width, y0 + line * len(rows) + px // 2


def legend(img: np.ndarray, state: CityState, view: str, W: int, H: int) -> None:
    box = legend_box(state, view, W, H)
    if box is None:
        return
    x0, y0, x1, y1 = box
    px = int(13 * H / layout.DESIGN[1])
    line = int(px * 1.45)
    cv2.rectangle(img, (x0, y0), (x1, y1), (24, 30, 40), -1)
    cv2.rectangle(img, (x0, y0), (x1, y1), (200, 206, 214), 1)
    for i, (s, rgb) in enumerate(legend_lines(state, view)):
        y = y0 + px // 3 + i * line
        if i:
            cv2.rectangle(img, (x0 + px // 2, y + 2), (x0 + px // 2 + px - 2, y + px - 1), rgb, -1)
        text.draw(
            img, s, x0 + (px // 2 if i == 0 else int(px * 1.9)), y, px, (240, 240, 240), bold=i == 0
        )
