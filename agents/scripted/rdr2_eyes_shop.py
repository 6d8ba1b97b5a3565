"""The frame-only player's trip to the general store: along the road, in at its door, to the
counter, and a row of supplies bought from the catalogue.

With no route line to follow, the player walks the road on the minimap (the beige track) until
the store's door shows: a brown door set in the store's pale sandstone boards (the town's other
houses are dark planks, without doors). It walks to the door (``[E] Open Door`` is answered by
the player), through it, and on to the clerk until ``[E] Shop`` shows. In the catalogue it reads
each row's name in the menu's font, points at the first row of supplies and confirms.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from agents.scripted.rdr2_body import call
from gcc_envs.games.rdr2 import vision, vision_view
from gcc_envs.games.rdr2.live import SIM_CAMERA
from gcc_envs.games.rdr2.sim import hud, text
from gcc_envs.games.rdr2.sim.state import shop_row_rect

#: Catalogue rows that are supplies for the camp, and the others the store sells.
SUPPLY_ROWS = ("Canned Beans", "Coffee", "Biscuits", "Canned Food", "Medicine")
OTHER_ROWS = ("Tobacco", "Revolver Ammo")
#: Least glyph score of a row or the menu's title read.
MIN_SCORE = 60.0
MAX_ROWS = 6
#: Tints (green and blue over red) of the store's sandstone boards and of a door's brown wood.
SANDSTONE = ((0.84, 0.96), (0.62, 0.80))
DOOR_WOOD = ((0.56, 0.76), (0.28, 0.52))
#: The band of the view searched for the door (fractions of the height, above the horizon).
DOOR_BAND = (0.12, 0.5)
#: A door block's width (m): how far a door of a given width on screen is.
DOOR_M = 2.0
#: The road's colour on the minimap; walking speed (m/s).
ROAD = (196, 176, 136)
FOOT_SPEED = 3.0
#: The clerk's white shirt (HUD text is pure white), and its tolerance.
SHIRT, SHIRT_TOL = (240, 240, 236), 7
#: Degrees within which the player faces the door before opening it.
FACE_DEG = 10.0
#: Mean change of the minimap (grey levels) under which a walk got nowhere.
STUCK_DIFF = 2.0


def _read_line(
    frame: np.ndarray, labels: tuple[str, ...], x: float, y: float, size: int, bold: bool
) -> tuple[str | None, float]:
    """The label of ``labels`` whose look in the HUD's font best matches the text drawn
    left-aligned at ``x`` and centred on row ``y`` (white on dark, or dark on a light bar)."""
    inverted = 255 - frame
    best, best_score = None, MIN_SCORE
    for label in labels:
        m = text.mask(label, size, bold)
        mh, _ = m.shape
        x0, y0 = round(x), round(y - mh / 2)
        score = max(vision.glyph_score(frame, m, x0, y0), vision.glyph_score(inverted, m, x0, y0))
        if score > best_score:
            best, best_score = label, score
    return best, best_score


def shop_open(frame: np.ndarray) -> bool:
    """Whether the store's catalogue shows: its "General Store" title above the rows."""
    h, w = frame.shape[:2]
    s = hud.scale(h, w)
    u0, v0, _, _ = shop_row_rect(0)
    got, _ = _read_line(frame, ("General Store",), u0 * w, (v0 - 0.05) * h, hud.px(30, s), True)
    return got is not None


def shop_rows(frame: np.ndarray) -> list[str | None]:
    """The catalogue's rows as read, top first (None where a row reads as nothing known)."""
    h, w = frame.shape[:2]
    s = hud.scale(h, w)
    out: list[str | None] = []
    for i in range(MAX_ROWS):
        a0, b0, _, b1 = shop_row_rect(i)
        if b1 > 0.97:
            break
        y = (round(b0 * h) + round(b1 * h)) / 2
        got, _ = _read_line(
            frame, SUPPLY_ROWS + OTHER_ROWS, round(a0 * w) + hud.px(12, s), y, hud.px(22, s), False
        )
        out.append(got)
    return out


def hovered_row(frame: np.ndarray) -> int | None:
    """The catalogue row under the pointer: the one on a light bar."""
    h, w = frame.shape[:2]
    for i in range(MAX_ROWS):
        a0, b0, a1, b1 = shop_row_rect(i)
        if b1 > 0.97:
            break
        bar = frame[round(b0 * h) : round(b1 * h), round(a0 * w) : round(a1 * w)]
        if bar.size and float(np.median(bar)) > 170:
            return i
    return None


