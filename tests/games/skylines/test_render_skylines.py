"""Frames of every tool and info view at 1280x720, saved for people to look at (runs/frames/skylines).

Each frame is checked for what it must show (the lit menu, the preview's colour and status,
the view's colours), and written as a PNG to the git-ignored ``runs/frames/skylines/`` folder.
"""

from __future__ import annotations

import numpy as np
import pytest
from skylines_helpers import FRAMES, build_plan, city, save

from agents.scripted.skylines_blueprint import blueprint
from gcc_envs.games.skylines import vision
from gcc_envs.games.skylines.sim import growth, layout, ui

H, W = 720, 1280


def point(s, c, r):  # type: ignore[no-untyped-def]
    s.ui.pointer = ((c + 0.5) / layout.COLS, (layout.MAP_Y0 + (r + 0.5) * layout.CELL) / H)


def near(frame, c, r):  # type: ignore[no-untyped-def]
    x, y = layout.cell_centre(c, r, W, H)
    return frame[y, x].astype(int)


@pytest.fixture(scope="module")
def scenes():
    """(name, frame, expected status, menu) for every tool and view."""
    sim = city(1)
    s = sim.state
    steps = blueprint(s)
    out = []

    def shot(name, status=None, menu=None):  # type: ignore[no-untyped-def]
        f = sim.render(H, W)
        save(name, f)
        out.append((name, f, status, menu))

    shot("start")
    ex, ey = s.terrain.entry
    ui.select_tool(s, "road")
    s.ui.anchor = (ex, ey)
    point(s, ex - 30, ey)
    shot("road_preview", "ok", "roads")
    point(s, ex, ey)
    shot("road_too_short", "bad", "roads")
    build_plan(s, steps[:7])
    for tool, cell, status in (
        ("wind_turbine", (30, 15), "ok"),
        ("coal_plant", (60, 30), "ok"),
        ("pumping_station", (22, 3), "ok"),
        ("pumping_station", (45, 8), "bad"),
        ("drain_pipe", (23, 30), "ok"),
    ):
        ui.select_tool(s, tool)
        point(s, *cell)
        shot(f"{tool}_{status}", status, s.data.tools[tool].menu)
    for tool, a, b in (("power_line", (32, 6), (32, 9)), ("water_pipe", (32, 3), (60, 3))):
        ui.select_tool(s, tool)
        s.ui.anchor = a
        point(s, *b)
        shot(f"{tool}_preview", "ok", s.data.tools[tool].menu)
    build_plan(s, steps[7:26])
    for tool in ("residential", "commercial", "industrial"):
        ui.select_tool(s, tool)
        s.ui.pending = ((28, 4), (55, 11))
        point(s, 55, 11)
        shot(f"zone_{tool}", "ok", "zoning")
    build_plan(s, steps[26:])
    ui.select_tool(s, "dezone")
    s.ui.pending = ((28, 4), (40, 8))
    shot("dezone_preview", "ok", "zoning")
    ui.select_tool(s, "bulldozer")
    point(s, 40, 12)
    shot("bulldozer", None, "bulldozer")
    ui.cancel(s)
    growth.grow(s, 52)
    shot("grown_city", "none")
    for view in ("electricity", "water"):
        s.ui.view = view
        shot(f"view_{view}", "none")
    s.ui.view = None
    s.budget = 500.0
    ui.select_tool(s, "coal_plant")
    point(s, 60, 30)
    shot("not_enough_money", "bad", "electricity")

    bad = city(1)
    build_plan(bad.state, mistake="disconnected_pipe")
    growth.grow(bad.state, 52)
    bad.state.ui.view = "water"
    f = bad.render(H, W)
    save("disconnected_pipe_water_view", f)
    out.append(("disconnected_pipe_water_view", f, "none", None))
    dry = city(1)
    build_plan(dry.state, [st for st in blueprint(dry.state) if st.tool != "pumping_station"])
    growth.grow(dry.state, 4)
    f = dry.render(H, W)
    save("no_pumping_station", f)
    out.append(("no_pumping_station", f, "none", None))
    return out


def test_every_frame_shows_its_menu_and_preview_status(scenes):
    assert len(scenes) == 21
    for name, frame, status, menu in scenes:
        assert frame.shape == (H, W, 3), name
        if status is not None:
            assert vision.preview_status(frame) == status, name
        assert vision.open_menu(frame) == menu, name
        assert (FRAMES / f"{name}.png").is_file()
    assert len({f.tobytes() for _, f, _, _ in scenes}) == len(scenes)


def test_previews_are_green_when_valid_and_red_when_refused(scenes):
    frames = {n: f for n, f, _, _ in scenes}
    ok, bad = near(frames["pumping_station_ok"], 22, 3), near(frames["pumping_station_bad"], 45, 8)
    assert ok[1] > ok[0] + 40 and bad[0] > bad[1] + 60


def test_info_views_colour_the_map(scenes):
    frames = {n: f for n, f, _, _ in scenes}
    grown, elec, water = frames["grown_city"], frames["view_electricity"], frames["view_water"]
    x0, y0, x1, y1 = layout.map_rect_px(W, H)
    area = (slice(y0, y1), slice(x0, x1))
    yellow = lambda f: ((f[area][..., 0] > 180) & (f[area][..., 2] < 120)).mean()  # noqa: E731
    blue = lambda f: ((f[area][..., 2] > 180) & (f[area][..., 0] < 100)).mean()  # noqa: E731
    assert yellow(elec) > 2 * yellow(grown) and blue(water) > 0.3
    mist = frames["disconnected_pipe_water_view"]
    assert blue(mist) < blue(water)  # a block stays dry


def test_tiny_frames_render_too():
    sim = city(0)
    for h, w in ((84, 84), (72, 128), (1080, 1920)):
        f = sim.render(h, w)
        assert f.shape == (h, w, 3) and f.dtype == np.uint8 and f.std() > 5


def test_the_legend_never_covers_the_ramp_signs():
    from gcc_envs.games.skylines.sim import art, views

    sides = set()
    for seed in range(12):
        s = city(seed).state
        sides.add(s.terrain.entry[0] < layout.COLS // 2)
        signs = art.sign_boxes(s, W, H)
        assert len(signs) == 2
        for view in ("wind", "electricity", "water"):
            lx0, ly0, lx1, ly1 = views.legend_box(s, view, W, H)
            for name, x0, y0, x1, y1 in signs:
                assert x1 < lx0 or x0 > lx1 or y1 < ly0 or y0 > ly1, (seed, view, name)
    assert sides == {True, False}  # plots with the highway on either side were seen
