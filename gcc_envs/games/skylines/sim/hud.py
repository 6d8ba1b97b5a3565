"""The chrome around the map: info bar, menu panel, toolbar, construction info, tooltips.

All drawn at the frame's size from the 1280 × 720 design of :mod:`.layout`. The construction
info box takes a background colour by the preview's status (:data:`STATUS_BG`: none, valid,
refused), which the skills read to tell whether anything is previewed.
"""

from __future__ import annotations

import cv2
import numpy as np

from gcc_envs.games.skylines.sim import layout, text
from gcc_envs.games.skylines.sim.state import CityState, Preview

BAR_BG = (30, 40, 54)
PANEL_BG = (40, 50, 64)
BUTTON_BG = (54, 64, 80)
BUTTON_ON = (52, 128, 214)
CARD_BG = (62, 74, 92)
CARD_ON = (92, 108, 132)
GOLD = (250, 208, 80)
WHITE = (238, 240, 244)
MUTED = (170, 180, 196)
#: Construction-info background by status: nothing previewed, valid, refused.
STATUS_BG = {"none": (46, 56, 70), "ok": (30, 96, 54), "bad": (120, 36, 34)}
LAMP = {"none": (120, 124, 132), "ok": (70, 220, 110), "bad": (240, 70, 56)}


class Pen:
    """Design-to-pixel scaling for one frame size."""

    def __init__(self, img: np.ndarray) -> None:
        self.img = img
        self.H, self.W = img.shape[:2]
        self.sx, self.sy = self.W / layout.DESIGN[0], self.H / layout.DESIGN[1]

    def rect(self, r: layout.Rect, rgb, border=None, thick: int = 1) -> None:  # type: ignore[no-untyped-def]
        x0, y0, x1, y1 = layout.scale(r, self.W, self.H)
        cv2.rectangle(self.img, (x0, y0), (x1 - 1, y1 - 1), rgb, -1)
        if border is not None:
            cv2.rectangle(self.img, (x0, y0), (x1 - 1, y1 - 1), border, thick)

    def text(
        self, s: str, x: float, y: float, size: float, rgb, bold=False, anchor="lt", width=None
    ) -> int:  # type: ignore[no-untyped-def]
        px = int(size * self.sy)
        if width is not None:
            px = text.fit(s, px, width * self.sx, bold)
        return text.draw(self.img, s, x * self.sx, y * self.sy, px, rgb, bold, anchor)[0]

    def pt(self, x: float, y: float) -> tuple[int, int]:
        return (int(x * self.sx), int(y * self.sy))

    def r(self, v: float) -> int:
        return max(1, int(v * min(self.sx, self.sy)))


# ------------------------------------------------------------------ top bar
def top_bar(img: np.ndarray, state: CityState) -> None:
    p = Pen(img)
    p.rect((0, 0, layout.DESIGN[0], layout.TOP_H), BAR_BG)
    p.text(f"₡{state.budget:,.0f}", 14, 9, 21, GOLD, bold=True)
    net = state.income - state.expenses
    sign = "+" if net >= 0 else "-"
    p.text(
        f"{sign}₡{abs(net):,.0f}/week", 160, 13, 15, (120, 220, 120) if net >= 0 else (240, 110, 90)
    )
    p.text(f"Population {state.population:,}", 318, 11, 18, WHITE, bold=True)
    p.text(f"Week {state.week}", 530, 13, 15, MUTED)
    if state.running:
        p.text(f"Running x{state.speed}", 616, 13, 15, (120, 220, 120), bold=True)
    else:
        p.text("PAUSED", 616, 13, 15, (250, 170, 70), bold=True)
    # RCI demand meter
    p.text("Demand", 716, 13, 14, MUTED)
    for i, (letter, rgb, d) in enumerate(
        zip("RCI", ((96, 200, 84), (72, 140, 236), (236, 190, 50)), state.demand)
    ):
        x = 784 + i * 64
        p.text(letter, x, 12, 15, rgb, bold=True)
        p.rect((x + 14, 14, x + 56, 28), (20, 24, 30), (90, 100, 116))
        p.rect((x + 15, 15, x + 15 + 40 * d, 27), rgb)
    for name in layout.VIEWS:
        on = state.ui.view == name
        p.rect(layout.view_rect(name), BUTTON_ON if on else BUTTON_BG, (110, 122, 140))
        x0, y0, x1, y1 = layout.view_rect(name)
        label = "Electricity" if name == "electricity" else "Water"
        p.text(label, (x0 + x1) / 2, (y0 + y1) / 2, 14, WHITE, anchor="cm")


