"""Scripted Stardew Valley players for FarmClearup, Cultivation and Shopping (expert demos).

Every input goes through the game's skills (``gcc_envs.games.stardew.skills``): walking is
``move_*`` calls, work is ``select_tool``/``use_tool``/``do_action``, doors, beds and the shop
are the composite skills, which themselves look only at frames. The scripts read the
simulator's state (``privileged=True``) to plan: a breadth-first search over the tiles the
simulator says are walkable gives the path, and each walk re-reads the farmer's position
before every straight run, so drift never piles up. One step is one whole errand (a path, a
path and the work at its end, or one composite skill), which keeps episodes far under the
100-step limit.

The composite skills read the env's own frames, so the scripts need an ``obs_size`` whose
tiles are at least 16 px (about 180 px tall at 16:9). For small observations (84x84 demos),
keep the env at its default size and add ``gymnasium.wrappers.ResizeObservation``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

import numpy as np

from gcc_envs.core.program import Program, ProgramGen, sequence
from gcc_envs.errors import GCCError
from gcc_envs.games.stardew.sim.state import DIRECTIONS, WorldState
from gcc_envs.games.stardew.sim.world import SPEED
from gcc_envs.games.stardew.skills import SKILLS

Tile = tuple[int, int]
_MOVES = {(1, 0): "move_right", (-1, 0): "move_left", (0, 1): "move_down", (0, -1): "move_up"}
_DIR_NAME = {v: k for k, v in DIRECTIONS.items()}


def skill(name: str, **kwargs: Any) -> Program:
    """The program of one skill call (arguments checked as for code text)."""
    return SKILLS[name].program(**kwargs)


class StardewScript:
    """Common ground: privileged state, path finding and walking through the move skills."""

    def __init__(self, env: Any, privileged: bool = False) -> None:
        if not privileged:
            raise GCCError(
                f"{type(self).__name__} needs privileged=True: it plans paths on the simulator's "
                "state (run without --no-privileged)"
            )
        sim = getattr(getattr(env, "backend", None), "sim", None)
        if sim is None or not hasattr(sim, "walkable"):
            raise GCCError(f"{type(self).__name__} needs the Stardew simulator (backend='sim')")
        self.env = env
        self.sim = sim

    @property
    def state(self) -> WorldState:
        return self.env.backend.probe()

    def reset(self, info: dict[str, Any]) -> None:
        pass

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Any:
        raise NotImplementedError

    # ---- planning
    def passable(self, x: int, y: int, goals: set[Tile] | frozenset[Tile] = frozenset()) -> bool:
        """Walkable, and not a door or warp (those move the farmer to another map)."""
        s = self.state
        m = s.map()
        if (x, y) in goals:
            return self.sim.walkable(s.location, x, y)
        if (x, y) in m.door_at or (x, y) in m.warp_at:
            return False
        return self.sim.walkable(s.location, x, y)

    def route(self, goals: Iterable[Tile]) -> list[Tile] | None:
        """Shortest 4-connected path from the farmer's tile to any of ``goals`` (inclusive)."""
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
                if nxt not in prev and self.passable(*nxt, goal_set):
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
    def walk(self, path: list[Tile]) -> Program:
        """Walk ``path`` as straight runs of ``move_*`` skills, each measured from where the
        farmer actually is when it starts; end centred on the last tile."""
        runs: list[tuple[Tile, Tile]] = []  # (direction, end tile)
        for a, b in zip(path, path[1:]):
            d = (b[0] - a[0], b[1] - a[1])
            if runs and runs[-1][0] == d:
                runs[-1] = (d, b)
            else:
                runs.append((d, b))

        loc = self.state.location

        def gen() -> ProgramGen:
            yield from self._centre(path[0])
            for d, end in runs:
                if self.state.location != loc:  # went through a warp: this path is done
                    return
                p = self.state.player
                gap = (end[0] + 0.5 - p.x) if d[0] else (end[1] + 0.5 - p.y)
                gap *= d[0] or d[1]
                if gap > 0.05:
                    yield from skill(_MOVES[d], duration=gap / SPEED).start()
            if self.state.location == loc:
                yield from self._centre(path[-1])

        return Program(gen, name="walk")

    def _centre(self, tile: Tile) -> ProgramGen:
        """Small moves onto the centre of ``tile`` (where the farmer stands)."""
        for axis in (0, 1):
            p = self.state.player
            off = tile[axis] + 0.5 - (p.x, p.y)[axis]
            if abs(off) > 0.12:
                d = (int(np.sign(off)), 0) if axis == 0 else (0, int(np.sign(off)))
                yield from skill(_MOVES[d], duration=abs(off) / SPEED).start()

    def walk_to(self, goals: Iterable[Tile]) -> Program | None:
        path = self.route(goals)
        return None if path is None else self.walk(path)

    def tool(self, item: str) -> Program:
        slot = self.state.slot_of(item)
        if slot is None:
            raise GCCError(f"the farmer has no {item}")
        return skill("select_tool", key=slot + 1)

    def near_door(self, to: str) -> Tile:
        """A tile 2-3 below the door to ``to`` on this map, where the door is in full view."""
        s = self.state
        door = next(d for d in s.map().doors if d.to == to)
        for dy in (3, 2):
            if self.passable(door.x, door.y + dy):
                return door.x, door.y + dy
        return door.x, door.y + 1

    def go_home(self, then: str) -> Any:
        """On the farm: walk below the farmhouse door, then run skill ``then`` (code text)."""
        stand = self.near_door("farmhouse")
        if self.state.current_tile == stand:
            return then
        return self.walk_to([stand]) or then

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

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Any:
        s = self.state
        loc = s.location
        bought = s.stats.bought.get("parsnip_seeds", 0) > 0
        if loc == "farmhouse":
            return "get_out_of_house()"
        if loc == "store":
            return "go_through_door()" if bought else "buy_item(item='Parsnip Seeds', count=5)"
        if not bought and loc == "town":
            stand = self.near_door("store")
            if s.current_tile == stand:
                return "go_through_door()"
            return self.walk_to([stand]) or "go_through_door()"
        if bought and loc == "farm":
            return self.go_home("go_through_door()")
        nxt = (self.ROUTE_HOME if bought else self.ROUTE_OUT).get(loc)
        if nxt is None:  # in some other building: back out
            return "go_through_door()"
        return self.walk_to(self.warp_tiles(nxt)) or "move_down(duration=0.3)"


