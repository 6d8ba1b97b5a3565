"""The scripted RDR2 player's gunfights: choosing targets, leading them, aiming, moving.

Targets are chosen on privileged state (line of sight, an enemy's cover cycle, allies in the
line of fire); every shot is the ``shoot(x, y)`` skill at the screen point where the target
will be, so the skill turns the camera onto it by pixels per degree and fires.
"""

from __future__ import annotations

import math
from typing import Any

from agents.scripted import rdr2_nav as nav
from agents.scripted.rdr2_body import CELL_M, RDR2Body, skill
from gcc_envs.core.program import Program, ProgramGen
from gcc_envs.games.rdr2.live import SIM_CAMERA
from gcc_envs.games.rdr2.sim import geometry as geo

#: Body height (m) aimed at, by kind; eye heights (m).
AIM_HEIGHT = {"wolf": 0.45, "enemy": 1.1}
EYE_M, MOUNTED_EYE_M = 1.6, 2.4
ALLY_KINDS = ("dutch", "micah", "javier", "john")
#: Closer than this (m) a target is punched, not shot.
MELEE_M = 0.8
#: Enemies' running speed (m/s), to lead a moving target.
ENEMY_SPEED = 4.0
#: Seconds a shot takes from decision to trigger (aim, turn, click).
SHOT_LEAD_S = 0.4
#: An enemy that went back into cover less than this long ago is still ducking (s of its
#: hiding time left above which it is not shot at).
DUCKING_S = 1.0


