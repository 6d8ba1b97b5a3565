"""The game's reaction to the mouse and keys: toolbar, panels, tools, previews, messages.

- A toolbar button opens its menu's panel (clicking it again closes it); the bulldozer button
  picks the bulldozer. An item card of the panel picks a tool.
- **Line tools** (roads, pipes, power lines): a left click sets the start, the preview follows
  the pointer, a second left click builds it (refused with the game's message otherwise).
- **Buildings** follow the pointer; a left click builds.
- **Zones**: press, drag and release to mark a rectangle (the preview stays); a left click
  without dragging confirms it (on a fresh tool, it marks one cell).
- A right click (or ``esc``) cancels the start or the marked rectangle, then the tool, then the
  menu. ``space`` pauses and unpauses the simulation, ``1``/``2``/``3`` set its speed,
  ``delete`` picks the bulldozer. The top bar's buttons toggle the electricity and water views.
"""

from __future__ import annotations

from gcc_envs.games.skylines.sim import layout, rules
from gcc_envs.games.skylines.sim.state import CityState, Preview

RED = (235, 70, 60)
GREEN = (110, 220, 120)
WHITE = (240, 240, 240)


def pointer_cell(state: CityState) -> tuple[int, int] | None:
    return layout.cell_of(*state.ui.pointer)


def preview(state: CityState) -> Preview | None:
    """What the selected tool would build now (None when nothing is previewed)."""
    ui = state.ui
    if ui.tool is None:
        return None
    tool = state.data.tools[ui.tool]
    cell = pointer_cell(state)
    key = (ui.tool, ui.anchor, ui.pending, ui.dragging, cell, round(state.budget, 2))
    got = state.derived.get("preview")
    if got is not None and got[0] == key:
        return got[1]
    p: Preview | None = None
    if tool.kind == "line" and ui.anchor is not None and cell is not None:
        p = rules.preview_line(state, tool, ui.anchor, cell)
    elif tool.kind == "building" and cell is not None:
        p = rules.preview_building(state, tool, cell)
    elif tool.kind == "area":
        if ui.dragging and ui.anchor is not None and cell is not None:
            p = rules.preview_area(state, tool, ui.anchor, cell)
        elif ui.pending is not None:
            p = rules.preview_area(state, tool, *ui.pending)
    state.derived["preview"] = (key, p)
    return p


def _refuse(state: CityState, message: str) -> None:
    state.stats.refused += 1
    state.say(message, RED)


def _confirm(state: CityState, p: Preview | None) -> bool:
    if p is None:
        return False
    if not p.ok:
        _refuse(state, p.error)
        return False
    name = state.data.tools[p.tool].name
    rules.build(state, p)
    state.say(f"{name} built" + (f"  -₡{p.cost:,}" if p.cost else ""), GREEN)
    return True


def select_menu(state: CityState, menu: str) -> None:
    ui = state.ui
    ui.anchor = ui.pending = None
    ui.dragging = False
    if ui.menu == menu:
        ui.menu = ui.tool = None
        return
    ui.menu = menu
    ui.tool = "bulldozer" if menu == "bulldozer" else None


def select_tool(state: CityState, tool: str) -> None:
    ui = state.ui
    ui.tool = tool
    ui.menu = state.data.tools[tool].menu
    ui.anchor = ui.pending = None
    ui.dragging = False


def left_down(state: CityState) -> None:
    ui = state.ui
    u, v = ui.pointer
    cell = layout.cell_of(u, v)
    if cell is None:
        _click_chrome(state, u, v)
        return
    if ui.tool is None:
        return
    tool = state.data.tools[ui.tool]
    if tool.kind == "line":
        if ui.anchor is None:
            ui.anchor = cell
        elif _confirm(state, preview(state)):
            ui.anchor = None
    elif tool.kind == "building":
        _confirm(state, preview(state))
    elif tool.kind == "area":
        ui.dragging = True
        ui.anchor = cell
    elif tool.kind == "bulldoze":
        msg = rules.bulldoze(state, cell)
        state.say(msg, GREEN if msg.endswith(")") or "removed" in msg else RED)


def left_up(state: CityState) -> None:
    ui = state.ui
    if not ui.dragging or ui.anchor is None or ui.tool is None:
        ui.dragging = False
        return
    cell = pointer_cell(state) or ui.anchor
    start = ui.anchor
    ui.dragging = False
    ui.anchor = None
    if cell != start:
        ui.pending = (start, cell)
    elif ui.pending is not None:
        if _confirm(state, rules.preview_area(state, state.data.tools[ui.tool], *ui.pending)):
            ui.pending = None
    else:
        ui.pending = (cell, cell)


def cancel(state: CityState) -> None:
    """Right click / esc: drop the start or rectangle, else the tool, else the menu, else a view."""
    ui = state.ui
    if ui.anchor is not None or ui.pending is not None or ui.dragging:
        ui.anchor = ui.pending = None
        ui.dragging = False
    elif ui.tool is not None and ui.menu != "bulldozer":
        ui.tool = None
    elif ui.menu is not None:
        ui.menu = ui.tool = None
    else:
        ui.view = None


def _click_chrome(state: CityState, u: float, v: float) -> None:
    ui = state.ui
    for name in layout.BUTTONS:
        if layout.hit(layout.button_rect(name), u, v):
            select_menu(state, name)
            return
    if layout.hit(layout.button_rect("play"), u, v):
        toggle_running(state)
        return
    for name in layout.VIEWS:
        if layout.hit(layout.view_rect(name), u, v):
            ui.view = None if ui.view == name else name
            return
    if ui.menu is not None and ui.menu != "bulldozer":
        for j, tool in enumerate(state.data.menu_tools(ui.menu)):
            if layout.hit(layout.item_rect(j), u, v):
                select_tool(state, tool.id)
                return


def toggle_running(state: CityState) -> None:
    state.running = not state.running
    state.say("Simulation running" if state.running else "Simulation paused", WHITE, 1.5)


def key(state: CityState, k: str) -> None:
    if k == "esc":
        cancel(state)
    elif k == "space":
        toggle_running(state)
    elif k in ("1", "2", "3"):
        state.speed = {"1": 1, "2": 2, "3": 4}[k]
    elif k == "delete":
        select_tool(state, "bulldozer")
