"""Fighting: the player's guns, knife and fists; enemies in cover (wolves: ``wolves.py``).

Hit tests cast a ray from the screen centre (the crosshair) along the view: a target is hit when
the ray passes within its body (plus a small tolerance) horizontally and vertically, with no wall
in between. Enemies hide behind a rock or prop on the far side from the player and step out to
shoot; their hit chance falls with distance, when the target is moving, and when it is in cover
(companions behind something solid; the player only when crouched there with ``q``).
"""

from __future__ import annotations

import math

import numpy as np

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.state import BLOCK_M, CELL_M, CLIP_SIZE, GUNS, NPC, Horse, WorldState
from gcc_envs.games.rdr2.sim.world import (
    hurt_horse,
    hurt_npc,
    hurt_player,
    level_at,
    radius_of,
    solids,
)

GUN_DAMAGE = {"revolver": 40.0, "rifle": 70.0}
GUN_COOLDOWN_S = {"revolver": 0.45, "rifle": 1.0}
RELOAD_S = 1.5
#: Extra angular slack of the crosshair (degrees) when aiming and from the hip.
AIM_SLACK_DEG = 0.75
HIP_SLACK_DEG = 0.25
MELEE_M = 1.8
#: How close a wall or solid prop must be for ``q`` to take cover behind it (metres).
COVER_REACH_M = 1.5
MELEE_DEG = 45.0
MELEE_DAMAGE = {"fists": 15.0, "knife": 35.0}
MELEE_COOLDOWN_S = 0.6
EYE_M = 1.6
MOUNTED_EYE_M = 2.4
#: Enemies: seconds hidden, seconds exposed before firing, run speed, damage to the player.
HIDE_S = 1.6
EXPOSE_S = 1.0
ENEMY_SPEED = 4.0
ENEMY_DAMAGE = 4.0
ENEMY_DAMAGE_COMPANION = 20.0
#: Shots an enemy fires each time it steps out (each may hit).
BURST = 3
#: Height (m) of an enemy kneeling to aim.
KNEEL_M = 1.3
#: Seconds an enemy stands at his peek spot after firing, working the lever, before he ducks
#: back: a man seen kneeling to aim stays out at least this long.
LEVER_S = 1.5
#: Flanking: how far an enemy dashes to new cover, how near and far from the player it may
#: be, and how far round (degrees, seen from the player) it must come.
FLANK_REACH_M = 18.0
FLANK_NEAR_M = 7.0
FLANK_FAR_M = 40.0
FLANK_MIN_DEG = 20.0
#: Advancing: an enemy that does not flank after a shot moves up on the companion it fights
#: (Dutch in protect_dutch; the player when none is near) to a cover at least
#: ``ADVANCE_MIN_M`` nearer, within ``ADVANCE_REACH_M`` of it, or else that far over open
#: ground, never nearer than ``ADVANCE_NEAR_M``. The longer a fight lasts (the agent thinking
#: between actions), the closer they come and the more of their shots land.
ADVANCE_MIN_M = 2.0
ADVANCE_REACH_M = 9.0
ADVANCE_STEP_M = 4.0
ADVANCE_NEAR_M = 5.0
#: Within this, an enemy's shot comes round any cover its target has.
POINT_BLANK_M = 10.0
#: Chance an enemy shot goes at a companion in the fight rather than at the player.
COMPANION_TARGET = 0.7


def _eye(state: WorldState) -> float:
    p = state.player
    return p.z * BLOCK_M + (MOUNTED_EYE_M if p.mounted else EYE_M)


def body_height(thing: NPC | Horse) -> float:
    """Height (metres) of a target's body for the vertical hit test."""
    if not isinstance(thing, NPC):
        return 1.8
    if thing.kind == "wolf":
        return 0.5 if thing.state == "growl" else 0.8
    if thing.state == "aim":
        return KNEEL_M
    return 1.0 if thing.state == "downed" else 1.8


