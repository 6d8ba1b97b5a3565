"""The Cradle paper's city metrics, measured on a state.

- ``roads_closed_loop``: the roads close a loop (see :mod:`.networks`).
- ``electricity_sufficient``: at least :data:`SHARE` of the zoned cells lie on a network with a
  power plant, and (once the city has grown) no more than ``1 - SHARE`` of its buildings lack
  power and the plants make what the city uses.
- ``water_sufficient``: the same for water: zoned cells within reach of a working pipe network
  (a powered pump and a powered drain pipe), the buildings served, supply covering demand.
- ``zoned_fraction`` of the zoneable cells (free land within 4 cells of a connected road) and
  ``zones_over_90`` (> 0.9).
- ``max_population`` over all simulated weeks.

Before any week has been simulated (during the build), the supply checks look at the city as
if every zoned cell held a building: they say whether it *will* work. Extra figures: budget
and money spent, the RCI split of zoned cells and of jobs, unpowered and dry buildings.
"""

from __future__ import annotations

import numpy as np

from gcc_envs.games.skylines.sim import networks
from gcc_envs.games.skylines.sim.state import CityState

#: Share of zoned cells (and of buildings) that must be supplied for "sufficient".
SHARE = 0.95


def _share(part: np.ndarray, whole: np.ndarray) -> float:
    n = int(whole.sum())
    return float((part & whole).sum()) / n if n else 0.0


def metrics(state: CityState) -> dict[str, float]:
    """Every metric as a float (booleans as 0.0 / 1.0); cached until the city changes."""
    key = (state.version, state.week, state.budget, state.stats.spent, state.stats.refunded)
    got = state.derived.get("metrics")
    if got is None or got[0] != key:
        got = state.derived["metrics"] = (key, _metrics(state))
    return dict(got[1])


def _metrics(state: CityState) -> dict[str, float]:
    rd = networks.roads(state)
    zoned = (state.zone > 0) & rd.zoneable
    n_zoneable = int(rd.zoneable.sum())
    zoned_fraction = float(zoned.sum()) / n_zoneable if n_zoneable else 0.0
    grown = state.week > 0
    full_pw = networks.power(state, full=True)
    full_wt = networks.water(state, full=True)
    power_reach = _share(full_pw.reached, zoned)
    water_reach = _share(full_wt.covered, zoned)

    active = (state.bkind > 0) & (state.abandoned == 0)
    n_active = int(active.sum())
    if grown:
        pw, wt = networks.power(state), networks.water(state)
        unpowered = int((active & ~pw.powered).sum())
        dry = int((active & ~wt.served).sum())
        g = state.data.growth
        # buildings abandoned for the lack of power or water count against the supply
        quit_dark = int(((state.abandoned > 0) & (state.dark >= g.abandon_weeks)).sum())
        quit_dry = int(((state.abandoned > 0) & (state.dry >= g.abandon_weeks)).sum())
        lots = max(n_active + quit_dark + quit_dry, 1)
        elec = (
            power_reach >= SHARE
            and n_active > 0
            and (unpowered + quit_dark) <= (1 - SHARE) * lots
            and pw.supply + 1e-9 >= pw.demand
        )
        water = (
            water_reach >= SHARE
            and n_active > 0
            and (dry + quit_dry) <= (1 - SHARE) * lots
            and wt.supply + 1e-9 >= wt.demand
        )
        supply_mw, demand_mw = pw.supply, pw.demand
        supply_w, demand_w = wt.supply, wt.demand
    else:
        unpowered = dry = 0
        elec = bool(zoned.any()) and power_reach >= SHARE
        water = bool(zoned.any()) and water_reach >= SHARE
        supply_mw, demand_mw = full_pw.supply, full_pw.demand
        supply_w, demand_w = full_wt.supply, full_wt.demand

    n_zoned = max(int((state.zone > 0).sum()), 1)
    occ = state.occ
    return {
        "roads_closed_loop": float(rd.closed_loop),
        "water_sufficient": float(water),
        "electricity_sufficient": float(elec),
        "zoned_fraction": round(zoned_fraction, 4),
        "zones_over_90": float(zoned_fraction > 0.9),
        "max_population": float(state.max_population),
        "population": float(state.population),
        "budget": round(float(state.budget), 2),
        "budget_spent": round(state.stats.spent - state.stats.refunded, 2),
        "zoned_residential": round(float((state.zone == 1).sum()) / n_zoned, 4),
        "zoned_commercial": round(float((state.zone == 2).sum()) / n_zoned, 4),
        "zoned_industrial": round(float((state.zone == 3).sum()) / n_zoned, 4),
        "jobs_commercial": float(round(occ[state.bkind == 2].sum())),
        "jobs_industrial": float(round(occ[state.bkind == 3].sum())),
        "buildings": float(n_active),
        "unpowered_buildings": float(unpowered),
        "dry_buildings": float(dry),
        "power_reach": round(power_reach, 4),
        "water_reach": round(water_reach, 4),
        "power_supply_mw": round(supply_mw, 2),
        "power_demand_mw": round(demand_mw, 2),
        "water_supply_m3": round(supply_w, 1),
        "water_demand_m3": round(demand_w, 1),
        "weeks": float(state.week),
    }


def all_met(m: dict[str, float], target_population: int) -> bool:
    """Whether the five metrics of the paper are met with ``target_population``."""
    return bool(
        m["roads_closed_loop"]
        and m["water_sufficient"]
        and m["electricity_sufficient"]
        and m["zones_over_90"]
        and m["max_population"] >= target_population
    )
