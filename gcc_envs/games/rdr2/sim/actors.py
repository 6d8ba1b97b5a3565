"""Companions and horses: path following that waits for a lagging player, riders, led horses."""

from __future__ import annotations

import math

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.data import NPCSpec
from gcc_envs.games.rdr2.sim.state import CELL_M, NPC, WorldState

#: A companion stops and waits while the player is further than this (metres).
WAIT_M = 15.0
#: Companion speeds (m/s) on foot and mounted.
WALK_SPEED = 2.8
RIDE_SPEED = 6.5
#: A led horse keeps this far behind the player (metres) and walks at most this fast (m/s).
LEAD_GAP_M = 2.0
LEAD_SPEED = 4.5
#: Leading by the reins (the barn horse, along the checkpoint's route line): the horse balks
#: while the player is more than ``LEAD_STRAY_M`` off the line and further off it than the
#: horse is; the reins slip from the hand past ``LEAD_REINS_M``; running spooks it again.
LEAD_STRAY_M = 3.0
LEAD_REINS_M = 4.0
#: Checkpoints whose route line the led horse keeps to.
LEAD_ROUTE_CHECKPOINTS = ("lead_horse",)


def step_companion(state: WorldState, npc: NPC, dt: float) -> None:
    """Walk ``npc`` along its path; wait while the player lags more than :data:`WAIT_M` behind,
    for ``npc.patience`` seconds in all, then go on without them.

    The player lags when their closest point on the path lies behind the NPC's.
    """
    if not npc.alive or npc.hostile or npc.state in ("downed", "carried", "on_horse"):
        return
    if npc.path_index >= len(npc.path):
        npc.state = "idle"
        _carry_horse(state, npc)
        return
    tx, ty = npc.path[npc.path_index]
    p = state.player
    if (  # the cheap tests first: the path's two projections only when they matter
        math.hypot(npc.x - p.x, npc.y - p.y) > WAIT_M  # player_dist
        and npc.patience > 0
        and geo.behind_on_path(npc.path, p.x, p.y, npc.x, npc.y)
    ):
        npc.state = "wait"
        npc.patience -= dt
        if npc.patience <= 0:
            state.ui.subtitle = f"{npc.kind.capitalize()}: We ain't waiting all day, Arthur."
            state.ui.subtitle_at = state.clock
        # _face_player, whose distance test passed above (the player is over WAIT_M away)
        npc.yaw_deg = geo.heading(p.x - npc.x, p.y - npc.y)
        _carry_horse(state, npc)
        return
    speed = RIDE_SPEED if npc.mounted else WALK_SPEED
    d = geo.dist(npc.x, npc.y, tx, ty)
    step = speed * dt
    if d <= step:
        npc.x, npc.y = tx, ty
        npc.path_index += 1
    else:
        npc.x += (tx - npc.x) / d * step
        npc.y += (ty - npc.y) / d * step
        npc.yaw_deg = geo.heading(tx - npc.x, ty - npc.y)
    npc.state = "ride" if npc.mounted else "walk"
    _carry_horse(state, npc)


def path_done(npc: NPC) -> bool:
    return npc.path_index >= len(npc.path)


def set_path(npc: NPC, points: tuple[tuple[float, float], ...] | list[tuple[float, float]]) -> None:
    npc.path = tuple(points)  # the mission's own tuple, shared: its terms are kept once
    npc.path_index = 0


def _face_player(state: WorldState, npc: NPC) -> None:
    p = state.player
    dx, dy = p.x - npc.x, p.y - npc.y
    if math.hypot(dx, dy) > 0.1:
        npc.yaw_deg = geo.heading(dx, dy)


def _carry_horse(state: WorldState, npc: NPC) -> None:
    if npc.mounted and npc.mounted in state.horses:
        h = state.horses[npc.mounted]
        h.x, h.y, h.yaw_deg = npc.x, npc.y, npc.yaw_deg
        h.state = "walk" if npc.state == "ride" else "idle"


def step_horses(state: WorldState, dt: float) -> None:
    """The player's mount follows the player; a led horse trails behind."""
    p = state.player
    for h in state.horses.values():
        if not h.alive:
            continue
        if p.mounted == h.id:
            h.x, h.y, h.yaw_deg = p.x, p.y, p.yaw_deg
            h.state = "run" if p.running and p.moving else ("walk" if p.moving else "idle")
        elif p.leading == h.id:
            d = geo.dist(h.x, h.y, p.x, p.y)
            if p.running and p.moving:  # a spooked horse will not be rushed: it pulls free
                p.leading, h.calm, h.state = None, False, "spooked"
                _say(state, "The horse shies and pulls the reins free.")
            elif _balks(state, h.x, h.y):
                h.state = "idle"
                if d > LEAD_REINS_M:
                    p.leading = None
                    _say(state, "The horse stops. The reins slip from your hand.")
            elif d > LEAD_GAP_M:
                step = min(LEAD_SPEED * dt, d - LEAD_GAP_M)
                h.x += (p.x - h.x) / d * step
                h.y += (p.y - h.y) / d * step
                h.yaw_deg = geo.heading(p.x - h.x, p.y - h.y)
                h.state = "led"
            else:
                h.state = "idle"
        elif not h.calm:
            # a spooked horse stamps and turns in its stall
            h.yaw_deg = geo.wrap_deg(h.yaw_deg + 90.0 * dt * math.sin(state.clock * 3.0))
            h.state = "spooked"


def _route_off(route: list[tuple[float, float]], x: float, y: float) -> float:
    """Distance (m) from (x, y) to the polyline ``route``."""
    return min(
        geo.segment_point_distance(a[0], a[1], b[0], b[1], x, y)
        for a, b in zip(route[:-1], route[1:])
    )


def _balks(state: WorldState, hx: float, hy: float) -> bool:
    """Whether a led horse at (hx, hy) refuses to follow: the player strays off the route."""
    route = state.checkpoint_route
    if state.mission.current not in LEAD_ROUTE_CHECKPOINTS or not route or len(route) < 2:
        return False
    p = state.player
    off = _route_off(route, p.x, p.y)
    return off > LEAD_STRAY_M and off > _route_off(route, hx, hy) + 0.5


def _say(state: WorldState, line: str) -> None:
    state.ui.subtitle, state.ui.subtitle_at = line, state.clock


def cell_of(x: float, y: float) -> tuple[int, int]:
    return int(math.floor(x / CELL_M)), int(math.floor(y / CELL_M))


def npc_from_spec(s: NPCSpec) -> NPC:
    x, y, yaw = s.at
    return NPC(
        name=s.name,
        kind=s.kind,
        x=x,
        y=y,
        yaw_deg=yaw,
        health=s.health,
        max_health=s.health,
        hostile=s.hostile,
        mounted=s.mounted,
        cover=s.cover,
        speed=s.speed,
        state=s.state,
        hide_s=s.hide_s,
        expose_s=s.expose_s,
        flank=s.flank,
        stalk_s=s.stalk_s,
        stalk_left=s.stalk_s,
        orbit=s.orbit,
    )
