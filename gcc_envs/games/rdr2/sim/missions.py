"""Mission scripts: entering checkpoints, checking them done, failure scenarios, tutorials.

A checkpoint's data (objective, route, who walks where, its tutorial) comes from the mission
TOML; what "done" means and the failure rules are here, one small function per checkpoint.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from gcc_envs.games.rdr2.sim import actors
from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.data import CheckpointSpec, GameData, MissionData
from gcc_envs.games.rdr2.sim.interact import HITCH_OFFSET_M, toggle_door
from gcc_envs.games.rdr2.sim.player import FOOT_RADIUS, near_ledge
from gcc_envs.games.rdr2.sim.state import CELL_M, NPC, Horse, Tutorial, WorldState
from gcc_envs.games.rdr2.sim.world import level_at, player_dist

#: How close the player must be to a companion who has arrived (metres).
ARRIVE_M = 7.0
#: Friendly NPCs whose death, assault or abandonment fails the mission.
COMPANIONS = ("dutch", "micah", "javier")
#: Checkpoints during which leaving the homestead fails Mission 1.
HOMESTEAD_CHECKPOINTS = (
    "hitch_horse",
    "search_house",
    "protect_dutch",
    "go_to_barn",
    "lead_horse",
    "follow_micah",
)
#: Checkpoints during which the barn horse must stay with the player.
BARN_HORSE_CHECKPOINTS = ("lead_horse", "follow_micah")
BARN_HORSE_ABANDON_M = 20.0

#: The scenarios that end a mission (``info["failure"]`` is one of these, with a name filled in).
FAILURES = (
    "assaulted {who}",
    "killed {who}",
    "abandoned {who}",
    "{who} was killed",
    "abandoned the homestead",
    "assaulted your horse",
    "killed your horse",
    "your horse was killed",
    "abandoned your horse",
    "assaulted the barn horse",
    "killed the barn horse",
    "abandoned the barn horse",
    "you died",
)  # ... or a checkpoint's own ``time_up`` line when its time runs out


def mission(state: WorldState, data: GameData) -> MissionData:
    return data.missions[state.mission.name]


def spec(state: WorldState, data: GameData) -> CheckpointSpec | None:
    ms = state.mission
    i, cps = ms.index, data.missions[ms.name].checkpoints  # mission(), inline (every tick)
    return cps[i] if i < len(cps) else None


# ---- entering checkpoints


def enter(state: WorldState, data: GameData, index: int, teleport: bool) -> None:
    """Make checkpoint ``index`` current; ``teleport`` places everyone as the data says."""
    md = mission(state, data)
    cp = md.checkpoints[index]
    ms = state.mission
    ms.index, ms.started_at, ms.counters = index, state.clock, {}
    for s in md.npcs:
        if s.spawn == cp.name and s.name not in state.npcs:
            state.npcs[s.name] = actors.npc_from_spec(s)
    if teleport:
        _place(state, cp)
    if state.player.leading and (cp.name not in BARN_HORSE_CHECKPOINTS or cp.release_led):
        state.player.leading = None  # Micah takes the barn horse, or it waits to be led again
    change_riders(state, cp)
    for name, path in cp.paths:
        if name in state.npcs:
            actors.set_path(state.npcs[name], md.paths[path])
            state.npcs[name].patience = float("inf") if cp.patience_s is None else cp.patience_s
    state.ui.objective = cp.objective
    if cp.say:
        say(state, cp.say)
    state.route = list(md.paths[cp.route]) if cp.route else None
    state.checkpoint_route = list(state.route) if state.route else None
    ms.partial = 0.0


def change_riders(state: WorldState, cp: CheckpointSpec) -> None:
    """Apply the checkpoint's ``dismount`` and ``mount`` lists."""
    for name in cp.dismount:
        npc = state.npcs.get(name)
        if npc is not None and npc.mounted:
            state.horses[npc.mounted].rider = None
            state.horses[npc.mounted].state = "idle"
            npc.mounted = None
    for name, horse_id in cp.mount:
        npc, horse = state.npcs.get(name), state.horses.get(horse_id)
        if npc is not None and horse is not None and npc.alive and horse.alive:
            npc.mounted, horse.rider, horse.hitched = horse_id, name, False
            npc.x, npc.y = horse.x, horse.y


