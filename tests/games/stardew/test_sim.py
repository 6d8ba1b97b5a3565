"""Behaviour of the Stardew simulator through the Simulator API (keys, mouse, advance, render).

Tests arrange the world directly (stand the player somewhere, put an obstacle down) and then
act only through input events and ``advance``.
"""

from __future__ import annotations

import numpy as np
import pytest
from stardew_helpers import bedside, clear_area, click, hold, place, put, tap

from gcc_envs.core.backend import Simulator
from gcc_envs.games.stardew.sim import StardewSim, layout
from gcc_envs.games.stardew.sim.world import SPEED


def test_sim_implements_the_simulator_protocol(make):
    sim = make()
    assert isinstance(sim, Simulator)
    assert sim.native_size == (1280, 720)
    assert sim.keys[:4] == ("w", "a", "s", "d") and len(sim.keys) == 21


def test_scenarios_start_where_the_tasks_say(make):
    s = make("cultivation").state
    start = (s.location, s.day, s.time_text, s.inventory_count("parsnip_seeds"))
    assert start == ("farmhouse", 1, "6:00 am", 15)
    s = make("shopping").state
    start = (s.location, s.time_text, s.inventory_count("parsnip_seeds"))
    assert start == ("farm", "9:00 am", 0) and 150 <= s.money <= 600
    s = make("farm_clearup").state
    assert s.location == "farm" and s.obstacle_count("farm") == s.initial_obstacles["farm"] > 100
    tools = [slot.item for slot in s.toolbar[:5]]
    assert tools == ["axe", "hoe", "watering_can", "pickaxe", "scythe"]


def test_unknown_scenario_is_refused_with_the_known_names(make, data):
    sim = StardewSim(data)
    with pytest.raises(ValueError, match="farm_clearup"):
        sim.reset(np.random.default_rng(0), {"scenario": "nope"})


# ---------------------------------------------------------------- walking
def test_walking_moves_about_4_7_tiles_per_second(make):
    sim = make("farm_clearup")
    put(sim, "farm", 27, 8, "down")
    clear_area(sim, "farm", 26, 7, 36, 9)
    hold(sim, "d", 1.0)
    assert sim.state.player.x - 27.5 == pytest.approx(SPEED, abs=0.2)
    assert sim.state.player.y == 8.5 and sim.state.player.facing == "right"


def test_diagonal_walking_is_not_faster(make):
    sim = make("farm_clearup")
    put(sim, "farm", 20, 16)
    clear_area(sim, "farm", 15, 10, 25, 20)
    hold(sim, ("w", "d"), 0.6)
    dx, dy = sim.state.player.x - 20.5, sim.state.player.y - 16.5
    assert dx > 0 and dy < 0
    assert np.hypot(dx, dy) == pytest.approx(SPEED * 0.6, abs=0.2)


def test_a_stone_blocks_the_way(make):
    sim = make("farm_clearup")
    put(sim, "farm", 27, 8)
    clear_area(sim, "farm", 26, 7, 36, 9)
    place(sim, "stone", 30, 8)
    hold(sim, "d", 2.0)
    assert 29.6 < sim.state.player.x <= 29.7 + 1e-9
    assert sim.state.obstacle_at("farm", 30, 8) is not None


def test_entering_a_door_needs_the_player_lined_up(make):
    sim = make("farm_clearup")
    put(sim, "farm", 27, 7, "up")
    sim.state.player.x = 27.1  # 0.4 off the door's centre: the box hits the wall
    hold(sim, "w", 1.0)
    assert sim.state.location == "farm"
    put(sim, "farm", 27, 7, "up")
    hold(sim, "w", 0.15)  # the feet cross into the door tile after 0.5 tiles
    assert sim.state.location == "farmhouse"
    assert sim.state.current_tile == (5, 6)


