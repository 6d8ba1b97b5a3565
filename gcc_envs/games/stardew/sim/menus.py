"""Input while a menu is open: the sleep dialogue, the shop and the inventory screen.

The world stands still meanwhile (the real game stops its clock in menus in single player).
"""

from __future__ import annotations

from gcc_envs.games.stardew.sim import clock, layout
from gcc_envs.games.stardew.sim.actions import buy
from gcc_envs.games.stardew.sim.state import TOOLBAR, WorldState

CLOSE_KEYS = ("e", "esc")
CONFIRM_KEYS = ("x", "enter", "c")


def close(state: WorldState) -> None:
    state.menu = None
    state.menu_choice = 0


def answer_sleep(state: WorldState, yes: bool) -> None:
    if yes:
        clock.sleep(state)
    else:
        close(state)


def key(state: WorldState, name: str) -> None:
    """A key pressed while ``state.menu`` is open."""
    if name in CLOSE_KEYS:
        close(state)
        return
    if state.menu == "sleep":
        if name == "w":
            state.menu_choice = 0
        elif name == "s":
            state.menu_choice = 1
        elif name in CONFIRM_KEYS:
            answer_sleep(state, state.menu_choice == 0)


def hover(state: WorldState) -> None:
    """The pointer moved: the sleep dialogue highlights the option under it."""
    if state.menu == "sleep":
        i = layout.hit(layout.DIALOGUE_OPTIONS, *state.pointer)
        if i >= 0:
            state.menu_choice = i


def click(state: WorldState, button: str) -> None:
    """A mouse button pressed while a menu is open (only the left button does anything)."""
    if button != "left":
        return
    u, v = state.pointer
    if state.menu == "sleep":
        i = layout.hit(layout.DIALOGUE_OPTIONS, u, v)
        if i >= 0:
            answer_sleep(state, i == 0)
    elif state.menu == "shop":
        if layout.SHOP_CLOSE.contains(u, v):
            close(state)
            return
        stock = state.shop
        i = layout.hit(layout.SHOP_ROWS[: len(stock)], u, v)
        if i >= 0:
            buy(state, stock[i][0])
    elif state.menu == "inventory":
        if layout.INVENTORY_CLOSE.contains(u, v):
            close(state)
            return
        i = layout.hit(layout.INVENTORY_SLOTS, u, v)
        if 0 <= i < TOOLBAR:
            state.selected = i
