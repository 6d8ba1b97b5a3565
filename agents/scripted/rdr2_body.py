"""The privileged RDR2 player's body: reading the simulator's state, walking and riding.

:class:`RDR2Body` plans on privileged state (``privileged=True``) and acts only as an agent
does: every step it returns the code text of **one** skill call (the env's
``max_skill_calls``), which ``UseSkills`` parses and runs. A breadth-first search over the grid
(ledges one level up are climbable) gives the way; each step walks one straight leg of it
(``turn_and_move_forward``), turns to a ledge and climbs it, or steps aside when the last leg
got nowhere. The checkpoint plans (:mod:`agents.scripted.rdr2`) build on it.
"""

from __future__ import annotations

import math
from typing import Any

from agents.scripted import rdr2_nav as nav
from gcc_envs.errors import GCCError

CELL_M = 2.0
#: Walking and riding speeds of the simulator (m/s), for leg durations.
FOOT_SPEED, HORSE_SPEED, CARRY_SPEED = 3.0, 6.0, 2.2
#: Longest leg (s) of one step.
LEG_S = 2.0
#: A leg that moved less than this (m) was blocked: the next step sidesteps.
STUCK_M = 0.05
#: Degrees within which the player counts as facing a thing (interacting, climbing).
FACE_DEG = 12.0


def call(name: str, /, **kwargs: Any) -> str:
    """Code text of one skill call with literal arguments (floats to 2 decimals).

    >>> call("turn_and_move_forward", degree=12.345, duration=1.0)
    'turn_and_move_forward(degree=12.35, duration=1.0)'
    """
    parts = []
    for k, v in kwargs.items():
        lit = repr(round(v, 2)) if isinstance(v, float) else repr(v)
        parts.append(f"{k}={lit}")
    return f"{name}({', '.join(parts)})"


def leg(bearing: float, metres: float, speed: float, min_s: float = 0.2) -> str:
    """One call towards something ``metres`` away at ``bearing`` (degrees, right positive):
    a turn first when it is behind (a leg straight off would walk away), else a turn and a
    walk of the time the distance takes at ``speed`` m/s (``min_s`` to 2 s).

    >>> leg(30.0, 4.5, 3.0), leg(150.0, 4.5, 3.0)
    ('turn_and_move_forward(degree=30.0, duration=1.5)', 'turn(degree=150.0)')
    """
    if abs(bearing) > 100:
        return call("turn", degree=round(bearing, 1))
    dur = min(2.0, max(min_s, metres / speed))
    return call("turn_and_move_forward", degree=round(bearing, 1), duration=dur)


class RDR2Body:
    """State access, geometry on the state, and moving one skill call per step."""

    def __init__(self, env: Any, privileged: bool = False) -> None:
        if not privileged:
            raise GCCError(f"{type(self).__name__} plans on the simulator's state: privileged=True")
        sim = getattr(getattr(env, "backend", None), "sim", None)
        if sim is None or not hasattr(sim, "fork") or not hasattr(sim, "data"):
            raise GCCError(f"{type(self).__name__} needs the RDR2 simulator (backend='sim')")
        self.env = env
        self.sim = sim
        #: (H, W) of the observations, for screen coordinates of skill calls.
        self.size = (720, 1280)
        #: Where the last walking leg began (None when the last call was no leg).
        self.leg_from: tuple[float, float] | None = None
        #: Steps taken this episode (for the env's think time).
        self.steps = 0

    def reset_body(self) -> None:
        self.leg_from = None
        self.steps = 0

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
        """Where the current checkpoint begins (this episode's staging spot)."""
        s = self.s
        cp = self.sim.data.missions[s.mission.name].checkpoints[s.mission.index]
        return cp.player[0], cp.player[1]

    def seen(self, tutorial: str) -> bool:
        return tutorial in self.s.ui.tutorials_seen

    def blocked(self) -> set[nav.Cell]:
        return {nav.cell_of(pr.x, pr.y, CELL_M) for pr in self.s.props.values() if pr.solid}

    def speed(self) -> float:
        p = self.s.player
        return HORSE_SPEED if p.mounted else (CARRY_SPEED if p.carrying else FOOT_SPEED)

    def delay_s(self) -> float:
        """Game seconds that pass between reading this frame and the action starting: the
        env's ``think_time`` in lockstep, the resume animation in ``paused`` mode."""
        env = self.env
        think = getattr(env, "think_time", None)
        t = float(think(self.steps) if callable(think) else (think or 0.0))
        mode = str(getattr(getattr(env, "time_mode", None), "value", ""))
        if mode == "paused":
            from gcc_envs.games.rdr2.sim import PAUSE_ANIMATION_S

            t += PAUSE_ANIMATION_S
        return t

    # ------------------------------------------------------------ moving
    def next_point(
        self, goal: tuple[float, float]
    ) -> tuple[tuple[float, float], nav.Cell | None] | None:
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

    def walk(self, goal: tuple[float, float], stop_m: float = 1.0) -> str | None:
        """One step towards ``goal`` (a leg, a turn to a ledge, a climb, a sidestep), or None
        when within ``stop_m`` of it or when no way leads there."""
        p = self.s.player
        here = (p.x, p.y)
        came_from, self.leg_from = self.leg_from, None
        d = math.hypot(goal[0] - p.x, goal[1] - p.y)
        if d <= stop_m:
            return None
        if came_from is not None and math.hypot(here[0] - came_from[0], here[1] - came_from[1]) < (
            STUCK_M
        ):
            return call("turn_and_move_forward", degree=70.0, duration=0.4)  # pushed: step aside
        got = self.next_point(goal)
        if got is None:
            return None
        (tx, ty), ledge = got
        if ledge is not None and nav.rect_distance(p.x, p.y, ledge, CELL_M) < 0.9:
            cx, cy = nav.centre_of(ledge, CELL_M)  # at the ledge: face it, climb
            b = self.bearing(cx, cy)
            return call("turn", degree=b) if abs(b) > FACE_DEG else call("climb")
        leg = math.hypot(tx - p.x, ty - p.y)
        if (tx, ty) == goal:
            leg = max(0.0, leg - stop_m * 0.8)
        if ledge is not None and (tx, ty) == nav.centre_of(ledge, CELL_M):
            leg = nav.rect_distance(p.x, p.y, ledge, CELL_M) - 0.5
        dur = min(LEG_S, max(0.1, leg / self.speed()))
        self.leg_from = here
        return call("turn_and_move_forward", degree=self.bearing(tx, ty), duration=dur)

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

    def face(self, x: float, y: float) -> str:
        return call("turn", degree=self.bearing(x, y))

    def approach_and(
        self, x: float, y: float, reach: float, then: str, face_deg: float | None = FACE_DEG
    ) -> str:
        """One step of: walk within ``reach`` of (x, y), face it (unless ``face_deg`` is
        None), then ``then``."""
        if self.dist(x, y) > reach:
            step = self.walk(self.stand_by(x, y, reach), stop_m=0.4)
            if step is not None:
                return step
        if face_deg is not None and abs(self.bearing(x, y)) > face_deg:
            return self.face(x, y)
        return then