def test_walking_off_the_east_edge_leads_to_the_bus_stop_and_town(make):
    sim = make("shopping")
    put(sim, "farm", 36, 15)
    hold(sim, "d", 1.0)
    assert sim.state.location == "bus_stop"
    assert sim.state.current_tile[1] == 8  # same row of the 3-tile-wide road
    hold(sim, "d", 6.0)
    assert sim.state.location == "town"
    assert sim.state.stats.visits == {"bus_stop": 1, "town": 1}


# ---------------------------------------------------------------- tools
def _facing(sim, kind, tool_key, scenario="farm_clearup"):
    """The player at (20, 16) facing right at an obstacle of ``kind`` on (21, 16)."""
    put(sim, "farm", 20, 16, "right")
    clear_area(sim, "farm", 17, 13, 24, 19)
    if kind:
        place(sim, kind, 21, 16)
    tap(sim, tool_key)


def test_scythe_cuts_the_weed_in_front_and_counts_it(make):
    sim = make("farm_clearup")
    _facing(sim, "weeds", "5")
    energy = sim.state.player.energy
    tap(sim, "c", 0.5)
    s = sim.state
    assert s.obstacle_at("farm", 21, 16) is None
    assert s.stats.cleared == {"weeds": 1}
    assert s.inventory_count("fiber") == 1
    assert s.player.energy == energy  # the scythe is free


def test_pickaxe_needs_two_hits_on_a_stone(make):
    sim = make("farm_clearup")
    _facing(sim, "stone", "4")
    tap(sim, "c", 0.5)
    assert sim.state.obstacle_at("farm", 21, 16) is not None
    tap(sim, "c", 0.5)
    assert sim.state.obstacle_at("farm", 21, 16) is None
    assert sim.state.stats.cleared == {"stone": 1}
    assert sim.state.player.energy == sim.state.player.max_energy - 4


def test_a_tool_only_affects_the_target_tile(make):
    sim = make("farm_clearup")
    _facing(sim, None, "5")
    place(sim, "weeds", 20, 17)  # below the player, but the player faces right
    tap(sim, "c", 0.5)
    assert sim.state.obstacle_at("farm", 20, 17) is not None


def test_wrong_tool_does_not_clear(make):
    sim = make("farm_clearup")
    _facing(sim, "stone", "1")  # axe on a stone
    for _ in range(5):
        tap(sim, "c", 0.5)
    assert sim.state.obstacle_at("farm", 21, 16).hp == 2
    assert sim.state.stats.cleared == {}


def test_input_is_ignored_during_a_swing(make):
    sim = make("farm_clearup")
    _facing(sim, "stone", "4")
    tap(sim, "c")
    tap(sim, "c")  # 1/30 s later: still swinging
    assert sim.state.obstacle_at("farm", 21, 16).hp == 1
    x = sim.state.player.x
    hold(sim, "a", 0.2)  # frozen for the rest of the 0.4 s swing
    assert sim.state.player.x == x


def test_a_tree_takes_five_axe_hits_and_leaves_a_stump(make):
    sim = make("farm_clearup")
    _facing(sim, "tree", "1")
    for _ in range(5):
        tap(sim, "c", 0.5)
    assert sim.state.obstacle_at("farm", 21, 16).kind == "stump"
    for _ in range(3):
        tap(sim, "c", 0.5)
    assert sim.state.obstacle_at("farm", 21, 16) is None
    assert sim.state.stats.cleared == {"tree": 1, "stump": 1}
    assert sim.state.inventory_count("wood") == 12


def test_a_boulder_cannot_be_broken_and_says_so(make):
    sim = make("farm_clearup")
    _facing(sim, None, "4")
    place(sim, "boulder", 21, 15)  # 2x2: covers (21..22, 15..16)
    for _ in range(3):
        tap(sim, "c", 0.5)
    s = sim.state
    assert s.obstacle_at("farm", 21, 16).kind == "boulder"
    assert s.message is not None and "isn't strong enough" in s.message.text
    assert s.stats.cleared == {}


