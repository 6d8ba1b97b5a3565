"""Partial credit inside a checkpoint: enemies down, supplies found, share of the way covered.

:func:`update` keeps ``state.mission.partial`` at the best value reached so far in the current
checkpoint, always below :data:`PARTIAL_MAX` (only passing the checkpoint gives full credit).
"""

from __future__ import annotations

from collections.abc import Callable

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.data import CheckpointSpec, GameData
from gcc_envs.games.rdr2.sim.state import WorldState

#: Partial credit stays below this until the checkpoint is done.
PARTIAL_MAX = 0.95
#: ``follow_<who>`` checkpoints follow that companion.
FOLLOW = "follow_"


def _along(
    points: list[tuple[float, float]] | tuple[tuple[float, float], ...], x: float, y: float
) -> float:
    """Share of a polyline covered by the point on it nearest to (x, y)."""
    return geo.path_share(points, x, y)


def _dead(kind: str) -> Callable[[WorldState, GameData, CheckpointSpec], float]:
    def share(s: WorldState, d: GameData, cp: CheckpointSpec) -> float:
        foes = [n for n in s.npcs.values() if n.kind == kind]
        return sum(not n.alive for n in foes) / len(foes) if foes else 0.0

    return share


def _counted(counter: str) -> Callable[[WorldState, GameData, CheckpointSpec], float]:
    def share(s: WorldState, d: GameData, cp: CheckpointSpec) -> float:
        return s.mission.counters.get(counter, 0.0) / max(cp.need, 1)

    return share


def _route(s: WorldState, d: GameData, cp: CheckpointSpec) -> float:
    if not cp.route:
        return 0.0
    p = s.player
    return _along(d.missions[s.mission.name].paths[cp.route], p.x, p.y)


def _follow(s: WorldState, d: GameData, cp: CheckpointSpec) -> float:
    npc = s.npcs.get(cp.name[len(FOLLOW) :])
    if npc is None or not npc.path:
        return 0.0
    return _along(npc.path, s.player.x, s.player.y)


def _approach(thing: str) -> Callable[[WorldState, GameData, CheckpointSpec], float]:
    def share(s: WorldState, d: GameData, cp: CheckpointSpec) -> float:
        t = s.props.get(thing) or s.npcs.get(thing) or s.horses.get(thing)
        if t is None:
            return 0.0
        p = s.player
        now = geo.dist(p.x, p.y, t.x, t.y)
        start = s.mission.counters.setdefault("start_m", max(now, 1.0))
        return 1.0 - now / start

    return share


def _lead(s: WorldState, d: GameData, cp: CheckpointSpec) -> float:
    h = s.horses.get("barn_horse")
    if h is None:
        return 0.0
    out = 0.25 * h.calm + 0.25 * (s.player.leading == h.id)
    if s.player.leading == h.id and cp.route:
        out += 0.5 * _along(d.missions[s.mission.name].paths[cp.route], h.x, h.y)
    return out


def _carry(s: WorldState, d: GameData, cp: CheckpointSpec) -> float:
    return 0.5 if s.player.carrying else 0.0


PARTIAL: dict[str, Callable[[WorldState, GameData, CheckpointSpec], float]] = {
    "follow_dutch": _follow,
    "hitch_horse": _approach("hitch_post"),
    "search_house": _counted("supplies"),
    "protect_dutch": _dead("enemy"),
    "go_to_barn": _route,
    "lead_horse": _lead,
    "follow_micah": _follow,
    "return_to_camp": _route,
    "follow_javier": _follow,
    "search_for_john": _route,
    "carry_john": _carry,
    "kill_wolves": _dead("wolf"),
    "buy_supplies": _counted("bought_supplies"),
}


def update(state: WorldState, data: GameData) -> None:
    """Raise ``state.mission.partial`` to the current checkpoint's credit, if higher."""
    ms = state.mission
    md = data.missions[ms.name]
    if ms.index < len(md.checkpoints):
        update_at(state, data, md.checkpoints[ms.index])


def update_at(state: WorldState, data: GameData, cp: CheckpointSpec | None) -> None:
    """:func:`update` with the current checkpoint ``cp`` already looked up (None: past the
    last one)."""
    ms = state.mission
    if ms.passed or cp is None:
        return
    fn = PARTIAL.get(cp.name)
    if fn is None:
        return
    value = min(max(float(fn(state, data, cp)), 0.0), PARTIAL_MAX)
    ms.partial = max(ms.partial, value)
