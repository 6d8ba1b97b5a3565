"""Building the general store on one of the town's plots (Mission 3's seeded store).

Every plot gets a closed house; the drawn one gets the store: store walls, a door in the middle
of the side facing the road, a counter along the back with a gap at one end, the clerk behind
it and a shelf. The clerk, the door, the shelf and the ``store`` area follow the plot.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from gcc_envs.games.rdr2.sim.data import MissionData, PropSpec, RegionData, StoreSlot
from gcc_envs.games.rdr2.sim.state import BLOCKS, CELL_M, GROUNDS

#: Wall blocks of the closed houses, by plot index (alternating, as a street looks).
HOUSE_WALLS = ("plank_wall", "window_wall")


def _house(
    walls: np.ndarray, ground: np.ndarray, roof: np.ndarray, slot: StoreSlot, block: str
) -> None:
    x0, y0, x1, y1 = slot.rect
    walls[y0:y1, x0:x1] = BLOCKS[block]
    walls[y0 + 1 : y1 - 1, x0 + 1 : x1 - 1] = 0
    ground[y0 + 1 : y1 - 1, x0 + 1 : x1 - 1] = GROUNDS["floor"]
    roof[y0 + 1 : y1 - 1, x0 + 1 : x1 - 1] = True


def build_store(
    region: RegionData, md: MissionData, slots: tuple[StoreSlot, ...], k: int
) -> tuple[RegionData, MissionData]:
    """The region and mission with the store on plot ``k`` and closed houses on the others."""
    walls, ground, roof = region.walls.copy(), region.ground.copy(), region.roof.copy()
    for i, slot in enumerate(slots):
        _house(walls, ground, roof, slot, HOUSE_WALLS[i % len(HOUSE_WALLS)])
    slot = slots[k]
    _house(walls, ground, roof, slot, "store_wall")
    x0, y0, x1, y1 = slot.rect
    south = slot.door_side == "south"
    door_col = x0 + (x1 - x0) // 2
    door_row = y1 - 1 if south else y0
    walls[door_row, door_col] = BLOCKS["door"]
    ground[door_row, door_col] = GROUNDS["floor"]
    roof[door_row, door_col] = True
    counter_row = y0 + 2 if south else y1 - 3
    walls[counter_row, x0 + 1 : x1 - 2] = BLOCKS["counter"]

    def row_m(depth: float) -> float:  # ``depth`` cells in from the back wall's outer edge
        return (y0 + depth if south else y1 - depth) * CELL_M

    clerk_yaw, door_yaw = (90.0, 90.0) if south else (270.0, 270.0)
    at = {
        "clerk": ((x0 + 4.5) * CELL_M, row_m(1.4), clerk_yaw),
        "store_shelf": ((x0 + 2.0) * CELL_M, row_m(1.2), clerk_yaw),
        "store_door": ((door_col + 0.5) * CELL_M, (door_row + 0.5) * CELL_M, door_yaw),
    }
    npcs = tuple(replace(n, at=at[n.name]) if n.name in at else n for n in md.npcs)
    props: list[PropSpec] = []
    for p in md.props:
        if p.id == "store_door":
            props.append(replace(p, at=at[p.id], cell=(door_col, door_row)))
        elif p.id in at:
            props.append(replace(p, at=at[p.id]))
        else:
            props.append(p)
    areas = dict(region.areas)
    areas["store"] = (x0 + 1, y0 + 1, x1 - 1, y1 - 1)
    for a in (walls, ground, roof):
        a.setflags(write=False)
    region = replace(region, walls=walls, ground=ground, roof=roof, areas=areas)
    return region, replace(md, npcs=npcs, props=tuple(props))