def test_messages_fade_after_a_few_seconds(make):
    sim = make("farm_clearup")
    _facing(sim, "boulder", "4")
    tap(sim, "c")
    frame = sim.render(360, 640)
    sim.advance(6.0)
    assert sim.state.tick >= sim.state.message.until
    assert not np.array_equal(frame, sim.render(360, 640))


def test_tools_stop_when_energy_runs_out(make):
    sim = make("farm_clearup")
    _facing(sim, None, "2")
    sim.state.player.energy = 1
    tap(sim, "c", 0.5)
    assert sim.state.player.energy == 1 and sim.state.stats.tool_uses == 0
    assert "energy" in sim.state.message.text.lower()


# ---------------------------------------------------------------- farming
def test_hoe_tills_only_farmable_ground(make):
    sim = make("farm_clearup")
    _facing(sim, None, "2")  # dirt at (21, 16)
    tap(sim, "c", 0.5)
    assert sim.state.tile_at("farm", 21, 16) == "soil"
    put(sim, "farm", 28, 8, "left")  # facing the path at (27, 8)
    tap(sim, "c", 0.5)
    assert sim.state.tile_at("farm", 27, 8) == "path"
    put(sim, "farm", 20, 5, "up")  # facing grass at (20, 4)
    clear_area(sim, "farm", 19, 3, 21, 5)
    tap(sim, "c", 0.5)
    assert sim.state.tile_at("farm", 20, 4) == "grass"
    assert sim.state.stats.tilled == 1


def test_seeds_plant_only_on_tilled_soil(make):
    sim = make("cultivation")
    _facing(sim, None, "6")
    tap(sim, "c", 0.5)  # untilled dirt
    assert sim.state.crop_at("farm", 21, 16) is None
    tap(sim, "2")
    tap(sim, "c", 0.5)
    tap(sim, "6")
    tap(sim, "c", 0.5)
    assert sim.state.crop_at("farm", 21, 16).crop == "parsnip"
    assert sim.state.inventory_count("parsnip_seeds") == 14
    assert sim.state.stats.planted == 1


def _sleep_in_bed(sim):
    put(sim, "farmhouse", *bedside(sim))  # beside the bed, facing it
    tap(sim, "x")
    assert sim.state.menu == "sleep"
    tap(sim, "enter")


def _water(sim):
    put(sim, "farm", 20, 16, "right")
    tap(sim, "3")
    tap(sim, "c", 0.5)


def test_watered_parsnip_ripens_after_four_nights_and_harvests(make):
    sim = make("cultivation")
    sim.state.weather = ("sun",) * 6  # no rain waters the soil overnight
    _facing(sim, None, "2")
    tap(sim, "c", 0.5)
    tap(sim, "6")
    tap(sim, "c", 0.5)
    for night in range(4):
        _water(sim)
        assert sim.state.tile_at("farm", 21, 16) == "soil_wet"
        assert not sim.state.is_ripe("farm", 21, 16)
        _sleep_in_bed(sim)
        assert sim.state.day == night + 2 and sim.state.minutes == 360
        assert sim.state.tile_at("farm", 21, 16) == "soil"  # dried overnight
    assert sim.state.is_ripe("farm", 21, 16)
    put(sim, "farm", 20, 16, "right")
    tap(sim, "x")
    s = sim.state
    assert s.inventory_count("parsnip") == 1 and s.stats.harvested == 1
    assert s.crop_at("farm", 21, 16) is None and s.stats.sleeps == 4


def test_unwatered_nights_do_not_grow_crops(make):
    sim = make("cultivation")
    _facing(sim, None, "2")
    tap(sim, "c", 0.5)
    tap(sim, "6")
    tap(sim, "c", 0.5)
    for _ in range(3):
        _sleep_in_bed(sim)
    assert sim.state.crop_at("farm", 21, 16).days == 0
    _water(sim)
    _sleep_in_bed(sim)
    assert sim.state.crop_at("farm", 21, 16).days == 1