class Gunfighter(RDR2Body):
    """Shooting enemies and wolves through the ``shoot``/``reload``/``fight`` skills."""

    def __init__(self, env: Any, privileged: bool = False) -> None:
        super().__init__(env, privileged)
        #: Rounds of watching in a row that got no shot off (then the player moves).
        self.quiet = 0

    def fight(self, kind: str) -> Any:
        """Shoot ``kind``: from where the checkpoint begins (a view of the fight), moving to a
        better spot when the last round of watching got no shot off."""
        if self.crowded():  # a horse or companion at arm's length would take the shots
            sx, sy = self.start_spot()
            if self.dist(sx, sy) > 1.0:
                return self.walk((sx, sy), stop_m=0.3, legs=3)
            return skill("turn_and_move_forward", degree=180.0, duration=1.0)
        if self.target(kind) is None:
            sx, sy = self.start_spot()
            p = self.s.player
            c, r = nav.cell_of(p.x, p.y, CELL_M)
            sc, sr = nav.cell_of(sx, sy, CELL_M)
            off_level = int(self.s.map.level[sr, sc]) != int(p.z)  # up on a ledge, say
            if self.s.map.roof[r, c] or off_level or self.dist(sx, sy) > 20.0:
                return self.walk((sx, sy), stop_m=0.3, legs=6)
            if self.quiet >= 1:
                spot = self.vantage(kind)
                if spot is not None:
                    self.quiet = 0
                    return self.walk(spot, stop_m=0.3, legs=4)
        return self.shots(kind)

    def crowded(self, within: float = 2.0) -> bool:
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
        marks = [pt for n in foes for pt in (getattr(n, "peek_at", None), (n.x, n.y)) if pt]
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
                if m.walls[r, c] != 0 or int(m.level[r, c]) != int(p.z):
                    continue
                x, y = nav.centre_of((c, r), CELL_M)
                key = (seen(x, y), -math.hypot(x - p.x, y - p.y))
                if key > best_key:
                    best, best_key = (x, y), key
        return best

    # ------------------------------------------------------------ fighting
    def shots(self, kind: str, count: int = 3, watch_s: float = 3.0) -> Program:
        """Up to ``count`` aimed shots at the nearest visible living ``kind``; while none is in
        sight, watch the nearest one's hiding place (for up to ``watch_s`` seconds)."""

        def gen() -> ProgramGen:
            fired, watched = 0, 0.0
            for _ in range(int(watch_s * 20) + 4 * count):
                if fired >= count or watched >= watch_s:
                    break
                s = self.s
                p = s.player
                if p.reload_left > 0 or p.gun_cooldown > 0:
                    yield from skill(
                        "wait", duration=max(p.reload_left, p.gun_cooldown) + 0.02
                    ).start()
                    continue
                if p.ammo_clip <= 0:
                    yield from skill("reload").start()
                    continue
                target = self.target(kind)
                if target is None:
                    alive = [n for n in s.npcs.values() if n.kind == kind and n.alive]
                    if not alive:
                        break
                    # watch where the next one will step out (its peek spot) to react fast
                    near = min(alive, key=lambda n: (n.state != "shoot", self.dist(n.x, n.y)))
                    wx, wy = getattr(near, "peek_at", None) or (near.x, near.y)
                    rel = self.bearing(wx, wy)
                    if abs(rel) > 1.5:
                        yield from skill("turn", degree=round(rel, 2)).start()
                    yield from skill("wait", duration=0.05).start()
                    watched += 0.05
                    continue
                tx, ty = self.lead(target)
                rel = self.bearing(tx, ty)
                if self.dist(target.x, target.y) < MELEE_M:  # too close to aim at: punch it
                    yield from skill("turn", degree=round(rel, 2)).start()
                    yield from skill("fight").start()
                    fired += 1
                    continue
                if abs(rel) > 25.0:  # bring it into view first
                    yield from skill("turn", degree=round(rel, 2)).start()
                    continue
                d = max(0.5, self.dist(tx, ty))
                eye = int(p.z) * 1.0 + (MOUNTED_EYE_M if p.mounted else EYE_M)
                base = int(s.map.level[nav.cell_of(tx, ty, CELL_M)[::-1]]) * 1.0
                want = math.degrees(math.atan2(base + AIM_HEIGHT.get(kind, 1.0) - eye, d))
                H, W = self.size
                x, y = nav.aim_point(rel, p.pitch_deg - want, W, H, SIM_CAMERA.hfov_deg)
                x, y = min(max(x, 0), W - 1), min(max(y, 0), H - 1)
                yield from skill("shoot", x=x, y=y).start()
                fired += 1
            self.quiet = 0 if fired else self.quiet + 1

        return Program(gen, name="shots")

    def lead(self, npc: Any) -> tuple[float, float]:
        """Where a moving ``npc`` will be when the shot lands: a charging wolf runs at the
        player; an enemy stepping out of cover runs to its peek spot, one ducking to its hiding
        spot."""
        p = self.s.player
        if npc.kind == "wolf" and npc.state in ("run", "walk"):
            goal, speed, keep = (p.x, p.y), npc.speed, 1.2
        elif npc.kind == "enemy" and npc.state == "shoot" and getattr(npc, "peek_at", None):
            goal, speed, keep = npc.peek_at, ENEMY_SPEED, 0.0
        elif (
            npc.kind == "enemy" and npc.state in ("run", "cover") and getattr(npc, "hide_at", None)
        ):
            goal, speed, keep = npc.hide_at, ENEMY_SPEED, 0.0
        else:
            return npc.x, npc.y
        d = math.hypot(goal[0] - npc.x, goal[1] - npc.y)
        if d < 1e-6:
            return npc.x, npc.y
        step = min(speed * SHOT_LEAD_S * 0.75, max(0.0, d - keep))
        return npc.x + (goal[0] - npc.x) / d * step, npc.y + (goal[1] - npc.y) / d * step

    def target(self, kind: str) -> Any | None:
        """The nearest living ``kind`` in line of sight with no ally in the line of fire."""
        s = self.s
        p = s.player
        best, best_d = None, math.inf
        for n in s.npcs.values():
            if n.kind != kind or not n.alive:
                continue
            d = self.dist(n.x, n.y)
            # one stepping out to shoot stays out a while; one in cover may duck back at once
            margin = 0.3 if n.state == "cover" else 0.0
            if n.state == "shoot" and n.cooldown < SHOT_LEAD_S:  # about to fire and duck back
                continue
            if n.state == "cover" and n.cooldown > DUCKING_S:  # on its way back behind cover
                continue
            if d >= best_d or not self.line_of_sight(n.x, n.y, margin):
                continue
            if self.ally_in_line(n.x, n.y, d):
                continue
            best, best_d = n, d
        del p
        return best

    def line_of_sight(self, x: float, y: float, margin: float = 0.3) -> bool:
        """A clear view of (x, y) and of points ``margin`` to either side of it (a target at
        the edge of its cover ducks back before the shot lands)."""
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
