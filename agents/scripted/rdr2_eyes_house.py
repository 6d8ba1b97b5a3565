"""The frame-only player's search of a house: to each unsearched drawer or cupboard in view.

Furniture not yet searched shows its fronts in bare wood (the art's flat ``WOOD`` panels);
searched, they go dark. Each step the player holds ``r`` where the ``[R] Search (hold)`` prompt
shows; else walks to the nearest wooden front in view (its bearing from its column, its
distance from where it meets the floor); else turns a quarter to look round the room, and after
a full turn with nothing found, walks into the most open floor (the next room), another way
each time such a walk got nowhere.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from agents.scripted.rdr2_body import call
from gcc_envs.games.rdr2 import vision, vision_view
from gcc_envs.games.rdr2.live import SIM_CAMERA

#: The bare wood of a drawer or cupboard front (searched ones are darker), and its tolerance.
WOOD, WOOD_TOL = (153, 114, 74), 12
#: Least pixels of a front, and the share of its box the panel fills (flat paint, not grain).
MIN_AREA, MIN_FILL = 6, 0.6
#: Smaller patches than this low in the view are the floor's pale planks, not a front.
FLOOR_AREA, FLOOR_ROW = 20, 0.85
#: Eye height (m); the search prompt shows within about this of a front (m).
EYE_M, REACH_M = 1.6, 1.5
#: Fronts further than this (m) are outside the house (crates in the yard, seen by the door).
ROOM_M = 9.0
FOOT_SPEED = 3.0
#: Mean change of the view (grey levels) under which a walk got nowhere, and steps the fronts
#: in view are then passed over.
STUCK_DIFF, IGNORE_STEPS = 2.0, 3
#: Turns (degrees) off the most open way tried by walks that keep getting nowhere.
AWAY = (0.0, 90.0, -90.0, 180.0)
#: Quarter turns in a row with nothing in view before the player walks on.
SCANS = 4


def wooden_fronts(frame: np.ndarray) -> list[vision_view.ScreenBlob]:
    """The unsearched drawer and cupboard fronts in view, one box each, largest first."""
    panels = vision_view.colour_blobs(frame, WOOD, WOOD_TOL, MIN_AREA, MIN_FILL)
    # drawer and cupboard panels are wider than tall; the wall's light battens are not
    panels = [p for p in panels if p.height >= 2 and p.width >= max(2.0, 0.8 * p.height)]
    low = FLOOR_ROW * frame.shape[0]
    panels = [p for p in panels if p.area >= FLOOR_AREA or p.top < low]
    return vision_view.merge_columns(panels)


class HouseSearch:
    """One step at a time of searching the room the player stands in."""

    def __init__(self) -> None:
        self.scans = 0
        self.side = 1.0
        #: The view before the last walk to a front (to tell when it got nowhere), and steps
        #: left of looking past the fronts in view (one out of reach, behind a wall).
        self.last_view: np.ndarray | None = None
        self.ignore = 0
        #: The minimap before the last walk into open floor, and walks in a row that got
        #: nowhere.
        self.walk_map: np.ndarray | None = None
        self.tries = 0

    def reset(self) -> None:
        self.scans = 0
        self.last_view = None
        self.ignore = 0
        self.walk_map = None
        self.tries = 0

    def step(
        self,
        obs: np.ndarray,
        labels: list[str],
        mm: np.ndarray,
        open_bearing: float,
        can: Callable[[str], bool],
    ) -> str:
        if "Search (hold)" in labels and can("loot"):
            self.scans = 0
            return call("loot")
        H, W = obs.shape[:2]
        before, self.last_view = self.last_view, None
        if before is not None and float(np.abs(before - obs.astype(np.int16)).mean()) < STUCK_DIFF:
            self.ignore = IGNORE_STEPS  # the walk got nowhere: that front is out of reach
        self.ignore = max(0, self.ignore - 1)
        fronts = [] if self.ignore else wooden_fronts(obs)
        hfov = SIM_CAMERA.hfov_deg
        near = []
        for f in fronts:
            d = vision_view.ground_distance(f.bottom, H, W, hfov, EYE_M)
            if f.bottom >= H - 1:  # its foot below the view: nearer than the view shows
                d = min(d, 2.0)
            if d <= ROOM_M:  # in the house, not a crate out in the yard
                near.append((d, f))
        if near:
            self.scans = 0
            d, f = min(near, key=lambda df: df[0])
            bearing, _ = vision.angle_to_point(f.x, (f.top + f.bottom) / 2, W, H, hfov)
            dur = min(2.0, max(0.2, (d - REACH_M) / FOOT_SPEED))
            self.last_view = obs.astype(np.int16)
            return call("turn_and_move_forward", degree=round(bearing, 1), duration=round(dur, 2))
        if self.scans < SCANS:
            self.scans += 1
            return call("turn", degree=90.0 * self.side)
        self.scans = 0
        self.side = -self.side
        # the minimap is turned as before the last walk (four quarter turns since): the same
        # picture means that walk got nowhere, and the next goes another way
        walked, self.walk_map = self.walk_map, mm.astype(np.int16)
        same = walked is not None and walked.shape == mm.shape
        if same and float(np.abs(walked - self.walk_map).mean()) < STUCK_DIFF:
            self.tries += 1
        else:
            self.tries = 0
        turn = (open_bearing + AWAY[self.tries % len(AWAY)] + 180.0) % 360.0 - 180.0
        return call("turn_and_move_forward", degree=round(turn, 1), duration=1.5)
