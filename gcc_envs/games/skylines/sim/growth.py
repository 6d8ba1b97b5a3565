"""The growth simulation: one call of :func:`week` is one game week of the unpaused city.

The causes follow the Cradle paper's account of the game:

1. **Supply.** Each building is checked for electricity, water and sewage (the networks of
   :mod:`.networks`), dead-end roads and pollution; what it lacks shows as a problem icon.
2. **Moving in and out.** People move into (and workers take jobs in) supplied buildings, up to
   their capacity (halved on dead-end roads and, for homes, under pollution); they leave
   buildings without power or water, which are abandoned after ``abandon_weeks`` and cleared
   ``clear_weeks`` later (the lot may grow again).
3. **Demand (RCI).** Residents need jobs: the homes a city supports grow with the jobs on offer.
   Commerce follows the population. Industry follows unemployment.
4. **New buildings** appear on zoned lots that have road access (within reach of a road
   connected to the highway), power (within reach of a network with a plant) and water
   (within reach of a working pipe network), at most ``max_spawn`` a week per zone, picked by
   the state's own generator.
5. **Money.** Taxes on residents and filled jobs come in, upkeep of everything built goes out.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from gcc_envs.games.skylines.sim import networks
from gcc_envs.games.skylines.sim.state import (
    ABANDONED,
    DEAD_END,
    NO_POWER,
    NO_SEWAGE,
    NO_WATER,
    POLLUTED,
    CityState,
)


def upkeep(state: CityState) -> float:
    """₡ per week for everything built."""
    tools = state.data.tools
    total = (
        float(state.road.sum()) * tools["road"].upkeep
        + float(state.pipe.sum()) * tools["water_pipe"].upkeep
        + float(state.line.sum()) * tools["power_line"].upkeep
    )
    return total + sum(tools[s.tool].upkeep for s in state.services.values())


def polluted_cells(state: CityState) -> np.ndarray:
    """Cells with pollution: near a coal plant, or served by a pump near a drain pipe."""
    out = np.zeros(state.zone.shape, bool)
    tools = state.data.tools
    for s in state.services.values():
        r = tools[s.tool].pollution
        if r:
            out[max(s.y - r, 0) : s.y + s.h + r, max(s.x - r, 0) : s.x + s.w + r] = True
    wt = networks.water(state)
    bad = {int(wt.label[s.y, s.x]) for sid, s in state.services.items() if sid in wt.polluted}
    reach = state.data.growth.pipe_reach
    for k in bad & set(wt.working):
        pipes = ((wt.label == k) & state.pipe).astype(np.uint8)
        out |= cv2.dilate(pipes, np.ones((2 * reach + 1,) * 2, np.uint8)).astype(bool)
    return out


def capacity(state: CityState, problems: np.ndarray | None = None) -> np.ndarray:
    """People (homes) or jobs each building holds now, after dead ends and pollution."""
    g = state.data.growth
    cap = np.zeros(state.zone.shape, np.float32)
    for code, z in state.data.zones.items():
        cap[state.bkind == code] = z.capacity
    if problems is not None:
        cap = np.where((problems & DEAD_END) > 0, cap * g.dead_end_factor, cap)
        homes = state.bkind == 1
        cap = np.where(homes & ((problems & POLLUTED) > 0), cap * g.pollution_factor, cap)
    return cap


def _money(state: CityState, residents: float, jobs: float) -> None:
    g = state.data.growth
    state.income = g.tax_resident * residents + g.tax_job * jobs
    state.expenses = upkeep(state)
    state.budget += state.income - state.expenses
    state.stats.weekly_net += state.income - state.expenses
    state.week += 1
    state.population = int(round(residents))
    state.jobs = int(round(jobs))
    state.max_population = max(state.max_population, state.population)
    state.stats.history.append(state.population)


def advice(state: CityState, rd, aura: np.ndarray, covered: np.ndarray) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    """What keeps zoned lots empty or buildings unhappy, in the advisor's words."""
    lots = (state.zone > 0) & (state.bkind == 0) & rd.zoneable
    out = []
    dry = int((lots & ~covered).sum())
    dark = int((lots & ~aura).sum())
    if dry:
        out.append(f"{dry} zoned lots cannot grow: no water service")
    if dark:
        out.append(f"{dark} zoned lots cannot grow: no electricity")
    if not rd.closed_loop and (state.bkind > 0).any():
        out.append("Roads do not close a loop: traffic cannot get through")
    return tuple(out)


