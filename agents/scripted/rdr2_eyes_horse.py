"""The frame-only RDR2 player's errands with the barn horse and with John, read from pixels.

* "get the horse out of the barn" (Mission 1, ``lead_horse``): the barn horse is found in the
  view by its coat (a flat tan that the barn's red boards and floor do not have), turned to
  and walked up to; ``interact`` at ``[E] Calm Horse`` and again at ``[E] Lead Horse`` takes
  it by the reins. Then it walks (never runs: the horse would pull free) along the minimap's
  red route line with ``navigate_path`` (straying off the line makes the horse balk). Once
  the line's end marker is near and the line runs straight to it, it walks straight at the
  marker and 1.5 m past, so the horse, two metres behind, reaches the end too. Inside the
  barn, where the short line hides under the dots by the door (or led it into a wall), it
  turns until the doorway shows (bright snow between the boards) and walks out through it;
  when a full turn shows none (the open door's panel can hide it), or it stands lost at the
  door's edge, it takes legs along the wall (turning back every third).
  When ``[E] Let Go of Horse`` has been missing two steps running, the reins slipped: it
  goes back to the horse.
* "get John onto a horse" (Mission 2, ``carry_john``): John lies in the snow a few metres
  behind, under the player's arrow on the minimap and below the view. After a wait (the game
  teaches carrying before its prompt shows) it walks short legs back along where the route
  line comes from, a little to its side (a blue dot well off the line is walked to instead)
  until ``[E] Pick Up John`` shows, and picks him up. Carrying him, it walks the route line
  down with ``navigate_path``; when a walk got the end marker no nearer it heads straight
  for the marker and its own horse's orange dot from then on, and when the minimap shows it
  got nowhere (pressed against a rock) it steps aside; ``interact`` at
  ``[E] Put John on Horse``.

Pure functions of frames and a small state machine; no game state.
"""

from __future__ import annotations

import numpy as np

from agents.scripted.rdr2_body import call, leg
from gcc_envs.games.rdr2 import vision, vision_view
from gcc_envs.games.rdr2.live import SIM_CAMERA
from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.minimap import VIEW_FOOT_M

#: The barn horse's coat (RGB) as the view paints it, and how far a pixel may stray from it.
BARN_COAT, COAT_TOL = (196, 161, 108), 22
#: Least pixels of coat that make a horse (a far one is small).
MIN_COAT_PX = 12
#: Under a roof below this share of sky atop the view; the outdoors is brighter than
#: ``OUT_LEVEL`` (mean grey) and a doorway at least ``MIN_DOOR`` of the view's width.
INDOORS_SKY, OUT_LEVEL, MIN_DOOR = 0.1, 150, 0.04
#: Eye height (m) for distances along the ground, walking speed (m/s), carrying speed (m/s).
EYE_M, FOOT_SPEED, CARRY_SPEED = 1.6, 3.0, 2.2
#: John lies about this many degrees (clockwise) round from straight back along the route
#: line (it starts by him).
JOHN_OFF_DEG = 38.0
#: Short probing legs (s) while looking for John, and how many before turning about.
PROBE_S, PROBES = 0.35, 4
#: A walk that got the marker no nearer than this (share of the radius) got nowhere.
STALL = 0.02
#: A marker this far out (share of the radius) sits on the rim: further than the map shows.
ON_RIM = 0.72
#: Mean change (grey levels) of the minimap under which a walk along the line got nowhere.
STILL = 3.0
#: A blue dot this far round from the route line's bearing is John, not Javier (degrees).
OFF_LINE_DEG = 70.0
#: The own horse's dot nearer than this (share of the minimap's radius) is walked to.
HORSE_DOT_NEAR = 0.45
#: Further than this (share of the minimap's radius) the route line's end is reached along
#: the line (``navigate_path``); nearer, straight at its marker, ``OVERSHOOT_M`` past it.
FAR_END, OVERSHOOT_M = 0.3, 1.5
#: A route line leaving this far (degrees) off its end's bearing bends round something.
BENDS_DEG = 30.0


def horse_in_view(frame: np.ndarray) -> tuple[float, float] | None:
    """The barn horse in the view: (bearing in degrees, + right; metres to where it stands),
    or None when no patch of its coat shows. A horse cut off by the bottom of the view is
    near (about 3 m)."""
    H, W = frame.shape[:2]
    blobs = vision_view.colour_blobs(frame, BARN_COAT, COAT_TOL, min_area=2, rows=(0.05, 1.0))
    blobs = vision_view.merge_columns(blobs, gap=2)
    if not blobs or blobs[0].area < MIN_COAT_PX:
        return None
    b = blobs[0]
    yaw, _ = vision.angle_to_point(b.x, H / 2.0, W, H, SIM_CAMERA.hfov_deg)
    if b.bottom >= H - 1:
        return yaw, 3.0
    # the coat ends above the hooves: the legs' dark ends are ~7 % of the horse's height
    ground = b.bottom + 0.08 * b.height
    return yaw, min(30.0, vision_view.ground_distance(ground, H, W, SIM_CAMERA.hfov_deg, EYE_M))