def _place(state: WorldState, cp: CheckpointSpec) -> None:
    p = state.player
    p.x, p.y, p.yaw_deg = cp.player
    p.pitch_deg = 0.0
    p.z = level_at(state, p.x, p.y)
    if p.mounted and p.mounted != cp.player_mounted:
        state.horses[p.mounted].rider = None
        p.mounted = None
    if cp.player_mounted:
        h = state.horses[cp.player_mounted]
        h.rider, h.hitched = "arthur", False
        p.mounted = h.id
        h.x, h.y, h.yaw_deg = p.x, p.y, p.yaw_deg
    for name, (x, y, yaw) in cp.place:
        thing: NPC | Horse | None = state.npcs.get(name) or state.horses.get(name)
        if thing is None:
            continue
        thing.x, thing.y, thing.yaw_deg = x, y, yaw
        if isinstance(thing, NPC) and thing.mounted:
            h = state.horses[thing.mounted]
            h.x, h.y, h.yaw_deg = x, y, yaw
    if cp.beside is not None and cp.beside in state.horses:
        _stand_beside(state, state.horses[cp.beside])


def _stand_beside(state: WorldState, horse: Horse) -> None:
    """Put the player on foot next to ``horse``, within reach of mounting, with the horse at
    their left or right hand (out of the way of a punch), keeping the view."""
    p = state.player
    if p.mounted:
        state.horses[p.mounted].rider = None
        p.mounted = None
    m = state.map
    yaw = math.radians(p.yaw_deg)
    for side in (90.0, -90.0):  # the horse to the player's right, else to the left
        a = yaw + math.radians(side)
        for r in (1.5, 1.9):
            x, y = horse.x - r * math.cos(a), horse.y - r * math.sin(a)
            if geo.circle_free(m.walls, m.level, CELL_M, x, y, FOOT_RADIUS, level_at(state, x, y)):
                p.x, p.y = x, y
                p.z = level_at(state, x, y)
                return


def skip(state: WorldState, data: GameData, name: str) -> None:
    """Apply the outcome of checkpoint ``name`` without playing it (starting further on)."""
    md = mission(state, data)
    change_riders(state, md.checkpoints[md.checkpoint_index(name)])
    if name == "hitch_horse" and "hitch_post" in state.props:
        post = state.props["hitch_post"]
        h = state.horses["arthur_horse"]
        h.hitched, h.rider, h.x, h.y = True, None, post.x, post.y - HITCH_OFFSET_M
        state.player.mounted = None
        for hid, dx in (("dutch_horse", -2.2), ("micah_horse", 2.2)):
            state.horses[hid].x, state.horses[hid].y = post.x + dx, post.y - HITCH_OFFSET_M
    elif name in DOORS_OPENED:
        door = state.props.get(DOORS_OPENED[name])
        if door is not None and not door.open:
            toggle_door(state, door.id)
    elif name == "protect_dutch":
        for s in md.npcs:
            if s.spawn == name:
                state.npcs.pop(s.name, None)
    elif name == "lead_horse":
        h = state.horses["barn_horse"]
        h.calm = True
        state.player.leading = h.id
    elif name == "follow_micah":
        state.player.leading = None
    elif name == "carry_john":
        john = state.npcs["john"]
        horse = state.horses["javier_horse"]
        john.state, john.x, john.y = "on_horse", horse.x, horse.y
    elif name == "kill_wolves":
        for s in md.npcs:
            if s.spawn == name:
                state.npcs.pop(s.name, None)


#: The door a checkpoint opens on the way (opened when starting past it).
DOORS_OPENED = {"search_house": "house_door", "go_to_barn": "barn_door"}


# ---- done checks


def _arrived(state: WorldState, name: str) -> bool:
    npc = state.npcs.get(name)
    return (
        npc is not None and actors.path_done(npc) and player_dist(state, npc.x, npc.y) <= ARRIVE_M
    )


def _all_dead(state: WorldState, kind: str) -> bool:
    return all(not n.alive for n in state.npcs.values() if n.kind == kind)


def _in_area(state: WorldState, area: str) -> bool:
    rect = state.map.areas.get(area)
    return rect is not None and rect.contains(state.player.x, state.player.y)


