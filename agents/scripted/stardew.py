"""Scripted Stardew Valley players for FarmClearup, Cultivation and Shopping (oracles, demos).

They act as an agent must: each step returns code text of at most the env's
``max_skill_calls`` (2) calls of the game's skills (``gcc_envs.games.stardew.skills``), run by
``UseSkills`` — walking is ``move_*`` runs, work is ``select_tool``/``use_tool``/``do_action``,
doors, beds and the shop are the composite skills. Every step plans afresh from what the script
sees, so a run that fell short is corrected on the next step.

What they see: with ``privileged=True`` the simulator's state; with ``privileged=False``
(the default) only the frame, read by :class:`agents.scripted.stardew_frames.FrameReader`
into the same kind of world state (the farmer's tile, the obstacles, soil and crops in view)
on top of the game's published maps. A path is a breadth-first search over the tiles that
state says are walkable. The frame readers need tiles of at least 16 px (``obs_size`` about
180 px tall at 16:9 or more); for small observations keep the env large and add
``gymnasium.wrappers.ResizeObservation``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

import numpy as np

from gcc_envs.errors import GCCError
from gcc_envs.games.stardew.sim.state import DIRECTIONS, WorldState
from gcc_envs.games.stardew.sim.world import SPEED, blocked

Tile = tuple[int, int]
_MOVES = {(1, 0): "move_right", (-1, 0): "move_left", (0, 1): "move_down", (0, -1): "move_up"}
_DIR_NAME = {v: k for k, v in DIRECTIONS.items()}
#: How far (tiles) off a tile's centre the farmer may stand across the way it walks.
CENTRE_TOL = 0.12
#: A tap that turns the farmer (an obstacle or the plot's edge keeps it on its tile).
FACE_S = 0.05
#: Where a frame reader that cannot see the farmer (under a HUD panel at the map's edge)
#: steps, in turn, to bring it into view, as a person would nudge the stick.
LOOK_STEPS = ("move_down(duration=0.3)", "move_left(duration=0.3)", "move_up(duration=0.3)",
              "move_right(duration=0.3)")  # fmt: skip


def move(d: Tile, tiles: float) -> str:
    return f"{_MOVES[d]}(duration={round(max(tiles, 0.05) / SPEED, 3)})"


class StardewScript:
    """Common ground: the view of the world, path finding, and walking as ``move_*`` runs."""

    def __init__(self, env: Any, privileged: bool = False) -> None:
        self.env = env
        self.privileged = privileged
        self.max_calls = int(getattr(env, "max_skill_calls", 2))
        self.reader: Any = None
        if privileged:
            sim = getattr(getattr(env, "backend", None), "sim", None)
            if sim is None or not hasattr(sim, "walkable"):
                raise GCCError(
                    f"{type(self).__name__}(privileged=True) needs the Stardew simulator "
                    "(backend='sim'); without privileges it reads frames on any backend"
                )
        else:
            from agents.scripted.stardew_frames import FrameReader
            from gcc_envs.games.stardew.sim.loader import load_data

            self.reader = FrameReader(load_data())  # the game's published maps and art
        self._view: WorldState | None = None
        self.reset({})

    @property
    def state(self) -> WorldState:
        """What the script knows now: the simulator's state, or what the last frame showed."""
        if self.privileged:
            return self.env.backend.probe()
        if self._view is None:
            raise GCCError("the frame-reading script has not seen a frame yet")
        return self._view

    def reset(self, info: dict[str, Any]) -> None:
        if self.reader is not None:
            self.reader.reset()
        self.target: Tile | None = None  # the obstacle this step's tool use hits
        self.swings: dict[Tile, int] = {}
        self.blocked: set[tuple[str, Tile]] = set()  # walked into, though nothing showed
        self._expect: tuple[str, list[Tile], Tile] | None = None
        self._hidden = 0  # steps the farmer could not be seen

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> str:
        if self.reader is not None:
            from agents.scripted.stardew_frames import FarmerHidden

            try:
                self._view = self.reader.read(obs)
            except FarmerHidden:
                self._expect = None  # this step's walk is a look, not a planned path
                self._hidden += 1
                return LOOK_STEPS[(self._hidden - 1) % len(LOOK_STEPS)]
            self._bumped()
        self.target = None
        self._ends: dict[str, Tile] = {}
        self._path: list[Tile] = []
        calls = self.plan()[: self.max_calls]
        ends = [self._ends[c] for c in calls if c in self._ends]
        self._expect = (self.state.location, self._path, ends[-1]) if ends else None
        self.sent(calls)
        return "\n".join(calls)

    def _bumped(self) -> None:
        """A walk that stopped short ran into something the frame did not show (weeds under a
        tree's crown): the next tile of its path is taken as blocked from now on."""
        expect = getattr(self, "_expect", None)
        s = self.state
        if expect is None or expect[0] != s.location:
            return
        _, path, end = expect
        here = s.current_tile
        if here != end and here in path and path.index(here) < path.index(end):
            self.blocked.add((s.location, path[path.index(here) + 1]))

    def sent(self, calls: list[str]) -> None:
        """What this step runs. The farmer's own sprite may hide the obstacle it hits: a
        frame reader counts its swings and takes the obstacle as gone once it has had all
        the hits it needs."""
        if self.reader is None or self.target is None:
            return
        t = self.target
        n = self.swings[t] = self.swings.get(t, 0) + calls.count("use_tool()")
        loc = self.reader.memory[self.state.location]
        ob = loc.obstacles.get(t)
        if ob is not None and n >= self.hits_to_clear(ob.kind, ob.hp):
            for xy in [xy for xy, o in loc.obstacles.items() if o is ob]:
                del loc.obstacles[xy]

    def hits_to_clear(self, kind: str, hp: int) -> int:
        data = self.state.data
        k = data.obstacles[kind]
        return hp + (data.obstacles[k.becomes].hits if k.becomes else 0)

    def tool_for(self, kind: str) -> str | None:
        """The farmer's item that breaks ``kind`` (None when it has none, or nothing does)."""
        s = self.state
        if s.data.obstacles[kind].hits == 0:
            return None
        tools = s.data.obstacles[kind].tools
        for slot in s.inventory:
            if slot is not None and s.data.items[slot.item].tool in tools:
                return slot.item
        return None

    def hit(self, stand: Tile, target: Tile, item: str) -> list[str]:
        """Standing on ``stand``: face the obstacle on ``target`` and swing ``item`` at it."""
        self.target = target
        d = (target[0] - stand[0], target[1] - stand[1])
        return [*self.face(d), *self.tool(item), "use_tool()", "use_tool()"]

    def plan(self) -> list[str]:
        """The next skill calls (the first ``max_calls`` run this step)."""
        raise NotImplementedError

    # ---- planning
    def passable(
        self,
        x: int,
        y: int,
        goals: set[Tile] | frozenset[Tile] = frozenset(),
        through: bool = False,
    ) -> bool:
        """Walkable, and not a door or warp (those move the farmer to another map);
        ``through``: an obstacle the farmer can break counts as walkable."""
        s = self.state
        m = s.map()
        if (x, y) not in goals and ((x, y) in m.door_at or (x, y) in m.warp_at):
            return False
        if (s.location, (x, y)) in self.blocked:
            return False
        if through:
            ob = s.obstacle_at(s.location, x, y)
            if ob is not None and self.tool_for(ob.kind) is not None:
                return True
        return not blocked(s, s.location, x, y)

    def route(self, goals: Iterable[Tile], through: bool = False) -> list[Tile] | None:
        """Shortest 4-connected path from the farmer's tile to any of ``goals`` (inclusive);
        ``through`` lets it cross obstacles the farmer can break."""
        goal_set = set(goals)
        start = self.state.current_tile
        prev: dict[Tile, Tile | None] = {start: None}
        todo = deque([start])
        while todo:
            cur = todo.popleft()
            if cur in goal_set:
                path = [cur]
                while (p := prev[path[-1]]) is not None:
                    path.append(p)
                return path[::-1]
            for dx, dy in _MOVES:
                nxt = (cur[0] + dx, cur[1] + dy)
                if nxt not in prev and self.passable(*nxt, goal_set, through):
                    prev[nxt] = cur
                    todo.append(nxt)
        return None

    def distances(self) -> dict[Tile, int]:
        """Walking distance (tiles) from the farmer to every reachable tile."""
        start = self.state.current_tile
        dist = {start: 0}
        todo = deque([start])
        while todo:
            cur = todo.popleft()
            for dx, dy in _MOVES:
                nxt = (cur[0] + dx, cur[1] + dy)
                if nxt not in dist and self.passable(*nxt):
                    dist[nxt] = dist[cur] + 1
                    todo.append(nxt)
        return dist

    # ---- acting
    def walk(self, path: list[Tile]) -> list[str]:
        """``move_*`` calls along ``path``: centre across the first run, then one call per
        straight run (each measured from where the one before it ends)."""
        runs: list[tuple[Tile, Tile]] = []  # (direction, end tile)
        for a, b in zip(path, path[1:]):
            d = (b[0] - a[0], b[1] - a[1])
            if runs and runs[-1][0] == d:
                runs[-1] = (d, b)
            else:
                runs.append((d, b))
        p = self.state.player
        x, y = p.x, p.y
        calls = []
        if runs:
            d0 = runs[0][0]
            axis = 1 if d0[0] else 0  # the axis across the first run
            off = path[0][axis] + 0.5 - (x, y)[axis]
            if abs(off) > CENTRE_TOL:
                side = (0, int(np.sign(off))) if axis else (int(np.sign(off)), 0)
                calls.append(move(side, abs(off)))
        for d, end in runs:
            gap = ((end[0] + 0.5 - x) if d[0] else (end[1] + 0.5 - y)) * (d[0] or d[1])
            if gap > 0.05:
                calls.append(move(d, gap))
                self._ends[calls[-1]] = end
            x, y = (end[0] + 0.5, y) if d[0] else (x, end[1] + 0.5)
        self._path = path
        return calls

    def walk_to(self, goals: Iterable[Tile]) -> list[str] | None:
        """Calls that walk to the nearest of ``goals`` ([] when there; None when unreachable),
        clearing the way with the tools when obstacles wall the farmer in."""
        goals = list(goals)
        path = self.route(goals)
        if path is None:
            return self.clear_way(goals)
        calls = self.walk(path)
        if not calls and len(path) == 1:  # on the tile: centre on it
            p = self.state.player
            for axis, d in ((0, (1, 0)), (1, (0, 1))):
                off = path[0][axis] + 0.5 - (p.x, p.y)[axis]
                if abs(off) > 0.3:
                    calls.append(
                        move((d[0] * int(np.sign(off)), d[1] * int(np.sign(off))), abs(off))
                    )
        return calls

    def clear_way(self, goals: list[Tile]) -> list[str] | None:
        """Walk to the first obstacle on a path through breakable ones and hit it."""
        path = self.route(goals, through=True)
        if path is None:
            return None
        s = self.state
        for i, t in enumerate(path[1:], start=1):
            ob = s.obstacle_at(s.location, *t)
            if ob is not None:
                item = self.tool_for(ob.kind)
                assert item is not None  # the path crosses only breakable obstacles
                return self.walk(path[:i]) or self.hit(path[i - 1], t, item)
        return self.walk(path)

    def tool(self, item: str) -> list[str]:
        """``select_tool`` of ``item``'s slot, or nothing when it is already in hand."""
        s = self.state
        slot = s.slot_of(item)
        if slot is None:
            raise GCCError(f"the farmer has no {item}")
        return [] if s.selected == slot else [f"select_tool(key={slot + 1})"]

    def face(self, d: Tile) -> list[str]:
        """A tap towards ``d`` unless the farmer already faces that way."""
        return [] if self.state.player.facing == _DIR_NAME[d] else [move(d, FACE_S * SPEED)]

    def near_door(self, to: str) -> Tile:
        """A tile 2-3 below the door to ``to`` on this map, where the door is in full view."""
        s = self.state
        door = next(d for d in s.map().doors if d.to == to)
        for dy in (3, 2):
            if self.passable(door.x, door.y + dy):
                return door.x, door.y + dy
        return door.x, door.y + 1

    def then(self, walk: list[str] | None, call: str) -> list[str]:
        """Walk, and run ``call`` in the same step if the walk is one call or none."""
        if not walk:
            return [call]
        return walk if len(walk) >= self.max_calls else [*walk, call]

    def go_home(self, then: str) -> list[str]:
        """On the farm: walk below the farmhouse door, then run skill ``then``."""
        return self.then(self.walk_to([self.near_door("farmhouse")]), then)

    def warp_tiles(self, to: str) -> list[Tile]:
        m = self.state.map()
        return [
            (w.x + i, w.y + j)
            for w in m.warps
            if w.to == to
            for i in range(w.w)
            for j in range(w.h)
        ]


