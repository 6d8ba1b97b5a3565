"""The paper's skills drive the toolbar with real clicks and drags, located with the 3x5 grid."""

from __future__ import annotations

import ast
import inspect

import gymnasium as gym
import numpy as np
import pytest
from skylines_helpers import make, px, save, state

from gcc_envs.games.skylines import skills, vision
from gcc_envs.games.skylines.sim import layout, ui
from gcc_envs.games.skylines.skills import SKILLS, skill_grid
from wrappers import OverlayGrid, UseSkills
from wrappers.overlay_grid import grid_lines

PAPER = {
    "open_roads_menu", "open_electricity_menu", "open_water_sewage_menu", "open_zoning_menu",
    "try_place_two_lane_road", "try_place_wind_turbine", "try_place_water_pumping_station",
    "try_place_water_pipe", "try_place_water_drain_pipe", "try_place_residential_zone",
    "try_place_commercial_zone", "try_place_industrial_zone", "try_de_zone",
    "confirm_placement", "cancel_placement",
}  # fmt: skip


def kinds(info):  # type: ignore[no-untyped-def]
    return [e["type"] for e in info["events"]]


def test_the_library_holds_the_papers_skills_and_the_named_extras():
    assert set(SKILLS) == PAPER | {"try_place_power_line", "try_place_coal_power_plant"}
    assert "try_place_two_lane_road(x1: int, y1: int, x2: int, y2: int)" in SKILLS.describe()


def test_a_road_preview_opens_the_menu_picks_the_tool_and_clicks_start_then_moves_to_end():
    env = make()
    env.reset(seed=1)
    s = state(env)
    ex, ey = s.terrain.entry
    (x1, y1), (x2, y2) = px(env, ex, ey), px(env, ex - 12, ey)
    info = env.step(f"try_place_two_lane_road({x1}, {y1}, {x2}, {y2})")[-1]
    assert kinds(info) == ["Wait", "Click", "Wait", "Click", "Wait", "Click", "MoveTo"]
    W, H = env.unwrapped.backend.size
    assert (info["events"][1]["x"], info["events"][1]["y"]) == layout.centre(
        layout.button_rect("roads"), W, H
    )
    assert (info["events"][5]["x"], info["events"][5]["y"]) == (x1, y1)
    assert s.ui.menu == "roads" and s.ui.tool == "road" and s.ui.anchor == (ex, ey)
    # the menu is open now: the next preview does not click the toolbar again
    info = env.step(f"try_place_two_lane_road({x1}, {y1}, {x2}, {y2 + 20})")[-1]
    assert kinds(info) == ["Wait", "Click", "Wait", "Click", "MoveTo"]


def test_a_zone_is_dragged_and_confirmed_with_a_click_where_the_drag_ended():
    env = make()
    env.reset(seed=1)
    s = state(env)
    ex, ey = s.terrain.entry
    env.step(
        "try_place_two_lane_road({}, {}, {}, {})".format(*px(env, ex, ey), *px(env, ex - 20, ey))
    )
    env.step("confirm_placement()")
    code = "try_place_commercial_zone({}, {}, {}, {})".format(
        *px(env, ex - 20, ey - 4), *px(env, ex - 1, ey - 1)
    )
    info = env.step(code)[-1]
    assert kinds(info)[-2:] == ["MoveTo", "DragTo"] and (s.zone == 2).sum() == 0
    assert s.ui.pending == ((ex - 20, ey - 4), (ex - 1, ey - 1))
    info = env.step("confirm_placement()")[-1]
    assert kinds(info) == ["Wait", "MouseDown", "Wait", "MouseUp", "Wait"]
    assert (s.zone == 2).sum() == 80 and s.budget == 70000 - 20 * 80


def test_cancel_drops_the_preview_and_costs_nothing():
    env = make()
    env.reset(seed=1)
    s = state(env)
    env.step("try_place_wind_turbine({}, {})".format(*px(env, 50, 20)))
    assert ui.preview(s) is not None
    info = env.step("cancel_placement()")[-1]
    assert kinds(info) == ["Wait", "MouseDown", "Wait", "MouseUp", "Wait"]
    assert ui.preview(s) is None and s.budget == 70000 and not s.services


@pytest.mark.parametrize("size", [(360, 640), (720, 1280), (1080, 1920)])
def test_a_point_read_off_the_overlay_grid_places_the_turbine_under_it(size):
    env = UseSkills(OverlayGrid(gym.make("GCC/Skylines-BuildCity", obs_size=size)), max_calls=1)
    obs, _ = env.reset(seed=0)
    H, W = size
    xs, ys = grid_lines(W, 5), grid_lines(H, 3)
    assert not np.array_equal(obs, env.unwrapped.backend.capture())  # the grid is drawn
    s = state(env)
    done = 0
    for x in xs:
        for y in ys:
            cell = layout.cell_at(x, y, W, H)
            obs = env.step(f"try_place_wind_turbine({x}, {y})")[0]
            p = ui.preview(s)
            assert p.footprint is not None and p.footprint[:2] == cell  # 2x2 from the pointer cell
            assert vision.preview_status(obs) == ("ok" if p.ok else "bad")  # read through the grid
            if size == (720, 1280) and (x, y) == (xs[0], ys[0]):
                save("overlay_grid_turbine_preview", obs)  # the 3x5 grid over a live preview
            if p.ok and done < 2:
                env.step("confirm_placement()")
                assert s.occupied[cell[1], cell[0]] > 0
                done += 1
    assert done == 2 and s.budget == 70000 - 2 * 6000


def test_the_skill_grid_follows_the_frame_and_stays_on_the_map():
    for W, H in ((128, 72), (640, 360), (1280, 720)):
        grid = skill_grid(W, H)
        for params in grid.values():
            for name, values in params.items():
                for v in values:
                    limit = W if name.startswith("x") else H
                    assert 0 <= v < limit
        for x in grid["try_place_wind_turbine"]["x"]:
            for y in grid["try_place_wind_turbine"]["y"]:
                assert layout.cell_at(x, y, W, H) is not None
    assert list(skill_grid())[-2:] == ["confirm_placement", "cancel_placement"]


def test_skills_read_only_frames():
    tree = ast.parse(inspect.getsource(skills))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not names & {"state", "probe", "backend", "sim"}
