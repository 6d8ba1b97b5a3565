"""Building rules: what a tool would build at the pointer (a :class:`Preview`) and building it.

A preview is checked the way the real game checks a placement and refused with its messages:
"Outside the city limits", "Cannot build on water", "Cannot build on the highway", "Object in
the way", "Too short", "Must connect to an existing road", "Must be built on the shoreline",
"Zones must be within 4 cells of a road", "Not enough money". Only an ``ok`` preview is ever
built, so a refused action never touches the budget.

Lines (roads, pipes, power lines) run straight between two cells (8-connected steps); a road
must touch the road network (a ramp or a connected road). Buildings take their footprint with
the pointer on its centre (rounded up-left). Zones cover the zoneable cells of a rectangle.
"""

from __future__ import annotations

import cv2
import numpy as np

from gcc_envs.games.skylines.sim import networks
from gcc_envs.games.skylines.sim.data import Tool
from gcc_envs.games.skylines.sim.layout import COLS, ROWS
from gcc_envs.games.skylines.sim.state import Cell, CityState, Preview, Service

_K3 = np.ones((3, 3), np.uint8)


def line_cells(a: Cell, b: Cell) -> list[Cell]:
    """Cells of the straight line from ``a`` to ``b`` (8-connected, both ends included).

    >>> line_cells((0, 0), (3, 1))
    [(0, 0), (1, 0), (2, 1), (3, 1)]
    """
    (x0, y0), (x1, y1) = a, b
    n = max(abs(x1 - x0), abs(y1 - y0))
    if n == 0:
        return [a]
    out = []
    for i in range(n + 1):
        t = i / n
        # round half away from the start so the line is symmetric
        out.append(
            (int(np.floor(x0 + (x1 - x0) * t + 0.5)), int(np.floor(y0 + (y1 - y0) * t + 0.5)))
        )
    return out


def _mask(cells: list[Cell]) -> np.ndarray:
    m = np.zeros((ROWS, COLS), bool)
    for c, r in cells:
        m[r, c] = True
    return m


def _touches(mask: np.ndarray, other: np.ndarray) -> bool:
    """Whether ``mask`` overlaps or 8-touches ``other``."""
    grown = cv2.dilate(mask.astype(np.uint8), _K3).astype(bool)
    return bool((grown & other).any())


def _money(state: CityState, cost: int) -> str:
    return "Not enough money" if cost > state.budget + 1e-9 else ""


def preview_line(state: CityState, tool: Tool, a: Cell, b: Cell) -> Preview:
    t = state.terrain
    cells = line_cells(a, b)
    m = _mask(cells)
    layer = {"road": state.road, "water_pipe": state.pipe, "power_line": state.line}[tool.id]
    new = m & ~layer & ~(t.ramp if tool.id == "road" else False)
    cost = int(new.sum()) * tool.cost
    info = (
        f"Length: {len(cells) * 8} m",
        f"Cost: ₡{cost:,}",
        f"Upkeep: ₡{tool.upkeep * len(cells):,.0f}/week",
    )
    error = ""
    if (m & ~t.owned).any():
        error = "Outside the city limits"
    elif len(cells) < tool.min_cells:
        error = "Too short"
    elif (m & t.water).any():
        error = "Cannot build on water"
    elif (m & t.highway).any() or (tool.id != "road" and (m & t.ramp).any()):
        error = "Cannot build on the highway"
    elif tool.id != "water_pipe" and (m & (state.occupied > 0)).any():
        error = "Object in the way"
    elif tool.id == "road" and not _touches(m, state.road | t.ramp):
        error = "Must connect to an existing road"
    elif not new.any():
        error = "Already built"
    else:
        error = _money(state, cost)
    return Preview(tool.id, not error, error, cost, m, info, None, a, b)