class ShoppingScript(StardewScript):
    """Farm → bus stop → town → Pierre's (buy parsnip seeds) → back into the farmhouse."""

    ROUTE_OUT = {"farm": "bus_stop", "bus_stop": "town"}
    ROUTE_HOME = {"town": "bus_stop", "bus_stop": "farm"}
    SEEDS = 5

    def bought(self) -> bool:
        return self.state.inventory_count("parsnip_seeds") > 0

    def plan(self) -> list[str]:
        s = self.state
        loc = s.location
        bought = self.bought()
        if loc == "farmhouse":
            return ["get_out_of_house()"]
        if loc == "store":
            if bought:
                return ["go_through_door()"]
            return [f"buy_item(item='Parsnip Seeds', count={self.SEEDS})"]
        if not bought and loc == "town":
            return self.then(self.walk_to([self.near_door("store")]), "go_through_door()")
        if bought and loc == "farm":
            return self.go_home("go_through_door()")
        nxt = (self.ROUTE_HOME if bought else self.ROUTE_OUT).get(loc)
        if nxt is None:  # in some other building: back out
            return ["go_through_door()"]
        return self.walk_to(self.warp_tiles(nxt)) or ["move_down(duration=0.3)"]


class CultivationScript(StardewScript):
    """Till, sow and water one tile; sleep; water it every dry day; harvest the parsnip."""

    def reset(self, info: dict[str, Any]) -> None:
        super().reset(info)
        self.plot: tuple[Tile, Tile] | None = None  # (crop tile, tile the farmer works from)

    def choose_plot(self) -> tuple[Tile, Tile]:
        """The farmable, free tile nearest the farmer with a free tile above it to work from."""
        s = self.state
        best: tuple[int, Tile, Tile] | None = None
        for (x, y), d in self.distances().items():
            crop = (x, y + 1)
            if s.tile_at("farm", *crop) != "dirt" or s.obstacle_at("farm", *crop) is not None:
                continue
            if best is None or d < best[0]:
                best = (d, crop, (x, y))
        if best is None:
            raise GCCError("CultivationScript: no free farmable tile on the farm")
        return best[1], best[2]

    def plan(self) -> list[str]:
        s = self.state
        if s.location == "farmhouse":
            return ["enter_door_and_sleep()" if self.done_today() else "get_out_of_house()"]
        if s.location != "farm":  # somewhere else: back out of it
            return ["go_through_door()"]
        if self.plot is not None and s.soil_at("farm", *self.plot[0]) is None:
            if any(s.obstacle_at("farm", *t) is not None for t in self.plot):
                self.plot = None  # a better look shows something on it: choose again
        if self.plot is None:
            self.plot = self.choose_plot()
        if self.done_today():
            return self.go_home("enter_door_and_sleep()")
        crop, stand = self.plot
        walk = self.walk_to([stand])
        if walk is None:
            self.plot = None
            return ["move_down(duration=0.3)"]
        if walk:
            return walk
        work = self.face((0, 1))  # the plot lies below the tile the farmer works from
        if s.is_ripe("farm", *crop):
            return [*work, "do_action()"]
        soil = s.soil_at("farm", *crop)
        if soil is None:
            item = "hoe"
        elif soil.crop is None:
            item = "parsnip_seeds"
        else:
            item = "watering_can"
        return [*work, *self.tool(item), "use_tool()"]

    def done_today(self) -> bool:
        """The plot is sown and watered (nothing left but to sleep), and not ripe."""
        if self.plot is None:
            return False
        s = self.state
        soil = s.soil_at("farm", *self.plot[0])
        ripe = s.is_ripe("farm", *self.plot[0])
        return soil is not None and soil.crop is not None and soil.watered and not ripe