def aim_angles(state: WorldState, x: float, y: float, height: float = 1.8) -> tuple[float, float]:
    """(yaw, pitch) in degrees that put the crosshair on the middle of a body at (x, y)."""
    p = state.player
    d = max(geo.dist(p.x, p.y, x, y), 0.1)
    mid = level_at(state, x, y) * BLOCK_M + height / 2.0
    return geo.heading(x - p.x, y - p.y), math.degrees(math.atan2(mid - _eye(state), d))


def shoot(state: WorldState, rng: np.random.Generator) -> bool:
    """Fire the equipped gun along the view; True when a shot was fired."""
    p = state.player
    if p.weapon not in GUNS or p.gun_cooldown > 0 or p.reload_left > 0 or p.carrying:
        return False
    if p.ammo_clip <= 0:
        start_reload(state)
        return False
    p.ammo_clip -= 1
    p.gun_cooldown = GUN_COOLDOWN_S[p.weapon]
    state.ui.muzzle_flash = 1.0
    slack = AIM_SLACK_DEG if p.aiming else HIP_SLACK_DEG
    target = crosshair_target(state, slack)
    if target is not None and (p.aiming or rng.random() < 0.6):
        _damage(state, target, GUN_DAMAGE[p.weapon])
        state.ui.hit_marker = 1.0
    if p.ammo_clip == 0:
        start_reload(state)
    return True


def start_reload(state: WorldState) -> bool:
    p = state.player
    if p.weapon not in GUNS or p.reload_left > 0 or p.ammo_reserve <= 0:
        return False
    if p.ammo_clip >= CLIP_SIZE[p.weapon]:
        return False
    p.reload_left = RELOAD_S
    return True


def melee(state: WorldState) -> bool:
    """Punch (or stab with the knife) whatever is closest in front; True when something was hit."""
    p = state.player
    if p.punch_cooldown > 0 or p.mounted or p.carrying:
        return False
    p.punch_cooldown = MELEE_COOLDOWN_S
    best: NPC | Horse | None = None
    best_d = MELEE_M
    for thing in [*state.npcs.values(), *state.horses.values()]:
        if not thing.alive or getattr(thing, "state", "") in ("carried", "on_horse"):
            continue
        if p.mounted is not None and p.mounted == getattr(thing, "id", None):
            continue
        d = geo.dist(p.x, p.y, thing.x, thing.y)
        ahead = abs(geo.angle_diff(geo.heading(thing.x - p.x, thing.y - p.y), p.yaw_deg))
        if d < best_d and (d < 0.3 or ahead <= MELEE_DEG):
            best, best_d = thing, d
    if best is None:
        return False
    dmg = MELEE_DAMAGE["knife" if p.weapon == "knife" else "fists"]
    _damage(state, best, dmg)
    return True


def step_guns(state: WorldState, dt: float) -> None:
    p = state.player
    if p.gun_cooldown != 0.0:  # max(0.0, v - dt), left alone at 0 (every tick)
        v = p.gun_cooldown - dt
        p.gun_cooldown = v if v > 0.0 else 0.0
    if p.punch_cooldown != 0.0:
        v = p.punch_cooldown - dt
        p.punch_cooldown = v if v > 0.0 else 0.0
    if p.reload_left > 0:
        p.reload_left -= dt
        if p.reload_left <= 0:
            p.reload_left = 0.0
            need = CLIP_SIZE.get(p.weapon, 0) - p.ammo_clip
            take = max(0, min(need, p.ammo_reserve))
            p.ammo_clip += take
            p.ammo_reserve -= take


def _damage(state: WorldState, target: NPC | Horse, amount: float) -> None:
    if isinstance(target, NPC):
        hurt_npc(state, target, amount, "arthur")
        if target.kind == "wolf" or target.hostile:
            target.cooldown = max(target.cooldown, 0.3)
    else:
        hurt_horse(state, target, amount, "arthur")


