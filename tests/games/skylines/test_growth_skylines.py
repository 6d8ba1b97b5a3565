"""Growth follows the paper's causes: jobs, commerce, unemployment, power, water, loops, money."""

from __future__ import annotations

import numpy as np
import pytest
from skylines_helpers import build_plan, city

from agents.scripted.skylines_blueprint import blueprint
from gcc_envs.games.skylines.sim import assist, growth, metrics, networks, rules
from gcc_envs.games.skylines.sim.state import ABANDONED, DEAD_END, NO_WATER

ZONES = {"residential", "commercial", "industrial"}


def planned(seed=2, scenario="block", keep=lambda step: True):  # type: ignore[no-untyped-def]
    sim = city(seed, scenario)
    s = sim.state
    build_plan(s, [st for st in blueprint(s) if keep(st)])
    return sim, s


def test_a_finished_block_grows_past_its_target_with_every_metric_met():
    _, s = planned()
    growth.grow(s, s.scenario.growth_weeks)
    m = metrics.metrics(s)
    assert metrics.all_met(m, s.scenario.target_population), m
    assert m["unpowered_buildings"] == m["dry_buildings"] == 0
    assert s.stats.history[0] < s.stats.history[4] <= s.max_population


def test_residents_need_jobs_homes_alone_stay_a_hamlet():
    _, homes = planned(keep=lambda st: st.tool not in ZONES - {"residential"})
    _, mixed = planned()
    for s in (homes, mixed):
        growth.grow(s, 26)
    g = homes.data.growth
    assert homes.max_population <= g.residents_base + 2
    assert mixed.max_population > 3 * homes.max_population


def test_commerce_follows_the_population_and_industry_the_unemployed():
    _, s = planned(seed=4, scenario="city")
    growth.grow(s, 10)
    g = s.data.growth
    shops = float(s.occ[s.bkind == 2].sum())
    capacity_c = float(growth.capacity(s)[s.bkind == 2].sum())
    target_c = g.commerce_base + g.commerce_per_resident * s.population
    assert abs(capacity_c - target_c) <= 2 * s.data.zones[2].capacity + 1
    jobs = float(growth.capacity(s)[(s.bkind == 2) | (s.bkind == 3)].sum())
    assert jobs >= g.worker_share * s.population - 4 * s.data.zones[3].capacity
    assert shops > 0 and s.demand[0] > 0


@pytest.mark.parametrize("missing", ["pumping_station", "drain_pipe", "wind_turbine"])
def test_without_a_pump_a_drain_or_power_nothing_grows_and_the_advisor_says_why(missing):
    _, s = planned(keep=lambda st: st.tool != missing)
    growth.grow(s, 8)
    assert s.max_population == 0 and not (s.bkind > 0).any()
    why = "no electricity" if missing == "wind_turbine" else "no water service"
    assert any(why in n for n in s.notices)
    m = metrics.metrics(s)
    assert not (m["electricity_sufficient"] if missing == "wind_turbine" else m["water_sufficient"])


def test_buildings_that_lose_water_complain_then_are_abandoned():
    _, s = planned()
    growth.grow(s, 8)
    lived = int((s.bkind > 0).sum())
    pump = next(sv for sv in s.services.values() if sv.tool == "pumping_station")
    assert rules.bulldoze(s, (pump.x, pump.y)).startswith("Water Pumping Station removed")
    growth.week(s)
    assert ((s.problems & NO_WATER) > 0).sum() == lived
    for _ in range(s.data.growth.abandon_weeks):
        growth.week(s)
    assert (s.problems == ABANDONED).sum() == lived and s.population == 0
    assert s.max_population > 0  # the best week is remembered


def test_dead_end_roads_slow_the_city_and_show_why():
    _, looped = planned(seed=5)
    _, dead = planned(seed=5)
    steps = blueprint(city(5, "block").state)
    east = [st for st in steps if st.tool == "road"][-1]  # the highway-side street
    (xe, top), (_, bot) = east.cells
    exit_street = next(st for st in steps if st.tool == "road" and st.cells[0] == dead.terrain.exit)
    ramp_x, row = exit_street.cells[0]
    cut = [(xe, r) for r in range(top, bot + 1)]
    step = 1 if ramp_x > xe else -1
    cut += [(x, row) for x in range(xe + step, ramp_x, step)]
    for cell in cut:
        rules.bulldoze(dead, cell)
    assert networks.roads(looped).closed_loop and not networks.roads(dead).closed_loop
    for s in (looped, dead):
        growth.grow(s, 26)
    assert ((dead.problems & DEAD_END) > 0).any() and not ((looped.problems & DEAD_END) > 0).any()
    assert dead.max_population < 0.8 * looped.max_population
    assert any("loop" in n for n in dead.notices)
    assert not metrics.metrics(dead)["roads_closed_loop"]


def test_taxes_and_upkeep_move_the_budget_each_week():
    _, s = planned()
    growth.grow(s, 6)
    before = s.budget
    growth.week(s)
    g = s.data.growth
    income = g.tax_resident * s.population + g.tax_job * s.jobs
    assert s.budget - before == pytest.approx(income - growth.upkeep(s), abs=2.0)
    assert s.income - s.expenses == pytest.approx(s.budget - before)


def test_growth_is_deterministic_under_the_seed():
    runs = []
    for _ in range(2):
        _, s = planned(seed=9)
        growth.grow(s, 12)
        runs.append((s.stats.history, s.bkind.copy(), s.budget))
    assert runs[0][0] == runs[1][0] and np.array_equal(runs[0][1], runs[1][1])
    assert runs[0][2] == runs[1][2]


@pytest.mark.parametrize(
    "mistake, fix",
    [("disconnected_pipe", ["water pipe"]), ("pumping_station", ["pumping station"]),
     ("drain_pipe", ["drain pipe"])],
)  # fmt: skip
def test_up_to_three_scripted_fixes_recover_the_paper_s_mistakes(mistake, fix):
    sim = city(7)
    s = sim.state
    steps = blueprint(s, "disconnected_pipe" if mistake == "disconnected_pipe" else None)
    build_plan(s, [st for st in steps if st.tool != mistake])
    good = city(7).state
    build_plan(good)
    growth.grow(good, 52)
    pop, ops = assist.assisted(s, 52)
    growth.grow(s, 52)
    assert ops == fix and s.max_population < 0.85 * good.max_population
    assert pop >= 0.97 * good.max_population
    assert len(assist.fix(city(7).state)) <= assist.MAX_OPERATIONS