def footprint(tool: Tool, cell: Cell) -> tuple[int, int, int, int]:
    w, h = tool.size
    return (cell[0] - (w - 1) // 2, cell[1] - (h - 1) // 2, w, h)


def output(state: CityState, tool: Tool, x: int, y: int, w: int, h: int) -> float:
    t = state.terrain
    if tool.power_mw and tool.id == "wind_turbine":
        return round(tool.power_mw * float(t.wind[y : y + h, x : x + w].mean()), 1)
    if tool.power_mw:
        return tool.power_mw
    if tool.water or tool.sewage:
        # more open water around the footprint, more output
        r0, r1, c0, c1 = max(y - 2, 0), min(y + h + 2, ROWS), max(x - 2, 0), min(x + w + 2, COLS)
        wet = float(t.water[r0:r1, c0:c1].mean())
        base = tool.water or tool.sewage
        return float(round(base * min(1.0, 0.4 + 1.5 * wet) / 1000.0) * 1000.0)
    return 0.0


def preview_building(state: CityState, tool: Tool, cell: Cell) -> Preview:
    t = state.terrain
    x, y, w, h = footprint(tool, cell)
    m = np.zeros((ROWS, COLS), bool)
    inside = 0 <= x and 0 <= y and x + w <= COLS and y + h <= ROWS
    m[max(y, 0) : max(y + h, 0), max(x, 0) : max(x + w, 0)] = True
    cost = tool.cost
    out = output(state, tool, x, y, w, h) if inside else 0.0
    info: list[str] = [f"Cost: ₡{cost:,}", f"Upkeep: ₡{tool.upkeep:,.0f}/week"]
    if tool.power_mw:
        info.append(f"Estimated production: {out:.1f} MW")
    elif tool.water:
        info.append(f"Estimated production: {out:,.0f} m³/week")
    elif tool.sewage:
        info.append(f"Drain capacity: {out:,.0f} m³/week")
    error = ""
    if not inside or (m & ~t.owned).any():
        error = "Outside the city limits"
    elif (m & t.water).any():
        error = "Cannot build on water"
    elif (m & (t.highway | t.ramp)).any():
        error = "Cannot build on the highway"
    elif (m & (state.road | state.line | (state.occupied > 0))).any():
        error = "Object in the way"
    elif tool.rule == "shore" and not _touches(m, t.water):
        error = "Must be built on the shoreline"
    else:
        error = _money(state, cost)
    if not error and tool.id == "pumping_station":
        reach = state.data.growth.pollution_reach
        for s in state.services.values():
            if s.tool == "drain_pipe" and max(abs(s.x - x), abs(s.y - y)) <= reach:
                info.append("Warning: a drain pipe nearby pollutes this water")
                break
    return Preview(tool.id, not error, error, cost, m, tuple(info), (x, y, w, h), cell, cell)


def preview_area(state: CityState, tool: Tool, a: Cell, b: Cell) -> Preview:
    t = state.terrain
    (x0, x1), (y0, y1) = sorted((a[0], b[0])), sorted((a[1], b[1]))
    rect = np.zeros((ROWS, COLS), bool)
    rect[y0 : y1 + 1, x0 : x1 + 1] = True
    if tool.zone == 0:
        cells = rect & (state.zone > 0)
        error = "" if cells.any() else "Nothing to de-zone here"
        info = (f"De-zone {int(cells.sum())} cells",)
    else:
        zoneable = networks.roads(state).zoneable
        cells = rect & zoneable & (state.zone != tool.zone)
        land = rect & ~t.water
        if not (rect & t.owned).any():
            error = "Outside the city limits"
        elif not land.any():
            error = "Cannot zone on water"
        elif not (rect & zoneable).any():
            error = "Zones must be within 4 cells of a road"
        elif not cells.any():
            error = "Already zoned"
        else:
            error = ""
        info = (f"Zone {int(cells.sum())} cells", "Zoning is free")
    return Preview(tool.id, not error, error, 0, cells if not error else rect, info, None, a, b)


def _clear_lots(state: CityState, m: np.ndarray) -> None:
    """Remove zoning and the buildings on cells now taken by something else."""
    state.zone[m] = 0
    for arr in (state.bkind, state.occ, state.dark, state.dry, state.abandoned, state.problems):
        arr[m] = 0


def build(state: CityState, p: Preview) -> bool:
    """Build an ``ok`` preview: spend the money and change the map. False if refused."""
    if not p.ok:
        return False
    tool = state.data.tools[p.tool]
    if p.cost > state.budget + 1e-9:
        return False
    m = p.cells
    if tool.kind == "line":
        layer = {"road": state.road, "water_pipe": state.pipe, "power_line": state.line}[tool.id]
        add = m & ~state.terrain.ramp if tool.id == "road" else m
        layer |= add
        if tool.id != "water_pipe":
            _clear_lots(state, add)
    elif tool.kind == "building":
        assert p.footprint is not None
        x, y, w, h = p.footprint
        out = output(state, tool, x, y, w, h)
        sid = state.next_id
        state.next_id += 1
        state.services[sid] = Service(sid, tool.id, x, y, w, h, out)
        state.occupied[y : y + h, x : x + w] = sid
        _clear_lots(state, m)
    elif tool.kind == "area":
        if tool.zone == 0:
            _clear_lots(state, m)
        else:
            state.zone[m] = tool.zone
            wrong = m & (state.bkind > 0) & (state.bkind != tool.zone)
            _clear_lots(state, wrong)
            state.zone[wrong] = tool.zone
    state.budget -= p.cost
    state.stats.spent += p.cost
    state.stats.built += 1
    state.touch()
    return True


#: Share of the price the bulldozer gives back.
REFUND = 0.5


def bulldoze(state: CityState, cell: Cell) -> str:
    """Remove what stands on ``cell``; the game's message (refusal or what was removed)."""
    c, r = cell
    t = state.terrain
    if t.highway[r, c] or t.ramp[r, c]:
        return "Cannot bulldoze the highway"
    sid = int(state.occupied[r, c])
    refund = 0.0
    if sid:
        s = state.services.pop(sid)
        state.occupied[s.cells()] = 0
        refund, what = REFUND * state.data.tools[s.tool].cost, state.data.tools[s.tool].name
    elif state.road[r, c]:
        state.road[r, c] = False
        refund, what = REFUND * state.data.tools["road"].cost, "Road"
    elif state.line[r, c]:
        state.line[r, c] = False
        refund, what = REFUND * state.data.tools["power_line"].cost, "Power Line"
    elif state.pipe[r, c] and state.ui.view == "water":
        state.pipe[r, c] = False
        refund, what = REFUND * state.data.tools["water_pipe"].cost, "Water Pipe"
    elif state.bkind[r, c]:
        m = np.zeros((ROWS, COLS), bool)
        m[r, c] = True
        zone = int(state.zone[r, c])
        _clear_lots(state, m)
        state.zone[r, c] = zone
        what = "Building"
    else:
        return "Nothing to bulldoze here"
    state.budget += refund
    state.stats.refunded += refund
    state.touch()
    return f"{what} removed" + (f" (+₡{refund:,.0f})" if refund else "")
