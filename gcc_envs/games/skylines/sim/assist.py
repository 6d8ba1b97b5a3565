"""The paper's human assistance: up to three unit operations that fix small mistakes.

After Cradle's build the paper's authors fixed a few easy mistakes (building or removing a
road, a facility or a zone counts as one operation) and measured the population again.
:func:`assisted` does the same with scripted fixes, on a copy of the city as it was built, in
this order while operations are left:

1. no working water network with a pump → a pumping station on the shore by the pipes;
   with a pump but no drain → a drain pipe on the shore far from the pump;
2. a pipe network that works for nobody (disconnected) → one pipe joining it to a working one;
3. the plants make less than the grown city needs → a wind turbine beside the power lines
   (or watered zones) where the wind is strongest; zoned land no plant reaches → one power
   line joining it to a powered network.

Every fix goes through the game's own rules and budget (a fix the game refuses is skipped).
"""

from __future__ import annotations

import copy

import cv2
import numpy as np

from gcc_envs.games.skylines.sim import networks, rules
from gcc_envs.games.skylines.sim.growth import grow
from gcc_envs.games.skylines.sim.state import Cell, CityState

MAX_OPERATIONS = 3


def _nearest_pair(a: np.ndarray, b: np.ndarray) -> tuple[Cell, Cell] | None:
    """The closest cells (one of ``a``, one of ``b``), as (col, row) pairs."""
    if not a.any() or not b.any():
        return None
    dist, lab = cv2.distanceTransformWithLabels(
        (~b).astype(np.uint8), cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL
    )
    rows, cols = np.nonzero(a)
    i = int(np.argmin(dist[rows, cols]))
    ra, ca = int(rows[i]), int(cols[i])
    target = lab[ra, ca]
    rb, cb = np.nonzero((lab == target) & b)
    return (ca, ra), (int(cb[0]), int(rb[0]))


def _try(state: CityState, tool: str, *cells: Cell) -> bool:
    t = state.data.tools[tool]
    if t.kind == "line":
        p = rules.preview_line(state, t, cells[0], cells[1])
    else:
        p = rules.preview_building(state, t, cells[0])
    return bool(p.ok and rules.build(state, p))


def _shore_spot(state: CityState, tool: str, near: np.ndarray, avoid: list[Cell]) -> bool:
    """Place ``tool`` on the shore cell closest to ``near`` (and far from ``avoid``)."""
    t = state.terrain
    reach = state.data.growth.pollution_reach
    dist = cv2.distanceTransform((~near).astype(np.uint8), cv2.DIST_L2, 5)
    rows, cols = np.nonzero(t.shore & t.owned)
    for i in np.argsort(dist[rows, cols], kind="stable")[:60]:
        cell = (int(cols[i]), int(rows[i]))
        if any(max(abs(cell[0] - a[0]), abs(cell[1] - a[1])) <= reach + 1 for a in avoid):
            continue
        for dx in (0, -1, 1):
            if _try(state, tool, (cell[0] + dx, cell[1])):
                svc = state.services[state.next_id - 1]
                edge = _nearest_pair(near, _mask(svc))
                if edge is not None:
                    _try(state, "water_pipe", edge[1], edge[0])
                return True
    return False


def _mask(svc) -> np.ndarray:  # type: ignore[no-untyped-def]
    from gcc_envs.games.skylines.sim.layout import COLS, ROWS

    m = np.zeros((ROWS, COLS), bool)
    m[svc.cells()] = True
    return m


def _turbine(state: CityState) -> bool:
    """A wind turbine where the wind is strongest beside the power lines (or watered zones)."""
    wet = (state.zone > 0) & networks.water(state, full=True).covered
    anchor = state.line if state.line.any() else wet
    near = networks.dilate(anchor, 2) & ~anchor & state.terrain.buildable
    rows, cols = np.nonzero(near)
    order = np.argsort(-state.terrain.wind[rows, cols], kind="stable")
    return any(_try(state, "wind_turbine", (int(cols[i]), int(rows[i]))) for i in order[:80])


def fix(state: CityState, operations: int = MAX_OPERATIONS) -> list[str]:
    """Apply up to ``operations`` scripted fixes to ``state``; what was done."""
    done: list[str] = []
    zoned = state.zone > 0
    for _ in range(operations):
        wt = networks.water(state, full=True)
        tools = [s.tool for s in state.services.values()]
        if not wt.working and state.pipe.any():
            pumps = [(s.x, s.y) for s in state.services.values() if s.tool == "pumping_station"]
            if "pumping_station" not in tools or not pumps:
                drains = [(s.x, s.y) for s in state.services.values() if s.tool == "drain_pipe"]
                if _shore_spot(state, "pumping_station", state.pipe, drains):
                    done.append("pumping station")
                    continue
            elif "drain_pipe" not in tools and _shore_spot(state, "drain_pipe", state.pipe, pumps):
                done.append("drain pipe")
                continue
        working = np.isin(wt.label, np.array(wt.working, np.int32)) & state.pipe
        dry = state.pipe & ~working & networks.dilate(zoned, state.data.growth.pipe_reach)
        pair = _nearest_pair(dry, working)
        if pair is not None and _try(state, "water_pipe", *pair):
            done.append("water pipe")
            continue
        pw = networks.power(state, full=True)
        if pw.supply < pw.demand and _turbine(state):
            done.append("wind turbine")
            continue
        dark = zoned & ~pw.reached
        pair = _nearest_pair(dark, pw.reached & pw.conducts)
        if pair is not None and _try(state, "power_line", *pair):
            done.append("power line")
            continue
        break
    return done


def assisted(built: CityState, weeks: int) -> tuple[int, list[str]]:
    """Max population of ``built`` (a copy) after the fixes and ``weeks`` of growth."""
    shared = {id(built.data): built.data, id(built.terrain): built.terrain}
    city = copy.deepcopy(built, shared)
    ops = fix(city)
    grow(city, weeks)
    return city.max_population, ops
