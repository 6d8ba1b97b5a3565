"""Queries and damage on the world state that every rule module shares."""

from __future__ import annotations

import math

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.state import CELL_M, NPC, Horse, WorldState

#: Health regained per second once :data:`REGEN_DELAY_S` have passed without damage.
REGEN_PER_S = 4.0
REGEN_DELAY_S = 5.0
#: Items that count as supplies (Mission 1's search, Mission 3's purchase).
SUPPLIES = frozenset({"canned_food", "coffee", "medicine", "canned_beans", "biscuits"})
#: Body radius (metres) by kind, for collision and hit tests.
RADIUS = {"wolf": 0.45, "horse": 0.8, "horse_barn": 0.8}
HUMAN_RADIUS = 0.4
#: Seconds a subtitle stays on screen.
SUBTITLE_S = 6.0


def radius_of(kind: str) -> float:
    return RADIUS.get(kind, HUMAN_RADIUS)


#: Radius (metres) of a solid prop (a crate, a barrel) as walkers bump into it.
SOLID_RADIUS = 0.6


def solids(state: WorldState) -> list[tuple[float, float, float]]:
    """Solid props as (x, y, r) circles."""
    return [(p.x, p.y, SOLID_RADIUS) for p in state.props.values() if p.solid]


def player_dist(state: WorldState, x: float, y: float) -> float:
    p = state.player
    return geo.dist(p.x, p.y, x, y)


def in_front(state: WorldState, x: float, y: float, max_m: float, max_deg: float) -> bool:
    """Whether (x, y) is within ``max_m`` of the player and ``max_deg`` of their view."""
    p = state.player
    d = geo.dist(p.x, p.y, x, y)
    if d > max_m:
        return False
    return d < 0.3 or abs(geo.angle_diff(geo.heading(x - p.x, y - p.y), p.yaw_deg)) <= max_deg


def level_at(state: WorldState, x: float, y: float) -> int:
    m = state.map
    rows, cols = m.shape
    col = min(max(int(math.floor(x / CELL_M)), 0), cols - 1)
    row = min(max(int(math.floor(y / CELL_M)), 0), rows - 1)
    return int(m.level[row, col])


def hurt_player(state: WorldState, amount: float) -> None:
    p = state.player
    if not p.alive:
        return
    p.health = max(0.0, p.health - amount)
    p.last_hurt = state.clock
    state.ui.damage_flash = 1.0
    if p.health <= 0.0:
        p.alive = False


def hurt_npc(state: WorldState, npc: NPC, amount: float, by: str) -> None:
    if not npc.alive:
        return
    npc.health = max(0.0, npc.health - amount)
    npc.flinch = 0.3
    if by == "arthur" and not npc.hostile:
        npc.assaulted += 1
    if npc.health <= 0.0:
        npc.alive = False
        npc.state = "dead"
        npc.killed_by = by
        if npc.mounted and npc.mounted in state.horses:
            state.horses[npc.mounted].rider = None
        npc.mounted = None


def hurt_horse(state: WorldState, horse: Horse, amount: float, by: str) -> None:
    if not horse.alive:
        return
    horse.health = max(0.0, horse.health - amount)
    if by == "arthur":
        horse.assaulted += 1
    if horse.health <= 0.0:
        horse.alive = False
        horse.state = "dead"
        horse.killed_by = by
        if state.player.mounted == horse.id:
            state.player.mounted = None
        if state.player.leading == horse.id:
            state.player.leading = None


def regen(state: WorldState, dt: float) -> None:
    p = state.player
    if p.alive and state.clock - p.last_hurt >= REGEN_DELAY_S:
        p.health = min(p.max_health, p.health + REGEN_PER_S * dt)


def fade_ui(state: WorldState, dt: float) -> None:
    ui = state.ui
    # max(0.0, v - k * dt), left alone at 0 (every tick, and mostly 0)
    if ui.damage_flash != 0.0:
        v = ui.damage_flash - 2.0 * dt
        ui.damage_flash = v if v > 0.0 else 0.0
    if ui.muzzle_flash != 0.0:
        v = ui.muzzle_flash - 8.0 * dt
        ui.muzzle_flash = v if v > 0.0 else 0.0
    if ui.hit_marker != 0.0:
        v = ui.hit_marker - 3.0 * dt
        ui.hit_marker = v if v > 0.0 else 0.0
    if ui.tutorial is not None and state.clock - ui.tutorial.shown_at > 10.0:
        ui.tutorial = None
    if ui.subtitle and state.clock - ui.subtitle_at > SUBTITLE_S:
        ui.subtitle = ""
    if ui.overlay.kind == "checkpoint" and state.clock - ui.overlay.since > 2.0:
        ui.overlay.kind, ui.overlay.text = "none", ""
