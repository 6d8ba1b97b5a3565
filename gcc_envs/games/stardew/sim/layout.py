"""Where HUD elements and menus sit, in normalised window coordinates (u, v) in [0, 1].

The renderer draws them at any size and the simulator hit-tests the pointer against the same
rectangles, so clicks land where the pictures are at every resolution.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from gcc_envs.games.stardew.sim.state import TOOLBAR, WorldState

#: Tiles the camera shows across and down at 16:9 (other aspects show W/tp x H/tp tiles).
VIEW_W = 20.0
VIEW_H = 11.25
#: The toolbar jumps to the top of the screen when the player's feet are below this fraction
#: of the screen height (as in the real game), so it never hides what the player walks to.
TOOLBAR_FLIP_V = 0.6


class Rect(NamedTuple):
    u0: float
    v0: float
    u1: float
    v1: float

    def contains(self, u: float, v: float) -> bool:
        return self.u0 <= u < self.u1 and self.v0 <= v < self.v1

    def px(self, width: int, height: int) -> tuple[int, int, int, int]:
        """Pixel box (x0, y0, x1, y1) at a frame size."""
        return (
            round(self.u0 * width),
            round(self.v0 * height),
            round(self.u1 * width),
            round(self.v1 * height),
        )

    @property
    def center(self) -> tuple[float, float]:
        return (self.u0 + self.u1) / 2, (self.v0 + self.v1) / 2


SLOT_W = 0.05
SLOT_H = 0.0889
GAP_U = 0.004

TOOLBAR_PANEL = Rect(0.19, 0.875, 0.81, 0.985)
TOOLBAR_PANEL_TOP = Rect(0.19, 0.015, 0.81, 0.125)
CLOCK_BOX = Rect(0.815, 0.015, 0.99, 0.17)
ENERGY_BAR = Rect(0.958, 0.56, 0.988, 0.97)
MESSAGE_BOX = Rect(0.17, 0.775, 0.83, 0.86)

DIALOGUE_BOX = Rect(0.08, 0.60, 0.92, 0.97)
DIALOGUE_OPTIONS = (Rect(0.11, 0.74, 0.89, 0.84), Rect(0.11, 0.85, 0.89, 0.95))

SHOP_PANEL = Rect(0.04, 0.05, 0.79, 0.86)
SHOP_CLOSE = Rect(0.745, 0.065, 0.78, 0.125)
SHOP_ROW_TOP = 0.165
SHOP_ROW_H = 0.082

INVENTORY_PANEL = Rect(0.15, 0.10, 0.85, 0.82)
INVENTORY_CLOSE = Rect(0.805, 0.11, 0.84, 0.17)


def tile_size(height: int, width: int) -> int:
    """Pixels per tile when rendering at (height, width)."""
    return max(1, math.ceil(max(width / VIEW_W, height / VIEW_H)))


def camera(state: WorldState, height: int, width: int) -> tuple[int, int, int]:
    """(tp, x0, y0): tile size in pixels and the world pixel at the frame's top-left.

    The camera centres the player (half a tile above the feet) and stops at the map's edges;
    a map smaller than the view is centred with black around it. Map tile (x, y) appears at
    frame pixels ``(x * tp - x0, y * tp - y0)``.
    """
    tp = tile_size(height, width)
    m = state.map()
    p = state.player

    def axis(center: float, view: int, extent: int) -> int:
        if extent <= view:
            return -((view - extent) // 2)
        return min(max(round(center - view / 2), 0), extent - view)

    return tp, axis(p.x * tp, width, m.width * tp), axis((p.y - 0.5) * tp, height, m.height * tp)


def toolbar_on_top(state: WorldState) -> bool:
    """Whether the toolbar is drawn at the top (decided at the native 1280x720 view)."""
    tp, _, y0 = camera(state, 720, 1280)
    return state.player.y * tp - y0 > TOOLBAR_FLIP_V * 720


def toolbar_panel(top: bool = False) -> Rect:
    return TOOLBAR_PANEL_TOP if top else TOOLBAR_PANEL


def toolbar_slot(i: int, top: bool = False) -> Rect:
    u0 = 0.5 - (TOOLBAR * SLOT_W) / 2 + i * SLOT_W
    v0 = toolbar_panel(top).v0 + 0.011
    return Rect(u0 + GAP_U / 2, v0, u0 + SLOT_W - GAP_U / 2, v0 + SLOT_H)


def shop_row(i: int) -> Rect:
    v0 = SHOP_ROW_TOP + i * SHOP_ROW_H
    return Rect(SHOP_PANEL.u0 + 0.02, v0, SHOP_PANEL.u1 - 0.02, v0 + SHOP_ROW_H - 0.008)


def inventory_slot(i: int) -> Rect:
    row, col = divmod(i, TOOLBAR)
    u0 = 0.5 - (TOOLBAR * SLOT_W) / 2 + col * SLOT_W
    v0 = 0.21 + row * (SLOT_H + 0.02)
    return Rect(u0 + GAP_U / 2, v0, u0 + SLOT_W - GAP_U / 2, v0 + SLOT_H)


def hit(rects: Sequence[Rect], u: float, v: float) -> int:
    """Index of the first rectangle containing (u, v), or -1."""
    for i, r in enumerate(rects):
        if r.contains(u, v):
            return i
    return -1


#: Precomputed rectangles (hit-tested and drawn every frame).
TOOLBAR_SLOTS = tuple(toolbar_slot(i) for i in range(TOOLBAR))
TOOLBAR_SLOTS_TOP = tuple(toolbar_slot(i, top=True) for i in range(TOOLBAR))
INVENTORY_SLOTS = tuple(inventory_slot(i) for i in range(3 * TOOLBAR))
#: Enough shop rows for the panel (9 fit); a shop with n items uses the first n.
SHOP_ROWS = tuple(shop_row(i) for i in range(9))