# ------------------------------------------------------------------ toolbar icons
def _icon(p: Pen, name: str, cx: float, cy: float, on: bool, running: bool) -> None:
    img = p.img
    s = 13.0
    c = p.pt(cx, cy)
    if name == "roads":
        cv2.rectangle(
            img, p.pt(cx - s, cy - s * 0.55), p.pt(cx + s, cy + s * 0.55), (104, 106, 114), -1
        )
        for k in (-0.6, 0.0, 0.6):
            cv2.line(
                img, p.pt(cx + k * s - 3, cy), p.pt(cx + k * s + 3, cy), (236, 236, 220), p.r(2)
            )
    elif name == "zoning":
        for k, rgb in enumerate(((96, 200, 84), (72, 140, 236), (236, 190, 50))):
            x = cx - s + k * s * 0.72
            cv2.rectangle(img, p.pt(x, cy - s * 0.6), p.pt(x + s * 0.6, cy + s * 0.6), rgb, -1)
    elif name == "electricity":
        pts = [(cx + 3, cy - s), (cx - 6, cy + 1), (cx + 1, cy + 1), (cx - 3, cy + s)]
        cv2.polylines(
            img, [np.array([p.pt(*q) for q in pts], np.int32)], False, (252, 214, 60), p.r(3)
        )
    elif name == "water":
        cv2.circle(img, p.pt(cx, cy + 3), p.r(s * 0.6), (90, 170, 250), -1)
        tri = np.array(
            [p.pt(cx - s * 0.6, cy + 2), p.pt(cx + s * 0.6, cy + 2), p.pt(cx, cy - s)], np.int32
        )
        cv2.fillPoly(img, [tri], (90, 170, 250))
    elif name == "bulldozer":
        cv2.rectangle(
            img, p.pt(cx - s, cy - 2), p.pt(cx + s * 0.5, cy + s * 0.6), (230, 150, 40), -1
        )
        cv2.rectangle(
            img,
            p.pt(cx + s * 0.6, cy - s * 0.7),
            p.pt(cx + s * 0.9, cy + s * 0.7),
            (200, 200, 200),
            -1,
        )
    elif name == "play":
        if running:
            for dx in (-5, 3):
                cv2.rectangle(
                    img, p.pt(cx + dx, cy - s * 0.7), p.pt(cx + dx + 4, cy + s * 0.7), WHITE, -1
                )
        else:
            tri = np.array(
                [p.pt(cx - 6, cy - s * 0.75), p.pt(cx - 6, cy + s * 0.75), p.pt(cx + 9, cy)],
                np.int32,
            )
            cv2.fillPoly(img, [tri], WHITE)
    del c, on


def toolbar(img: np.ndarray, state: CityState) -> None:
    p = Pen(img)
    p.rect((0, layout.BAR_Y0, layout.DESIGN[0], layout.BAR_Y1), BAR_BG)
    for name in (*layout.BUTTONS, "play"):
        r = layout.button_rect(name)
        on = state.ui.menu == name if name != "play" else state.running
        p.rect(r, BUTTON_ON if on else BUTTON_BG, (110, 122, 140))
        x0, y0, x1, y1 = r
        _icon(p, name, (x0 + x1) / 2, y0 + 20, on, state.running)
        label = (
            layout.BUTTON_LABELS[name] if name != "play" else ("Pause" if state.running else "Play")
        )
        p.text(label, (x0 + x1) / 2, y1 - 18, 14, WHITE, bold=on, anchor="ct", width=x1 - x0 - 8)


# ------------------------------------------------------------------ panel
def _price(tool) -> str:  # type: ignore[no-untyped-def]
    if tool.kind == "area":
        return "Free"
    if tool.kind == "line":
        return f"₡{tool.cost} per cell"
    return f"₡{tool.cost:,}"


