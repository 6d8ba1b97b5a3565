"""The scripted RDR2 player's body: reading the simulator's state, walking and riding.

:class:`RDR2Body` plans on privileged state (``privileged=True``) and acts only through the
game's skills: a breadth-first search over the grid (ledges one level up are climbable) gives
the way, and each ``turn_and_move_forward`` leg re-reads the player's position, so drift never
piles up. The checkpoint plans (:mod:`agents.scripted.rdr2`) build on it.
"""

from __future__ import annotations

import math
from typing import Any

from agents.scripted import rdr2_nav as nav
from gcc_envs.core.program import Program, ProgramGen, sequence
from gcc_envs.errors import GCCError
from gcc_envs.games.rdr2.skills import SKILLS

CELL_M = 2.0
#: Walking and riding speeds of the simulator (m/s), for leg durations.
FOOT_SPEED, HORSE_SPEED, CARRY_SPEED = 3.0, 6.0, 2.2
#: Longest leg (s) before the script looks again.
LEG_S = 1.2
#: Legs per step.
LEGS = 10


def skill(skill_name: str, /, **kwargs: Any) -> Program:
    """The program of one skill call (arguments checked as for code text)."""
    return SKILLS[skill_name].program(**kwargs)


class RDR2Body:
    """State access, geometry on the state, and moving through skills."""

    def __init__(self, env: Any, privileged: bool = False) -> None:
        if not privileged:
            raise GCCError(
                f"{type(self).__name__} needs privileged=True: it plans on the simulator's "
                "state (run without --no-privileged)"
            )
        sim = getattr(getattr(env, "backend", None), "sim", None)
        if sim is None or not hasattr(sim, "pointer_move_by") or not hasattr(sim, "data"):
            raise GCCError(f"{type(self).__name__} needs the RDR2 simulator (backend='sim')")
        self.env = env
        #: (H, W) of the observations, for screen coordinates of skill calls.
        self.size = (720, 1280)

    @property
    def s(self) -> Any:
        return self.env.backend.probe()

    # ------------------------------------------------------------ geometry on the state
    def dist(self, x: float, y: float) -> float:
        p = self.s.player
        return math.hypot(x - p.x, y - p.y)

    def bearing(self, x: float, y: float) -> float:
        p = self.s.player
        return nav.relative_bearing(p.x, p.y, p.yaw_deg, x, y)

    def start_spot(self) -> tuple[float, float]:
        """Where the current checkpoint begins (the mission data's staging spot)."""
        s = self.s
        cp = self.env.backend.sim.data.missions[s.mission.name].checkpoints[s.mission.index]
        return cp.player[0], cp.player[1]

    def seen(self, tutorial: str) -> bool:
        return tutorial in self.s.ui.tutorials_seen

    def blocked(self) -> set[nav.Cell]:
        s = self.s
        out = set()
        for prop in s.props.values():
            if prop.solid:
                out.add(nav.cell_of(prop.x, prop.y, CELL_M))
        return out

    def speed(self) -> float:
        p = self.s.player
        return HORSE_SPEED if p.mounted else (CARRY_SPEED if p.carrying else FOOT_SPEED)

    # ------------------------------------------------------------ moving
    def next_point(self, goal: tuple[float, float]) -> tuple[tuple[float, float], nav.Cell | None]:
        """The farthest point of the planned path walkable in a straight line, and the ledge
        cell (one level up) to climb next when the path climbs there."""
        s = self.s
        p, m = s.player, s.map
        start = nav.cell_of(p.x, p.y, CELL_M)
        gcell = nav.cell_of(*goal, CELL_M)
        blocked = self.blocked() - {start, gcell}
        path = nav.plan(m.walls, m.level, start, {gcell}, blocked)
        if path is None:
            return None
        z = int(p.z)
        best: tuple[float, float] = goal if len(path) == 1 else nav.centre_of(path[1], CELL_M)
        pts = [nav.centre_of(c, CELL_M) for c in path[1:-1]] + [goal]
        for c, pt in zip(path[1:], pts):
            if int(m.level[c[1], c[0]]) > z:
                return best, c
            if not nav.clear_line(m.walls, m.level, z, (p.x, p.y), pt, CELL_M, blocked=blocked):
                break
            best = pt
        return best, None

    def walk(self, goal: tuple[float, float], stop_m: float = 1.0, legs: int = LEGS) -> Program:
        """Walk (or ride) to ``goal`` until within ``stop_m``, climbing ledges on the way."""

        def gen() -> ProgramGen:
            last = None
            for _ in range(legs):
                p = self.s.player
                d = math.hypot(goal[0] - p.x, goal[1] - p.y)
                if d <= stop_m:
                    return
                got = self.next_point(goal)
                if got is None:
                    return
                (tx, ty), ledge = got
                if ledge is not None and nav.rect_distance(p.x, p.y, ledge, CELL_M) < 0.9:
                    cx, cy = nav.centre_of(ledge, CELL_M)  # at the ledge: face it, climb
                    yield from skill("turn", degree=round(self.bearing(cx, cy), 2)).start()
                    yield from skill("climb").start()
                    continue
                leg = math.hypot(tx - p.x, ty - p.y)
                if (tx, ty) == goal:
                    leg = max(0.0, leg - stop_m * 0.8)
                if ledge is not None and (tx, ty) == nav.centre_of(ledge, CELL_M):
                    leg = nav.rect_distance(p.x, p.y, ledge, CELL_M) - 0.5
                dur = min(LEG_S, max(0.1, leg / self.speed()))
                here = (p.x, p.y)
                yield from skill(
                    "turn_and_move_forward", degree=round(self.bearing(tx, ty), 2), duration=dur
                ).start()
                p = self.s.player
                if last is not None and math.hypot(p.x - here[0], p.y - here[1]) < 0.05:
                    # pushed against something: step aside and go on
                    yield from skill("turn_and_move_forward", degree=70.0, duration=0.4).start()
                last = here

        return Program(gen, name="walk")

    def stand_by(self, x: float, y: float, reach: float) -> tuple[float, float]:
        """A free spot within ``reach`` of (x, y) that the player can walk to, the nearest."""
        s = self.s
        m = s.map
        p = s.player
        start = nav.cell_of(p.x, p.y, CELL_M)
        spots = []
        for k in range(16):
            a = math.radians(22.5 * k)
            for r in (reach * 0.6, reach * 0.8):
                sx, sy = x + r * math.cos(a), y + r * math.sin(a)
                c, row = nav.cell_of(sx, sy, CELL_M)
                if not (0 <= row < m.walls.shape[0] and 0 <= c < m.walls.shape[1]):
                    continue
                if m.walls[row, c] != 0 or int(m.level[row, c]) != int(p.z):
                    continue
                spots.append((math.hypot(sx - p.x, sy - p.y), (sx, sy), (c, row)))
        for _, spot, cell in sorted(spots):
            if nav.plan(m.walls, m.level, start, {cell}, self.blocked() - {start}) is not None:
                return spot
        return (x, y)

    def face(self, x: float, y: float) -> Program:
        return skill("turn", degree=round(self.bearing(x, y), 2))

    def approach_and(self, x: float, y: float, reach: float, then: Program) -> Program:
        """Walk within ``reach`` of (x, y), face it and run ``then``."""
        if self.dist(x, y) > reach:
            spot = self.stand_by(x, y, reach)
            return self.walk(spot, stop_m=0.4)
        return sequence([self.face(x, y), then])
