"""Town, shop, toolbar/mouse input, pause and determinism of the Stardew simulator.

Tests arrange the world directly and then act only through input events and ``advance``.
"""

from __future__ import annotations

import numpy as np
from stardew_helpers import clear_area, click, hold, place, put, tap

from gcc_envs.games.stardew.sim import layout


def _facing(sim, kind, tool_key):
    """The player at (20, 16) facing right at an obstacle of ``kind`` on (21, 16)."""
    put(sim, "farm", 20, 16, "right")
    clear_area(sim, "farm", 17, 13, 24, 19)
    if kind:
        place(sim, kind, 21, 16)
    tap(sim, tool_key)


# ---------------------------------------------------------------- town and shop
def test_store_door_is_locked_before_nine_and_opens_after(make):
    sim = make("cultivation")  # 6:00
    put(sim, "town", 18, 7, "up")
    tap(sim, "x")
    assert sim.state.location == "town" and "closed" in sim.state.message.text
    hold(sim, "w", 1.0)
    assert sim.state.location == "town"
    sim.state.minutes = 9 * 60
    hold(sim, "w", 1.0)
    assert sim.state.location == "store"


def test_other_town_doors_are_locked(make):
    sim = make("shopping")
    put(sim, "town", 6, 8, "up")
    tap(sim, "x")
    assert sim.state.location == "town" and sim.state.message.text == "Locked."


def test_buying_parsnip_seeds_by_clicking_the_row(make):
    sim = make("shopping")
    put(sim, "store", 3, 5, "up")  # in front of the counter, Pierre behind it
    tap(sim, "x")
    assert sim.state.menu == "shop"
    row = [item for item, _ in sim.state.shop].index("parsnip_seeds")
    money, price = sim.state.money, sim.state.price_of("parsnip_seeds")
    click(sim, *layout.shop_row(row).center)
    click(sim, *layout.shop_row(row).center)
    s = sim.state
    assert s.money == money - 2 * price and s.inventory_count("parsnip_seeds") == 2
    assert s.stats.bought == {"parsnip_seeds": 2}
    click(sim, *layout.SHOP_CLOSE.center)
    assert s.menu is None


def test_buying_without_enough_money_is_refused(make):
    sim = make("shopping")
    sim.state.money = 10
    put(sim, "store", 3, 5, "up")
    tap(sim, "x")
    click(sim, *layout.shop_row(0).center)
    s = sim.state
    assert s.money == 10 and s.inventory_count("parsnip_seeds") == 0
    assert s.message.text == "Not enough money."


def test_the_counter_only_works_in_front_of_pierre(make):
    sim = make("shopping")
    put(sim, "store", 5, 5, "up")  # a counter tile, but not Pierre's
    tap(sim, "x")
    assert sim.state.menu is None


# ---------------------------------------------------------------- toolbar and mouse
def test_toolbar_keys_wheel_and_clicks_select_slots(make):
    sim = make("cultivation")
    tap(sim, "4")
    assert sim.state.selected == 3
    tap(sim, "=")
    assert sim.state.selected == 11
    sim.scroll(-1, 0)
    assert sim.state.selected == 0
    sim.scroll(1, 0)
    assert sim.state.selected == 11
    click(sim, *layout.toolbar_slot(1, layout.toolbar_on_top(sim.state)).center)
    assert sim.state.selected == 1


def test_left_click_uses_the_tool_and_right_click_acts(make):
    sim = make("farm_clearup")
    _facing(sim, "weeds", "5")
    click(sim, 0.5, 0.4, "left")
    assert sim.state.stats.cleared == {"weeds": 1}
    put(sim, "farm", 27, 7, "up")
    sim.advance(0.5)
    click(sim, 0.5, 0.4, "right")
    assert sim.state.location == "farmhouse"


# ---------------------------------------------------------------- pause, determinism
def test_pause_freezes_clock_and_movement(make):
    sim = make("farm_clearup")
    put(sim, "farm", 27, 8)
    clear_area(sim, "farm", 26, 7, 36, 9)
    before = sim.render(90, 160)
    sim.set_paused(True)
    sim.key_down("d")
    sim.advance(10.0)
    tap(sim, "c")
    s = sim.state
    assert (s.player.x, s.minutes, s.tick, s.stats.tool_uses) == (27.5, 360, 0, 0)
    assert np.array_equal(before, sim.render(90, 160))
    sim.set_paused(False)
    sim.advance(0.5)
    sim.key_up("d")
    assert sim.state.player.x > 29.0


def _play(sim):
    for key, secs in (("s", 0.8), ("d", 0.5), ("5", 0.1), ("c", 0.5), ("a", 1.3), ("w", 0.4)):
        hold(sim, key, secs)
    return sim.render(84, 84)


def test_same_seed_and_inputs_give_identical_frames(make):
    a, b = make("farm_clearup", seed=3), make("farm_clearup", seed=3)
    assert np.array_equal(a.render(84, 84), b.render(84, 84))
    assert np.array_equal(_play(a), _play(b))
    assert a.state.player == b.state.player and a.state.tick == b.state.tick


def test_different_seeds_scatter_obstacles_differently(make):
    a, b = make("farm_clearup", seed=1), make("farm_clearup", seed=2)
    assert set(a.state.locations["farm"].obstacles) != set(b.state.locations["farm"].obstacles)


def test_the_reset_generator_is_the_only_randomness(make):
    rng = np.random.default_rng(7)
    sim = make()
    sim.reset(rng, {"scenario": "farm_clearup"})
    first = sorted(sim.state.locations["farm"].obstacles)
    np.random.seed(123)  # global state must not matter
    sim.reset(np.random.default_rng(7), {"scenario": "farm_clearup"})
    assert sorted(sim.state.locations["farm"].obstacles) == first


def test_walkable_reports_obstacles_and_locked_doors(make):
    sim = make("cultivation")
    assert sim.walkable("farm", 27, 8) and not sim.walkable("farm", 0, 0)
    assert not sim.walkable("town", 18, 6)  # store door at 6:00
    sim.state.minutes = 600
    assert sim.walkable("town", 18, 6)
    place(sim, "stone", 27, 8)
    assert not sim.walkable("farm", 27, 8)
