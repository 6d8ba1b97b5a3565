"""Building rules: the game's refusals, costs, and a budget that refused actions never touch."""

from __future__ import annotations

import numpy as np
import pytest
from skylines_helpers import build, city, inland, preview

from gcc_envs.games.skylines.sim import networks, rules


@pytest.fixture
def s():
    return city(1).state  # sea to the west, ramps at rows 12 and 27


def test_a_road_from_the_entry_ramp_costs_its_new_cells(s):
    ex, ey = s.terrain.entry
    p = build(s, "road", (ex, ey), (ex - 20, ey))
    assert p.cost == 20 * s.data.tools["road"].cost  # the ramp's own cell is not charged
    assert s.budget == 70000 - p.cost and s.stats.spent == p.cost
    assert s.road[ey, ex - 20 : ex].all() and not s.road[ey, ex]


@pytest.mark.parametrize(
    "tool, cells, error",
    [
        ("road", ((40, 5), (50, 5)), "Must connect to an existing road"),
        ("road", ((74, 12), (74, 13)), "Too short"),
        ("road", ((74, 12), (5, 12)), "Cannot build on water"),
        ("road", ((74, 3), (79, 3)), "Cannot build on the highway"),
        ("pumping_station", ((40, 8),), "Must be built on the shoreline"),
        ("drain_pipe", ((40, 8),), "Must be built on the shoreline"),
        ("wind_turbine", ((3, 8),), "Cannot build on water"),
        ("wind_turbine", ((79, 8),), "Outside the city limits"),
        ("residential", ((0, 0), (4, 4)), "Cannot zone on water"),
        ("residential", ((30, 2), (40, 6)), "Zones must be within 4 cells of a road"),
        ("dezone", ((30, 2), (40, 6)), "Nothing to de-zone here"),
    ],
)
def test_refused_placements_give_the_games_message_and_cost_nothing(s, tool, cells, error):
    p = preview(s, tool, *cells)
    assert not p.ok and p.error == error
    before = (s.budget, s.version, s.road.copy(), dict(s.services))
    assert rules.build(s, p) is False
    assert (s.budget, s.version) == before[:2] and np.array_equal(s.road, before[2])
    assert s.services == before[3]


def test_not_enough_money_is_refused_and_zoning_stays_free(s):
    s.budget = 5000.0
    assert preview(s, "wind_turbine", (40, 8)).error == "Not enough money"
    assert preview(s, "coal_plant", (40, 8)).error == "Not enough money"
    ex, ey = s.terrain.entry
    build(s, "road", (ex, ey), (ex - 30, ey))
    left = s.budget
    p = build(s, "residential", (ex - 30, ey - 4), (ex - 1, ey - 1))
    assert p.cost == 0 and s.budget == left and (s.zone == 1).sum() == 30 * 4


def test_zoning_reaches_four_cells_from_a_road_only(s):
    ex, ey = s.terrain.entry
    build(s, "road", (ex, ey), (ex - 30, ey))
    build(s, "industrial", (ex - 30, ey - 9), (ex - 1, ey + 9))
    rows = np.flatnonzero((s.zone == 3).any(axis=1))
    assert rows.min() == ey - 4 and rows.max() == ey + 4 and not (s.zone[ey] > 0).any()


def test_a_pump_on_the_shore_shows_its_estimated_production(s):
    x = inland(s, int(np.flatnonzero(~s.terrain.water[3])[0]))
    p = preview(s, "pumping_station", (x, 3))
    assert p.ok, p.error
    line = next(i for i in p.info if i.startswith("Estimated production"))
    assert line.endswith("m³/week") and 40000 <= int(line.split()[2].replace(",", "")) <= 120000


def test_a_wind_turbine_makes_more_where_the_wind_is_stronger(s):
    w = s.terrain.wind
    land = ~s.terrain.water & ~s.terrain.highway & ~s.terrain.ramp
    strong = np.unravel_index(np.argmax(np.where(land, w, 0)), w.shape)
    weak = np.unravel_index(np.argmin(np.where(land, w, 9)), w.shape)
    hi = preview(s, "wind_turbine", (int(strong[1]), int(strong[0])))
    lo = preview(s, "wind_turbine", (int(weak[1]), int(weak[0])))
    mw = [float(p.info[2].split()[2]) for p in (hi, lo)]
    assert mw[0] > mw[1] and mw[0] <= 8.0


def test_the_bulldozer_refunds_half_and_cannot_touch_the_highway(s):
    ex, ey = s.terrain.entry
    build(s, "road", (ex, ey), (ex - 10, ey))
    left = s.budget
    assert rules.bulldoze(s, (ex - 5, ey)).startswith("Road removed")
    assert s.budget == left + 0.5 * s.data.tools["road"].cost and not s.road[ey, ex - 5]
    assert rules.bulldoze(s, (ex, ey)) == "Cannot bulldoze the highway"
    assert rules.bulldoze(s, (40, 2)) == "Nothing to bulldoze here"


def test_a_road_from_entry_to_exit_closes_the_loop_through_the_highway(s):
    (ex, ey), (xx, xy) = s.terrain.entry, s.terrain.exit
    build(s, "road", (ex, ey), (ex - 20, ey))
    build(s, "road", (ex - 20, ey), (ex - 20, xy))
    assert not networks.roads(s).closed_loop  # a dead end so far
    build(s, "road", (ex - 20, xy), (xx, xy))
    rd = networks.roads(s)
    assert rd.closed_loop and rd.looped[ey, ex - 10] and rd.zoneable.sum() > 300