def panel(img: np.ndarray, state: CityState, pv: Preview | None) -> None:
    p = Pen(img)
    p.rect((0, layout.PANEL_Y0, layout.DESIGN[0], layout.PANEL_Y1), PANEL_BG)
    ui = state.ui
    if ui.menu is None:
        p.text(
            "Pick a menu below: Roads, Zoning, Electricity, Water & Sewage.  Right click or Esc cancels.",
            16, layout.PANEL_Y0 + 22, 15, MUTED,
        )  # fmt: skip
    elif ui.menu == "bulldozer":
        p.text("Bulldozer: click a road, a building or a power line to remove it (half the price back).",
               16, layout.PANEL_Y0 + 22, 15, WHITE)  # fmt: skip
    else:
        for j, tool in enumerate(state.data.menu_tools(ui.menu)):
            r = layout.item_rect(j)
            on = ui.tool == tool.id
            p.rect(r, CARD_ON if on else CARD_BG, GOLD if on else (96, 108, 126), 2 if on else 1)
            x0, y0, x1, y1 = r
            p.rect((x0 + 7, y0 + 11, x0 + 25, y0 + 29), tool.color, (20, 20, 24))
            p.text(tool.name, x0 + 32, y0 + 7, 13, WHITE, bold=True, width=x1 - x0 - 36)
            p.text(_price(tool), x0 + 32, y0 + 26, 13, GOLD)
    info_box(img, state, pv)


def status(state: CityState, pv: Preview | None) -> str:
    if pv is None:
        return "none"
    return "ok" if pv.ok else "bad"


def info_box(img: np.ndarray, state: CityState, pv: Preview | None) -> None:
    p = Pen(img)
    st = status(state, pv)
    p.rect(layout.INFO_RECT, STATUS_BG[st], (110, 122, 140))
    cx, cy, rad = layout.LAMP
    cv2.circle(img, p.pt(cx, cy), p.r(rad), LAMP[st], -1, cv2.LINE_AA)
    x0, y0, x1, y1 = layout.INFO_RECT
    ui = state.ui
    tool = state.data.tools[ui.tool] if ui.tool else None
    if tool is None:
        p.text("Construction info", x0 + 30, y0 + 6, 14, MUTED, bold=True)
        p.text("Nothing selected", x0 + 30, y0 + 26, 13, MUTED)
        return
    p.text(tool.name, x0 + 30, y0 + 4, 14, WHITE, bold=True, width=190)
    if pv is None:
        hint = {
            "line": "Click the start point on the map",
            "building": "Move the pointer over the map",
            "area": "Drag a rectangle on the map",
            "bulldoze": "Click what to remove",
        }[tool.kind]
        p.text(hint, x0 + 30, y0 + 24, 13, MUTED, width=x1 - x0 - 36)
        return
    for i, line in enumerate(pv.info[:3]):
        p.text(line, x0 + 232, y0 + 3 + i * 15, 12, WHITE, width=x1 - x0 - 238)
    if pv.ok:
        what = "Click to confirm" if tool.kind == "area" else "Click to build"
        p.text(what, x0 + 30, y0 + 24, 15, (140, 240, 150), bold=True, width=196)
    else:
        p.text(pv.error, x0 + 30, y0 + 24, 15, (255, 150, 140), bold=True, width=196)


