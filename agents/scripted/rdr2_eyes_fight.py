"""The frame-only player's gunfights: foes found on the minimap, picked out in the view, led.

Every hostile shows as a red dot on the minimap (O'Driscolls and wolves alike): its bearing and
distance. In view, an O'Driscoll shows the red bandana over his face, a wolf its grey coat
against the snow. The player draws its gun once the weapon wheel is taught, turns to the
nearest dot when none is in view (looks about when none is near), and otherwise shoots: at the
chest below a bandana (the dead lie without a dot, and where a shot felled one, its body is
passed over), or at a wolf's body where its dot puts it. A shot fires over a second after the
frame it answers (the agent's think time, the aim), so it is led: a man whose bandana moved
since the last frame is running, and is led at a runner's speed his way; one who stood still
is behind his cover, and is led to where O'Driscolls step out to shoot (to its right, as seen
from the player); a wolf that came nearer runs in and is shot low where it will bite, one that
went round is led round. The view's yaw and pitch are the sums of the player's own turns
(dead reckoning of its own mouse, in its whole pixels), which is how two frames compare.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from agents.scripted.rdr2_body import call
from gcc_envs.games.rdr2 import vision, vision_view
from gcc_envs.games.rdr2.live import SIM_CAMERA
from gcc_envs.games.rdr2.sim import minimap

#: Eye height (m) on foot; the height (m) aimed at and the body's height, by foe.
EYE_M = 1.6
AIM_M = {"wolf": 0.4, "enemy": 1.1}
BODY_M = {"wolf": 0.8, "enemy": 1.8}
#: Widest turn (degrees) a ``shoot`` makes onto a point in view; further off, turn first.
SHOOT_MAX_DEG = 30.0
#: How far (degrees) a wolf's figure may lie from where its dot puts it (the dot is a pixel
#: of the minimap, ~1.5 m), and the least pixels of a figure.
SEARCH_DEG, MIN_FIGURE = 7.0, 2
#: The weapon drawn for each foe (the rifle fells an O'Driscoll with one shot).
WEAPON = {"wolf": "revolver", "enemy": "rifle"}
PITCH_LIMIT = 60.0
#: Wolves nearer than this (m) are on them before a shot fires (they run at 7 m/s): the shot
#: goes low, where one stands biting (m).
CHARGE_M, BITE_AIM_M = 12.0, 2.2
#: A wolf's top speed (m/s); one that came this much nearer (m) since the last frame runs in.
WOLF_MS, CHARGE_STEP_M = 7.0, 3.0
#: Above this share of red pixels the view is washed red (hurt), not bandanas.
MAX_RED = 0.02
#: The shot goes this many bandana widths below the bandana, to the chest.
CHEST_BELOW = 1.2
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


def figure_mask(window: np.ndarray, foe: str) -> np.ndarray:
    """Pixels of ``window`` that look like ``foe``: an O'Driscoll's red bandana, a wolf's grey
    coat (not snow, sky, trees, horses or coats of colour)."""
    f = window[..., :3].astype(np.int16)
    r, g, b = f[..., 0], f[..., 1], f[..., 2]
    if foe == "enemy":
        return (r > 150) & (r - g > 70) & (r - b > 70)
    bright = f.mean(axis=2)
    spread = f.max(axis=2) - f.min(axis=2)
    return (bright > 40) & (bright < 175) & (spread < 40)


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
        #: World bearings and metres of the wolves in the last frame.
        self.last_wolves: list[tuple[float, float]] = []

    def focal(self, W: int) -> float:
        return (W / 2.0) / math.tan(math.radians(SIM_CAMERA.hfov_deg) / 2.0)

    def row(self, H: int, W: int, metres: float, height_m: float) -> float:
        """The row where a point ``height_m`` up at ``metres`` shows."""
        f = self.focal(W)
        return H / 2.0 + f * math.tan(math.radians(self.pitch)) + f * (EYE_M - height_m) / metres

    def step(self, obs: np.ndarray, mm: np.ndarray, colours: vision.HudColours, foe: str,
             can: Callable[[str], bool]) -> str:  # fmt: skip
        out = self._step(obs, mm, colours, foe, can)
        name = out.split("(", 1)[0]
        self.since = THINK_S + CALL_S.get(name, 0.3)
        if name == "turn":  # the mouse moves whole pixels
            px, _ = SIM_CAMERA.pixels_per_degree_at(obs.shape[1], obs.shape[0])
            self.yaw += round(float(out.split("=", 1)[1].rstrip(")")) * px) / px
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
        if foe == "wolf":
            shot = self.at_wolf(obs, dots, friends)
            if shot is not None:
                return shot
        near = dots[0]
        if abs(near.bearing) > 3.0:
            return call("turn", degree=round(near.bearing, 1))
        return call("wait", duration=0.3)

    def at_wolf(
        self, obs: np.ndarray, dots: list[vision.Blip], friends: list[vision.Blip]
    ) -> str | None:
        """A shot at the nearest wolf in view: one running in (nearer by metres since the last
        frame) low where it will bite, one circling led by how fast it went round."""
        H, W = obs.shape[:2]
        f = self.focal(W)
        seen = []
        for d in dots:
            if abs(d.bearing) > SHOOT_MAX_DEG + SEARCH_DEG:
                continue
            metres = max(1.0, d.distance * minimap.VIEW_FOOT_M)
            x = self.find_wolf(obs, d.bearing, metres)
            if x is not None:
                seen.append((metres, math.degrees(math.atan2(x + 0.5 - W / 2, f))))
        last, self.last_wolves = self.last_wolves, [(self.yaw + b, m) for m, b in seen]
        if not seen:
            return None
        metres, bearing = min(seen)
        world = self.yaw + bearing
        prev = min(last, key=lambda wm: abs(wm[0] - world)) if last else None
        top = math.degrees(WOLF_MS / metres) * self.since + 2.0
        lead, aim_m = bearing, metres
        if prev is not None and abs(prev[0] - world) <= top:
            if prev[1] - metres > CHARGE_STEP_M:  # running in: straight on, to bite
                aim_m = BITE_AIM_M
            else:  # circling: on round
                lead = bearing + (world - prev[0]) / self.since * (THINK_S + FIRE_S)
        elif metres < CHARGE_M / 2:
            aim_m = BITE_AIM_M
        if abs(lead) > SHOOT_MAX_DEG + 4:
            return call("turn", degree=round(lead, 1))
        if self.in_line(lead, metres, friends):
            return None
        x = W / 2 - 0.5 + f * math.tan(math.radians(lead))
        return self.shoot(x, self.row(H, W, aim_m, AIM_M["wolf"]), H, W)

    def at_bandana(
        self, obs: np.ndarray, dots: list[vision.Blip], friends: list[vision.Blip]
    ) -> str | None:
        """A shot at the nearest O'Driscoll in view, led by how fast his bearing turns (from
        his bandana in the last frame); None when no living one shows."""
        H, W = obs.shape[:2]
        f = self.focal(W)
        horizon = H / 2.0 + f * math.tan(math.radians(self.pitch))
        marks = []
        for b in bandanas(obs):
            bearing = math.degrees(math.atan2(b.x + 0.5 - W / 2, f))
            if b.width < b.height:  # a bandana is wider than tall (not a red barn's wall)
                continue
            if abs((b.top + b.bottom - 1) / 2.0 - horizon) > 6 + 2 * b.height:
                continue  # a bandana is at eye level (not the red rim of a hurt view)
            near = [d for d in dots if abs(d.bearing - bearing) < DOT_DEG]
            if dots and not near:
                continue  # a body on the ground has no dot
            if any(abs(self.yaw + bearing - w) < FALLEN_DEG for w in self.fallen):
                continue  # where a shot felled one
            dot = min(near, key=lambda d: abs(d.bearing - bearing)) if near else None
            marks.append((b, bearing, dot))
        last, self.last_marks = self.last_marks, [self.yaw + m[1] for m in marks]
        for mark, bearing, dot in sorted(marks, key=lambda m: -m[0].area):  # nearest first
            metres = max(3.0, dot.distance * minimap.VIEW_FOOT_M) if dot else FAR_M
            rate = self.rate(self.yaw + bearing, metres, last)
            lead = bearing + (rate or 0.0) * (THINK_S + FIRE_S)
            if self.in_line(lead, metres, friends):
                continue
            y = (mark.top + mark.bottom - 1) / 2.0 + CHEST_BELOW * mark.width
            x = W / 2 - 0.5 + f * math.tan(math.radians(lead))
            return self.shoot(x, y, H, W)
        return None

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

    def find_wolf(self, obs: np.ndarray, bearing: float, metres: float) -> float | None:
        """The column of a wolf's coat near where its dot (``bearing``, ``metres``) puts it, or
        None when none shows there."""
        H, W = obs.shape[:2]
        f = self.focal(W)
        xa = W / 2.0 + f * math.tan(math.radians(bearing - SEARCH_DEG))
        xb = W / 2.0 + f * math.tan(math.radians(bearing + SEARCH_DEG))
        near = max(1.0, metres - 2.0)
        top, bottom = self.row(H, W, near, BODY_M["wolf"] + 0.2), self.row(H, W, near, -0.1)
        x0, x1 = max(0, int(xa)), min(W, int(math.ceil(xb)) + 1)
        y0, y1 = max(0, int(top)), min(int(0.82 * H), int(math.ceil(bottom)) + 1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None
        mask = figure_mask(obs[y0:y1, x0:x1], "wolf")
        if int(mask.sum()) < MIN_FIGURE:
            return None
        _, xs = np.nonzero(mask)
        return x0 + float(np.median(xs))
