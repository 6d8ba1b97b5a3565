"""Building a fresh :class:`WorldState` from a scenario and the reset generator."""

from __future__ import annotations

import numpy as np

from gcc_envs.errors import DataError
from gcc_envs.games.stardew.sim.data import FREE, GameData, MapData
from gcc_envs.games.stardew.sim.state import (
    INVENTORY,
    LocationState,
    Obstacle,
    Player,
    Slot,
    WorldState,
)


def place_obstacle(
    loc: LocationState, data: GameData, kind: str, x: int, y: int, variant: int = 0
) -> Obstacle:
    k = data.obstacles[kind]
    ob = Obstacle(kind=kind, x=x, y=y, hp=k.hits, size=k.size, variant=variant)
    for j in range(k.size):
        for i in range(k.size):
            loc.obstacles[(x + i, y + j)] = ob
    loc.version += 1
    return ob


def _scatter(
    loc: LocationState,
    m: MapData,
    data: GameData,
    rng: np.random.Generator,
    avoid: set[tuple[int, int]],
) -> None:
    spawn = np.array([t.spawn for t in data.tiles])[m.tiles]
    free = np.frombuffer(m.solid, np.uint8).reshape(m.height, m.width) == FREE
    ok = spawn & free
    for x0, y0, x1, y1 in m.keep_clear:
        ok[max(y0, 0) : y1 + 1, max(x0, 0) : x1 + 1] = False
    for x, y in list(loc.obstacles) + list(avoid):
        if 0 <= x < m.width and 0 <= y < m.height:
            ok[y, x] = False
    ys, xs = np.nonzero(ok)
    kinds = [kind for kind, n in m.scatter for _ in range(n)]
    if len(kinds) > len(xs):
        raise DataError(
            f"map_{m.name}.toml: [scatter] asks for {len(kinds)} obstacles but only "
            f"{len(xs)} free spawn tiles exist"
        )
    order = rng.permutation(len(xs))[: len(kinds)]
    kinds = [kinds[i] for i in rng.permutation(len(kinds))]
    for kind, idx in zip(kinds, order, strict=True):
        variant = int(rng.integers(data.obstacles[kind].variants))
        place_obstacle(loc, data, kind, int(xs[idx]), int(ys[idx]), variant)


def new_world(data: GameData, scenario: str, rng: np.random.Generator) -> WorldState:
    """The start state of ``scenario``; ``rng`` decides where the scattered obstacles lie."""
    if scenario not in data.scenarios:
        raise DataError(
            f"unknown Stardew scenario {scenario!r}; choose one of "
            f"{sorted(data.scenarios)} (scenarios.toml)"
        )
    sc = data.scenarios[scenario]
    locations = {name: LocationState(name) for name in data.maps}
    start_area = {(sc.x + i, sc.y + j) for i in (-1, 0, 1) for j in (-1, 0, 1)}
    for name, m in data.maps.items():
        loc = locations[name]
        for p in m.objects:
            place_obstacle(loc, data, p.kind, p.x, p.y)
        if m.scatter:
            _scatter(loc, m, data, rng, start_area if name == sc.location else set())
        loc.version = 0
    inventory: list[Slot | None] = [None] * INVENTORY
    for i, (item, count) in enumerate(sc.inventory):
        inventory[i] = Slot(item, count)
    player = Player(x=sc.x + 0.5, y=sc.y + 0.5, facing=sc.facing)
    if sc.energy is not None:
        player.energy = min(sc.energy, player.max_energy)
    state = WorldState(
        data=data,
        scenario=scenario,
        location=sc.location,
        player=player,
        money=sc.money,
        day=sc.day,
        minutes=sc.minutes,
        inventory=inventory,
        locations=locations,
        initial_obstacles={},
    )
    state.initial_obstacles = {name: state.obstacle_count(name) for name in data.maps}
    return state
