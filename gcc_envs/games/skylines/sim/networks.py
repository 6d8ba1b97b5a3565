"""The city's networks, as pure functions of its state (cached per ``state.version``).

- **Roads**: road and ramp cells, 8-connected; a road counts when it is connected to a ramp.
  The roads form a *closed loop* when road, ramp and highway cells enclose land that does not
  reach the map's edge (the entry-to-exit loop closes through the highway). A road cell lies
  *on a loop* when it separates two different regions of the rest of the map; lots near no
  such cell are served only by dead ends.
- **Zoning**: land within ``zone_depth`` cells (Chebyshev) of a connected road.
- **Electricity**: plants, power lines, service buildings and zoned buildings conduct; power
  jumps ``power_gap`` cells between them. Each connected network shares its plants' output;
  when demand exceeds it, the consumers farthest from a plant go without.
- **Water**: pipes (8-connected) with the pumping stations and drain pipes they touch. A
  network works when it has a powered pump and a powered drain; its pipes serve buildings
  within ``pipe_reach`` cells, the nearest first, up to what the pumps make and the drains
  take.

``full=True`` assumes a building on every zoned cell: whether the city *will* work when it
has grown (the provisional metrics, and the previews' warnings).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from gcc_envs.games.skylines.sim.state import CityState

_K3 = np.ones((3, 3), np.uint8)
_CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)


def dilate(mask: np.ndarray, r: int) -> np.ndarray:
    if r <= 0:
        return mask.copy()
    k = np.ones((2 * r + 1, 2 * r + 1), np.uint8)
    return cv2.dilate(mask.astype(np.uint8), k).astype(bool)


def _labels(mask: np.ndarray, connectivity: int = 8) -> tuple[int, np.ndarray]:
    n, lab = cv2.connectedComponents(mask.astype(np.uint8), connectivity=connectivity)
    return int(n), lab


def _cached(state: CityState, key: str, fn, *args):  # type: ignore[no-untyped-def]
    got = state.derived.get(key)
    if got is None:
        got = state.derived[key] = fn(state, *args)
    return got


# ---------------------------------------------------------------- roads
@dataclass(frozen=True)
class Roads:
    #: Road cells connected to a ramp.
    connected: np.ndarray
    #: Whether the roads close a loop (through the highway or on their own).
    closed_loop: bool
    #: Connected road cells that lie on a loop.
    looped: np.ndarray
    #: Cells that may be zoned (free owned land near a connected road).
    zoneable: np.ndarray
    #: Cells within zoning reach of a looped road.
    through: np.ndarray


def _roads(state: CityState) -> Roads:
    t, g = state.terrain, state.data.growth
    net = state.road | t.ramp
    n, lab = _labels(net)
    ramp_labels = np.unique(lab[t.ramp])
    connected = np.isin(lab, ramp_labels[ramp_labels > 0]) & state.road
    solid = net | t.highway
    nb, back = _labels(~solid, 4)
    edge = np.unique(np.concatenate([back[0], back[-1], back[:, 0], back[:, -1]]))
    inner = np.setdiff1d(np.arange(1, nb), edge)
    # a cell on a loop has two different regions among its 4-neighbours
    pad = np.pad(back, 1, constant_values=0)
    nbrs = np.stack([pad[:-2, 1:-1], pad[2:, 1:-1], pad[1:-1, :-2], pad[1:-1, 2:]])
    big = np.where(nbrs > 0, nbrs, np.iinfo(np.int32).max)
    small = np.where(nbrs > 0, nbrs, -1)
    looped = (big.min(0) != small.max(0)) & (small.max(0) > 0) & connected
    closed = bool(inner.size) and bool(looped.any())
    depth = g.zone_depth
    free = t.buildable & ~state.road & ~state.line & (state.occupied == 0)
    zoneable = dilate(connected, depth) & free
    through = dilate(looped, depth)
    return Roads(connected, closed, looped, zoneable, through)


def roads(state: CityState) -> Roads:
    return _cached(state, "roads", _roads)


# ---------------------------------------------------------------- electricity
@dataclass(frozen=True)
class Power:
    #: Cells of consumers (buildings, services) that get power.
    powered: np.ndarray
    supply: float
    demand: float
    #: Network label per cell (0: none) and cells that conduct.
    label: np.ndarray
    conducts: np.ndarray
    #: Cells on a network that has a power plant (reached, whatever the capacity).
    reached: np.ndarray


def _consumers(state: CityState, full: bool) -> tuple[np.ndarray, np.ndarray]:
    """Consumer mask and MW per cell (buildings, or every zoned cell when ``full``)."""
    mw = np.zeros(state.zone.shape, np.float32)
    kinds = state.zone if full else np.where(state.abandoned > 0, 0, state.bkind)
    for code, z in state.data.zones.items():
        mw[kinds == code] = z.power_mw
    for s in state.services.values():
        tool = state.data.tools[s.tool]
        if tool.consumes_mw:
            mw[s.cells()] = tool.consumes_mw / (s.w * s.h)
    return mw > 0, mw


def _power(state: CityState, full: bool) -> Power:
    tools = state.data.tools
    plants = np.zeros(state.zone.shape, bool)
    output = np.zeros(state.zone.shape, np.float32)
    services = np.zeros(state.zone.shape, bool)
    for s in state.services.values():
        services[s.cells()] = True
        if tools[s.tool].power_mw:
            plants[s.cells()] = True
            output[s.cells()] = s.output / (s.w * s.h)
    consumers, mw = _consumers(state, full)
    conducts = plants | state.line | services | consumers
    n, lab = _labels(dilate(conducts, state.data.growth.power_gap))
    lab = np.where(conducts, lab, 0)
    powered = np.zeros(state.zone.shape, bool)
    supply = demand = 0.0
    if plants.any():
        dist = cv2.distanceTransform((~plants).astype(np.uint8), cv2.DIST_L2, 3)
        for k in np.unique(lab[plants]):
            comp = lab == k
            have = float(output[comp].sum())
            cells = comp & consumers
            need = float(mw[cells].sum())
            supply += have
            demand += need
            if need <= have + 1e-9:
                powered |= cells
                continue
            idx = np.flatnonzero(cells)
            order = idx[np.argsort(dist.ravel()[idx], kind="stable")]
            ok = order[np.cumsum(mw.ravel()[order]) <= have + 1e-9]
            powered.ravel()[ok] = True
    # consumers on networks without a plant still count as demand
    plant_labels = np.unique(lab[plants])
    reached = np.isin(lab, plant_labels[plant_labels > 0])
    demand += float(mw[consumers & ~reached].sum())
    return Power(powered, supply, demand, lab, conducts, reached)


def power(state: CityState, full: bool = False) -> Power:
    return _cached(state, f"power{int(full)}", _power, full)


# ---------------------------------------------------------------- water
@dataclass(frozen=True)
class Water:
    #: Cells of buildings (or zoned cells when ``full``) that get water and sewage.
    served: np.ndarray
    #: Cells within reach of a working network's pipes.
    covered: np.ndarray
    #: Cells within reach of a network with a pump but no drain (sewage backs up).
    no_sewage: np.ndarray
    supply: float
    demand: float
    #: Pipe network label per cell (pipes and the pumps/drains they touch).
    label: np.ndarray
    #: Labels of working networks.
    working: tuple[int, ...]
    #: Pump ids whose water is polluted by a nearby drain.
    polluted: tuple[int, ...]


def _demand(state: CityState, full: bool) -> np.ndarray:
    need = np.zeros(state.zone.shape, np.float32)
    for code, z in state.data.zones.items():
        if full:
            need[state.zone == code] = z.water * z.capacity
        else:
            lived = (state.bkind == code) & (state.abandoned == 0)
            need[lived] = z.water * np.maximum(state.occ[lived], 1.0)
    return need


def polluted_pumps(state: CityState) -> tuple[int, ...]:
    reach = state.data.growth.pollution_reach
    drains = [s for s in state.services.values() if s.tool == "drain_pipe"]
    out = []
    for s in state.services.values():
        if s.tool != "pumping_station":
            continue
        for d in drains:
            if max(abs(d.x - s.x), abs(d.y - s.y)) <= reach:
                out.append(s.id)
                break
    return tuple(out)


def _water(state: CityState, full: bool) -> Water:
    g = state.data.growth
    pw = power(state, full)
    foot = np.zeros(state.zone.shape, bool)
    for s in state.services.values():
        if s.tool in ("pumping_station", "drain_pipe"):
            foot[s.cells()] = True
    n, lab = _labels(state.pipe | foot)
    pipe_labels = set(np.unique(lab[state.pipe]).tolist()) - {0}
    supply_by: dict[int, float] = {}
    sewage_by: dict[int, float] = {}
    for s in state.services.values():
        if s.tool not in ("pumping_station", "drain_pipe"):
            continue
        k = int(lab[s.y, s.x])
        if k not in pipe_labels or not pw.powered[s.cells()].all():
            continue
        book = supply_by if s.tool == "pumping_station" else sewage_by
        book[k] = book.get(k, 0.0) + s.output
    working = tuple(sorted(k for k in supply_by if k in sewage_by))
    need = _demand(state, full)
    served = np.zeros(state.zone.shape, bool)
    covered = np.zeros(state.zone.shape, bool)
    supply = demand = 0.0
    for k in working:
        pipes = (lab == k) & state.pipe
        reach = dilate(pipes, g.pipe_reach)
        covered |= reach
        cap = min(supply_by[k], sewage_by[k])
        supply += cap
        cells = reach & (need > 0) & ~served
        total = float(need[cells].sum())
        demand += total
        if total <= cap:
            served |= cells
            continue
        dist = cv2.distanceTransform((~pipes).astype(np.uint8), cv2.DIST_L2, 3)
        idx = np.flatnonzero(cells)
        order = idx[np.argsort(dist.ravel()[idx], kind="stable")]
        served.ravel()[order[np.cumsum(need.ravel()[order]) <= cap]] = True
    half = [k for k in pipe_labels if k in supply_by and k not in sewage_by]
    no_sewage = np.zeros(state.zone.shape, bool)
    for k in half:
        no_sewage |= dilate((lab == k) & state.pipe, g.pipe_reach)
    no_sewage &= ~covered
    demand += float(need[(need > 0) & ~covered].sum())
    return Water(served, covered, no_sewage, supply, demand, lab, working, polluted_pumps(state))


def water(state: CityState, full: bool = False) -> Water:
    return _cached(state, f"water{int(full)}", _water, full)
