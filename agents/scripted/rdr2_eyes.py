"""The unprivileged RDR2 player: it reads only the frames, the instruction and its skill list.

What it sees is what a person sees: the key prompt at the bottom right (read by its width in
the HUD's font: ``[E] Mount``, ``[E] Dismount``, ``[E] Hitch Horse``, ...), the minimap (the
red route line, blue allies, red foes, the orange dot of its own horse), the view itself and the
instruction's "Now: ..." objective; which skills it may call is the library the env lists
(tutorial-gated skills appear once taught). Each step it answers one skill call:

* on foot with its horse's dot on the minimap and a ride ahead: walk to the horse, ``[E] Mount``;
* ``[E] Lead Horse`` / ``[E] Calm Horse`` prompts: take the horse by the reins;
* "follow ...": ``follow``; "hitch ...": the route line, then ``hitch_horse`` at its prompt;
  a door's prompt on the way: ``interact``; otherwise the route line with ``navigate_path``;
* "search the house": the route line in at the door, then under the roof each unsearched
  drawer and cupboard in view (bare wood), ``loot`` at ``[R] Search (hold)``
  (:mod:`agents.scripted.rdr2_eyes_house`);
* "buy supplies": the road on the minimap to the store's door (a door in sandstone boards),
  in, to the clerk's ``[E] Shop``, and a row of supplies read and bought from the catalogue
  (:mod:`agents.scripted.rdr2_eyes_shop`);
* "get the horse out of the barn": the barn horse found in the view by its coat, calmed and
  led by the reins at its prompts, walked (never run) along the route line and, near its end,
  straight to the marker and a little past so the horse arrives too; in the barn, where the
  line hides under the dots, out through the doorway (bright snow between the boards), or
  along the wall when none shows;
* "get John onto a horse": a wait for the carrying tutorial, then short legs back along where
  the route line starts until ``[E] Pick Up John``; carrying him, the route line down, then
  the end marker and its own horse's orange dot (straight at them once the line leads away),
  ``interact`` at ``[E] Put John on Horse`` (both: :mod:`agents.scripted.rdr2_eyes_horse`);
* "protect Dutch" / "fight off the wolves": a gun drawn, foes found by their red dots and in
  the view (an O'Driscoll's bandana, a wolf's coat), shot at and led by how fast they move
  across the view (:mod:`agents.scripted.rdr2_eyes_fight`). A second of thinking before each
  shot is long in a gunfight: it wins some fights with the O'Driscolls and few with the
  wolves, which close in faster than it can shoot ("combat remains difficult", as the paper
  found).

Where a guided walk got nowhere it tries ``climb`` once (a ledge, once the game has taught
climbing), then a sidestep.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from agents.scripted.rdr2_body import call, leg
from agents.scripted.rdr2_eyes_fight import Gunfight
from agents.scripted.rdr2_eyes_horse import HorseErrands
from agents.scripted.rdr2_eyes_house import HouseSearch
from agents.scripted.rdr2_eyes_shop import ShopTrip, shop_open
from gcc_envs.games.rdr2 import vision, vision_view
from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim import hud, minimap, text
from gcc_envs.games.rdr2.skills import sim_minimap

#: Prompt labels the player knows the look of, by key.
LABELS = {
    "E": (
        "Mount",
        "Dismount",
        "Hitch Horse",
        "Open Door",
        "Close Door",
        "Lead Horse",
        "Let Go of Horse",
        "Calm Horse",
        "Pick Up John",
        "Put John on Horse",
        "Shop",
    ),
    "R": ("Search (hold)",),
}
#: Least glyph score (brightness under the glyphs minus around them) of a prompt read.
MIN_SCORE = 70.0
#: Walking and riding speeds (m/s) for leg lengths; the horse is mounted from this close (m).
FOOT_SPEED, RIDE_SPEED, MOUNT_M = 3.0, 6.0, 1.8
#: A dot nearer than this (share of the minimap's radius) may hide under the arrow next.
NEAR_DOT = 0.15
#: Mean change (grey levels) of the minimap under which a guided walk got nowhere; a walk
#: whose minimap matches one of the last this many walks' goes round in a loop (a skill that
#: steers back and forth before a ledge).
STUCK_DIFF, LOOP_WALKS = 2.0, 3
#: The route line's end (share of the minimap's radius) that counts as inside the house.
HOUSE_NEAR = 0.15
#: Below this share of sky at the top of the view, the player is under a roof.
INDOORS_SKY = 0.1
#: Objectives that are fights, and the foe.
FIGHTS = {"protect dutch": "enemy", "fight off the wolves": "wolf"}
#: Objectives that are rides (the horse first).
RIDES = ("follow dutch", "follow javier", "return to camp")


#: A blue dot nearer than this (share of the minimap's radius) is beside the player; searching
#: looks for dots within this many degrees of ahead (not back the way it came).
SELF_DOT, AHEAD_DEG = 0.1, 120.0
#: A searched-for dot nearer than this is walked to in short steps.
CLOSE_DOT = 0.35
#: Degrees either side of the way the route line led within which a search's legs go (it
#: does not walk back down the way it came).
SEARCH_REACH = 110.0
#: Degrees either side of ahead within which the dot a search leg went to is sought again.
KEEP_DEG = 40.0
#: Minimap pixels further than this (grey levels) from the ground under the player are another
#: level, a wall, a rock or a tree.
OTHER_GROUND = 20.0


def open_bearing(mm: np.ndarray, heading: float = 0.0, reach: float = 180.0) -> float:
    """The bearing (degrees, 0 ahead, + right; not behind) along which the minimap shows the
    ground the player stands on furthest from them (the shade of each level differs); of
    equals, the one nearest ahead. With ``heading`` (the player's heading, degrees, from a
    direction kept), only bearings within ``reach`` of that direction, or the nearest to it."""
    h, w = mm.shape[:2]
    grey = mm[..., :3].astype(np.float32).mean(axis=2)
    cx, cy, half = (w - 1) / 2.0, (h - 1) / 2.0, min(h, w) / 2.0
    near = vision._disc_mask(h, w, 0.2, 0.3)
    here = float(np.median(grey[near]))
    turns = np.arange(-105.0, 106.0, 15.0)
    kept = [b for b in turns if abs(geo.angle_diff(heading + b, 0.0)) <= reach]
    if not kept:
        return float(min(turns, key=lambda b: abs(geo.angle_diff(heading + b, 0.0))))
    best, best_run = kept[0], -1.0
    for b in sorted(kept, key=abs):
        r, run = math.radians(b), 0.0
        for f in np.arange(0.2, 0.95, 0.03):
            x, y = int(round(cx + f * half * math.sin(r))), int(round(cy - f * half * math.cos(r)))
            if not (0 <= x < w and 0 <= y < h) or abs(grey[y, x] - here) > OTHER_GROUND:
                break
            run = f
        if run > best_run + 0.05:
            best, best_run = float(b), run
    return best


def read_prompts(frame: np.ndarray) -> list[str]:
    """The key prompts shown, bottom line first: each line is matched against the look of
    every known prompt in the HUD's font, where the HUD puts it (right-aligned, stacked)."""
    h, w = frame.shape[:2]
    s = hud.scale(h, w)
    size = hud.px(hud.PROMPT_PX, s)
    step = round(size * 2.0)
    right = w - hud.px(28, s) - hud.px(8, s) // 2
    out = []
    for k in range(2):
        y = h - hud.px(36, s) - k * step
        best, best_score = None, MIN_SCORE
        for key, labels in LABELS.items():
            for label in labels:
                m = text.mask(f"[{key}] {label}", size, True)
                mh, mw = m.shape
                score = vision.glyph_score(frame, m, round(right - mw), round(y - mh))
                if score > best_score:
                    best, best_score = label, score
        if best is None:
            break
        out.append(best)
    return out


