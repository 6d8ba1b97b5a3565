"""The ``e`` key: what it does here and now, shown as the key prompt before it is pressed.

:func:`available` lists the context actions in priority order; the first is what ``e`` does
(:func:`press`), and the HUD shows it as ``[E] <label>``. Actions a tutorial teaches appear only
once that tutorial has been shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.player import FOOT_RADIUS, lootable_in_reach
from gcc_envs.games.rdr2.sim.state import BLOCKS, CELL_M, Prompt, WorldState
from gcc_envs.games.rdr2.sim.world import in_front, solids

#: The hitching post answers a rider who faces it (within HITCH_FACE_DEG of the view) from up
#: to HITCH_M away, or any rider right beside it (HITCH_BESIDE_M): a route ridden blind, turned
#: the way another start faced, seldom ends facing that start's post.
HITCH_M = 1.5
HITCH_FACE_DEG = 45.0
HITCH_BESIDE_M = 0.8
HORSE_M = 2.6
JOHN_M = 2.2
CLERK_M = 5.0
DOOR_M = 3.2
#: A hitched horse stands this far north of its post (out of the yard's line of fire).
HITCH_OFFSET_M = 1.2


@dataclass(frozen=True)
class Action:
    verb: str
    label: str
    target: str


def _seen(state: WorldState, tutorial: str) -> bool:
    return tutorial in state.ui.tutorials_seen


def available(state: WorldState) -> list[Action]:
    p = state.player
    if not p.alive:
        return []
    out: list[Action] = []
    near = lambda x, y, r: geo.dist(p.x, p.y, x, y) <= r  # noqa: E731
    if p.carrying:
        for h in state.horses.values():
            if h.alive and near(h.x, h.y, HORSE_M + 0.6):
                out.append(Action("load", "Put John on Horse", h.id))
                break
        return out
    if p.mounted:
        post = state.props.get("hitch_post")
        at_post = post is not None and (
            near(post.x, post.y, HITCH_BESIDE_M)
            or in_front(state, post.x, post.y, HITCH_M, HITCH_FACE_DEG)
        )
        if at_post and _seen(state, "hitch"):
            out.append(Action("hitch", "Hitch Horse", post.id))
        out.append(Action("dismount", "Dismount", p.mounted))
        return out
    for n in state.npcs.values():
        if n.kind == "john" and n.alive and n.state == "downed" and near(n.x, n.y, JOHN_M):
            if _seen(state, "carry"):
                out.append(Action("pickup", "Pick Up John", n.name))
        if n.kind == "clerk" and n.alive and near(n.x, n.y, CLERK_M) and _seen(state, "shop"):
            out.append(Action("shop", "Shop", n.name))
    for h in state.horses.values():
        if not h.alive or not near(h.x, h.y, HORSE_M + 0.4):
            continue
        if h.owner == "barn" and _seen(state, "calm_horse"):
            if not h.calm:
                out.append(Action("calm", "Calm Horse", h.id))
            elif p.leading != h.id:
                out.append(Action("lead", "Lead Horse", h.id))
            else:
                out.append(Action("release", "Let Go of Horse", h.id))
    for prop in state.props.values():
        if prop.kind == "door" and near(prop.x, prop.y, DOOR_M):
            out.append(Action("door", "Close Door" if prop.open else "Open Door", prop.id))
    for h in state.horses.values():
        if h.alive and h.owner == "player" and h.rider is None and near(h.x, h.y, HORSE_M):
            if p.leading is None:
                out.append(Action("mount", "Mount", h.id))
    return out


def prompts(state: WorldState) -> list[Prompt]:
    """The key prompts to show: ``e``'s first action and the loot hold, when available."""
    out = []
    acts = available(state)
    if acts:
        out.append(Prompt("E", acts[0].label))
    if _seen(state, "loot") and not state.player.mounted and lootable_in_reach(state) is not None:
        out.append(Prompt("R", "Search (hold)"))
    return out


def press(state: WorldState) -> Action | None:
    """Do what ``e`` does now; returns the action taken (None when there is none)."""
    acts = available(state)
    if not acts:
        return None
    act = acts[0]
    p = state.player
    if act.verb == "hitch":
        horse = state.horses[p.mounted] if p.mounted else None
        post = state.props[act.target]
        if horse is not None:
            horse.hitched, horse.rider, horse.state = True, None, "idle"
            horse.x, horse.y = post.x, post.y - HITCH_OFFSET_M
        p.mounted = None
        p.x, p.y = post.x - 1.2, post.y + 1.4
    elif act.verb == "dismount":
        horse = state.horses[act.target]
        horse.rider = None
        p.mounted = None
        p.x, p.y = _beside(state, horse.x, horse.y)
    elif act.verb == "mount":
        horse = state.horses[act.target]
        horse.hitched, horse.rider = False, "arthur"
        p.mounted = horse.id
        p.x, p.y, p.in_cover = horse.x, horse.y, False
        p.yaw_deg = horse.yaw_deg  # in the saddle, the view looks where the horse faces
        p.aiming = False
    elif act.verb == "door":
        toggle_door(state, act.target)
    elif act.verb == "calm":
        if p.running:  # rushing at a spooked horse only scares it more
            state.ui.subtitle, state.ui.subtitle_at = "The horse shies away.", state.clock
            return act
        state.horses[act.target].calm = True
        state.horses[act.target].state = "idle"
    elif act.verb == "lead":
        p.leading = act.target
    elif act.verb == "release":
        p.leading = None
    elif act.verb == "pickup":
        john = state.npcs[act.target]
        john.state = "carried"
        p.carrying = john.name
        p.aiming = False
    elif act.verb == "load":
        john = state.npcs[p.carrying] if p.carrying else None
        if john is not None:
            horse = state.horses[act.target]
            john.state, john.x, john.y = "on_horse", horse.x, horse.y
        p.carrying = None
    elif act.verb == "shop":
        state.ui.shop.open = True
        state.ui.shop.hovered = 0
    return act


def _beside(state: WorldState, x: float, y: float) -> tuple[float, float]:
    """A free spot next to a horse to step down to (left side first)."""
    m, p = state.map, state.player
    for a in (90, 270, 180, 0, 135, 225, 45, 315):
        yaw = geo.wrap_deg(p.yaw_deg - a)
        nx = x + math.cos(math.radians(yaw)) * 1.3
        ny = y + math.sin(math.radians(yaw)) * 1.3
        if geo.circle_free(m.walls, m.level, CELL_M, nx, ny, FOOT_RADIUS, p.z, solids(state)):
            return nx, ny
    return x, y


def toggle_door(state: WorldState, prop_id: str) -> None:
    door = state.props[prop_id]
    if door.cell is None:
        return
    col, row = door.cell
    door.open = not door.open
    state.map.walls[row, col] = 0 if door.open else BLOCKS["door"]
    state.map.version += 1
