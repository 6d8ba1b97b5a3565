"""The frame-only player's gunfights: foes found on the minimap, picked out in the view, led.

Every hostile shows as a red dot on the minimap (O'Driscolls and wolves alike): its bearing and
distance. In view, an O'Driscoll shows the red bandana over his face, a wolf its cool grey coat
against the snow (:func:`~gcc_envs.games.rdr2.vision_view.wolf_figures`, which also reads the
way its head points, and sees through the red wash of a hurt view). The player draws its gun
once the weapon wheel is taught, turns to the nearest dot when no foe can be shot (looks about
when none is near), and otherwise shoots. A shot fires over a second after the frame it answers
(the agent's think time, the aim), so it is led.

O'Driscolls: at the chest below a bandana (the dead lie without a dot, and a bandana as low
as a body's on the ground, or where a shot felled one, is passed over). A man whose bandana
shows as far below the horizon as a kneeling man's face for his dot's distance is kneeling to
aim, and stays out past the shot: he is shot first, where he kneels. Else a man whose bandana
moved since the last frame is running, and is led at a runner's speed his way; one who stood
still is behind his cover, and is led to where O'Driscolls step out to shoot (to its right, as
seen from the player).

Wolves circle the player at about 8 m (weaving: they turn back at random), stop to growl, run
straight in to bite and back off round the player again (``sim/wolves.py``); a running or
circling one is too quick to lead from one frame (a circling wolf may turn back or set off on
its run before the shot), but a growling one crouches
where it stands for longer than a shot takes. So the player shoots the nearest crouched wolf in
view (a figure low and long for its distance, with a red dot its way) where it stands; with none
in view, each wolf in view is led by the sim's stalking rule (:func:`stalk_ahead`), or, where the
last frame shows it went round the other way, as running in to bite and backing off
(:func:`charge_ahead`). A horse's brown coat at the aim point stops a shot. The view's yaw and
pitch are the sums of the player's own turns (dead reckoning of its own mouse, in its whole
pixels), which is how two frames compare.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np

from agents.scripted.rdr2_body import call
from gcc_envs.games.rdr2 import vision, vision_view
from gcc_envs.games.rdr2.live import SIM_CAMERA
from gcc_envs.games.rdr2.sim import minimap

#: Eye height (m) on foot; the height (m) aimed at, by foe.
EYE_M = 1.6
AIM_M = {"wolf": 0.4, "enemy": 1.1}
#: Widest turn (degrees) a ``shoot`` makes onto a point in view; further off, turn first.
SHOOT_MAX_DEG = 30.0
#: The weapon drawn for each foe (the rifle fells an O'Driscoll with one shot).
WEAPON = {"wolf": "revolver", "enemy": "rifle"}
PITCH_LIMIT = 60.0
#: A wolf's speed running in (m/s), and how far (m) from the player it stops to bite.
WOLF_MS, BITE_STOP_M = 7.0, 1.28
#: A stalking wolf keeps this far (m) from the player, moves at this speed (m/s) and this much
#: round for each 1 of closing in (``sim/wolves.py``); the height (m) of its ears, the top of
#: its figure.
STALK_M, STALK_MS, STALK_ROUND, EARS_M = 8.0, 3.85, 0.8, 0.75
#: Degrees of slack when a wolf of the last frame is looked for in this one.
TRACK_DEG = 6.0
#: A wolf further than this (m) heading in runs at the player, straight on.
CHARGE_FROM_M = 10.0
#: A wolf's figure at least this many times as wide as tall is crouched, growling; a wolf's
#: length (m) from tail to snout.
CROUCH_FLAT, WOLF_LONG_M = 2.6, 1.4
#: Wolves further than this (m) are not shot at (they come nearer).
WOLF_FAR_M = 20.0
#: Pixels (at a width of 320) either side of a shot's column where a horse's colours stop it.
BLOCK_PX = 12
#: Above this share of red pixels the view is washed red (hurt), not bandanas.
MAX_RED = 0.02
#: The shot goes this many bandana widths below the bandana, to the chest.
CHEST_BELOW = 1.2
#: Height (m) of an O'Driscoll's bandana standing, and kneeling to aim (he stays out after his
#: shot, longer than the next shot takes: ``sim/combat.py``).
FACE_M, KNEEL_FACE_M = 1.56, 1.01
#: Below this height (m), a bandana is a body's on the ground.
LOW_FACE_M = 0.6
#: Degrees within which a bandana in view must lie of a red dot's bearing (the dead lie
#: without dots).
DOT_DEG = 10.0
#: Degrees about the line of fire within which a nearer friend or horse stops the shot.
IN_LINE_DEG = 8.0
#: Degrees about where a shot felled a foe within which bandanas are taken for its body.
FALLEN_DEG = 2.5
#: Turns (degrees) of a look about when no foe is near: right, back, left, back.
SWEEP_DEG = 40.0
#: Game seconds from a frame to the start of the answer (the evaluation's think time), and
#: from the start of a ``shoot`` to the trigger; seconds each call takes.
THINK_S, FIRE_S = 1.0, 0.3
CALL_S = {"shoot": 0.45, "turn": 0.1, "select_weapon": 0.7}
#: How fast (m/s) an O'Driscoll runs across the view at most; how far (m) one beyond the
#: minimap is taken to be.
RUN_MS, FAR_M = 4.5, 40.0
#: A man whose bearing moved this much (degrees) between frames is taken to be running across
#: the view at this share of the top speed; one who stood still, to step out this far (m) to
#: the right of his cover before the shot (where O'Driscolls peek out first).
MOVED_DEG, RUN_SHARE, PEEK_M = 1.0, 0.85, 1.9


class Man(NamedTuple):
    """An O'Driscoll in view: his bandana, its bearing (degrees right of the view's middle), how
    far he is (m) and whether he kneels to aim."""

    blob: vision_view.ScreenBlob
    bearing: float
    metres: float
    kneels: bool


def figure_mask(window: np.ndarray, foe: str) -> np.ndarray:
    """Pixels of ``window`` that look like ``foe``: an O'Driscoll's red bandana, a wolf's cool
    grey coat (:func:`~gcc_envs.games.rdr2.vision_view.wolf_mask`)."""
    if foe == "wolf":
        return vision_view.wolf_mask(window)
    f = window[..., :3].astype(np.int16)
    r, g, b = f[..., 0], f[..., 1], f[..., 2]
    return (r > 150) & (r - g > 70) & (r - b > 70)


def bandanas(frame: np.ndarray) -> list[vision_view.ScreenBlob]:
    """The O'Driscolls' red bandanas in view, largest (nearest) first; none while the view
    is washed red (the player hurt) or in the HUD's corners (the tutorial box's red strip, the
    health core over the minimap)."""
    H, W = frame.shape[:2]
    mask = figure_mask(frame, "enemy")
    mask[: int(0.3 * H), : int(0.36 * W)] = False  # the tutorial box
    mask[int(0.6 * H) :, : int(0.2 * W)] = False  # the cores and the minimap
    mask[int(0.82 * H) :] = False  # subtitles and prompts
    if float(mask.mean()) > MAX_RED:
        return []
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    out = []
    for x, y, w, h, a in stats[1:].tolist():
        # a bandana is a lone red patch; a red barn's boards repeat above and below it
        around = mask[max(0, y - 3 * h - 2) : y + 4 * h + 2, x : x + w]
        if int(around.sum()) <= a:
            out.append(vision_view.ScreenBlob(x, y, x + w, y + h, a))
    return sorted(out, key=lambda b: -b.area)


def stalk_ahead(metres: float, bearing: float, facing: int, seconds: float) -> tuple[float, float]:
    """Where (metres, bearing in degrees) a stalking wolf will be ``seconds`` on: it moves at
    :data:`STALK_MS` towards :data:`STALK_M` from the player (flat out when 2 m or more off
    it) and round the player, the way it faces (``facing`` +1: the bearing grows), as the
    sim's wolves do between charges.

    >>> r, b = stalk_ahead(8.0, 0.0, 1, 1.0)
    >>> round(r, 1), round(b)
    (8.0, 28)
    """
    r, b = metres, math.radians(bearing)
    dt = 0.02
    for _ in range(int(round(seconds / dt))):
        radial = max(-1.0, min(1.0, (STALK_M - r) / 2.0))
        n = math.hypot(radial, STALK_ROUND) or 1.0
        r = max(0.5, r + STALK_MS * radial / n * dt)
        b += facing * STALK_MS * STALK_ROUND / n / r * dt
    return r, math.degrees(b)


def charge_ahead(metres: float, bearing: float, orbit: int, seconds: float) -> tuple[float, float]:
    """Where (metres, bearing) a wolf running in from ``metres`` will be ``seconds`` on: straight
    in at :data:`WOLF_MS` to :data:`BITE_STOP_M`, a bite, then backing off round the player its
    own way (``orbit``) as it stalks again.

    >>> r, b = charge_ahead(8.0, 10.0, -1, 1.3)
    >>> round(r, 1), round(b)
    (2.3, -16)
    """
    arrive = max(0.0, (metres - BITE_STOP_M) / WOLF_MS)
    if arrive >= seconds:
        return metres - WOLF_MS * seconds, bearing
    return stalk_ahead(BITE_STOP_M, bearing, orbit, seconds - arrive)


class Gunfight:
    """One call per step of a fight against ``wolf`` or ``enemy`` foes."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        #: The view's yaw (degrees right) and pitch (degrees up) as the player's turns left it.
        self.yaw = self.pitch = 0.0
        self.armed = False
        self.sweep = 0
        #: World bearings of the bandanas in the last frame, and seconds since that frame.
        self.last_marks: list[float] = []
        self.since = 0.0
        #: World bearings where shots felled foes (their bodies show their bandanas), and
        #: whether the last call was a shot.
        self.fallen: list[float] = []
        self.shot = False
        #: The wolves of the last frame: world bearing, where stalking would bring it by the
        #: next frame, and the way it faced.
        self.wolf_tracks: list[tuple[float, float, int]] = []

    def focal(self, W: int) -> float:
        return (W / 2.0) / math.tan(math.radians(SIM_CAMERA.hfov_deg) / 2.0)

    def row(self, H: int, W: int, metres: float, height_m: float) -> float:
        """The row where a point ``height_m`` up at ``metres`` along the view shows."""
        f = self.focal(W)
        return H / 2.0 + f * math.tan(math.radians(self.pitch)) + f * (EYE_M - height_m) / metres

    def step(self, obs: np.ndarray, mm: np.ndarray, colours: vision.HudColours, foe: str,
             can: Callable[[str], bool]) -> str:  # fmt: skip
        out = self._step(obs, mm, colours, foe, can)
        name = out.split("(", 1)[0]
        self.since = THINK_S + CALL_S.get(name, 0.3)
        if name in ("turn", "turn_and_move_forward"):  # the mouse moves whole pixels
            px, _ = SIM_CAMERA.pixels_per_degree_at(obs.shape[1], obs.shape[0])
            degree = float(out.split("degree=", 1)[1].split(",")[0].rstrip(")"))
            self.yaw += round(degree * px) / px
        return out

    def _step(
        self,
        obs: np.ndarray,
        mm: np.ndarray,
        colours: vision.HudColours,
        foe: str,
        can: Callable[[str], bool],
    ) -> str:
        if self.shot and vision_view.hit_marker(obs):  # the last shot felled the man it was at
            self.fallen.append(self.yaw)
        self.shot = False
        if not self.armed:
            if not can("select_weapon"):  # not taught yet: its tutorial is about to show
                return call("wait", duration=0.6)
            self.armed = True
            return call("select_weapon", name=WEAPON[foe])
        dots = vision.blips(mm, colours.enemy, colours, min_area=2)
        dots = [d for d in dots if d.distance > 0.02]
        friends = vision.blips(mm, colours.ally, colours) + vision.blips(mm, colours.horse, colours)
        if foe == "enemy":
            shot = self.at_bandana(obs, dots, friends)
            if shot is not None:
                return shot
        if not dots:  # none near: look about
            self.sweep = (self.sweep + 1) % 4
            return call("turn", degree=SWEEP_DEG * (1 if self.sweep in (0, 3) else -1))
        if foe == "wolf":  # one growling where it stands first, else one led as it goes
            shot = self.at_growler(obs, dots, friends) or self.at_wolf(obs, dots, friends)
            if shot is not None:
                return shot
        near = dots[0]
        if abs(near.bearing) > 3.0:
            return call("turn", degree=round(near.bearing, 1))
        return call("wait", duration=0.3)

    def at_wolf(
        self, obs: np.ndarray, dots: list[vision.Blip], friends: list[vision.Blip]
    ) -> str | None:
        """A shot at the nearest wolf in view where it will be when the shot fires: a wolf
        circles (or backs off after a bite) the way its head points, at a speed and a distance
        the pack keeps (:func:`stalk_ahead`); None when no wolf shows where it can be shot."""
        H, W = obs.shape[:2]
        f = self.focal(W)
        horizon = H / 2.0 + f * math.tan(math.radians(self.pitch))
        seen = []
        for fig in vision_view.wolf_figures(obs, horizon):
            metres = self.wolf_metres(fig.box, horizon, H, W)
            if metres is None or metres > WOLF_FAR_M:
                continue
            bearing = math.degrees(math.atan2(fig.box.x + 0.5 - W / 2, f))
            seen.append((metres, bearing, fig.facing))
        last, self.wolf_tracks = self.wolf_tracks, []
        plans = []
        for metres, bearing, facing in seen:
            world = self.yaw + bearing
            # where a stalking wolf will be when the next frame comes (a shot's time on)
            _, nxt = stalk_ahead(metres, bearing, facing, THINK_S + CALL_S["shoot"])
            self.wolf_tracks.append((world, self.yaw + nxt, facing))
            orbit = self.orbit_of(world, last)
            if orbit is not None and orbit != facing:  # it was going round the other way: a
                r, lead = charge_ahead(metres, bearing, orbit, THINK_S + FIRE_S)  # charge
            elif orbit is None and facing * bearing < 0 and metres > CHARGE_FROM_M:
                r, lead = metres - WOLF_MS * (THINK_S + FIRE_S), bearing  # running in
            else:
                r, lead = stalk_ahead(metres, bearing, facing, THINK_S + FIRE_S)
            inward = facing * bearing < 0 or abs(bearing) < 3.0
            # known ways round first, then those heading out (going round), then the nearest
            plans.append(((orbit is None, inward and orbit is None, metres), r, lead, metres,
                          bearing, facing))  # fmt: skip
        if not plans:
            return None
        follow = None
        for _, r, lead, metres, bearing, facing in sorted(plans, key=lambda p: p[0]):
            if abs(lead) > SHOOT_MAX_DEG + 4:
                if follow is None:
                    _, ahead = stalk_ahead(metres, bearing, facing, THINK_S + CALL_S["turn"])
                    follow = call("turn", degree=round(ahead, 1))
                continue
            if self.in_line(lead, r, friends):
                continue
            x = W / 2 - 0.5 + f * math.tan(math.radians(lead))
            y = self.row(H, W, r * math.cos(math.radians(lead)), AIM_M["wolf"])
            if self.blocked(obs, x, y):
                continue
            return self.shoot(x, y, H, W)
        return follow

    def at_growler(
        self, obs: np.ndarray, dots: list[vision.Blip], friends: list[vision.Blip]
    ) -> str | None:
        """A shot at the middle of the nearest crouched wolf in view (one that stands growling
        before it charges, for longer than a shot takes: low and long, at least
        :data:`CROUCH_FLAT` times as wide as tall, as wide as a wolf where its paws stand, with
        a red dot its way), or None when none shows."""
        H, W = obs.shape[:2]
        f = self.focal(W)
        horizon = H / 2.0 + f * math.tan(math.radians(self.pitch))
        for fig in vision_view.wolf_figures(obs, horizon):
            box = fig.box
            if box.width < CROUCH_FLAT * box.height or box.left == 0 or box.right == W:
                continue  # standing, or cut off by the view's edge
            x, y = box.x + 0.5, (box.top + box.bottom) / 2.0
            bearing = math.degrees(math.atan2(x - W / 2, f))
            metres = f * EYE_M / max(1.0, box.bottom - horizon)
            if not 0.6 < box.width * metres / (f * WOLF_LONG_M) < 1.6:
                continue  # not a wolf's length there (a ledge of snow, far rock)
            if not any(abs(d.bearing - bearing) < DOT_DEG for d in dots):
                continue  # a dead wolf lies without a dot
            if abs(bearing) > SHOOT_MAX_DEG or self.in_line(bearing, metres, friends):
                continue
            if self.blocked(obs, x, y):
                continue
            return self.shoot(x, y, H, W)
        return None

    @staticmethod
    def blocked(obs: np.ndarray, x: float, y: float, reach: int = BLOCK_PX) -> bool:
        """Whether a horse's brown coat shows about screen point (x, y) in the view: a shot
        there would hit it (horses stand where they stood)."""
        H, W = obs.shape[:2]
        s = W / 320.0
        xa, xb = max(0, int(x - reach * s)), min(W, int(x + reach * s) + 1)
        ya, yb = max(0, int(y - 3 * reach * s)), min(int(0.82 * H), int(y + 3 * reach * s) + 1)
        f = obs[ya:yb, xa:xb, :3].astype(np.int16)
        r, g, b = f[..., 0], f[..., 1], f[..., 2]
        # brown: green well above blue (a red wash keeps that), well below red (not an eye)
        warm = (g - b > 12) & (4 * g < 3 * r)
        return bool(warm.any())

    @staticmethod
    def orbit_of(world: float, last: list[tuple[float, float, int]]) -> int | None:
        """The way round (+1: bearing growing) of the wolf at world bearing ``world``, from the
        wolves of the last frame: one that stalked towards here (between where it was and where
        it would have come to, the way it faced) is this one; None when none or two fit."""
        fits = set()
        for then, nxt, facing in last:
            a, b = (then, nxt) if facing > 0 else (nxt, then)
            if a - TRACK_DEG <= world <= b + TRACK_DEG:
                fits.add(facing)
        return fits.pop() if len(fits) == 1 else None

    def wolf_metres(
        self, box: vision_view.ScreenBlob, horizon: float, H: int, W: int
    ) -> float | None:
        """How far (m) a wolf's figure is, by its height (ears to paws) where the figure ends
        above the subtitles, else by how far below the horizon its ears show; None when the
        figure is not a wolf's shape there (a ledge of snow, a fogged rock face)."""
        f = self.focal(W)
        below = box.top - horizon
        if below < 1.0:
            return None
        depth = f * (EYE_M - EARS_M) / below
        if box.bottom < int(0.82 * H) - 1:  # the paws show
            by_height = f * EARS_M / max(1, box.height)
            if not 0.6 < depth / by_height < 1.7:
                return None
            depth = by_height
        return depth * math.hypot(f, box.x + 0.5 - W / 2) / f  # depth along the view to metres

    def at_bandana(
        self, obs: np.ndarray, dots: list[vision.Blip], friends: list[vision.Blip]
    ) -> str | None:
        """A shot at the nearest O'Driscoll in view: one kneeling to aim where he kneels (he
        stays out past the shot), else one led by how fast his bearing turns (from his bandana
        in the last frame); None when no living one shows."""
        H, W = obs.shape[:2]
        f = self.focal(W)
        marks = [m for m in self.men(obs, dots) if not self.felled(m)]
        last, self.last_marks = self.last_marks, [self.yaw + m.bearing for m in marks]
        for m in sorted(marks, key=lambda m: (not m.kneels, -m.blob.area)):  # kneeling first
            lead = m.bearing
            if not m.kneels:
                lead += (self.rate(self.yaw + lead, m.metres, last) or 0.0) * (THINK_S + FIRE_S)
            if self.in_line(lead, m.metres, friends):
                continue
            y = (m.blob.top + m.blob.bottom - 1) / 2.0 + CHEST_BELOW * m.blob.width
            x = W / 2 - 0.5 + f * math.tan(math.radians(lead))
            return self.shoot(x, y, H, W)
        return None

    def felled(self, man: Man) -> bool:
        """Whether a standing man's bandana is where a shot felled one (his body's)."""
        world = self.yaw + man.bearing
        return not man.kneels and any(abs(world - w) < FALLEN_DEG for w in self.fallen)

    def men(self, obs: np.ndarray, dots: list[vision.Blip]) -> list[Man]:
        """The O'Driscolls standing or kneeling in view: each bandana at a man's face with a red
        dot its way, how far the dot is, and whether the bandana shows as low as a kneeling
        man's face there (a body's on the ground, lower still, is left out)."""
        H, W = obs.shape[:2]
        f = self.focal(W)
        horizon = H / 2.0 + f * math.tan(math.radians(self.pitch))
        out = []
        for b in bandanas(obs):
            bearing = math.degrees(math.atan2(b.x + 0.5 - W / 2, f))
            if b.width < b.height:  # a bandana is wider than tall (not a red barn's wall)
                continue
            near = [d for d in dots if abs(d.bearing - bearing) < DOT_DEG]
            if dots and not near:
                continue  # a body on the ground has no dot
            dot = min(near, key=lambda d: abs(d.bearing - bearing)) if near else None
            metres = max(3.0, dot.distance * minimap.VIEW_FOOT_M) if dot else FAR_M
            depth = metres * math.cos(math.radians(bearing))
            below = (b.top + b.bottom - 1) / 2.0 - horizon  # rows below the horizon
            if below < -6 - 2 * b.height or below > f * (EYE_M - LOW_FACE_M) / depth:
                continue  # not at a man's face (the red rim of a hurt view, a body lying)
            kneels = below > f * (EYE_M - (KNEEL_FACE_M + FACE_M) / 2.0) / depth
            out.append(Man(b, bearing, metres, kneels))
        return out

    @staticmethod
    def in_line(bearing: float, metres: float, friends: list[vision.Blip]) -> bool:
        """Whether a companion or the horse (their dots) stands nearer in the line of fire."""
        return any(
            abs(o.bearing - bearing) < IN_LINE_DEG and o.distance * minimap.VIEW_FOOT_M < metres
            for o in friends
        )

    def rate(self, world: float, metres: float, last: list[float]) -> float | None:
        """How fast (degrees a second) the bearing of the man at ``world`` turns until the
        shot, from where his bandana was in the last frame; None when he cannot be told there."""
        if not last or self.since <= 0:
            return None
        top = math.degrees(RUN_MS / metres)  # the fastest a running man's bearing turns
        gaps = sorted(last, key=lambda w: abs(w - world))
        gap = abs(gaps[0] - world)
        alone = len(gaps) < 2 or abs(gaps[1] - world) > gap + 1.0
        if gap > top * self.since + 1.0 or not alone:
            return None
        moved = world - gaps[0]
        if abs(moved) >= MOVED_DEG:  # running, at full speed (he may have set off since)
            return math.copysign(top * RUN_SHARE, moved)
        # standing: behind his cover, about to step out to its right (the side tried first)
        return math.degrees(math.atan2(PEEK_M, metres)) / (THINK_S + FIRE_S)

    def shoot(self, x: float, y: float, H: int, W: int) -> str:
        """A shot at screen point (x, y), its turn added to the view's yaw and pitch."""
        x, y = min(max(x, 0), W - 1), min(max(y, 0), H - 1)
        dy, dp = vision.angle_to_point(int(x), int(y), W, H, SIM_CAMERA.hfov_deg)
        px, py = SIM_CAMERA.pixels_per_degree_at(W, H)  # the mouse moves whole pixels
        self.yaw += round(dy * px) / px
        self.pitch = min(max(self.pitch - round(dp * py) / py, -PITCH_LIMIT), PITCH_LIMIT)
        self.shot = True
        return call("shoot", x=int(x), y=int(y))
