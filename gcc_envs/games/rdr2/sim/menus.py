"""Menus driven by the pointer: the weapon wheel, the pause menu and the store catalogue.

Pointer positions are window fractions (u, v); layouts are the constants of
:mod:`gcc_envs.games.rdr2.sim.state`, so the renderer draws what these functions hit-test.

>>> wheel_sector(0.5, 0.1), wheel_sector(0.5, 0.5), pause_item_at(0.1, 0.32)
(0, None, 0)
"""

from __future__ import annotations

import math

from gcc_envs.games.rdr2.sim.geometry import heading
from gcc_envs.games.rdr2.sim.state import (
    WEAPONS,
    WHEEL_INNER_PX,
    WHEEL_OUTER_PX,
    WHEEL_TOP_DEG,
    WorldState,
    pause_item_rect,
    shop_row_rect,
)
from gcc_envs.games.rdr2.sim.world import SUPPLIES

NATIVE_W, NATIVE_H = 1280.0, 720.0


def wheel_sector(u: float, v: float) -> int | None:
    """Sector of :data:`WEAPONS` under the pointer, or None in the centre."""
    dx, dy = (u - 0.5) * NATIVE_W, (v - 0.5) * NATIVE_H
    r = math.hypot(dx, dy)
    if r < WHEEL_INNER_PX or r > WHEEL_OUTER_PX * 1.6:
        return None
    n = len(WEAPONS)
    rel = (heading(dx, dy) - WHEEL_TOP_DEG) % 360.0
    return int(math.floor(rel / (360.0 / n) + 0.5)) % n


def _in(rect: tuple[float, float, float, float], u: float, v: float) -> bool:
    return rect[0] <= u <= rect[2] and rect[1] <= v <= rect[3]


def pause_item_at(u: float, v: float, count: int = 4) -> int | None:
    for i in range(count):
        if _in(pause_item_rect(i), u, v):
            return i
    return None


def shop_row_at(u: float, v: float, count: int) -> int | None:
    for i in range(count):
        if _in(shop_row_rect(i), u, v):
            return i
    return None


def open_wheel(state: WorldState) -> None:
    w = state.ui.wheel
    w.open, w.hovered = True, None
    state.ui.pointer = (0.5, 0.5)
    state.player.aiming = False


def hover_wheel(state: WorldState) -> None:
    state.ui.wheel.hovered = wheel_sector(*state.ui.pointer)


def close_wheel(state: WorldState) -> str | None:
    """Equip the hovered weapon if the player owns it; returns the weapon equipped, if any."""
    w = state.ui.wheel
    w.open = False
    if w.hovered is None:
        return None
    weapon = WEAPONS[w.hovered]
    p = state.player
    if weapon not in p.weapons:
        return None
    w.selected = w.hovered
    p.weapon = weapon
    p.reload_left = 0.0
    return weapon


def buy(state: WorldState, rows: tuple[tuple[str, float, bool], ...], i: int) -> bool:
    """Buy one of row ``i``; False when the row does not exist or money is short."""
    if not 0 <= i < len(rows):
        return False
    item, price, _ = rows[i]
    p = state.player
    if p.money + 1e-9 < price:
        state.ui.subtitle, state.ui.subtitle_at = (
            "Clerk: You can't afford that, mister.",
            state.clock,
        )
        return False
    p.money = round(p.money - price, 2)
    if item == "revolver_ammo":
        p.ammo_reserve += 12
    else:
        p.items[item] = p.items.get(item, 0) + 1
    if item in SUPPLIES:
        c = state.mission.counters
        c["bought_supplies"] = c.get("bought_supplies", 0.0) + 1
    line = f"Clerk: One {item.replace('_', ' ')}. Thank you kindly."
    state.ui.subtitle, state.ui.subtitle_at = line, state.clock
    return True
