"""The scripted planner's blueprint for a Cities: Skylines plot (privileged: reads the terrain).

The plan is the one the Cradle paper gave its agent as a draft, made concrete for the seed's
terrain: streets every :data:`SPACING` rows through the two ramps, joined by a street along
the shore side and one near the highway (so every block is a closed loop, and the ramps close
one through the highway); wind turbines where the wind is strong beside the shore-side
street; power lines along every street; a water pumping station and a water drain pipe on the
shoreline, far apart, with a pipe trunk along the shore-side street and a branch along every
street; then zones covering every block (residential by the sea, commercial in the middle,
industry by the highway).

Every placement is checked and applied on a copy of the state with the game's own rules
(:mod:`gcc_envs.games.skylines.sim.rules`), so the plan only holds placements the game
accepts, in an order where each one is valid. ``mistake="disconnected_pipe"`` shortens one
street's water branch by two cells so it never touches the trunk: the paper's typical error.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from gcc_envs.games.skylines.sim import networks, rules
from gcc_envs.games.skylines.sim.layout import COLS, ROWS
from gcc_envs.games.skylines.sim.state import Cell, CityState

#: Rows between streets: a road and 4 rows of zones on each side.
SPACING = 9
MISTAKES = (None, "disconnected_pipe")
#: Electricity (MW) and water (m³/week) a zoned cell needs when grown, with this plan's mix.
#: What a plan must leave in the budget for the weeks before taxes cover upkeep (on Block's
#: seeds 101-115 every build that left under ₡3,600 later fell below the ₡1,000 floor).
RESERVE = 5_000.0
MW_PER_CELL = 0.58 * 0.006 + 0.22 * 0.012 + 0.2 * 0.02
WATER_PER_CELL = 0.58 * 2 * 25 + 0.22 * 2 * 30 + 0.2 * 3 * 40

#: Skill of each tool.
SKILL = {
    "road": "try_place_two_lane_road",
    "wind_turbine": "try_place_wind_turbine",
    "power_line": "try_place_power_line",
    "pumping_station": "try_place_water_pumping_station",
    "drain_pipe": "try_place_water_drain_pipe",
    "water_pipe": "try_place_water_pipe",
    "residential": "try_place_residential_zone",
    "commercial": "try_place_commercial_zone",
    "industrial": "try_place_industrial_zone",
}


@dataclass(frozen=True)
class Step:
    """One placement: a tool and its cells (one for buildings, two ends or corners otherwise)."""

    tool: str
    cells: tuple[Cell, ...]

    @property
    def skill(self) -> str:
        return SKILL[self.tool]


class _Plan:
    def __init__(self, state: CityState) -> None:
        self.s = copy.deepcopy(state)
        self.steps: list[Step] = []
        self.streets: list[int] = []
        self.turbines = 0
        self.spare = False  # whether one turbine more than the grown city needs was planned
        t = self.s.terrain
        self.east = t.sea_side == "east"
        canon_water = t.water[:, ::-1] if self.east else t.water
        #: First land column of each row, seen with the sea to the west.
        self.shore_x = canon_water.argmin(axis=1)

    def X(self, x: int) -> int:
        """Canonical column (sea to the west) to the map's column."""
        return COLS - 1 - x if self.east else x

    def C(self, x: int, y: int) -> Cell:
        return (self.X(x), y)

    def add(self, tool: str, *cells: Cell) -> bool:
        s, t = self.s, self.s.data.tools[tool]
        if t.kind == "line":
            p = rules.preview_line(s, t, cells[0], cells[1])
        elif t.kind == "building":
            p = rules.preview_building(s, t, cells[0])
        else:
            p = rules.preview_area(s, t, cells[0], cells[1])
        if not p.ok or not rules.build(s, p):
            return False
        self.steps.append(Step(tool, tuple(cells)))
        return True

    def output(self, tool: str, cell: Cell, placed: bool = False) -> float:
        """What a building of ``tool`` at ``cell`` would make (or makes, once ``placed``)."""
        if placed:
            return next(
                v.output for v in self.s.services.values() if (v.x, v.y) == self.foot(tool, cell)
            )
        t = self.s.data.tools[tool]
        x, y, w, h = rules.footprint(t, cell)
        return rules.output(self.s, t, x, y, w, h)

    def foot(self, tool: str, cell: Cell) -> tuple[int, int]:
        x, y, _, _ = rules.footprint(self.s.data.tools[tool], cell)
        return (x, y)

    def building_near(self, tool: str, targets: list[Cell], score=None) -> Cell | None:  # type: ignore[no-untyped-def]
        """The first (or best-scoring) target the game accepts for ``tool``."""
        t = self.s.data.tools[tool]
        ok = [c for c in targets if rules.preview_building(self.s, t, c).ok]
        if not ok:
            return None
        return max(ok, key=score) if score is not None else ok[0]