class CultivationScript(StardewScript):
    """Till, sow and water one plot; sleep; water it every day; harvest the parsnip."""

    def reset(self, info: dict[str, Any]) -> None:
        self.plot: tuple[Tile, Tile] | None = None  # (crop tile, tile the farmer works from)

    def choose_plot(self) -> tuple[Tile, Tile]:
        """The farmable tile nearest the farmer with a free tile above it to work from."""
        s = self.state
        dist = self.distances()
        best: tuple[int, Tile, Tile] | None = None
        for (x, y), d in dist.items():
            crop = (x, y + 1)
            if s.tile_at("farm", *crop) != "dirt" or s.obstacle_at("farm", *crop) is not None:
                continue
            if best is None or d < best[0]:
                best = (d, crop, (x, y))
        if best is None:
            raise GCCError("CultivationScript: no free farmable tile on the farm")
        return best[1], best[2]

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Any:
        s = self.state
        if s.location == "farmhouse":
            return "enter_door_and_sleep()" if self.done_today() else "get_out_of_house()"
        if s.location != "farm":  # somewhere else: back out of it
            return "go_through_door()"
        if self.plot is None:
            self.plot = self.choose_plot()
        if self.done_today():
            return self.go_home("enter_door_and_sleep()")
        crop, stand = self.plot
        walk = self.walk_to([stand])
        if walk is None:
            self.plot = None
            return "move_down(duration=0.3)"
        work = [walk, skill("move_down", duration=0.05)]  # face the plot (it lies below)
        if s.is_ripe("farm", *crop):
            work.append(skill("do_action"))
            return sequence(work, name="harvest")
        soil = s.soil_at("farm", *crop)
        if soil is None:
            work += [self.tool("hoe"), skill("use_tool")]
        if soil is None or soil.crop is None:
            work += [self.tool("parsnip_seeds"), skill("use_tool")]
        work += [self.tool("watering_can"), skill("use_tool")]
        return sequence(work, name="tend")

    def done_today(self) -> bool:
        """The plot is sown and watered (nothing left but to sleep), and not ripe."""
        if self.plot is None:
            return False
        s = self.state
        soil = s.soil_at("farm", *self.plot[0])
        ripe = s.is_ripe("farm", *self.plot[0])
        return soil is not None and soil.crop is not None and soil.watered and not ripe


class FarmClearupScript(StardewScript):
    """Walk to the cheapest obstacle nearby and clear it with the right tool, one per step."""

    #: Extra tiles of walking an obstacle's hits are worth (trees take 8 swings and energy).
    EFFORT = {"weeds": 0, "twig": 0, "stone": 1, "stump": 3, "tree": 8}

    def hits_to_clear(self, kind: str, hp: int) -> int:
        data = self.state.data
        k = data.obstacles[kind]
        return hp + (data.obstacles[k.becomes].hits if k.becomes else 0)

    def tool_for(self, kind: str) -> str | None:
        s = self.state
        tools = s.data.obstacles[kind].tools
        for slot in s.inventory:
            if slot is not None and s.data.items[slot.item].tool in tools:
                return slot.item
        return None

    def pick(self) -> tuple[Tile, Tile, str, int] | None:
        """(stand tile, obstacle tile, tool item, swings) of the cheapest reachable obstacle."""
        s = self.state
        energy = s.player.energy
        loc = s.locations[s.location]
        best: tuple[float, Tile, Tile, str, int] | None = None
        for (x, y), d in self.distances().items():
            for dx, dy in _MOVES:
                ob = loc.obstacles.get((x + dx, y + dy))
                if ob is None or s.data.obstacles[ob.kind].hits == 0:
                    continue
                item = self.tool_for(ob.kind)
                if item is None:
                    continue
                swings = self.hits_to_clear(ob.kind, ob.hp)
                if swings * s.data.items[item].energy > energy:
                    continue
                cost = d + self.EFFORT.get(ob.kind, 2)
                if best is None or cost < best[0]:
                    best = (cost, (x, y), (x + dx, y + dy), item, swings)
        return None if best is None else best[1:]

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Any:
        s = self.state
        if s.location != "farm":
            return "go_through_door()"
        got = self.pick()
        if got is None:
            return "move_down(duration=0.3)"
        stand, target, item, swings = got
        path = self.route([stand])
        assert path is not None
        work = [self.walk(path)]
        d = (target[0] - stand[0], target[1] - stand[1])
        work.append(skill(_MOVES[d], duration=0.05))  # face it: the obstacle stops the farmer
        work.append(self.tool(item))
        work += [skill("use_tool")] * swings
        return sequence(work, name=f"clear {_DIR_NAME[d]}")
