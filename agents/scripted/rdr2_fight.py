"""The privileged RDR2 player's gunfights: choosing targets, leading them, aiming, moving.

One step is one call: a ``shoot(x, y)`` at the screen point where a target will be when the
shot fires, a ``reload``, a turn towards where the next foe will step out, or a walk to a
better spot. Where a target will be is read off a fork of the simulator run forward by the
latency the shot meets (the env's think time, the skill's own aim-and-turn), so moving,
flanking and circling foes are led as a marksman would lead them. The fork rolls dice of its
own: what is left to chance (a man's choice to flank, where to) is guessed, not foreseen.
"""

from __future__ import annotations

import math
from typing import Any

from agents.scripted import rdr2_nav as nav
from agents.scripted.rdr2_body import CELL_M, RDR2Body, call
from gcc_envs.games.rdr2.live import SIM_CAMERA
from gcc_envs.games.rdr2.sim import geometry as geo

#: Body height (m) aimed at, by kind; eye heights (m).
AIM_HEIGHT = {"wolf": 0.45, "enemy": 1.1}
EYE_M, MOUNTED_EYE_M = 1.6, 2.4
ALLY_KINDS = ("dutch", "micah", "javier", "john")
#: Seconds from the start of a ``shoot`` call to the trigger (aim settle, turn, tap).
FIRE_DELAY_S = 0.32
#: Largest turn (degrees) a ``shoot`` call makes onto a point on screen; wider means turn first.
SHOOT_MAX_DEG = 31.0
#: Seconds a ``turn`` call takes (the mouse's glide).
TURN_S = 0.1
#: An enemy's states out of cover: stepping out, kneeling to aim, working the lever.
OUT = ("shoot", "aim", "lever")
#: Watching steps without a shot before the player looks for a better spot.
QUIET_STEPS = 3