def week(state: CityState) -> None:
    """Simulate one week (mutates ``state``)."""
    if not (state.zone.any() or state.bkind.any()):  # nothing can grow: only money moves
        _money(state, 0.0, 0.0)
        state.derived.pop("metrics", None)
        return
    g, zones = state.data.growth, state.data.zones
    rd = networks.roads(state)
    pw = networks.power(state)
    wt = networks.water(state)
    lived = state.bkind > 0
    active = lived & (state.abandoned == 0)
    before = (state.bkind.copy(), state.abandoned > 0, state.problems.copy())

    problems = np.zeros(state.zone.shape, np.uint8)
    problems[active & ~pw.powered] |= NO_POWER
    unserved = active & ~wt.served
    problems[unserved & wt.no_sewage] |= NO_SEWAGE
    problems[unserved & ~wt.no_sewage] |= NO_WATER
    problems[active & ~rd.through] |= DEAD_END
    problems[active & polluted_cells(state)] |= POLLUTED
    supplied = active & pw.powered & wt.served

    state.dark = np.where(active & ~pw.powered, state.dark + 1, 0).astype(np.int16)
    state.dry = np.where(unserved, state.dry + 1, 0).astype(np.int16)
    quit_ = active & ((state.dark >= g.abandon_weeks) | (state.dry >= g.abandon_weeks))
    state.abandoned[state.abandoned > 0] += 1
    state.abandoned[quit_] = 1
    cleared = state.abandoned > g.clear_weeks
    for arr in (state.bkind, state.occ, state.dark, state.dry, state.abandoned):
        arr[cleared] = 0
    active &= ~quit_
    problems[state.abandoned > 0] = ABANDONED
    problems[cleared] = 0
    state.problems = problems

    cap = capacity(state, problems)
    fill = np.zeros(state.zone.shape, np.float32)
    for code, z in zones.items():
        fill[state.bkind == code] = z.fill
    fill = np.where((problems & DEAD_END) > 0, fill * g.dead_end_factor, fill)
    occ = np.where(supplied, np.minimum(state.occ + fill, cap), np.floor(state.occ * 0.5))
    occ[~active] = 0
    state.occ = occ.astype(np.float32)

    homes, shops, works = (state.bkind == c for c in (1, 2, 3))
    residents = float(state.occ[homes].sum())
    jobs = float(state.occ[shops | works].sum())
    # capacities of the lived-in buildings, and of those that offer jobs now
    r_cap = float(cap[homes & active].sum())
    c_cap = float(cap[shops & active].sum())
    i_cap = float(cap[works & active].sum())
    jobs_offered = float(cap[(shops | works) & supplied].sum())
    workers = g.worker_share * residents
    deficit = {
        1: g.residents_base + g.residents_per_job * jobs_offered - r_cap,
        2: g.commerce_base + g.commerce_per_resident * residents - c_cap,
        3: g.industry_base + workers - (c_cap + i_cap),
    }
    aura = networks.dilate(pw.reached & pw.conducts, g.power_gap + 1)
    open_lots = (state.bkind == 0) & rd.zoneable & aura & wt.covered
    state.notices = advice(state, rd, aura, wt.covered)
    demand = []
    for code, z in zones.items():
        want = int(min(max(math.ceil(deficit[code] / z.capacity), 0), g.max_spawn))
        demand.append(min(1.0, max(0.0, deficit[code] / (z.capacity * g.max_spawn))))
        if want <= 0:
            continue
        free = np.flatnonzero((state.zone == code) & open_lots)
        if free.size == 0:
            continue
        pick = state.rng.choice(free, size=min(want, free.size), replace=False)
        state.bkind.ravel()[pick] = code
        state.occ.ravel()[pick] = 0.0
    state.demand = (demand[0], demand[1], demand[2])

    _money(state, residents, jobs)
    after = (state.bkind, state.abandoned > 0, state.problems)
    if any(not np.array_equal(a, b) for a, b in zip(before, after)):
        state.touch(built=False)  # the map shows new, abandoned or troubled buildings
    else:
        state.derived.pop("metrics", None)


def grow(state: CityState, weeks: int) -> None:
    """Run the simulation for ``weeks`` weeks."""
    for _ in range(int(weeks)):
        week(state)
