"""Properties of the Stardew simulator under random input (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from stardew_helpers import hold

from gcc_envs.games.stardew.sim import StardewSim, load_data
from gcc_envs.games.stardew.sim.world import HALF_H, HALF_W

DATA = load_data()
MOVES = st.lists(
    st.tuples(
        st.sampled_from(["w", "a", "s", "d", ("w", "d"), ("s", "a"), ("w", "a"), ("s", "d")]),
        st.floats(0.02, 1.5),
    ),
    min_size=1,
    max_size=12,
)


def _overlapped_tiles(sim: StardewSim) -> list[tuple[int, int]]:
    p = sim.state.player
    xs = range(math.floor(p.x - HALF_W + 1e-6), math.floor(p.x + HALF_W - 1e-6) + 1)
    ys = range(math.floor(p.y - HALF_H + 1e-6), math.floor(p.y + HALF_H - 1e-6) + 1)
    return [(x, y) for x in xs for y in ys]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**16), scenario=st.sampled_from(["farm_clearup", "shopping"]), moves=MOVES
)
def test_the_player_never_overlaps_a_blocked_tile(seed, scenario, moves):
    sim = StardewSim(DATA)
    sim.reset(np.random.default_rng(seed), {"scenario": scenario})
    for keys, seconds in moves:
        hold(sim, keys, seconds)
        loc = sim.state.location
        for x, y in _overlapped_tiles(sim):
            assert sim.walkable(loc, x, y), (loc, x, y, sim.state.player)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), moves=MOVES)
def test_replaying_inputs_reproduces_the_frames(seed, moves):
    frames = []
    for _ in range(2):
        sim = StardewSim(DATA)
        sim.reset(np.random.default_rng(seed), {"scenario": "farm_clearup"})
        for keys, seconds in moves:
            hold(sim, keys, seconds)
            sim.key_down("c")
            sim.key_up("c")
        frames.append(sim.render(84, 84))
    assert np.array_equal(frames[0], frames[1])
