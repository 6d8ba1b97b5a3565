"""Walking: the player's collision box against tiles, obstacles and doors; warps between maps.

The collision box is ``2 * HALF_W`` wide and ``2 * HALF_H`` tall, centred on the feet point
(x, y). It is narrower than a tile, so the player must be lined up to within
``0.5 - HALF_W`` tiles of a gap's centre to pass a one-tile gap or a door.
"""

from __future__ import annotations

import math

from gcc_envs.games.stardew.sim.data import DOOR, FREE, Door, Warp
from gcc_envs.games.stardew.sim.state import TICK_HZ, Message, WorldState

#: Walking speed in tiles per second of game time.
SPEED = 4.7
HALF_W = 0.3
HALF_H = 0.2
#: How long on-screen messages stay up (ticks).
MESSAGE_TICKS = 4 * TICK_HZ
_EPS = 1e-6


def show_message(state: WorldState, text: str) -> None:
    state.message = Message(text, state.tick + MESSAGE_TICKS)


def blocked(state: WorldState, location: str, x: int, y: int) -> bool:
    """Whether tile (x, y) stops the player now (walls, obstacles, locked doors, off-map)."""
    m = state.map(location)
    if x < 0 or y < 0 or x >= m.width or y >= m.height:
        return True
    v = m.solid[y * m.width + x]
    if v == FREE:
        return (x, y) in state.locations[location].obstacles
    if v == DOOR:
        return not m.door_at[(x, y)].is_open(state.minutes)
    return True


def walk(state: WorldState, vx: float, vy: float, ticks: int) -> int:
    """Move by (vx, vy) tiles per tick for up to ``ticks`` ticks; returns the ticks used.

    Stops early when the player goes through a warp or a door (the map changed).
    """
    p = state.player
    loc = state.location
    m = state.map(loc)
    obstacles = state.locations[loc].obstacles
    solid, w, h = m.solid, m.width, m.height
    minutes = state.minutes
    bump: tuple[int, int] | None = None

    def stops(tx: int, ty: int) -> bool:
        if tx < 0 or ty < 0 or tx >= w or ty >= h:
            return True
        v = solid[ty * w + tx]
        if v == FREE:
            return (tx, ty) in obstacles
        if v == DOOR:
            return not m.door_at[(tx, ty)].is_open(minutes)
        return True

    x, y = p.x, p.y
    for i in range(ticks):
        if vx:
            nx = x + vx
            edge = math.floor(nx + HALF_W - _EPS) if vx > 0 else math.floor(nx - HALF_W + _EPS)
            old = math.floor(x + HALF_W - _EPS) if vx > 0 else math.floor(x - HALF_W + _EPS)
            if edge != old:
                for ty in range(math.floor(y - HALF_H + _EPS), math.floor(y + HALF_H - _EPS) + 1):
                    if stops(edge, ty):
                        nx = edge - HALF_W if vx > 0 else edge + 1 + HALF_W
                        bump = (edge, ty)
                        break
            x = nx
        if vy:
            ny = y + vy
            edge = math.floor(ny + HALF_H - _EPS) if vy > 0 else math.floor(ny - HALF_H + _EPS)
            old = math.floor(y + HALF_H - _EPS) if vy > 0 else math.floor(y - HALF_H + _EPS)
            if edge != old:
                for tx in range(math.floor(x - HALF_W + _EPS), math.floor(x + HALF_W - _EPS) + 1):
                    if stops(tx, edge):
                        ny = edge - HALF_H if vy > 0 else edge + 1 + HALF_H
                        bump = (tx, edge)
                        break
            y = ny
        cell = (int(x), int(y))
        link = m.warp_at.get(cell) or m.door_at.get(cell)
        if link is not None:
            p.walked += abs(x - p.x) + abs(y - p.y)
            p.x, p.y = x, y
            go_through(state, link)
            return i + 1
    p.walked += abs(x - p.x) + abs(y - p.y)
    p.x, p.y = x, y
    if bump is not None and solid[bump[1] * w + bump[0]] == DOOR:
        show_message(state, m.door_at[bump].message)
    return ticks


def go_through(state: WorldState, link: Warp | Door) -> None:
    """Move the player through a warp or an (open) door to the linked map."""
    p = state.player
    if isinstance(link, Warp):
        p.x, p.y = link.arrival(p.x, p.y)
        state.location = link.to
    else:
        assert link.to is not None
        p.x, p.y = link.tx + 0.5, link.ty + 0.5
        state.location = link.to
    p.facing = link.facing
    state.stats.visits[state.location] = state.stats.visits.get(state.location, 0) + 1