def objective(instruction: str) -> str:
    """The "Now: ..." part of a checkpoint's instruction, lower case (``""`` when none)."""
    m = re.search(r"Now:\s*(.+?)\.?\s*$", instruction)
    return m.group(1).lower() if m else ""


class RDR2Eyes:
    """A frame-reading player (``ScriptedPolicy(env, privileged=False)`` for RDR2)."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.goal = ""
        self.colours = vision.HudColours()
        #: The minimaps before the last guided walks in a row (to tell when they got nowhere),
        #: and the side the next sidestep goes.
        self.walk_maps: list[np.ndarray] = []
        self.side = 1.0
        #: The horse's dot was last seen about to go under the player's arrow.
        self.horse_near = False
        #: The last move that got nowhere was answered with a climb.
        self.climbed = False
        #: The objective marker's distance (share of the minimap's radius) at the last look.
        self.marker_dist: float | None = None
        #: Walks in a row that got no closer to the marker.
        self.marker_fails = 0
        #: Blue dots walked to while searching; the route line's end was reached searching.
        self.looked = 0
        self.searching = False
        #: The player's heading (degrees) from the one it had where the search began; the
        #: last search leg went to a dot.
        self.search_heading = 0.0
        self.chasing = False
        self.target_near = False
        #: Searching a house: the player reached the route line's end inside it.
        self.house = HouseSearch()
        self.in_house = False
        #: Going to the store (no route line: the road, the door, the counter, the catalogue).
        self.shop = ShopTrip()
        #: Fighting the foes the objective names (O'Driscolls, wolves).
        self.fight = Gunfight()
        #: Leading the barn horse out; carrying John to a horse.
        self.errands = HorseErrands()

    def reset(self, info: dict[str, Any]) -> None:
        self.goal = objective(str(info.get("instruction", "")))
        self.walk_maps = []
        self.climbed = False
        self.marker_dist = None
        self.marker_fails = 0
        self.looked = 0
        self.searching = False
        self.search_heading = 0.0
        self.chasing = False
        self.target_near = False
        self.house.reset()
        self.in_house = False
        self.shop.reset()
        self.fight.reset()
        self.errands.reset()

    def can(self, skill: str) -> bool:
        return skill in self.env.skills  # the library the env lists (curated by tutorials)

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> str:
        mm = vision.minimap_crop(obs, sim_minimap(*obs.shape[:2]))
        before, self.walk_maps = self.walk_maps, []
        if before:
            here = mm.astype(np.int16)
            moved = min(float(np.abs(b.astype(np.int16) - here).mean()) for b in before)
            if moved < STUCK_DIFF:  # the map stood still (or came back): something is in the way
                if self.can("climb") and not self.climbed:  # a ledge, as like as not
                    self.climbed = True
                    self.walk_maps = [mm.copy()]
                    return call("climb")
                self.climbed = False
                self.side = -self.side
                self.search_heading += 70.0 * self.side
                return call("turn_and_move_forward", degree=70.0 * self.side, duration=0.8)
            self.climbed = False
        step = self._act(obs, info, mm)
        if step.startswith(("follow(", "navigate_path(")):
            self.walk_maps = [*before[-(LOOP_WALKS - 1) :], mm.copy()]
        elif self.walk_maps:  # a search leg (:meth:`_search` keeps its own map)
            self.walk_maps = [*before[-(LOOP_WALKS - 1) :], *self.walk_maps]
        return step

    def _act(self, obs: np.ndarray, info: dict[str, Any], mm: np.ndarray) -> str:
        foe = next((k for g, k in FIGHTS.items() if self.goal.startswith(g)), None)
        if foe is not None:
            return self.fight.step(obs, mm, self.colours, foe, self.can)
        shopping = self.goal.startswith("buy")
        if shopping and shop_open(obs):
            return self.shop.menu(obs, self.can)
        labels = read_prompts(obs)
        route = vision.route_bearing(mm, self.colours)
        if shopping and route is None:
            return self.shop.step(obs, labels, mm, self.colours)
        errand = self.errands.step(self.goal, obs, labels, mm, route, self.colours)
        if errand is not None:
            return errand
        horse = vision.blips(mm, self.colours.horse, self.colours)
        mounted = bool({"Dismount", "Hitch Horse"} & set(labels))
        leading = "Let Go of Horse" in labels
        if {"Lead Horse", "Calm Horse"} & set(labels):
            return call("interact")
        if any(self.goal.startswith(r) for r in RIDES) and not mounted and not leading:
            near, self.horse_near = self.horse_near, False
            if "Mount" in labels:
                return call("mount_horse")
            if horse:
                self.horse_near = horse[0].distance < NEAR_DOT
                return self.walk_to(horse[0])
            if near:  # it went under the arrow a step short: a little closer
                return call("move_forward", duration=0.3)
            return call("turn_and_move_forward", degree=90.0, duration=0.5)  # look round
        if self.goal.startswith("follow"):
            return call("follow", duration=20)
        if "Hitch Horse" in labels and self.can("hitch_horse"):
            return call("hitch_horse")
        if {"Open Door", "Shop", "Pick Up John", "Put John on Horse"} & set(labels):
            return call("interact")
        if "Search (hold)" in labels and self.can("loot"):
            return call("loot")
        if self.goal.startswith("search the house"):
            if not self.in_house:  # at the route line's end once: inside
                marker = vision.blips(mm, self.colours.objective, self.colours)
                arrived = marker[0].distance < HOUSE_NEAR if marker else route is None
                self.in_house = arrived
            if self.in_house and vision_view.sky_share(obs) < INDOORS_SKY:  # under its roof
                return self.house.step(obs, labels, mm, open_bearing(mm), self.can)
        if self.searching:  # past the line's end once: the line leads back, not on
            return self._search(mm)
        marker = vision.blips(mm, self.colours.objective, self.colours)
        if route is not None:
            return call("navigate_path", duration=20)
        if marker:  # a line too short (or too hidden) to read: head for its marker
            last, self.marker_dist = self.marker_dist, marker[0].distance
            closer = last is None or marker[0].distance < last - 0.02
            if closer:
                self.climbed = False  # a ledge further on may need its own climb
            if not closer and self.can("climb") and not self.climbed:  # a ledge in the way
                self.climbed = True
                return call("climb")
            self.marker_fails = 0 if closer else self.marker_fails + 1
            if self.marker_fails % 2 == 1:  # pressed against a wall: every other try, aside
                self.side = -self.side
                return call("turn_and_move_forward", degree=70.0 * self.side, duration=0.8)
            return self.walk_to(marker[0], mounted, stop_m=1.0)
        if self.goal.startswith("search"):  # at the line's end: look for a blue dot
            self.searching = True
            self.search_heading = 0.0
            return self._search(mm)
        if vision.blips(mm, self.colours.ally, self.colours):  # the way is hidden: go along
            return call("follow", duration=20)
        return call("wait", duration=0.5)

    def _search(self, mm: np.ndarray) -> str:
        """A step of looking for someone off the route line: to the farthest blue dot ahead,
        else a leg into the most open ground on the minimap."""
        allies = vision.blips(mm, self.colours.ally, self.colours)
        ahead = [a for a in allies if a.distance > SELF_DOT and abs(a.bearing) <= AHEAD_DEG]
        self.walk_maps = [mm.copy()]  # watch that each leg gets somewhere (a ledge: climb)
        near, self.target_near = self.target_near, False
        if ahead:
            self.looked += 1
            # the dot walked to last, now about ahead, else the farthest (the companion stays
            # by the line's end; the one searched for lies further on)
            faced = [a for a in ahead if abs(a.bearing) <= KEEP_DEG] if self.chasing else []
            dot = (
                min(faced, key=lambda a: abs(a.bearing))
                if faced
                else max(ahead, key=lambda a: a.distance)
            )
            self.chasing = True
            self.search_heading += dot.bearing
            if dot.distance < CLOSE_DOT:  # short steps: the dot goes under the arrow
                self.target_near = True
                return call("turn_and_move_forward", degree=round(dot.bearing, 1), duration=0.5)
            return self.walk_to(dot, stop_m=1.0)
        self.chasing = False
        if near:  # the dot went under the arrow: a step on
            return call("move_forward", duration=0.4)
        turn = open_bearing(mm, self.search_heading, SEARCH_REACH)
        self.search_heading += turn
        return call("turn_and_move_forward", degree=turn, duration=2.0)

    def walk_to(self, dot: vision.Blip, mounted: bool = False, stop_m: float = MOUNT_M) -> str:
        """A leg towards a minimap dot (the minimap shows more metres when riding)."""
        view, speed = (
            (minimap.VIEW_MOUNTED_M, RIDE_SPEED)
            if mounted
            else (
                minimap.VIEW_FOOT_M,
                FOOT_SPEED,
            )
        )
        return leg(dot.bearing, dot.distance * view - stop_m, speed)


__all__ = ["RDR2Eyes", "objective", "read_prompts"]