def streets_through(entry_row: int, exit_row: int) -> list[int]:
    """Street rows: both ramps, enough streets between them, and every SPACING rows outward."""
    rows = {entry_row, exit_row}
    gap = exit_row - entry_row
    n = -(-gap // SPACING)
    rows |= {entry_row + round(k * gap / n) for k in range(1, n)}
    r = entry_row - SPACING
    while r >= 1:
        rows.add(r)
        r -= SPACING
    r = exit_row + SPACING
    while r <= ROWS - 2:
        rows.add(r)
        r += SPACING
    return sorted(rows)


def blueprint(
    state: CityState, mistake: str | None = None, turbines: int | None = None
) -> list[Step]:
    """The placements that build a working city on ``state``'s plot, in order.

    With ``mistake="disconnected_pipe"`` the street whose water branch alone serves the most
    zoned cells gets its branch two cells short of the trunk.
    """
    if mistake not in MISTAKES:
        raise ValueError(f"unknown mistake {mistake!r}; known: {MISTAKES}")
    good = _blueprint(state, None, turbines)
    if turbines is None and good.spare and good.s.budget < RESERVE:
        turbines = good.turbines - 1  # the spare turbine would leave too little to run the city
        good = _blueprint(state, None, turbines)
    if mistake is None:
        return good.steps
    return _blueprint(state, _worst_branch(good), turbines).steps


def _worst_branch(plan: _Plan) -> int:
    """The street row whose branch alone waters the most zoned cells of a planned city."""
    s, reach = plan.s, plan.s.data.growth.pipe_reach
    zoned = s.zone > 0
    best, best_n = plan.streets[0], -1
    for r in plan.streets:
        own = np.zeros_like(s.pipe)
        own[r] = s.pipe[r]
        rest = s.pipe & ~own
        n = int((zoned & networks.dilate(own, reach) & ~networks.dilate(rest, reach)).sum())
        if n > best_n:
            best, best_n = r, n
    return best


def _blueprint(state: CityState, wrong: int | None, turbines: int | None) -> _Plan:
    P = _Plan(state)
    t = P.s.terrain
    owned_rows = np.flatnonzero(t.owned.any(axis=1))
    lo, hi = int(owned_rows.min()), int(owned_rows.max())
    ye, yx = sorted((t.entry[1], t.exit[1]))
    ramp_x = COLS - 1 - t.entry[0] if P.east else t.entry[0]
    streets = [r for r in streets_through(ye, yx) if lo + 1 <= r <= hi - 1]
    P.streets = streets
    top, bot = streets[0], streets[-1]
    xw = int(P.shore_x[max(top - 5, lo) : bot + 6].max()) + 6  # shore-side street
    xe = ramp_x - 4  # highway-side street

    # 1. roads: the ramp streets, the shore-side street, the other streets, the highway side
    for r in (ye, yx):
        P.add("road", P.C(ramp_x, r), P.C(xw, r))
    for a, b in ((ye, top), (ye, yx), (yx, bot)):
        if a != b:
            P.add("road", P.C(xw, a), P.C(xw, b))
    for r in streets:
        if r not in (ye, yx):
            P.add("road", P.C(xw, r), P.C(xe, r))
    P.add("road", P.C(xe, top), P.C(xe, bot))

    # 2. water: pump at the top, drain at the bottom, both on the shore, far apart (a drain
    # near the pump pollutes its water)
    def shore_cells(rows: range) -> list[Cell]:
        return [P.C(int(P.shore_x[r]) + dx, r) for r in rows for dx in (0, 1, -1, 2)]

    # the best pump and drain that stand far enough apart (a drain near a pump pollutes it),
    # then more of either until they serve the grown city
    need = float(networks.roads(P.s).zoneable.sum()) * WATER_PER_CELL
    reach = P.s.data.growth.pollution_reach
    ok = {
        tool: [c for c in shore_cells(near) if P.building_near(tool, [c]) is not None]
        for tool, near in (
            ("pumping_station", range(max(lo, top - 4), top + 7)),
            ("drain_pipe", range(min(hi - 1, bot + 4), bot - 8, -1)),
        )
    }

    def apart(a: Cell, b: Cell) -> bool:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1])) > reach + 1

    pairs = [(p, d) for p in ok["pumping_station"] for d in ok["drain_pipe"] if apart(p, d)]
    rows = [top, bot]
    if pairs:
        pump, drain = max(
            pairs,
            key=lambda pd: min(P.output("pumping_station", pd[0]), P.output("drain_pipe", pd[1])),
        )
        for tool, first in (("pumping_station", pump), ("drain_pipe", drain)):
            made = 0.0
            cell: Cell | None = first
            for _ in range(3):
                if cell is None or not P.add(tool, cell):
                    break
                rows.append(cell[1])
                made += P.output(tool, cell, placed=True)
                if made >= need:
                    break
                others = [v for v in P.s.services.values() if v.tool != tool]
                spots = [c for c in ok[tool] if all(apart(c, (v.x, v.y)) for v in others)]
                cell = P.building_near(tool, spots, lambda c, tool=tool: P.output(tool, c))

    # 3. the trunks beside the shore-side street, and the pump and drain joined to them
    P.add("power_line", P.C(xw, min(rows)), P.C(xw, max(rows)))
    P.add("water_pipe", P.C(xw, min(rows)), P.C(xw, max(rows)))
    for svc in list(P.s.services.values()):
        edge = svc.x + svc.w if not P.east else svc.x - 1
        P.add("power_line", (edge, svc.y), P.C(xw - 1, svc.y))
        P.add("water_pipe", (edge, svc.y), P.C(xw, svc.y))

    # 4. power: turbines beside the shore-side street where the wind is strongest
    # enough turbines for the fully grown city at about 5 MW each (and one spare for a block)
    mw = float(networks.roads(P.s).zoneable.sum()) * MW_PER_CELL
    P.spare = turbines is None and len(streets) < 3
    n = turbines if turbines is not None else int(np.ceil(mw / 5.0)) + P.spare
    spots = [P.C(xw - 2 if not P.east else xw - 1, r) for r in range(top + 1, bot - 1)]
    for _ in range(n):
        best = P.building_near("wind_turbine", spots, lambda c: float(t.wind[c[1], c[0]]))
        if best is None:
            break
        P.turbines += P.add("wind_turbine", best)

    # 5. a power line and a water branch along every street
    for r in streets:
        end = xe if r not in (ye, yx) else ramp_x - 1
        P.add("power_line", P.C(xw, r), P.C(end, r))
        P.add("water_pipe", P.C(xw + (2 if r == wrong else 0), r), P.C(end, r))

    # 6. zones, block by block: homes by the sea, shops in the middle, industry by the highway
    bands = [(top - 4, top - 1)] + [(a + 1, b - 1) for a, b in zip(streets, streets[1:])]
    bands.append((bot + 1, bot + 4))
    x0, x1 = xw - 4, COLS - 3  # up to the highway
    w = x1 - x0
    xa, xb = x0 + int(0.58 * w), x0 + int(0.8 * w)
    for r0, r1 in bands:
        r0, r1 = max(r0, lo), min(r1, hi)
        if r1 < r0:
            continue
        P.add("residential", P.C(x0, r0), P.C(xa, r1))
        P.add("commercial", P.C(xa + 1, r0), P.C(xb, r1))
        P.add("industrial", P.C(xb + 1, r0), P.C(x1, r1))
    return P