class FarmClearupScript(StardewScript):
    """Walk to the cheapest obstacle nearby and clear it with the right tool."""

    #: Extra tiles of walking an obstacle's hits are worth (trees take 8 swings and energy).
    EFFORT = {"weeds": 0, "twig": 0, "stone": 1, "stump": 3, "tree": 8}

    def pick(self) -> tuple[Tile, Tile, str] | None:
        """(stand tile, obstacle tile, tool item) of the cheapest reachable obstacle."""
        s = self.state
        energy = s.player.energy
        loc = s.locations[s.location]
        best: tuple[float, Tile, Tile, str] | None = None
        for (x, y), d in self.distances().items():
            for dx, dy in _MOVES:
                ob = loc.obstacles.get((x + dx, y + dy))
                if ob is None or s.data.obstacles[ob.kind].hits == 0:
                    continue
                item = self.tool_for(ob.kind)
                if item is None:
                    continue
                if self.hits_to_clear(ob.kind, ob.hp) * s.data.items[item].energy > energy:
                    continue
                cost = d + self.EFFORT.get(ob.kind, 2)
                if best is None or cost < best[0]:
                    best = (cost, (x, y), (x + dx, y + dy), item)
        return None if best is None else best[1:]

    def plan(self) -> list[str]:
        s = self.state
        if s.location != "farm":
            return ["go_through_door()"]
        got = self.pick()
        if got is None:
            return ["move_down(duration=0.3)"]
        stand, target, item = got
        return self.walk_to([stand]) or self.hit(stand, target, item)
