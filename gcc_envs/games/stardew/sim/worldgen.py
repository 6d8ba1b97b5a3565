"""Building a fresh :class:`WorldState` from a scenario and the reset generator."""

from __future__ import annotations

import numpy as np

from gcc_envs.errors import DataError
from gcc_envs.games.stardew.sim.data import FACINGS, FREE, GameData, MapData, Scenario
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
    counts: tuple[tuple[str, int], ...] | None = None,
    where: str = "spawn",
) -> None:
    """Place the map's ``[scatter]`` obstacles (or ``counts``) on free tiles: every spawn
    tile, or only the farmable ones (``where="field"``) or the others (``"meadow"``)."""
    flag = {
        "spawn": [t.spawn for t in data.tiles],
        "field": [t.farmable for t in data.tiles],
        "meadow": [t.spawn and not t.farmable for t in data.tiles],
    }[where]
    spawn = np.array(flag)[m.tiles]
    free = np.frombuffer(m.solid, np.uint8).reshape(m.height, m.width) == FREE
    ok = spawn & free
    for x0, y0, x1, y1 in m.keep_clear:
        ok[max(y0, 0) : y1 + 1, max(x0, 0) : x1 + 1] = False
    for x, y in list(loc.obstacles) + list(avoid):
        if 0 <= x < m.width and 0 <= y < m.height:
            ok[y, x] = False
    ys, xs = np.nonzero(ok)
    kinds = [kind for kind, n in (m.scatter if counts is None else counts) for _ in range(n)]
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


#: Days of weather drawn at reset (a season).
SEASON_DAYS = 28


def _plot(
    m: MapData, data: GameData, sc: Scenario, rng: np.random.Generator
) -> set[tuple[int, int]]:
    """Tiles of the scenario's cleared plot and of a lane from it to the field's top edge."""
    if sc.plot_area is None:
        return set()
    x0, y0, x1, y1 = sc.plot_area
    w, h = sc.plot_size
    farm = np.array([t.farmable for t in data.tiles])[m.tiles]
    spots = [
        (x, y)
        for y in range(y0, y1 - h + 2)
        for x in range(x0, x1 - w + 2)
        if farm[y : y + h, x : x + w].all()
    ]
    if not spots:
        raise DataError(f"scenarios.toml: {sc.name}: no {w}x{h} farmable plot in plot_area")
    px, py = spots[int(rng.integers(len(spots)))]
    clear = {(px + i, py + j) for i in range(w) for j in range(h)}
    lane_x = px + int(rng.integers(w))
    free = np.frombuffer(m.solid, np.uint8).reshape(m.height, m.width) == FREE
    y = py - 1
    # a lane up through the field and on to row ``lane_to`` (the clear yard by the house)
    while y >= 0 and free[y, lane_x] and (farm[y, lane_x] or y >= sc.lane_to):
        clear.add((lane_x, y))
        y -= 1
    return clear


def _start(
    sc: Scenario, m: MapData, loc: LocationState, rng: np.random.Generator
) -> tuple[int, int, str]:
    facing = FACINGS[int(rng.integers(len(FACINGS)))] if sc.random_facing else sc.facing
    if sc.start_wake and m.wake is not None:
        return m.wake.x, m.wake.y, m.wake.facing
    if sc.start_area is None:
        return sc.x, sc.y, facing
    x0, y0, x1, y1 = sc.start_area
    free = [
        (x, y)
        for y in range(y0, y1 + 1)
        for x in range(x0, x1 + 1)
        if m.solid[y * m.width + x] == FREE
        and (x, y) not in loc.obstacles
        and (x, y) not in m.warp_at
    ]
    if not free:
        raise DataError(f"scenarios.toml: {sc.name}: start_area has no free tile")
    x, y = free[int(rng.integers(len(free)))]
    return x, y, facing


def _nearest_free(m: MapData, loc: LocationState, x: int, y: int) -> tuple[int, int]:
    """The free tile nearest (x, y) that no obstacle or warp covers (ties: row, then column)."""
    tiles = (
        (abs(i - x) + abs(j - y), j, i)
        for j in range(m.height)
        for i in range(m.width)
        if m.solid[j * m.width + i] == FREE
        and (i, j) not in loc.obstacles
        and (i, j) not in m.warp_at
    )
    _, j, i = min(tiles)
    return i, j