class Gunfighter(RDR2Body):
    """Shooting enemies and wolves one call per step."""

    def __init__(self, env: Any, privileged: bool = False) -> None:
        super().__init__(env, privileged)
        #: Steps in a row that got no shot off (then the player moves).
        self.quiet = 0

    def fight(self, kind: str) -> str:
        """One step of a fight against ``kind``."""
        s = self.s
        p = s.player
        if self.crowded():  # a horse or companion at arm's length would take the shots
            sx, sy = self.start_spot()
            step = self.walk((sx, sy), stop_m=0.3) if self.dist(sx, sy) > 1.0 else None
            return step or call("turn_and_move_forward", degree=180.0, duration=1.0)
        ready_in = max(p.reload_left, p.gun_cooldown) - self.delay_s() - FIRE_DELAY_S
        if ready_in > 0:  # the gun is not ready even after the latency: let it get ready
            return call("wait", duration=ready_in + 0.05)
        if p.ammo_clip <= 0 and p.reload_left <= 0:
            return call("reload")
        aim = self.aim_at(kind)
        if aim is not None:
            self.quiet = 0
            return aim
        self.quiet += 1
        sx, sy = self.start_spot()
        c, r = nav.cell_of(p.x, p.y, CELL_M)
        sc, sr = nav.cell_of(sx, sy, CELL_M)
        off_level = int(s.map.level[sr, sc]) != int(p.z)
        if s.map.roof[r, c] or off_level or self.dist(sx, sy) > 20.0:
            step = self.walk((sx, sy), stop_m=0.3)
            if step is not None:
                return step
        if self.quiet >= QUIET_STEPS:
            spot = self.vantage(kind)
            if spot is not None:
                self.quiet = 0
                step = self.walk(spot, stop_m=0.3)
                if step is not None:
                    return step
        alive = [n for n in s.npcs.values() if n.kind == kind and n.alive]
        if not alive:
            return call("wait", duration=0.3)
        near = min(alive, key=lambda n: (n.state not in OUT, self.dist(n.x, n.y)))
        wx, wy = near.peek_at or (near.x, near.y)
        rel = self.bearing(wx, wy)
        return call("turn", degree=rel) if abs(rel) > 3.0 else call("wait", duration=0.3)

    def aim_at(self, kind: str) -> str | None:
        """A ``shoot`` (or a turn towards a target too far aside) for the best target of
        ``kind`` as it will stand when the shot fires, or None when none will be in sight."""
        s = self.s
        p = s.player
        ahead = self.sim.fork()
        ahead.advance(self.delay_s() + FIRE_DELAY_S)
        future = ahead.state
        best, best_key = None, (True, math.inf, math.inf)
        for n in s.npcs.values():
            if n.kind != kind or not n.alive:
                continue
            f = future.npcs.get(n.name)
            if f is None or not f.alive:
                continue
            d = self.dist(f.x, f.y)
            if not self.line_of_sight(f.x, f.y) or self.ally_in_line(f.x, f.y, d):
                continue
            threat = d if kind == "wolf" else (0.0 if f.state in OUT else 1.0) * 100 + d
            # in view first (a turn costs a whole step), then the most threatening
            key = (abs(self.bearing(f.x, f.y)) > SHOOT_MAX_DEG, threat, d)
            if key < best_key:
                best, best_key = (n, f), key
        if best is None:
            return None
        n, f = best
        rel = self.bearing(f.x, f.y)
        if abs(rel) > SHOOT_MAX_DEG:
            # out of view: turn to where it will be when the shot after the turn fires
            ahead.advance(TURN_S + self.delay_s())
            later = ahead.state.npcs.get(n.name)
            if later is not None and later.alive:
                rel = self.bearing(later.x, later.y)
            return call("turn", degree=rel)
        d = max(0.5, self.dist(f.x, f.y))
        eye = int(p.z) * 1.0 + (MOUNTED_EYE_M if p.mounted else EYE_M)
        base = int(s.map.level[nav.cell_of(f.x, f.y, CELL_M)[::-1]]) * 1.0
        want = math.degrees(math.atan2(base + AIM_HEIGHT.get(kind, 1.0) - eye, d))
        H, W = self.size
        x, y = nav.aim_point(rel, p.pitch_deg - want, W, H, SIM_CAMERA.hfov_deg)
        x, y = min(max(x, 0), W - 1), min(max(y, 0), H - 1)
        return call("shoot", x=int(x), y=int(y))

    def crowded(self, within: float = 1.2) -> bool:
        s = self.s
        things = [n for n in s.npcs.values() if n.kind in ALLY_KINDS and n.alive]
        things += [h for h in s.horses.values() if h.alive and h.id != s.player.mounted]
        return any(self.dist(t.x, t.y) < within for t in things)

    def vantage(self, kind: str, reach: int = 5) -> tuple[float, float] | None:
        """A free spot within ``reach`` cells that sees more of the living ``kind``'s hiding
        and peeking spots than the player's own, the nearest of the best."""
        s = self.s
        p, m = s.player, s.map
        foes = [n for n in s.npcs.values() if n.kind == kind and n.alive]
        marks = [pt for n in foes for pt in (n.peek_at, (n.x, n.y)) if pt]
        if not marks:
            return None

        def seen(x: float, y: float) -> int:
            return sum(geo.line_of_sight(m.walls, CELL_M, x, y, a, b) for a, b in marks)

        here = seen(p.x, p.y)
        c0, r0 = nav.cell_of(p.x, p.y, CELL_M)
        best, best_key = None, (here, 0.0)
        for dr in range(-reach, reach + 1):
            for dc in range(-reach, reach + 1):
                c, r = c0 + dc, r0 + dr
                if not (0 <= r < m.walls.shape[0] and 0 <= c < m.walls.shape[1]):
                    continue
                if m.walls[r, c] != 0 or int(m.level[r, c]) != int(p.z) or m.roof[r, c]:
                    continue
                x, y = nav.centre_of((c, r), CELL_M)
                key = (seen(x, y), -math.hypot(x - p.x, y - p.y))
                if key > best_key:
                    best, best_key = (x, y), key
        return best

    def line_of_sight(self, x: float, y: float, margin: float = 0.25) -> bool:
        """A clear view of (x, y) and of points ``margin`` to either side of it."""
        s = self.s
        p = s.player
        d = math.hypot(x - p.x, y - p.y) or 1.0
        ox, oy = -(y - p.y) / d * margin, (x - p.x) / d * margin
        return all(
            geo.line_of_sight(s.map.walls, CELL_M, p.x, p.y, x + k * ox, y + k * oy)
            for k in (0, -1, 1)
        )

    def ally_in_line(self, x: float, y: float, d: float) -> bool:
        """Whether a companion or a horse nearer than (x, y) stands in the line of fire."""
        s = self.s
        aim = self.bearing(x, y)
        things = [n for n in s.npcs.values() if n.kind in ALLY_KINDS and n.alive]
        things += [h for h in s.horses.values() if h.alive and h.id != s.player.mounted]
        for t in things:
            dt = self.dist(t.x, t.y)
            if dt >= d:
                continue
            width = math.degrees(math.atan2(1.0, max(dt, 0.5)))
            if abs((self.bearing(t.x, t.y) - aim + 180.0) % 360.0 - 180.0) < width:
                return True
        return False