def test_watering_can_empties_and_refills_at_the_pond(make):
    sim = make("farm_clearup")
    sim.state.player.water = 1
    _water(sim)
    assert sim.state.player.water == 0
    tap(sim, "c", 0.5)
    assert "empty" in sim.state.message.text
    put(sim, "farm", 10, 23, "left")  # the pond is at (9, 23)
    tap(sim, "c", 0.5)
    assert sim.state.player.water == sim.state.player.water_max


# ---------------------------------------------------------------- days
def test_the_clock_runs_ten_minutes_per_seven_seconds(make):
    sim = make("cultivation")
    sim.advance(6.9)
    assert sim.state.time_text == "6:00 am"
    sim.advance(0.2)
    assert sim.state.time_text == "6:10 am"
    sim.advance(7 * 6 * 6)  # six hours
    assert sim.state.time_text == "12:10 pm"


def test_passing_out_at_2am_costs_money_and_wakes_in_bed(make):
    sim = make("shopping")  # 9:00 on the farm
    money = sim.state.money
    sim.advance((26 * 60 - 9 * 60) * 0.7 - 1.0)
    assert sim.state.day == 1 and sim.state.time_text == "1:50 am"
    sim.advance(1.1)
    s = sim.state
    wake = s.map("farmhouse").wake
    assert (s.day, s.minutes, s.location, s.current_tile) == (2, 360, "farmhouse", (wake.x, wake.y))
    assert s.money == money - money // 10 and s.player.energy == s.player.max_energy // 2
    assert s.stats.passed_out == 1


def test_sleep_dialogue_no_keeps_the_day_and_yes_by_click_sleeps(make):
    sim = make("cultivation")
    put(sim, "farmhouse", *bedside(sim))
    tap(sim, "x")
    tap(sim, "s")
    tap(sim, "x")
    assert sim.state.menu is None and sim.state.day == 1
    tap(sim, "x")
    sim.state.player.energy = 10
    click(sim, *layout.DIALOGUE_OPTIONS[0].center)
    assert sim.state.day == 2 and sim.state.player.energy == sim.state.player.max_energy


def test_menus_stop_the_clock(make):
    sim = make("cultivation")
    tap(sim, "e")
    assert sim.state.menu == "inventory"
    sim.advance(60.0)
    assert sim.state.time_text == "6:00 am"
    tap(sim, "esc")
    assert sim.state.menu is None


def test_rain_waters_all_soil_at_dawn_and_soil_tilled_in_the_rain_is_wet(make):
    sim = make("cultivation")
    sim.state.weather = ("sun", "rain", "sun")
    _facing(sim, None, "2")
    tap(sim, "c", 0.5)
    assert sim.state.tile_at("farm", 21, 16) == "soil"
    _sleep_in_bed(sim)  # day 2 rains
    assert sim.state.raining() and sim.state.tile_at("farm", 21, 16) == "soil_wet"
    _facing(sim, None, "2")
    put(sim, "farm", 20, 17, "right")
    tap(sim, "c", 0.5)
    assert sim.state.tile_at("farm", 21, 17) == "soil_wet"
    _sleep_in_bed(sim)  # day 3 is dry: the soil dried overnight
    assert sim.state.tile_at("farm", 21, 16) == "soil"


def test_cultivation_credits_watering_only_sown_soil(make):
    from gcc_envs.games.stardew.tasks import Cultivation

    task, sim = Cultivation(), make("cultivation")
    _facing(sim, None, "2")
    tap(sim, "c", 0.5)  # till
    tap(sim, "3")
    tap(sim, "c", 0.5)  # water the empty soil
    assert sim.state.stats.watered == 1
    assert not task.evaluate(sim.state).flags["watered"]
    put(sim, "farm", 20, 17, "right")
    tap(sim, "2")
    tap(sim, "c", 0.5)
    tap(sim, "6")
    tap(sim, "c", 0.5)  # sow (21, 17)
    tap(sim, "3")
    tap(sim, "c", 0.5)  # and water it
    assert task.evaluate(sim.state).flags["watered"]