def crosshair_target(state: WorldState, slack: float) -> NPC | Horse | None:
    """The nearest living body under the crosshair (within ``slack`` degrees), wall-free."""
    p, m = state.player, state.map
    eye = _eye(state)
    best, best_d = None, math.inf
    for thing in [*state.npcs.values(), *state.horses.values()]:
        if not thing.alive or (p.mounted is not None and p.mounted == getattr(thing, "id", None)):
            continue
        if getattr(thing, "state", "") in ("carried", "on_horse"):
            continue
        kind = "horse" if not isinstance(thing, NPC) else thing.kind
        r = radius_of(kind)
        d = geo.dist(p.x, p.y, thing.x, thing.y)
        if d >= best_d or d > 120.0:
            continue
        if geo.aim_error_deg(p.x, p.y, p.yaw_deg, thing.x, thing.y, r) > slack:
            continue
        height = body_height(thing)
        base = level_at(state, thing.x, thing.y) * BLOCK_M
        lo = math.degrees(math.atan2(base - eye, max(d, 0.1)))
        hi = math.degrees(math.atan2(base + height - eye, max(d, 0.1)))
        if not (lo - slack - 1.0 <= p.pitch_deg <= hi + slack + 1.0):
            continue
        if not geo.line_of_sight(m.walls, CELL_M, p.x, p.y, thing.x, thing.y):
            continue
        best, best_d = thing, d
    return best


# ---- enemies


def _cover_spots(state: WorldState, npc: NPC) -> tuple[tuple[float, float], tuple[float, float]]:
    """(hide, peek) positions behind the enemy's cover object, away from the player.

    The peek spot is the first one beside the hiding place (left, right, further left, further
    right) from which the player can be seen.
    """
    p = state.player
    cx, cy = npc.cover if npc.cover is not None else (npc.x, npc.y)
    d = geo.dist(p.x, p.y, cx, cy) or 1.0
    ux, uy = (cx - p.x) / d, (cy - p.y) / d
    hide = (cx + ux * 1.5, cy + uy * 1.5)
    walls = state.map.walls
    peeks = [(hide[0] - uy * side, hide[1] + ux * side) for side in (1.9, -1.9, 3.8, -3.8)]
    for peek in peeks:
        if geo.line_of_sight(walls, CELL_M, peek[0], peek[1], p.x, p.y):
            return hide, peek
    return hide, peeks[0]


def _move_to(npc: NPC, x: float, y: float, speed: float, dt: float) -> bool:
    d = geo.dist(npc.x, npc.y, x, y)
    if d <= speed * dt:
        npc.x, npc.y = x, y
        return True
    npc.x += (x - npc.x) / d * speed * dt
    npc.y += (y - npc.y) / d * speed * dt
    npc.yaw_deg = geo.heading(x - npc.x, y - npc.y)
    return False


def step_enemy(state: WorldState, npc: NPC, dt: float, rng: np.random.Generator) -> None:
    """Run to cover, then alternate hiding (``npc.hide_s``) and stepping out to shoot
    (``npc.expose_s``); after a shot, with chance ``npc.flank``, dash to another cover that
    comes at the player from a new side.

    The hiding and peeking spots are chosen when a phase begins (against where the player is
    then), so an enemy keeps its spot for the phase even if the player flanks it meanwhile.
    """
    if not npc.alive:
        npc.vx = npc.vy = 0.0
        return
    x0, y0 = npc.x, npc.y
    _enemy_phase(state, npc, dt, rng)
    npc.vx, npc.vy = (npc.x - x0) / dt, (npc.y - y0) / dt


def _enemy_phase(state: WorldState, npc: NPC, dt: float, rng: np.random.Generator) -> None:
    p = state.player
    npc.cooldown -= dt
    if npc.hide_at is None or npc.peek_at is None:
        npc.hide_at, npc.peek_at = _cover_spots(state, npc)
    if npc.state in ("idle", "run"):
        npc.state = "run"
        if _move_to(npc, *npc.hide_at, ENEMY_SPEED, dt):
            npc.state, npc.cooldown = "cover", npc.hide_s
        return
    if npc.state == "cover":
        _move_to(npc, *npc.hide_at, ENEMY_SPEED, dt)
        if npc.cooldown <= 0:
            npc.hide_at, npc.peek_at = _cover_spots(state, npc)
            npc.state, npc.cooldown = "shoot", npc.expose_s
        return
    if npc.state == "lever":  # fired: stands working the lever, then ducks back (or moves)
        if npc.cooldown <= 0:
            npc.state, npc.cooldown = "cover", npc.hide_s
            if not (npc.flank > 0 and rng.random() < npc.flank and _flank(state, npc, rng)):
                _advance(state, npc, rng)
        return
    # shoot: step out, kneel to aim ("aim") where he stops, fire at the end of the exposure
    if _move_to(npc, *npc.peek_at, ENEMY_SPEED, dt):
        npc.state = "aim"
    target = _pick_target(state, npc, rng) if npc.cooldown <= 0 else None
    tx, ty = (p.x, p.y) if target is None else (target.x, target.y)
    npc.yaw_deg = geo.heading(tx - npc.x, ty - npc.y)
    if npc.cooldown <= 0:
        _enemy_fire(state, npc, target, rng)
        npc.state, npc.cooldown = "lever", LEVER_S