def store_door(frame: np.ndarray) -> tuple[float, float] | None:
    """(bearing in degrees, metres) of the store's door in view, or None: a run of brown
    door-wood columns with sandstone boards on both sides, above the horizon."""
    H, W = frame.shape[:2]
    band = frame[int(DOOR_BAND[0] * H) : int(DOOR_BAND[1] * H)]
    wall = vision_view.tint_mask(band, *SANDSTONE, min_r=70)
    door = vision_view.tint_mask(band, *DOOR_WOOD, min_r=30)
    got = vision_view.door_in_wall(wall, door)
    if got is None:
        return None
    x0, x1 = got
    hfov = SIM_CAMERA.hfov_deg
    bearing, _ = vision.angle_to_point((x0 + x1 - 1) / 2.0, H / 2.0, W, H, hfov)
    yaw0, _ = vision.angle_to_point(x0, H / 2.0, W, H, hfov)
    yaw1, _ = vision.angle_to_point(x1, H / 2.0, W, H, hfov)
    width = np.radians(max(0.5, yaw1 - yaw0))
    return bearing, DOOR_M / width


def clerk_bearing(frame: np.ndarray) -> float | None:
    """Bearing (degrees) of the store clerk in view: his white shirt, the largest patch of
    it above the HUD's text; None when he is not in view."""
    H, W = frame.shape[:2]
    shirts = vision_view.colour_blobs(frame, SHIRT, SHIRT_TOL, min_area=2, rows=(0.1, 0.8))
    # not the HUD's white core icons over the minimap
    shirts = [b for b in shirts if b.height >= 2 and not (b.right < 0.1 * W and b.top > 0.6 * H)]
    if not shirts:
        return None
    b = shirts[0]
    bearing, _ = vision.angle_to_point(b.x, (b.top + b.bottom) / 2, W, H, SIM_CAMERA.hfov_deg)
    return bearing


class ShopTrip:
    """One step at a time of getting to the store's clerk and buying supplies."""

    def __init__(self) -> None:
        self.last_map: np.ndarray | None = None
        self.side = 1.0
        #: The store's door was opened (a roof overhead is the store's, not a wall ahead).
        self.entered = False

    def reset(self) -> None:
        self.last_map = None
        self.entered = False

    def menu(self, obs: np.ndarray, can: Callable[[str], bool]) -> str:
        """A step in the catalogue: point at the first row of supplies, then buy it."""
        rows = shop_rows(obs)
        want = next((i for i, r in enumerate(rows) if r in SUPPLY_ROWS), None)
        if want is None:
            return call("wait", duration=0.3)
        if hovered_row(obs) == want and can("confirm"):
            return call("confirm")
        h, w = obs.shape[:2]
        a0, b0, a1, b1 = shop_row_rect(want)
        return call("select_item_at", x=int((a0 + a1) / 2 * w), y=int((b0 + b1) / 2 * h))

    def step(
        self, obs: np.ndarray, labels: list[str], mm: np.ndarray, colours: vision.HudColours
    ) -> str:
        before, self.last_map = self.last_map, mm.astype(np.int16)
        stuck = before is not None and float(np.abs(before - self.last_map).mean()) < STUCK_DIFF
        self.entered |= "Close Door" in labels  # the store's door stands open
        indoors = self.entered and vision_view.sky_share(obs) < 0.05
        if "Shop" in labels:
            self.last_map = None
            return call("interact")
        door = store_door(obs)
        if "Open Door" in labels:  # face the door first, so as to walk straight in
            self.last_map = None
            if door is not None and abs(door[0]) > FACE_DEG:
                return call("turn", degree=round(door[0], 1))
            return call("interact")
        if stuck:  # pressed against something: step aside
            self.side = -self.side
            return call("turn_and_move_forward", degree=70.0 * self.side, duration=0.8)
        clerk = clerk_bearing(obs) if indoors or "Close Door" in labels else None
        if clerk is not None:  # on to the clerk at the counter, where his prompt shows
            return call("turn_and_move_forward", degree=round(clerk, 1), duration=0.7)
        if "Close Door" in labels:  # the door stands open: through it
            return call("move_forward", duration=1.2)
        if indoors:  # look round for the clerk
            self.last_map = None
            return call("turn", degree=60.0)
        if door is not None:
            bearing, metres = door
            dur = min(1.0, max(0.3, (metres - 1.5) / FOOT_SPEED))
            return call("turn_and_move_forward", degree=round(bearing, 1), duration=round(dur, 2))
        road = vision.ground_bearing(mm, ROAD, colours)
        if road is None:  # the road's end (or off it): look back the other way
            self.last_map = None
            return call("turn", degree=150.0)
        return call("turn_and_move_forward", degree=round(road, 1), duration=2.0)
