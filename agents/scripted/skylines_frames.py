"""The Skylines planner's eyes without privileges: the plot as read from frames.

Two frames are enough to plan: the untouched plot at reset (the sea, the highway and its two
ramps, the owned land, the woods — :func:`gcc_envs.games.skylines.vision.read_ground`) and the
wind view the wind-turbine tool opens (:func:`~gcc_envs.games.skylines.vision.read_wind`).
:func:`seen_city` turns them into a city state the blueprint can plan on, with the game's
published rules and prices (``data/``, what its manual and tooltips tell a player) and the
starting budget the task's instruction states (₡70,000 for BuildCity; its figure is not drawn
at 180 × 320, so it is not read). Nothing here reads the simulator's state.
"""

from __future__ import annotations

import cv2
import numpy as np

from gcc_envs.errors import GCCError
from gcc_envs.games.skylines import vision
from gcc_envs.games.skylines.sim.data import load_data
from gcc_envs.games.skylines.sim.layout import COLS
from gcc_envs.games.skylines.sim.state import CityState, Terrain


def highway_columns(ground: vision.Ground) -> np.ndarray:
    """Map columns that are grey from top to bottom (the highway)."""
    return np.flatnonzero(ground.grey.all(axis=0))


def wind_probe_cell(ground: vision.Ground) -> tuple[int, int]:
    """A highway cell to point the wind-turbine tool at (its preview hides no land)."""
    cols = highway_columns(ground)
    if not cols.size:
        raise GCCError("no highway seen on the first frame: is it the untouched Skylines plot?")
    return int(cols[0]), 1


def seen_terrain(ground: vision.Ground, wind: np.ndarray) -> Terrain:
    """The terrain as the frames show it."""
    hw = np.zeros_like(ground.grey)
    cols = highway_columns(ground)
    if not cols.size:
        raise GCCError("no highway seen on the first frame")
    hw[:, cols] = True
    ramp = ground.grey & ~hw
    rows = np.flatnonzero(ramp.any(axis=1))
    if rows.size != 2:
        raise GCCError(f"expected two ramps on the first frame, saw {rows.size}")
    east = bool(ground.water[:, 0].sum() < ground.water[:, -1].sum())

    def end(r: int) -> tuple[int, int]:  # the ramp's cell farthest from the highway
        xs = np.flatnonzero(ramp[r])
        return (int(xs.max()) if east else int(xs.min()), int(r))

    water = ground.water.copy()
    land = ~water & ~hw & ~ramp
    # owned land is drawn bright; whole rows are owned or not
    owned_rows = (ground.bright & land).sum(axis=1) * 2 >= land.sum(axis=1)
    owned = np.repeat(owned_rows[:, None], COLS, axis=1)
    land_u8 = (~water).astype(np.uint8)
    depth = cv2.distanceTransform(1 - land_u8, cv2.DIST_L2, 3).astype(np.float32)
    cross = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)
    shore = cv2.dilate(water.astype(np.uint8), cross).astype(bool) & ~water
    grids = [water, shore, depth, hw, ramp, wind.astype(np.float32), ground.trees.copy(), owned]
    for g in grids:
        g.setflags(write=False)
    return Terrain(
        sea_side="east" if east else "west",
        water=grids[0],
        shore=grids[1],
        depth=grids[2],
        highway=grids[3],
        ramp=grids[4],
        entry=end(int(rows[0])),
        exit=end(int(rows[1])),
        wind=grids[5],
        trees=grids[6],
        owned=grids[7],
    )


def seen_city(bare: np.ndarray, wind_view: np.ndarray, scenario: str) -> CityState:
    """A city state to plan on, from the untouched plot's frame and its wind view."""
    ground = vision.read_ground(bare)
    wind = vision.read_wind(bare, wind_view, ground.water)
    data = load_data()
    scn = data.scenarios[scenario]
    terrain = seen_terrain(ground, wind)
    return CityState(data, scn, terrain, np.random.default_rng(0), float(scn.budget))
