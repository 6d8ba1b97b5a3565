"""The Skylines env: bad input is refused clearly, the budget stays right, the end grows the city."""

from __future__ import annotations

import pickle
import re

import gymnasium as gym
import numpy as np
import pytest
from skylines_helpers import make, px, state

from gcc_envs.games.skylines import vision
from gcc_envs.games.skylines.sim import ui
from wrappers import UseSkills


@pytest.fixture
def env():
    e = make()
    e.reset(seed=1)  # sea to the west; entry ramp at (75, 12)
    yield e
    e.close()


def step(env, code):  # type: ignore[no-untyped-def]
    return env.step(code)[-1]


def road(env, a, b):  # type: ignore[no-untyped-def]
    (x1, y1), (x2, y2) = px(env, *a), px(env, *b)
    return f"try_place_two_lane_road({x1}, {y1}, {x2}, {y2})"


def test_a_previewed_road_is_built_only_on_confirm(env):
    s = state(env)
    ex, ey = s.terrain.entry
    info = step(env, road(env, (ex, ey), (ex - 20, ey)))
    assert info["last_action_error"] is None and s.budget == 70000 and not s.road.any()
    assert ui.preview(s).ok and ui.preview(s).cost == 1600
    info = step(env, "confirm_placement()")
    assert info["last_action_error"] is None and s.road.sum() == 20 and s.budget == 68400
    assert info["metrics"]["budget_spent"] == 1600


@pytest.mark.parametrize(
    "code, error",
    [
        ("try_place_wind_turbine(640, 700)", "is not on the map"),
        ("try_place_wind_turbine(640, 5)", "is not on the map"),
        (
            "try_place_two_lane_road(100, 100, 5000, 100)",
            "outside the 640x360 frame|not on the map",
        ),
        ("confirm_placement()", "nothing is being previewed"),
        ("cancel_placement()", "nothing is being previewed"),
        ("try_place_wind_turbine(x=1.5, y=3)", "x must be int"),
        ("try_place_wind_turbine(300)", "needs 'y'"),
        ("bulldoze_everything()", "unknown skill"),
        ("open_roads_menu()\nopen_zoning_menu()", "at most 1"),
    ],
)
def test_bad_input_is_reported_and_spends_nothing(code, error):
    env = UseSkills(make(), max_calls=1)
    env.reset(seed=1)
    s = state(env)
    info = env.step(code)[-1]
    assert info["last_action_error"] and re.search(error, info["last_action_error"]), info
    assert s.budget == 70000 and s.stats.built == 0 and info["held_keys"] == []


@pytest.mark.parametrize(
    "place, message",
    [
        ("road0", "Too short"),
        ("zone_water", "Cannot zone on water"),
        ("coal_broke", "Not enough money"),
        ("pump_inland", "Must be built on the shoreline"),
    ],
)
def test_the_games_own_refusals_show_on_screen_and_leave_the_budget(env, place, message):
    s = state(env)
    ex, ey = s.terrain.entry
    if place == "coal_broke":
        s.budget = 10000.0
    code = {
        "road0": road(env, (ex, ey), (ex, ey)),
        "zone_water": "try_place_residential_zone({}, {}, {}, {})".format(
            *px(env, 2, 2), *px(env, 6, 6)
        ),
        "coal_broke": "try_place_coal_power_plant({}, {})".format(*px(env, 50, 20)),
        "pump_inland": "try_place_water_pumping_station({}, {})".format(*px(env, 50, 20)),
    }[place]
    budget = s.budget
    obs = env.step(code)[0]
    assert ui.preview(s).error == message
    assert vision.preview_status(obs) == "bad"
    info = step(env, "confirm_placement()")  # the click reaches the game, which refuses
    assert info["last_action_error"] is None
    assert s.budget == budget and s.stats.built == 0 and s.stats.refused == 1
    assert s.ui.message is not None and s.ui.message[0] == message


def test_done_grows_the_city_and_reports_the_metrics(env):
    s = state(env)
    _, _, term, trunc, info = env.step("DONE")
    assert term and not trunc and not info["success"]
    m = info["metrics"]
    assert m["weeks"] == s.scenario.growth_weeks == 52 and m["max_population"] == 0
    assert set(m) >= {
        "roads_closed_loop", "water_sufficient", "electricity_sufficient", "zoned_fraction",
        "zones_over_90", "max_population", "budget_spent", "zoned_residential",
        "jobs_industrial", "unpowered_buildings", "dry_buildings",
    }  # fmt: skip


def test_the_budget_floor_ends_the_run_as_a_failure_then_the_city_grows(env):
    s = state(env)
    s.budget = 6500.0
    step(env, "try_place_wind_turbine({}, {})".format(*px(env, 50, 20)))
    _, _, term, _, info = env.step("confirm_placement()")
    assert term and info["failure"] == "budget below ₡1,000" and not info["success"]
    assert info["metrics"]["weeks"] == 52 and s.budget < 1000 + 1  # upkeep kept draining it


def test_the_city_grows_at_the_step_limit_and_the_episode_ends():
    env = make(max_episode_steps=3)
    env.reset(seed=0)
    for _ in range(3):
        _, _, term, trunc, info = env.step("open_roads_menu()")
    assert trunc and not term and info["metrics"]["weeks"] == 52
    with pytest.raises(Exception, match="reset"):
        env.step("open_roads_menu()")


def test_same_seed_same_skills_same_frames_and_a_pickled_env_goes_on_the_same():
    codes = ["open_electricity_menu()", "try_place_wind_turbine(300, 180)", "confirm_placement()"]
    a, b = make(), make()
    a.reset(seed=4)
    b.reset(seed=4)
    for c in codes[:2]:
        fa, fb = a.step(c)[0], b.step(c)[0]
        assert np.array_equal(fa, fb)
    c = pickle.loads(pickle.dumps(a.unwrapped))
    assert np.array_equal(a.step(codes[2])[0], c.step(codes[2])[0])


def test_the_registered_ids_carry_the_papers_limits():
    assert gym.spec("GCC/Skylines-BuildCity").max_episode_steps == 1000
    assert gym.spec("GCC/Skylines-Block").max_episode_steps == 200
    env = gym.make("GCC/Skylines-BuildCity")
    obs, info = env.reset(seed=0)
    assert obs.shape == (720, 1280, 3) and "₡70,000" in info["instruction"]
    assert env.unwrapped.max_skill_calls == 1
