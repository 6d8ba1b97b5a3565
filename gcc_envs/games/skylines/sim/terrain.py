"""Seeded terrain: the sea and its shoreline, the highway with two ramps, wind and woods.

Laid out with the sea to the west and mirrored when the seed puts it east. The shoreline sits
``land`` cells (a scenario range) from the highway, bent by a sum of three random waves and a
bay or headland; the highway runs down the far edge with an entry and an exit ramp whose rows
and spacing vary; the wind map is smooth noise, stronger toward the sea; woods are noise
clusters. Only the generator passed in is used.

>>> import numpy as np
>>> from gcc_envs.games.skylines.sim.data import load_data
>>> t = generate(load_data().scenarios["city"], np.random.default_rng(0))
>>> t.water.shape, t.sea_side, bool(t.highway[:, 0].all()), bool(t.ramp[t.entry[1], t.entry[0]])
((34, 80), 'east', True, True)
"""

from __future__ import annotations

import cv2
import numpy as np

from gcc_envs.games.skylines.sim.data import Scenario
from gcc_envs.games.skylines.sim.layout import COLS, ROWS
from gcc_envs.games.skylines.sim.state import Terrain

HIGHWAY_W = 2
RAMP_LEN = 3


def _smooth_noise(rng: np.random.Generator, coarse: tuple[int, int]) -> np.ndarray:
    """Noise in [0, 1] at map size, upsampled from a ``coarse`` (rows, cols) random grid."""
    g = rng.random(coarse).astype(np.float32)
    up = cv2.resize(g, (COLS, ROWS), interpolation=cv2.INTER_CUBIC)
    lo, hi = float(up.min()), float(up.max())
    return (up - lo) / max(hi - lo, 1e-6)


def _shoreline(rng: np.random.Generator, land: int) -> np.ndarray:
    """x of the first land cell per row, sea to the west."""
    rows = np.arange(ROWS, dtype=np.float64)
    mean = COLS - HIGHWAY_W - land
    x = np.full(ROWS, float(mean))
    for period, amp in ((rng.uniform(18, 30), 1.6), (rng.uniform(8, 14), 1.0), (5.0, 0.5)):
        x += amp * rng.uniform(0.4, 1.0) * np.sin(2 * np.pi * rows / period + rng.uniform(0, 6.3))
    # a bay (into the land) or a headland (into the sea)
    centre, width = rng.uniform(4, ROWS - 4), rng.uniform(3, 6)
    x += rng.choice((-1.0, 1.0)) * rng.uniform(2.0, 4.0) * np.exp(-(((rows - centre) / width) ** 2))
    return np.clip(np.round(x), 6, COLS - HIGHWAY_W - RAMP_LEN - 12).astype(np.int32)


def generate(scenario: Scenario, rng: np.random.Generator) -> Terrain:
    """A fresh terrain for ``scenario`` drawn from ``rng``."""
    land = int(rng.integers(scenario.land[0], scenario.land[1] + 1))
    east = bool(rng.random() < 0.5)
    shore_x = _shoreline(rng, land)
    cols = np.arange(COLS)[None, :]
    water = cols < shore_x[:, None]

    highway = np.zeros((ROWS, COLS), bool)
    highway[:, COLS - HIGHWAY_W :] = True
    gap = int(rng.integers(scenario.ramp_gap[0], scenario.ramp_gap[1] + 1))
    top = int(rng.integers(4, ROWS - 4 - gap))
    ramp = np.zeros((ROWS, COLS), bool)
    x_end = COLS - HIGHWAY_W - RAMP_LEN
    for r in (top, top + gap):
        ramp[r, x_end : COLS - HIGHWAY_W] = True
    entry, exit_ = (x_end, top), (x_end, top + gap)

    owned = np.ones((ROWS, COLS), bool)
    if scenario.owned_rows:
        mid = top + gap // 2
        r0 = int(np.clip(mid - scenario.owned_rows // 2, 0, ROWS - scenario.owned_rows))
        owned[:] = False
        owned[r0 : r0 + scenario.owned_rows, :] = True

    # distance from the shore, into the water and into the land
    land_mask = (~water).astype(np.uint8)
    depth = cv2.distanceTransform(1 - land_mask, cv2.DIST_L2, 3).astype(np.float32)
    inland = cv2.distanceTransform(land_mask, cv2.DIST_L2, 3).astype(np.float32)
    wind = 0.55 * _smooth_noise(rng, (4, 8)) + 0.45 * np.exp(-inland / 14.0)
    wind = np.clip(0.3 + 0.7 * (wind - wind.min()) / max(float(np.ptp(wind)), 1e-6), 0.3, 1.0)
    wind = np.round(wind.astype(np.float32), 2)

    woods = _smooth_noise(rng, (7, 14)) * (0.5 + 0.5 * rng.random((ROWS, COLS)))
    trees = (woods > 0.62) & ~water & ~highway & ~ramp & (inland > 2)
    near_ramp = cv2.dilate(ramp.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    trees &= ~near_ramp

    w4 = water.astype(np.uint8)
    wet_neighbour = cv2.dilate(w4, np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8))
    shore = wet_neighbour.astype(bool) & ~water

    grids = [water, shore, depth, highway, ramp, wind, trees, owned]
    if east:
        grids = [np.ascontiguousarray(g[:, ::-1]) for g in grids]
        entry = (COLS - 1 - entry[0], entry[1])
        exit_ = (COLS - 1 - exit_[0], exit_[1])
    for g in grids:
        g.setflags(write=False)
    water, shore, depth, highway, ramp, wind, trees, owned = grids
    return Terrain(
        sea_side="east" if east else "west",
        water=water,
        shore=shore,
        depth=depth,
        highway=highway,
        ramp=ramp,
        entry=entry,
        exit=exit_,
        wind=wind,
        trees=trees,
        owned=owned,
    )