def doorway(frame: np.ndarray) -> float | None:
    """The bearing (degrees, + right) of the widest run of columns that show the bright
    outdoors (snow, sky: light and not red) through the middle of the view, as through a
    barn's open door; None when there is none at least ``MIN_DOOR`` of the width."""
    H, W = frame.shape[:2]
    band = frame[int(0.4 * H) : int(0.7 * H)].astype(np.int16)
    light = (band.sum(axis=2) > 3 * OUT_LEVEL) & (band[..., 2] >= 0.8 * band[..., 0])
    cols = light.mean(axis=0) > 0.6
    best, best_len, start = None, 0, None
    for x in range(W + 1):
        if x < W and cols[x]:
            start = x if start is None else start
        elif start is not None:
            if x - start > best_len:
                best, best_len = (start + x - 1) / 2.0, x - start
            start = None
    if best is None or best_len < MIN_DOOR * W:
        return None
    yaw, _ = vision.angle_to_point(best, H / 2.0, W, H, SIM_CAMERA.hfov_deg)
    return yaw


class HorseErrands:
    """Leading the barn horse out (``lead_horse``) and carrying John to a horse
    (``carry_john``), one skill call a step; :meth:`step` answers None for other objectives."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.goal = ""
        self.steps = 0
        self.leading = False
        self.carrying = False
        self.probes = 0
        self.unled = 0
        self.scans = 0
        self.wall_tries = 0
        self.wall_side = 1.0
        self.last_end: float | None = None
        self.stalls = 0
        self.direct = False
        self.walked: list[np.ndarray] = []
        self.side = 1.0

    def step(
        self,
        goal: str,
        obs: np.ndarray,
        labels: list[str],
        mm: np.ndarray,
        route: float | None,
        colours: vision.HudColours,
    ) -> str | None:
        if goal != self.goal:  # a new checkpoint: a fresh errand
            self.reset()
            self.goal = goal
        if goal.startswith("get the horse out"):
            out = self._lead(obs, labels, mm, route, colours)
        elif goal.startswith("get john onto"):
            out = self._carry(labels, mm, route, colours)
        else:
            return None
        self.steps += 1
        return out

    # ------------------------------------------------------------ the barn horse
    def _lead(
        self,
        obs: np.ndarray,
        labels: list[str],
        mm: np.ndarray,
        route: float | None,
        colours: vision.HudColours,
    ) -> str:
        if "Calm Horse" in labels:  # spooked (again): calm it, then take the reins anew
            self.leading = False
            return call("interact")
        if "Lead Horse" in labels:
            self.leading = True
            return call("interact")
        if self.leading and "Let Go of Horse" not in labels:  # out of reach: did it stop?
            self.unled += 1
            if self.unled >= 2:  # the reins slipped: back to it
                self.leading = False
        else:
            self.unled = 0
        if not self.leading:
            seen = horse_in_view(obs)
            if seen is None:  # look round for it
                return call("turn", degree=60.0)
            yaw, metres = seen
            if abs(yaw) > 25.0 and metres > 3.5:
                return call("turn", degree=round(yaw, 1))
            dur = min(1.5, max(0.25, (metres - 2.0) / FOOT_SPEED))
            return call("turn_and_move_forward", degree=round(yaw, 1), duration=dur)
        indoors = vision_view.sky_share(obs) < INDOORS_SKY
        if indoors and (route is None or self.scans):  # in the barn, the line hidden under
            door = doorway(obs)  # the dots by its door (or led into a wall): the doorway
            if door is not None:
                self.scans = 0
                return call("turn_and_move_forward", degree=round(door, 1), duration=1.0)
            if self.scans < 6:  # look round for it
                self.scans += 1
                return call("turn", degree=60.0)
            self.scans = 0
            if route is None:  # none in sight (the open door's panel hides it): along the wall
                return self._along_wall()
        marker = vision.blips(mm, colours.objective, colours, min_area=2)
        if marker and route is not None:  # the line bends (round a wall): along it
            if (
                marker[0].distance > FAR_END
                or abs(geo.angle_diff(route, marker[0].bearing)) > BENDS_DEG
            ):
                return call("navigate_path", duration=20)
        if marker:  # the line's end near: straight at it and a little past (the horse trails)
            return self._leg(marker[0], OVERSHOOT_M)
        allies = vision.blips(mm, colours.ally, colours)
        if allies and allies[0].distance < FAR_END:  # Micah waits at the end, over its marker
            return self._leg(allies[0], 0.0)
        if route is not None:
            return call("navigate_path", duration=20)
        door = doorway(obs)  # lost at the door's edge: through the gap, else along the wall
        if door is not None:
            return call("turn_and_move_forward", degree=round(door, 1), duration=0.6)
        return self._along_wall()

    def _along_wall(self) -> str:
        """A leg along the wall the player is pressed against, turning back every third."""
        self.wall_tries += 1
        if self.wall_tries % 3 == 0:
            self.wall_side = -self.wall_side
        return call("turn_and_move_forward", degree=90.0 * self.wall_side, duration=1.0)

    @staticmethod
    def _leg(dot: vision.Blip, past_m: float) -> str:
        return leg(dot.bearing, dot.distance * VIEW_FOOT_M + past_m, FOOT_SPEED, min_s=0.3)

    # ------------------------------------------------------------ John
    def _carry(
        self, labels: list[str], mm: np.ndarray, route: float | None, colours: vision.HudColours
    ) -> str:
        if "Pick Up John" in labels:
            self.carrying = True
            return call("interact")
        if "Put John on Horse" in labels:
            return call("interact")
        if not self.carrying:
            if self.steps == 0:  # the game teaches carrying first (its prompt comes after)
                return call("wait", duration=1.0)
            return self._find_john(mm, route, colours)
        horse = vision.blips(mm, colours.horse, colours)
        marker = vision.blips(mm, colours.objective, colours, min_area=2)
        last, self.last_end = self.last_end, (marker[0].distance if marker else None)
        stalled = bool(last is not None and marker and last < ON_RIM)
        stalled = stalled and marker[0].distance > last - STALL
        self.stalls = self.stalls + 1 if stalled else 0
        now = mm.astype(np.int16)  # did any of the last three walks along the line get anywhere?
        walked, self.walked = self.walked, []
        still = any(float(np.abs(m - now).mean()) < STILL for m in walked if m.shape == now.shape)
        if stalled:  # the line led away from its end (a drop it cannot climb back): go direct
            self.direct = True
        if still or (self.stalls >= 3 and self.stalls % 2 == 1):  # pressed against a rock
            self.side = -self.side
            return call("turn_and_move_forward", degree=70.0 * self.side, duration=0.8)
        if horse and (horse[0].distance < HORSE_DOT_NEAR or route is None or self.direct):
            return self._carry_leg(horse[0], 1.5)
        if marker and (route is None or self.direct or marker[0].distance < FAR_END):
            return self._carry_leg(marker[0], 0.0)  # the horses stand by the line's end
        if route is not None:
            self.walked = [*walked[-2:], now]
            return call("navigate_path", duration=20)
        return call("turn", degree=60.0)  # look round for the line or the horse

    @staticmethod
    def _carry_leg(dot: vision.Blip, stop_m: float) -> str:
        return leg(dot.bearing, dot.distance * VIEW_FOOT_M - stop_m, CARRY_SPEED, min_s=0.3)

    def _find_john(self, mm: np.ndarray, route: float | None, colours: vision.HudColours) -> str:
        """A short leg towards where John lies: a blue dot well off the route line (Javier
        walks along it), else back along the line's start and a little to its side."""
        allies = vision.blips(mm, colours.ally, colours, min_area=2)
        if route is not None:
            off = [a for a in allies if abs(geo.angle_diff(a.bearing, route)) > OFF_LINE_DEG]
            off = [a for a in off if a.distance < 0.4]
            if off:
                dot = off[0]
                return call("turn_and_move_forward", degree=round(dot.bearing, 1), duration=PROBE_S)
        k, self.probes = self.probes, self.probes + 1
        if k == 0 and route is not None:
            return call(
                "turn_and_move_forward",
                degree=round(geo.angle_diff(route + 180.0 + JOHN_OFF_DEG, 0.0), 1),
                duration=PROBE_S,
            )
        if k < PROBES:
            return call("move_forward", duration=PROBE_S)
        # past him: a square of short legs round about
        return call(
            "turn_and_move_forward", degree=90.0, duration=PROBE_S * (1 + (k - PROBES) // 2)
        )


__all__ = ["HorseErrands", "doorway", "horse_in_view"]