def _shop(data: GameData, rng: np.random.Generator) -> tuple[tuple[str, int], ...]:
    """This episode's stock (always-stocked items plus a random subset, shuffled) and prices."""
    least = data.shop_min_items or len(data.shop_stock)
    n = int(rng.integers(least, len(data.shop_stock) + 1))
    rest = [i for i in data.shop_stock if i not in data.shop_always]
    picked = list(data.shop_always) + [
        rest[i] for i in rng.permutation(len(rest))[: n - len(data.shop_always)]
    ]
    lo, hi = data.shop_markup
    out = []
    for i in rng.permutation(len(picked)):
        item = picked[int(i)]
        out.append((item, max(1, round(data.items[item].price * float(rng.uniform(lo, hi))))))
    return tuple(out)


def new_world(data: GameData, scenario: str, rng: np.random.Generator) -> WorldState:
    """The start state of ``scenario``; ``rng`` decides where the scattered obstacles lie."""
    if scenario not in data.scenarios:
        raise DataError(
            f"unknown Stardew scenario {scenario!r}; choose one of "
            f"{sorted(data.scenarios)} (scenarios.toml)"
        )
    sc = data.scenarios[scenario]
    locations = {name: LocationState(name) for name in data.maps}
    layout = {n: int(rng.integers(len(m.layouts) + 1)) for n, m in data.maps.items() if m.layouts}

    def map_of(name: str) -> MapData:
        m = data.maps[name]
        return m.layouts[layout[name] - 1] if layout.get(name) else m

    here = map_of(sc.location)
    x, y, facing = _start(sc, here, LocationState(sc.location), rng)
    fixed = LocationState(sc.location)  # the map's own objects: the start is never under one
    for p in here.objects:
        place_obstacle(fixed, data, p.kind, p.x, p.y)
    if (x, y) in fixed.obstacles:  # the nearest free tile instead (other starts stay as drawn)
        x, y = _nearest_free(here, fixed, x, y)
    near_start = {(x + i, y + j) for i in (-1, 0, 1) for j in (-1, 0, 1)}
    for name in data.maps:
        m = map_of(name)
        loc = locations[name]
        for p in m.objects:
            place_obstacle(loc, data, p.kind, p.x, p.y)
        avoid = near_start if name == sc.location else set()
        if name == (sc.field or sc.location):
            avoid = avoid | _plot(m, data, sc, rng)
            if sc.scatter is not None:
                _scatter(loc, m, data, rng, avoid, sc.scatter, "field")
                if sc.meadow_scatter:
                    _scatter(loc, m, data, rng, avoid, sc.meadow_scatter, "meadow")
            elif m.scatter:
                _scatter(loc, m, data, rng, avoid)
        elif m.scatter:
            _scatter(loc, m, data, rng, avoid)
        loc.version = 0
    inventory: list[Slot | None] = [None] * INVENTORY
    for i, (item, count) in enumerate(sc.inventory):
        inventory[i] = Slot(item, count)
    player = Player(x=x + 0.5, y=y + 0.5, facing=facing)
    if sc.energy is not None:
        player.energy = min(sc.energy, player.max_energy)
    money = sc.money
    if sc.money_range is not None:
        money = int(rng.integers(sc.money_range[0], sc.money_range[1] + 1))
    rain = rng.random(SEASON_DAYS) < sc.rain_chance
    rain[: max(0, 2 - sc.day)] = False  # the first day of a season is always sunny
    state = WorldState(
        data=data,
        scenario=scenario,
        location=sc.location,
        player=player,
        money=money,
        day=sc.day,
        minutes=sc.minutes,
        inventory=inventory,
        locations=locations,
        initial_obstacles={},
        layout=layout,
        weather=tuple("rain" if r else "sun" for r in rain),
        shop=_shop(data, rng),
    )
    state.initial_obstacles = {name: state.obstacle_count(name) for name in data.maps}
    return state
