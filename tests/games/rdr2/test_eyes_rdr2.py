"""The frame-only RDR2 player's eyes on rendered frames (drawers, the store, its catalogue,
O'Driscolls), and its wins through ``UseSkills`` under the evaluation's latency."""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
import pytest
from rdr2_helpers import face, make

import gcc_envs  # noqa: F401  (registers the ids)
from agents.scripted import ScriptedPolicy
from agents.scripted.rdr2_eyes_fight import bandanas
from agents.scripted.rdr2_eyes_house import wooden_fronts
from agents.scripted.rdr2_eyes_shop import (
    SUPPLY_ROWS,
    hovered_row,
    shop_open,
    shop_rows,
    store_door,
)
from gcc_envs.games.rdr2 import vision_view
from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.state import CELL_M
from gcc_envs.games.rdr2.tasks import EVAL_KWARGS, MAX_STEPS
from wrappers import UseSkills

H, W = 180, 320


def stand(sim, x: float, y: float, at: tuple[float, float]) -> np.ndarray:
    """The view from (x, y) looking at ``at``."""
    p = sim.state.player
    p.x, p.y, p.pitch_deg = x, y, 0.0
    face(sim, *at)
    return sim.render(H, W)


def free_spot(sim, x: float, y: float, metres: float) -> tuple[float, float]:
    """A spot ``metres`` from (x, y) on open floor, in clear sight of it."""
    m = sim.state.map
    for k in range(16):
        a = math.radians(22.5 * k)
        sx, sy = x + metres * math.cos(a), y + metres * math.sin(a)
        col, row = int(sx // CELL_M), int(sy // CELL_M)
        if m.walls[row, col] == 0 and geo.line_of_sight(m.walls, CELL_M, sx, sy, x, y):
            if geo.circle_free(m.walls, m.level, CELL_M, sx, sy, 0.5, 0):
                return sx, sy
    raise AssertionError(f"no free spot {metres} m from ({x}, {y})")


def test_wooden_fronts_find_an_unsearched_drawer_and_not_a_searched_one() -> None:
    sim = make("mission1", "search_house", seed=901, vary=True)
    drawer = next(p for p in sim.state.props.values() if p.kind == "drawer")
    spot = free_spot(sim, drawer.x, drawer.y, 2.5)
    fronts = wooden_fronts(stand(sim, *spot, (drawer.x, drawer.y)))
    assert fronts and abs(fronts[0].x - W / 2) < 20  # straight ahead
    drawer.looted = drawer.open = True  # searched: its fronts go dark
    assert not wooden_fronts(stand(sim, *spot, (drawer.x, drawer.y)))


def test_the_store_door_is_found_in_its_sandstone_front() -> None:
    sim = make("mission3", "buy_supplies", seed=902, vary=True)
    door = sim.state.props["store_door"]
    south = sim.state.map.walls[int(door.y // CELL_M) + 1, int(door.x // CELL_M)] == 0
    x, y = door.x + 3.0, door.y + (8.0 if south else -8.0)  # on the road, a little aside
    got = store_door(stand(sim, x, y, (door.x, door.y)))
    assert got is not None
    bearing, metres = got
    assert abs(bearing) < 6 and 4.0 < metres < 16.0
    # the closed houses have no door: none is seen looking at one
    house = (door.x + 18.0, door.y)
    assert store_door(stand(sim, house[0] + 3.0, y, house)) is None


def test_the_catalogue_rows_are_read_and_the_hovered_one_told() -> None:
    sim = make("mission3", "buy_supplies", seed=905, vary=True)
    shop = sim.state.ui.shop
    assert not shop_open(sim.render(H, W))
    shop.open, shop.hovered = True, 2
    frame = sim.render(H, W)
    assert shop_open(frame)
    names = [item.replace("_", " ").title() for item, _ in shop.rows]
    assert shop_rows(frame)[: len(names)] == names
    assert hovered_row(frame) == 2
    assert any(n in SUPPLY_ROWS for n in names)


def test_bandanas_mark_the_odriscolls_in_view() -> None:
    sim = make("mission1", "protect_dutch", seed=902, vary=True)
    s = sim.state
    p = s.player
    seen = [
        n
        for n in s.npcs.values()
        if n.kind == "enemy" and geo.line_of_sight(s.map.walls, CELL_M, p.x, p.y, n.x, n.y)
    ]
    assert seen
    man = min(seen, key=lambda n: math.hypot(n.x - p.x, n.y - p.y))
    marks = bandanas(stand(sim, p.x, p.y, (man.x, man.y)))
    assert any(abs(b.x - W / 2) < 4 for b in marks)  # the nearest, straight ahead
    p.yaw_deg += 180.0  # away from them all
    assert not bandanas(sim.render(H, W))


def test_hit_marker_is_read_only_while_it_shows() -> None:
    sim = make("mission1", "protect_dutch", seed=902, vary=True)
    assert not vision_view.hit_marker(sim.render(H, W))
    sim.state.ui.hit_marker = 0.6  # what is left of it a frame after a hit
    assert vision_view.hit_marker(sim.render(H, W))


def play(task: str, seed: int) -> bool:
    """The frame-only player through ``UseSkills`` under the evaluation's latency."""
    env = UseSkills(
        gym.make(f"GCC/RDR2-Mission{task[7]}", task=task, obs_size=(H, W), **EVAL_KWARGS)
    )
    pol = ScriptedPolicy(env.unwrapped, privileged=False)
    obs, info = env.reset(seed=seed)
    pol.reset(info)
    try:
        for _ in range(MAX_STEPS):
            obs, _, term, trunc, info = env.step(pol.act(obs, info))
            if term or trunc:
                break
    finally:
        env.close()
    return bool(info["success"])


@pytest.mark.parametrize(
    ("task", "seed"),
    [
        ("mission1:search_house", 901),
        ("mission3:buy_supplies", 905),
        ("mission1:protect_dutch", 902),
    ],
)
def test_the_frame_only_player_wins_these_checkpoints_on_a_fixed_seed(task: str, seed: int) -> None:
    assert play(task, seed)
