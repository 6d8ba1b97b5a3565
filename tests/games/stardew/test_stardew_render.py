"""Rendering of the Stardew simulator: sizes, freshness, pickling, what the screens show."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from stardew_helpers import bedside, click, put, tap

from gcc_envs.games.stardew.sim import layout


@pytest.mark.parametrize("size", [(84, 84), (720, 1280), (480, 640), (37, 101)])
def test_render_has_the_asked_shape_and_dtype(make, size):
    frame = make("farm_clearup").render(*size)
    assert frame.shape == (*size, 3) and frame.dtype == np.uint8
    assert frame.flags.c_contiguous and frame.std() > 10


def test_render_returns_a_fresh_array_each_call(make):
    sim = make("farm_clearup")
    a = sim.render(84, 84)
    a[:] = 0
    b = sim.render(84, 84)
    assert b.any() and not np.shares_memory(a, b)


def test_small_renders_are_drawn_small_not_shrunk(make):
    sim = make("farm_clearup")
    sim.render(84, 84)
    assert set(sim._cache["tilesets"]) == {8}  # 8 px tiles, never a 64 px atlas


def test_walking_changes_the_picture_and_the_farmer_turns(make):
    sim = make("farm_clearup")
    before = sim.render(180, 320)
    tap(sim, "a")
    turned = sim.render(180, 320)
    assert not np.array_equal(before, turned)


def test_farm_store_and_dialogue_screens_differ(make):
    sim = make("shopping")
    farm = sim.render(180, 320)
    put(sim, "store", 3, 5, "up")
    store = sim.render(180, 320)
    tap(sim, "x")
    shop = sim.render(180, 320)
    put(sim, "farmhouse", *bedside(sim))
    tap(sim, "esc")
    tap(sim, "x")
    assert sim.state.menu == "sleep"
    sleep = sim.render(180, 320)
    frames = [farm, store, shop, sleep]
    for i in range(4):
        for j in range(i + 1, 4):
            assert np.abs(frames[i].astype(int) - frames[j]).mean() > 5


def test_shop_rows_are_where_the_clicks_land(make):
    """The hovered shop row is drawn highlighted at the pointer's place."""
    sim = make("shopping")
    put(sim, "store", 3, 5, "up")
    tap(sim, "x")
    r = layout.shop_row(2)
    sim.pointer_move(*layout.shop_row(0).center)
    plain = sim.render(720, 1280)
    sim.pointer_move(*r.center)
    hovered = sim.render(720, 1280)
    x0, y0, x1, y1 = r.px(1280, 720)
    changed = np.argwhere((plain != hovered).any(axis=2))
    inside = (changed[:, 0] >= y0 - 2) & (changed[:, 0] < y1 + 2)
    # besides the cursor, the changes lie in rows 0 and 2
    assert inside.mean() > 0.4


def test_the_sim_pickles_and_renders_the_same(make):
    sim = make("farm_clearup")
    tap(sim, "d", 0.3)
    frame = sim.render(84, 84)
    clone = pickle.loads(pickle.dumps(sim))
    assert clone._cache == {}
    assert np.array_equal(clone.render(84, 84), frame)
    tap(clone, "s", 0.3)
    tap(sim, "s", 0.3)
    assert np.array_equal(clone.render(84, 84), sim.render(84, 84))


def test_toolbar_moves_to_the_top_when_the_player_is_low_on_screen(make):
    sim = make("shopping")
    put(sim, "store", 7, 8, "down")  # by the exit mat, bottom of the screen
    assert layout.toolbar_on_top(sim.state)
    put(sim, "farm", 20, 15)
    assert not layout.toolbar_on_top(sim.state)
    put(sim, "store", 7, 8, "down")
    tap(sim, "3")
    click(sim, *layout.toolbar_slot(0, top=True).center)
    assert sim.state.selected == 0


def test_every_location_renders(make, data):
    sim = make("shopping")
    for name, m in data.maps.items():
        sim.state.location = name
        sim.state.player.x, sim.state.player.y = m.width / 2, m.height / 2
        for size in ((84, 84), (720, 1280)):
            assert sim.render(*size).shape == (*size, 3)


def test_a_field_of_every_crop_stage_renders(make, data):
    """Many distinct cells at once (the atlas grows while a frame is built)."""
    from gcc_envs.games.stardew.sim.state import Planted, Soil

    sim = make("cultivation")
    loc = sim.state.locations["farm"]
    loc.obstacles.clear()
    for i, crop in enumerate(data.crops.values()):
        for j in range(crop.days + 1):
            loc.soil[(4 + j, 12 + i)] = Soil(watered=bool(j % 2), crop=Planted(crop.id, j))
    loc.version += 1
    put(sim, "farm", 10, 15)
    small, big = sim.render(84, 84), sim.render(720, 1280)
    assert small.shape == (84, 84, 3) and big.shape == (720, 1280, 3)
    assert sim._cache["tilesets"][64].count > 64
