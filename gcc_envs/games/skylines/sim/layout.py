"""Screen geometry of the simulated Cities: Skylines, as pure functions of the frame size.

Everything is laid out on a 1280 × 720 design and scales linearly to any frame: the info bar
along the top (budget, income, population, week, RCI demand, info-view buttons), the map of
:data:`COLS` × :data:`ROWS` cells of 8 m under a locked top-down camera, the panel of the open
menu, and the toolbar along the bottom (Roads, Zoning, Electricity, Water & Sewage, Bulldozer,
and the play/pause control).

A pixel ``x`` of a ``W``-wide frame lies in map column ``c`` when ``c <= (x + 0.5) * COLS / W <
c + 1`` — the same rule the simulator applies to the pointer, so drawing and clicking agree.

>>> cell_at(640, 312, 1280, 720), cell_at(640, 700, 1280, 720)
((40, 17), None)
>>> cell_centre(40, 17, 1280, 720)
(648, 320)
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

#: The design resolution (W, H).
DESIGN = (1280, 720)
#: Map size in cells.
COLS, ROWS = 80, 34
#: Design pixels of one cell.
CELL = 16
TOP_H = 40
MAP_Y0, MAP_Y1 = TOP_H, TOP_H + ROWS * CELL  # 40 .. 584
PANEL_Y0, PANEL_Y1 = MAP_Y1, 648
BAR_Y0, BAR_Y1 = PANEL_Y1, 720

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in design pixels

#: Toolbar buttons, left to right (menu keys; "play" is the play/pause control).
BUTTONS = ("roads", "zoning", "electricity", "water", "bulldozer")
BUTTON_LABELS = {
    "roads": "Roads",
    "zoning": "Zoning",
    "electricity": "Electricity",
    "water": "Water & Sewage",
    "bulldozer": "Bulldozer",
    "play": "Play",
}
#: Info views toggled from the top bar.
VIEWS = ("electricity", "water")


def button_rect(name: str) -> Rect:
    """The toolbar button of a menu (or ``"play"``) in design pixels."""
    if name == "play":
        return (1160.0, BAR_Y0 + 6.0, 1268.0, BAR_Y1 - 6.0)
    i = BUTTONS.index(name)
    x0 = 12.0 + i * 152.0
    return (x0, BAR_Y0 + 6.0, x0 + 144.0, BAR_Y1 - 6.0)


def item_rect(j: int) -> Rect:
    """The ``j``-th item card of the open menu's panel."""
    x0 = 12.0 + j * 206.0
    return (x0, PANEL_Y0 + 5.0, x0 + 198.0, PANEL_Y1 - 5.0)


#: The construction-info box at the right of the panel, and its status lamp (centre, radius).
INFO_RECT: Rect = (848.0, PANEL_Y0 + 5.0, 1268.0, PANEL_Y1 - 5.0)
LAMP = (866.0, (PANEL_Y0 + PANEL_Y1) / 2.0, 9.0)


def view_rect(name: str) -> Rect:
    """An info-view toggle of the top bar."""
    i = VIEWS.index(name)
    x0 = 1010.0 + i * 132.0
    return (x0, 6.0, x0 + 126.0, TOP_H - 6.0)


def scale(rect: Rect, W: int, H: int) -> tuple[int, int, int, int]:
    """A design rect in pixels of a ``W`` × ``H`` frame."""
    sx, sy = W / DESIGN[0], H / DESIGN[1]
    x0, y0, x1, y1 = rect
    return (round(x0 * sx), round(y0 * sy), round(x1 * sx), round(y1 * sy))


def centre(rect: Rect, W: int, H: int) -> tuple[int, int]:
    """The centre of a design rect in frame pixels (where a click lands)."""
    x0, y0, x1, y1 = rect
    return (
        min(W - 1, int((x0 + x1) / 2 * W / DESIGN[0])),
        min(H - 1, int((y0 + y1) / 2 * H / DESIGN[1])),
    )


def hit(rect: Rect, u: float, v: float) -> bool:
    """Whether the normalised point (u, v) lies in a design rect."""
    x, y = u * DESIGN[0], v * DESIGN[1]
    return rect[0] <= x < rect[2] and rect[1] <= y < rect[3]


def cell_of(u: float, v: float) -> tuple[int, int] | None:
    """The map cell under the normalised point (u, v), or None off the map."""
    x, y = u * DESIGN[0], v * DESIGN[1]
    if not (MAP_Y0 <= y < MAP_Y1 and 0 <= x < DESIGN[0]):
        return None
    c = min(COLS - 1, int(x / CELL))
    r = min(ROWS - 1, int((y - MAP_Y0) / CELL))
    return (c, r)


def cell_at(x: int, y: int, W: int, H: int) -> tuple[int, int] | None:
    """The map cell under frame pixel (x, y) (the pointer rule of the simulator)."""
    return cell_of((x + 0.5) / W, (y + 0.5) / H)


def cell_centre(c: int, r: int, W: int, H: int) -> tuple[int, int]:
    """Frame pixel at the centre of map cell (c, r)."""
    x = (c + 0.5) * CELL * W / DESIGN[0]
    y = (MAP_Y0 + (r + 0.5) * CELL) * H / DESIGN[1]
    return (min(W - 1, int(x)), min(H - 1, int(y)))


def map_rect_px(W: int, H: int) -> tuple[int, int, int, int]:
    """The map area in frame pixels, (x0, y0, x1, y1) with exclusive ends."""
    xs, ys = edges(W, H)
    return (int(xs[0]), int(ys[0]), int(xs[-1]), int(ys[-1]))


def _edges(n: int, lo: float, step: float, design: int, size: int) -> np.ndarray:
    return np.array(
        [max(0, math.ceil((lo + k * step) * size / design - 0.5)) for k in range(n + 1)],
        np.int32,
    )


@lru_cache(maxsize=16)
def edges(W: int, H: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel edges of the map's columns (``COLS + 1``) and rows (``ROWS + 1``), read-only."""
    xs = _edges(COLS, 0.0, CELL, DESIGN[0], W)
    ys = _edges(ROWS, float(MAP_Y0), CELL, DESIGN[1], H)
    xs.setflags(write=False)
    ys.setflags(write=False)
    return xs, ys


def pixel_cells(W: int, H: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """For every map pixel column and row, its cell index; plus the map's pixel y0, y1."""
    xs, ys = edges(W, H)
    cols = np.repeat(np.arange(COLS), np.diff(xs))
    rows = np.repeat(np.arange(ROWS), np.diff(ys))
    return cols, rows, int(ys[0]), int(ys[-1])
