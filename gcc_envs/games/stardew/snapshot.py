"""The Stardew simulator's world state as JSON, and back: what a play window publishes.

``gcc-gym play`` writes :func:`to_json` of its world into its state file; a desktop env that
drives that window rebuilds the state with :func:`from_json` (a state-file judge), so task
checks and privileged scripts read the window's real world. Static game data is not sent:
both sides load the same data files.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from gcc_envs.errors import BackendError
from gcc_envs.games.stardew.sim import StardewSim
from gcc_envs.games.stardew.sim.data import GameData
from gcc_envs.games.stardew.sim.state import (
    LocationState,
    Message,
    Obstacle,
    Planted,
    Player,
    Slot,
    Soil,
    Stats,
    Swing,
    WorldState,
)


def to_json(state: WorldState) -> dict[str, Any]:
    """The mutable world (everything but ``data``) as JSON-ready dicts and lists."""
    return {
        "scenario": state.scenario,
        "location": state.location,
        "player": asdict(state.player),
        "money": state.money,
        "day": state.day,
        "minutes": state.minutes,
        "inventory": [None if s is None else asdict(s) for s in state.inventory],
        "locations": {name: _location(loc) for name, loc in state.locations.items()},
        "initial_obstacles": dict(state.initial_obstacles),
        "selected": state.selected,
        "menu": state.menu,
        "menu_choice": state.menu_choice,
        "message": None if state.message is None else asdict(state.message),
        "swing": None if state.swing is None else asdict(state.swing),
        "tick": state.tick,
        "minute_ticks": state.minute_ticks,
        "pointer": list(state.pointer),
        "stats": asdict(state.stats),
    }


def _location(loc: LocationState) -> dict[str, Any]:
    return {
        "version": loc.version,
        "obstacles": [[x, y, asdict(o)] for (x, y), o in loc.obstacles.items()],
        "soil": [
            [x, y, s.watered, None if s.crop is None else asdict(s.crop)]
            for (x, y), s in loc.soil.items()
        ],
    }


def from_json(d: dict[str, Any], data: GameData) -> WorldState:
    """Rebuild a :class:`WorldState` from :func:`to_json` output (raises BackendError if bad)."""
    try:
        locations = {}
        for name, loc in d["locations"].items():
            ls = LocationState(name, version=int(loc["version"]))
            for x, y, o in loc["obstacles"]:
                ls.obstacles[(int(x), int(y))] = Obstacle(**o)
            for x, y, watered, crop in loc["soil"]:
                planted = None if crop is None else Planted(**crop)
                ls.soil[(int(x), int(y))] = Soil(bool(watered), planted)
            locations[name] = ls
        return WorldState(
            data=data,
            scenario=d["scenario"],
            location=d["location"],
            player=Player(**d["player"]),
            money=int(d["money"]),
            day=int(d["day"]),
            minutes=int(d["minutes"]),
            inventory=[None if s is None else Slot(**s) for s in d["inventory"]],
            locations=locations,
            initial_obstacles=dict(d["initial_obstacles"]),
            selected=int(d["selected"]),
            menu=d["menu"],
            menu_choice=int(d["menu_choice"]),
            message=None if d["message"] is None else Message(**d["message"]),
            swing=None if d["swing"] is None else Swing(**d["swing"]),
            tick=int(d["tick"]),
            minute_ticks=int(d["minute_ticks"]),
            pointer=(float(d["pointer"][0]), float(d["pointer"][1])),
            stats=Stats(**d["stats"]),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise BackendError(f"the published Stardew world state is malformed: {e!r}") from e


class StardewMirror:
    """The play window's world, rebuilt from its state file, behind a simulator's read API.

    ``sim`` is a :class:`StardewSim` holding the latest published state, so scripts that plan
    with ``sim.walkable`` work unchanged; ``load`` returns the state tasks evaluate.
    """

    def __init__(self) -> None:
        self.sim = StardewSim()

    def load(self, published: dict[str, Any]) -> WorldState:
        world = published.get("world")
        if not isinstance(world, dict):
            raise BackendError(
                "the state file has no 'world' entry; start the window with a gcc-gym play "
                "that publishes it (--state-file)"
            )
        state = from_json(world, self.sim.data)
        self.sim._state = state  # the mirror is read-only: nothing advances it
        return state
