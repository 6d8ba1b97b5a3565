"""Seeded terrain: the same seed gives the same plot; seeds vary the sea side, shore and ramps."""

from __future__ import annotations

import numpy as np
from skylines_helpers import city

from gcc_envs.games.skylines.sim.layout import COLS, ROWS


def test_the_same_seed_gives_the_same_terrain_and_frame():
    a, b = city(7), city(7)
    ta, tb = a.state.terrain, b.state.terrain
    assert np.array_equal(ta.water, tb.water) and np.array_equal(ta.wind, tb.wind)
    assert (ta.entry, ta.exit) == (tb.entry, tb.exit)
    assert np.array_equal(a.render(180, 320), b.render(180, 320))


def test_seeds_vary_the_sea_side_the_shoreline_and_the_ramps():
    terrains = [city(s).state.terrain for s in range(12)]
    assert {t.sea_side for t in terrains} == {"west", "east"}
    assert len({t.water.tobytes() for t in terrains}) == 12
    assert len({(t.entry, t.exit) for t in terrains}) >= 6
    assert len({round(float(t.wind.mean()), 3) for t in terrains}) >= 10


def test_the_highway_runs_along_the_far_edge_with_two_ramps_onto_land():
    for seed in range(6):
        t = city(seed).state.terrain
        edge = 0 if t.sea_side == "east" else COLS - 1
        assert t.highway[:, edge].all() and not t.highway[:, COLS // 2].any()
        for c, r in (t.entry, t.exit):
            assert t.ramp[r, c] and not t.water[r, c]
        assert t.water[:, COLS - 1 - edge].all()  # the sea reaches the other edge
        assert t.shore.any() and not (t.shore & t.water).any()
        assert 0.3 <= float(t.wind.min()) and float(t.wind.max()) <= 1.0


def test_the_block_owns_a_band_of_rows_around_the_ramps():
    t = city(3, "block").state.terrain
    rows = np.flatnonzero(t.owned.any(axis=1))
    assert len(rows) == 17 and rows.max() - rows.min() == 16
    assert rows.min() < t.entry[1] < t.exit[1] < rows.max()
    assert (t.shore & t.owned).any() and t.owned.shape == (ROWS, COLS)