def _flank(state: WorldState, npc: NPC, rng: np.random.Generator) -> bool:
    """Pick a free cover within :data:`FLANK_REACH_M` whose bearing from the player differs by
    at least :data:`FLANK_MIN_DEG` from the current one, and run there (exposed on the way);
    False when there is none."""
    p = state.player
    taken = {n.cover for n in state.npcs.values() if n.alive and n.kind == "enemy"}
    here = geo.heading(npc.x - p.x, npc.y - p.y)
    options = []
    for c in state.covers:
        if c in taken or geo.dist(*c, npc.x, npc.y) > FLANK_REACH_M:
            continue
        d = geo.dist(*c, p.x, p.y)
        turn = abs(geo.angle_diff(geo.heading(c[0] - p.x, c[1] - p.y), here))
        if FLANK_NEAR_M <= d <= FLANK_FAR_M and turn >= FLANK_MIN_DEG:
            options.append(c)
    if not options:
        return False
    npc.cover = options[int(rng.integers(len(options)))]
    npc.hide_at, npc.peek_at = _cover_spots(state, npc)
    npc.state = "run"
    return True


def _pressed(state: WorldState, npc: NPC) -> tuple[float, float]:
    """Where an enemy advances to: the nearest companion in the fight, else the player."""
    friends = _friends(state)
    if not friends:
        return state.player.x, state.player.y
    f = min(friends, key=lambda n: geo.dist(n.x, n.y, npc.x, npc.y))
    return f.x, f.y


def _advance(state: WorldState, npc: NPC, rng: np.random.Generator) -> None:
    """Move up on the pressed companion: a free cover nearer to it, or open ground."""
    ax, ay = _pressed(state, npc)
    cx, cy = npc.cover if npc.cover is not None else (npc.x, npc.y)
    now = geo.dist(cx, cy, ax, ay)
    if now <= ADVANCE_NEAR_M + ADVANCE_MIN_M:
        return
    taken = {n.cover for n in state.npcs.values() if n.alive and n.kind == "enemy"}
    options = [
        c
        for c in state.covers
        if c not in taken
        and geo.dist(*c, cx, cy) <= ADVANCE_REACH_M
        and ADVANCE_NEAR_M <= geo.dist(*c, ax, ay) <= now - ADVANCE_MIN_M
    ]
    if options:
        npc.cover = options[int(rng.integers(len(options)))]
    else:
        spot = _open_step(state, cx, cy, ax, ay, min(ADVANCE_STEP_M, now - ADVANCE_NEAR_M))
        if spot is None:
            return
        npc.cover = spot
    npc.hide_at, npc.peek_at = _cover_spots(state, npc)
    npc.state = "run"


def _open_step(
    state: WorldState, x: float, y: float, ax: float, ay: float, step: float
) -> tuple[float, float] | None:
    """A free spot ``step`` metres from (x, y), straight towards (ax, ay) or up to 60° aside
    (round a fence), in clear sight of (x, y) and nearer to (ax, ay); None when there is none."""
    m = state.map
    z = level_at(state, x, y)
    now = geo.dist(x, y, ax, ay)
    toward = math.atan2(ay - y, ax - x)
    for turn in (0.0, 30.0, -30.0, 60.0, -60.0):
        a = toward + math.radians(turn)
        qx, qy = x + math.cos(a) * step, y + math.sin(a) * step
        if (
            geo.dist(qx, qy, ax, ay) <= now - step / 2.0
            and geo.circle_free(m.walls, m.level, CELL_M, qx, qy, 0.4, z)
            and geo.line_of_sight(m.walls, CELL_M, x, y, qx, qy)
        ):
            return qx, qy
    return None