def _need(state: WorldState, data: GameData) -> int:
    cp = spec(state, data)
    return cp.need if cp is not None else 1


#: A led horse is home within this of its route line's end (metres).
LED_HOME_M = 3.0


def _led_home(s: WorldState) -> bool:
    """The barn horse led by the reins into the yard, to the end of the route line."""
    h = s.horses["barn_horse"]
    if s.player.leading != h.id or not s.map.areas["yard"].contains(h.x, h.y):
        return False
    route = s.checkpoint_route
    return not route or geo.dist(h.x, h.y, *route[-1]) <= LED_HOME_M


DONE: dict[str, Callable[[WorldState, GameData], bool]] = {
    "follow_dutch": lambda s, d: _arrived(s, "dutch"),
    "hitch_horse": lambda s, d: s.horses["arthur_horse"].hitched,
    "search_house": lambda s, d: s.mission.counters.get("supplies", 0) >= _need(s, d),
    "protect_dutch": lambda s, d: _all_dead(s, "enemy"),
    "go_to_barn": lambda s, d: _in_area(s, "barn"),
    "lead_horse": lambda s, d: _led_home(s),
    "follow_micah": lambda s, d: _arrived(s, "micah") and s.player.leading == "barn_horse",
    "return_to_camp": lambda s, d: _in_area(s, "camp"),
    "follow_javier": lambda s, d: _arrived(s, "javier"),
    "search_for_john": lambda s, d: player_dist(s, s.npcs["john"].x, s.npcs["john"].y) <= 3.0,
    "carry_john": lambda s, d: s.npcs["john"].state == "on_horse",
    "kill_wolves": lambda s, d: _all_dead(s, "wolf"),
    "buy_supplies": lambda s, d: s.mission.counters.get("bought_supplies", 0) >= _need(s, d),
}


def checkpoint_done(state: WorldState, data: GameData) -> bool:
    return done_at(state, data, spec(state, data))


def done_at(state: WorldState, data: GameData, cp: CheckpointSpec | None) -> bool:
    """:func:`checkpoint_done` with the current checkpoint ``cp`` already looked up."""
    return cp is not None and DONE[cp.name](state, data)


# ---- failures


def failure(state: WorldState, data: GameData) -> str | None:
    """The failure scenario that holds now, or None: harm first, then abandonment."""
    return failure_at(state, data, spec(state, data))


def failure_at(state: WorldState, data: GameData, cp: CheckpointSpec | None) -> str | None:
    """:func:`failure` with the current checkpoint ``cp`` already looked up."""
    if not state.player.alive:
        return "you died"
    if cp is not None and cp.time_limit_s is not None:
        if state.clock - state.mission.started_at > cp.time_limit_s:
            return cp.time_up
    return _harm(state) or _abandonment(state, data, cp)


#: Who may not be harmed, by NPC name, with the name the failure line gives them.
_HARMED = tuple((name, name.capitalize()) for name in (*COMPANIONS, "john"))


def _harm(state: WorldState) -> str | None:
    npcs = state.npcs
    for name, who in _HARMED:
        npc = npcs.get(name)
        if npc is None:
            continue
        if not npc.alive:
            return f"killed {who}" if npc.killed_by == "arthur" else f"{who} was killed"
        if npc.assaulted:
            return f"assaulted {who}"
    horses = state.horses
    own = horses.get("arthur_horse")
    if own is not None:
        if not own.alive:
            return "killed your horse" if own.killed_by == "arthur" else "your horse was killed"
        if own.assaulted:
            return "assaulted your horse"
    barn = horses.get("barn_horse")
    if barn is not None:
        if not barn.alive:
            return "killed the barn horse"
        if barn.assaulted:
            return "assaulted the barn horse"
    return None


