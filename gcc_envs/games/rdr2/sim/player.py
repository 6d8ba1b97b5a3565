"""The player's body: walking, running, riding, climbing ledges, looting, turning the view."""

from __future__ import annotations

import math
from collections.abc import Collection

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.state import CELL_M, PITCH_LIMIT_DEG, Prop, WorldState
from gcc_envs.games.rdr2.sim.world import SUPPLIES, in_front, level_at, solids

WALK_SPEED = 3.0
RUN_SPEED = 5.5
CARRY_SPEED = 2.2
TROT_SPEED = 6.0
GALLOP_SPEED = 10.0
BACK_SPEED = 2.0
FOOT_RADIUS = 0.35
HORSE_RADIUS = 0.7
#: Seconds ``r`` must be held to search a drawer or cupboard.
LOOT_S = 1.5
LOOT_REACH_M = 1.9
LOOTABLE = ("drawer", "cupboard", "supply")
JUMP_S = 0.5
CLIMB_REACH_M = 2.0


def turn(state: WorldState, d_yaw: float, d_pitch: float) -> None:
    p = state.player
    p.yaw_deg = geo.wrap_deg(p.yaw_deg + d_yaw)
    p.pitch_deg = min(max(p.pitch_deg + d_pitch, -PITCH_LIMIT_DEG), PITCH_LIMIT_DEG)


def move(state: WorldState, held: Collection[str], dt: float) -> None:
    """Move by the held WASD keys relative to the view; shift runs (gallops on a horse)."""
    p = state.player
    fwd = ("w" in held) - ("s" in held)
    side = ("d" in held) - ("a" in held)
    p.running = "shift" in held and not p.carrying
    if not fwd and not side:
        p.moving = False
        return
    p.in_cover = False
    if p.mounted:
        speed = GALLOP_SPEED if p.running else TROT_SPEED
        if fwd < 0:
            speed = BACK_SPEED
        r = HORSE_RADIUS
    else:
        speed = CARRY_SPEED if p.carrying else (RUN_SPEED if p.running else WALK_SPEED)
        r = FOOT_RADIUS
    yaw = math.radians(p.yaw_deg)
    fx, fy = math.cos(yaw), math.sin(yaw)
    dx, dy = fwd * fx - side * fy, fwd * fy + side * fx
    n = math.hypot(dx, dy)
    dx, dy = dx / n * speed * dt, dy / n * speed * dt
    m = state.map
    ox, oy = p.x, p.y
    p.x, p.y = geo.move_circle(m.walls, m.level, CELL_M, p.x, p.y, dx, dy, r, p.z, solids(state))
    if p.mounted and _roofed(state, p.x, p.y):
        p.x, p.y = ox, oy  # horses stay outdoors
    p.moving = (p.x, p.y) != (ox, oy)
    p.z = level_at(state, p.x, p.y)


def _roofed(state: WorldState, x: float, y: float) -> bool:
    m = state.map
    rows, cols = m.shape
    col, row = int(math.floor(x / CELL_M)), int(math.floor(y / CELL_M))
    return 0 <= col < cols and 0 <= row < rows and bool(m.roof[row, col])


def ledge_ahead(state: WorldState, reach: float = CLIMB_REACH_M) -> tuple[float, float] | None:
    """The point to climb onto when a cell one level up lies within ``reach`` ahead, else None."""
    p = state.player
    yaw = math.radians(p.yaw_deg)
    m = state.map
    rows, cols = m.shape
    for k in range(1, 5):
        d = reach * k / 4
        x, y = p.x + math.cos(yaw) * d, p.y + math.sin(yaw) * d
        col, row = int(math.floor(x / CELL_M)), int(math.floor(y / CELL_M))
        if not (0 <= col < cols and 0 <= row < rows) or m.walls[row, col] != 0:
            return None
        lv = int(m.level[row, col])
        if lv == p.z + 1:
            # land half a cell inside the upper cell
            return x + math.cos(yaw) * CELL_M * 0.5, y + math.sin(yaw) * CELL_M * 0.5
        if lv > p.z + 1:
            return None
    return None


def near_ledge(state: WorldState, within_m: float) -> bool:
    """Whether a cell one level above the player lies within ``within_m`` in any direction."""
    p = state.player
    m = state.map
    rows, cols = m.shape
    for a in range(0, 360, 45):
        for k in range(1, 4):
            d = within_m * k / 3
            x = p.x + math.cos(math.radians(a)) * d
            y = p.y + math.sin(math.radians(a)) * d
            col, row = int(math.floor(x / CELL_M)), int(math.floor(y / CELL_M))
            if 0 <= col < cols and 0 <= row < rows and m.walls[row, col] == 0:
                if int(m.level[row, col]) == p.z + 1:
                    return True
    return False


def jump(state: WorldState, can_climb: bool) -> bool:
    """Jump; with ``can_climb`` and a low ledge ahead, climb onto it. True when climbed."""
    p = state.player
    if p.mounted or p.jump_left > 0:
        return False
    p.jump_left = JUMP_S
    if not can_climb or p.carrying:
        return False
    spot = ledge_ahead(state)
    if spot is None:
        return False
    m = state.map
    z = p.z + 1
    if not geo.circle_free(
        m.walls, m.level, CELL_M, spot[0], spot[1], FOOT_RADIUS, z, solids(state)
    ):
        return False
    p.x, p.y, p.z = spot[0], spot[1], z
    return True


def lootable_in_reach(state: WorldState) -> Prop | None:
    best, best_d = None, math.inf
    p = state.player
    for prop in state.props.values():
        if prop.kind not in LOOTABLE or prop.looted:
            continue
        if not in_front(state, prop.x, prop.y, LOOT_REACH_M, 70.0):
            continue
        d = geo.dist(p.x, p.y, prop.x, prop.y)
        if d < best_d:
            best, best_d = prop, d
    return best


def loot_tick(state: WorldState, holding: bool, dt: float) -> Prop | None:
    """Advance the hold-``r`` search; returns the prop when a search completes."""
    ui = state.ui
    target = lootable_in_reach(state) if holding and not state.player.mounted else None
    if target is None:
        ui.loot_progress = None
        return None
    ui.loot_progress = min(1.0, (ui.loot_progress or 0.0) + dt / LOOT_S)
    if ui.loot_progress < 1.0:
        return None
    ui.loot_progress = None
    target.looted = target.open = True
    p = state.player
    for item, n in target.items.items():
        if item == "revolver_ammo":
            p.ammo_reserve += n
        else:
            p.items[item] = p.items.get(item, 0) + n
    found = sum(n for item, n in target.items.items() if item in SUPPLIES)
    state.mission.counters["supplies"] = state.mission.counters.get("supplies", 0.0) + found
    return target