# ------------------------------------------------------------------ on the map
def draw_preview(img: np.ndarray, state: CityState, pv: Preview | None) -> None:
    """The placement preview (green or red cells), the hover cell and the tooltip."""
    H, W = img.shape[:2]
    xs, ys = layout.edges(W, H)
    ok_rgb, bad_rgb = np.array((70, 230, 100), np.float32), np.array((240, 60, 50), np.float32)
    if pv is not None:
        rgb = ok_rgb if pv.ok else bad_rgb
        tool = state.data.tools[pv.tool]
        if tool.kind == "area" and pv.ok:  # the zone's colour (grey for de-zoning)
            rgb = np.array(tool.color, np.float32)
        rows, cols = np.nonzero(pv.cells)
        if rows.size:
            r0, r1, c0, c1 = rows.min(), rows.max() + 1, cols.min(), cols.max() + 1
            sub = pv.cells[r0:r1, c0:c1]
            ya, yb, xa, xb = int(ys[r0]), int(ys[r1]), int(xs[c0]), int(xs[c1])
            ci = np.repeat(np.arange(c1 - c0), np.diff(xs[c0 : c1 + 1]))
            ri = np.repeat(np.arange(r1 - r0), np.diff(ys[r0 : r1 + 1]))
            m = sub[ri][:, ci][..., None]
            region = img[ya:yb, xa:xb].astype(np.float32)
            img[ya:yb, xa:xb] = np.where(m, region * 0.4 + rgb * 0.6, region).astype(np.uint8)
            edge = tuple(int(v) for v in (rgb * 0.6))
            cv2.rectangle(img, (xa, ya), (xb - 1, yb - 1), edge, max(1, W // 640))
    cell = layout.cell_of(*state.ui.pointer)
    if state.ui.tool is not None and cell is not None:
        c, r = cell
        cv2.rectangle(
            img,
            (int(xs[c]), int(ys[r])),
            (int(xs[c + 1]) - 1, int(ys[r + 1]) - 1),
            (255, 255, 255),
            1,
        )
    if pv is not None:
        tooltip(img, state, pv)


def tooltip(img: np.ndarray, state: CityState, pv: Preview) -> None:
    p = Pen(img)
    u, v = state.ui.pointer
    x, y = u * layout.DESIGN[0] + 18, v * layout.DESIGN[1] + 14
    lines = [s for s in pv.info if not s.startswith("Upkeep")][:3]
    if not pv.ok:
        lines.append(pv.error)
    px = int(14 * p.sy)
    if px < text.MIN_PX or not lines:
        return
    w = max(text.size(s, px, True)[0] for s in lines) / p.sx + 14
    h = len(lines) * 19 + 8
    x = min(x, layout.DESIGN[0] - w - 4)
    y = min(y, layout.MAP_Y1 - h - 4)
    p.rect((x, y, x + w, y + h), (20, 24, 32), (200, 206, 214))
    for i, s in enumerate(lines):
        bad = not pv.ok and i == len(lines) - 1
        p.text(s, x + 7, y + 5 + i * 19, 14, (255, 120, 110) if bad else WHITE, bold=bad)


def toast(img: np.ndarray, state: CityState) -> None:
    """The game's last message, above the panel, while it lasts."""
    msg = state.ui.message
    if msg is None or state.t > msg[2]:
        return
    s, rgb, _ = msg
    p = Pen(img)
    px = int(16 * p.sy)
    if px < text.MIN_PX:
        return
    w = text.size(s, px, True)[0] / p.sx + 24
    x0, y1 = layout.DESIGN[0] / 2 - w / 2, layout.MAP_Y1 - 10
    p.rect((x0, y1 - 28, x0 + w, y1), (20, 24, 32), rgb, 2)
    p.text(s, layout.DESIGN[0] / 2, y1 - 14, 16, rgb, bold=True, anchor="cm")


def notices(img: np.ndarray, state: CityState) -> None:
    """The advisor's notices at the bottom left of the map (why zones do not grow)."""
    if not state.notices:
        return
    p = Pen(img)
    px = int(14 * p.sy)
    if px < text.MIN_PX:
        return
    w = max(text.size(s, px, True)[0] for s in state.notices) / p.sx + 40
    h = 21 * len(state.notices) + 8
    x0, y1 = 10, layout.MAP_Y1 - 48
    p.rect((x0, y1 - h, x0 + w, y1), (36, 20, 20), (240, 110, 90))
    for i, s in enumerate(state.notices):
        y = y1 - h + 5 + 21 * i
        cv2.circle(img, p.pt(x0 + 14, y + 8), p.r(6), (240, 90, 70), -1, cv2.LINE_AA)
        p.text("!", x0 + 14, y + 8, 11, WHITE, bold=True, anchor="cm")
        p.text(s, x0 + 28, y + 1, 14, (255, 200, 190), bold=True)