def _abandonment(state: WorldState, data: GameData, cp: CheckpointSpec | None) -> str | None:
    md = data.missions[state.mission.name]  # mission(), inline (every tick)
    current = cp.name if cp is not None else ""
    p = state.player
    px, py = p.x, p.y
    hypot = math.hypot
    if md.abandon_area and current in HOMESTEAD_CHECKPOINTS:
        cx, cy = state.map.areas[md.abandon_area].centre()
        if hypot(cx - px, cy - py) > md.abandon_area_m:
            return "abandoned the homestead"
    tighter = cp.abandon_companion_m if cp is not None else None
    followed = () if tighter is None else [who for who, _ in cp.paths]  # type: ignore[union-attr]
    npcs = state.npcs
    for name in COMPANIONS:
        npc = npcs.get(name)
        companion_m = md.abandon_companion_m
        if name in followed:
            companion_m = tighter  # the one to follow here: a tighter leash
        if companion_m and npc is not None and hypot(npc.x - px, npc.y - py) > companion_m:
            return f"abandoned {name.capitalize()}"
    horses = state.horses
    own = horses.get("arthur_horse")
    horse_m = md.abandon_horse_m if cp is None or cp.abandon_horse_m is None else cp.abandon_horse_m
    if own is not None and horse_m and p.mounted != own.id:
        if hypot(own.x - px, own.y - py) > horse_m:
            return "abandoned your horse"
    barn = horses.get("barn_horse")
    if barn is not None and current in BARN_HORSE_CHECKPOINTS and barn.calm:
        if hypot(barn.x - px, barn.y - py) > BARN_HORSE_ABANDON_M:
            return "abandoned the barn horse"
    return None


# ---- tutorials


def tutorial_due(state: WorldState, data: GameData) -> str | None:
    """The current checkpoint's tutorial id when its trigger holds and it has not shown yet."""
    return tutorial_at(state, spec(state, data))


def tutorial_at(state: WorldState, cp: CheckpointSpec | None) -> str | None:
    """:func:`tutorial_due` with the current checkpoint ``cp`` already looked up."""
    if cp is None or cp.tutorial is None or cp.tutorial in state.ui.tutorials_seen:
        return None
    if cp.tutorial_delay is not None:
        ok = state.clock - state.mission.started_at >= cp.tutorial_delay
    elif cp.tutorial_near is not None:
        thing = (
            state.props.get(cp.tutorial_near)
            or state.npcs.get(cp.tutorial_near)
            or state.horses.get(cp.tutorial_near)
        )
        ok = thing is not None and player_dist(state, thing.x, thing.y) <= cp.tutorial_radius_m
    elif cp.tutorial_area is not None:
        ok = _in_area(state, cp.tutorial_area)
    elif cp.tutorial_ledge_m is not None:
        ok = near_ledge(state, cp.tutorial_ledge_m)
    else:
        ok = True
    return cp.tutorial if ok else None


#: Checkpoints whose objective shows a count, and the counter it reads.
COUNTED = {"search_house": "supplies", "buy_supplies": "bought_supplies"}


def update_objective(state: WorldState, data: GameData) -> None:
    """Append ``(n/need)`` to objectives that count things."""
    objective_at(state, spec(state, data))


def objective_at(state: WorldState, cp: CheckpointSpec | None) -> None:
    """:func:`update_objective` with the current checkpoint ``cp`` already looked up."""
    if cp is None or cp.name not in COUNTED:
        return
    have = min(int(state.mission.counters.get(COUNTED[cp.name], 0)), cp.need)
    state.ui.objective = f"{cp.objective} ({have}/{cp.need})"


def say(state: WorldState, line: str) -> None:
    """Show a line of dialogue as the subtitle."""
    state.ui.subtitle, state.ui.subtitle_at = line, state.clock


def show_tutorial(state: WorldState, data: GameData, tid: str) -> None:
    state.ui.tutorial = Tutorial(tid, data.tutorials[tid], state.clock)
    state.ui.tutorials_seen.add(tid)


def update_route(state: WorldState) -> None:
    """Trim the route line to start at the player and drop the waypoints already passed."""
    pts = state.route
    if pts is None or len(pts) < 2:
        return
    p = state.player
    px, py = p.x, p.y
    if pts[0] == (px, py):  # trimmed here already: its first segment starts at the player
        return
    best, best_d = 0, float("inf")
    for i in range(len(pts) - 1):
        d = geo.segment_point_distance(*pts[i], *pts[i + 1], px, py)
        if d < best_d:
            best, best_d = i, d
    state.route = [(px, py), *pts[best + 1 :]]