def _friends(state: WorldState) -> list[NPC]:
    return [
        n
        for n in state.npcs.values()
        if n.alive and not n.hostile and n.kind in ("dutch", "micah", "javier")
    ]


def _pick_target(state: WorldState, npc: NPC, rng: np.random.Generator) -> NPC | None:
    """None = the player; otherwise the companion the enemy presses (:data:`COMPANION_TARGET`
    of the shots when one is in the fight)."""
    friends = _friends(state)
    if friends and rng.random() < COMPANION_TARGET:
        return min(friends, key=lambda n: geo.dist(n.x, n.y, npc.x, npc.y))
    return None


def hit_chance(distance: float, in_cover: bool, moving: bool) -> float:
    """Chance an enemy shot lands: falls with distance, in cover and on the move.

    >>> round(hit_chance(10, False, False), 3), round(hit_chance(10, True, False), 3)
    (0.625, 0.219)
    """
    p = min(max(0.75 - distance / 80.0, 0.15), 0.75)
    if in_cover:
        p *= 0.35
    if moving:
        p *= 0.6
    return p


def shielded(state: WorldState, x: float, y: float, sx: float, sy: float) -> bool:
    """Whether a solid prop or a wall right next to (x, y) lies between it and (sx, sy)."""
    for cx, cy, r in solids(state):
        if (
            geo.dist(x, y, cx, cy) < 2.5
            and geo.segment_point_distance(sx, sy, x, y, cx, cy) < r + 0.3
        ):
            return True
    d = geo.dist(x, y, sx, sy) or 1.0
    walls = state.map.walls
    rows, cols = walls.shape
    for k in (0.6, 1.2):
        col = int(math.floor((x + (sx - x) / d * k) / CELL_M))
        row = int(math.floor((y + (sy - y) / d * k) / CELL_M))
        if 0 <= col < cols and 0 <= row < rows and walls[row, col] != 0:
            return True
    return False


def take_cover(state: WorldState) -> bool:
    """``q``: crouch behind a wall or solid prop within reach (again: stand up)."""
    p = state.player
    if p.in_cover:
        p.in_cover = False
        return False
    if p.mounted or p.carrying:
        return False
    near_prop = any(geo.dist(p.x, p.y, cx, cy) < r + COVER_REACH_M for cx, cy, r in solids(state))
    walls = state.map.walls
    rows, cols = walls.shape
    near_wall = False
    for a in range(0, 360, 45):
        col = int(math.floor((p.x + math.cos(math.radians(a)) * COVER_REACH_M) / CELL_M))
        row = int(math.floor((p.y + math.sin(math.radians(a)) * COVER_REACH_M) / CELL_M))
        if 0 <= col < cols and 0 <= row < rows and walls[row, col] != 0:
            near_wall = True
            break
    p.in_cover = near_prop or near_wall
    return p.in_cover


def _enemy_fire(state: WorldState, npc: NPC, target: NPC | None, rng: np.random.Generator) -> None:
    p = state.player
    tx, ty = (p.x, p.y) if target is None else (target.x, target.y)
    if not geo.line_of_sight(state.map.walls, CELL_M, npc.x, npc.y, tx, ty):
        return
    d = geo.dist(npc.x, npc.y, tx, ty)
    moving = target is None and p.moving
    close = d <= POINT_BLANK_M  # near enough to shoot round any cover
    covered = (
        not close and shielded(state, tx, ty, npc.x, npc.y) and (target is not None or p.in_cover)
    )
    chance = hit_chance(d, covered, moving)
    for _ in range(BURST):
        if rng.random() >= chance:
            continue
        if target is None:
            hurt_player(state, ENEMY_DAMAGE)
        else:
            hurt_npc(state, target, ENEMY_DAMAGE_COMPANION, "enemy")
