"""The RDR2 renderer's HUD and screens: minimap route, legible text, wheel, pause, banners."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from gcc_envs.games.rdr2.sim import hud, minimap, text
from gcc_envs.games.rdr2.sim.render import render
from gcc_envs.games.rdr2.sim.screens import sector_centre
from gcc_envs.games.rdr2.sim.showcase import SCENES, blank_state, save_showcase
from gcc_envs.games.rdr2.sim.state import CELL_M, WEAPONS, Overlay, PauseMenu, Prompt

ROOT = Path(__file__).resolve().parents[3]
FIELD = "\n".join(["#" * 30] + ["#" + "." * 28 + "#"] * 18 + ["#" * 30])
H, W = 720, 1280


def field_state():
    return blank_state(FIELD, 15.0, 10.0, yaw_deg=270.0)


def find(
    frame: np.ndarray, s: str, px: int, bold: bool = False, channel: int | None = None
) -> tuple[float, tuple[int, int]]:
    """Best normalised match score of the string's glyph mask in the frame (grey, or one
    colour channel for coloured text), and where."""
    tmpl = text.mask(s, px, bold).astype(np.float32)
    if channel is None:
        gray = cv2.cvtColor(frame, cv2.COLOR_RGB2GRAY).astype(np.float32)
    else:
        gray = np.ascontiguousarray(frame[..., channel]).astype(np.float32)
    res = cv2.matchTemplate(gray, tmpl, cv2.TM_CCOEFF_NORMED)
    _, score, _, loc = cv2.minMaxLoc(res)
    return score, loc


def red_route_pixels(frame: np.ndarray) -> int:
    b = minimap.box(H, W)
    r = frame[b.cy - b.r : b.cy + b.r, b.cx - b.r : b.cx + b.r].astype(int)
    return int(((r[..., 0] > 150) & (r[..., 1] < 70) & (r[..., 2] < 70)).sum())


def test_route_line_is_drawn_red_inside_the_minimap():
    st = field_state()
    plain = render(st, H, W)
    assert red_route_pixels(plain) < 5
    st.route = [
        (15.0 * CELL_M, 10.0 * CELL_M),
        (15.0 * CELL_M, 3.0 * CELL_M),
        (22 * CELL_M, 3.0 * CELL_M),
    ]
    frame = render(st, H, W)
    assert red_route_pixels(frame) > 150
    # the route changes nothing outside the minimap
    b = minimap.box(H, W)
    inside = np.zeros((H, W), bool)
    inside[b.cy - b.r : b.cy + b.r + 1, b.cx - b.r : b.cx + b.r + 1] = True
    assert np.array_equal(frame[~inside], plain[~inside])


def test_objective_and_key_prompt_are_legible_where_expected():
    st = field_state()
    st.ui.objective = "Follow Dutch"
    st.ui.prompts = [Prompt("E", "Hitch Horse")]
    frame = render(st, H, W)
    s = hud.scale(H, W)
    score, (x, y) = find(frame, "Follow Dutch", hud.px(hud.OBJECTIVE_PX, s))
    assert score > 0.8 and y > 0.85 * H and abs(x + 80 - W / 2) < 120
    score, (x, y) = find(frame, "[E] Hitch Horse", hud.px(hud.PROMPT_PX, s), bold=True)
    assert score > 0.8 and x > 0.75 * W and y > 0.85 * H
    wrong, _ = find(frame, "[Q] Take Cover", hud.px(hud.PROMPT_PX, s), bold=True)
    assert wrong < score - 0.2


def test_tutorial_box_text_is_drawn_top_left():
    st = field_state()
    st.ui.tutorial = type("T", (), {"text": "Hold [TAB] to view your stored weapons"})()
    frame = render(st, H, W)
    first = hud.tutorial_lines(st.ui.tutorial.text)[0]
    score, (x, y) = find(frame, first, hud.px(hud.TUTORIAL_PX, hud.scale(H, W)))
    assert score > 0.8 and x < 0.2 * W and y < 0.2 * H


def test_text_scales_with_the_frame():
    st = field_state()
    st.ui.objective = "Follow Dutch"
    big = render(st, 1080, 1920)
    score, _ = find(big, "Follow Dutch", hud.px(hud.OBJECTIVE_PX, hud.scale(1080, 1920)))
    assert score > 0.8
    assert hud.px(hud.OBJECTIVE_PX, hud.scale(1080, 1920)) > hud.px(hud.OBJECTIVE_PX, 1.0)


def test_pause_menu_replaces_gameplay_and_fades_in():
    st = field_state()
    st.ui.objective = "Follow Dutch"
    game = render(st, H, W).astype(int)
    st.ui.pause = PauseMenu(phase="paused", hovered=0)
    paused = render(st, H, W).astype(int)
    assert np.abs(paused - game).mean() > 20
    score, _ = find(paused.astype(np.uint8), "PAUSED", hud.px(56, 1.0), bold=True)
    assert score > 0.8
    st.ui.pause = PauseMenu(phase="pausing", anim_left=0.25, hovered=0)
    half = render(st, H, W).astype(int)
    d_game, d_menu = np.abs(half - game).mean(), np.abs(half - paused).mean()
    assert 0.3 < d_game / (d_game + d_menu) < 0.7
    st.ui.pause = PauseMenu(phase="resuming", anim_left=0.49, hovered=0)
    assert np.abs(render(st, H, W).astype(int) - paused).mean() < 3


@pytest.mark.parametrize("hovered", range(len(WEAPONS)))
def test_weapon_wheel_lights_the_hovered_sector(hovered):
    st = field_state()
    st.ui.wheel.open = True
    st.ui.wheel.hovered = hovered
    frame = render(st, H, W)
    lum = []
    for i in range(len(WEAPONS)):
        x, y = sector_centre(i, H, W, 0.93)
        lum.append(frame[round(y) - 2 : round(y) + 3, round(x) - 2 : round(x) + 3].mean())
    assert int(np.argmax(lum)) == hovered
    assert sorted(lum)[-1] > sorted(lum)[-2] + 60


def test_mission_failed_banner_states_the_reason():
    st = field_state()
    st.ui.overlay = Overlay("mission_failed", "Dutch died.")
    frame = render(st, H, W)
    score, (x, y) = find(frame, "MISSION FAILED", hud.px(64, 1.0), bold=True, channel=0)
    assert score > 0.8 and 0.3 * H < y < 0.5 * H
    score, _ = find(frame, "Dutch died.", hud.px(26, 1.0))
    assert score > 0.8


def test_damage_flash_reddens_the_edges_only():
    st = field_state()
    calm = render(st, H, W).astype(int)
    st.ui.damage_flash = 1.0
    hurt = render(st, H, W).astype(int)
    corner = (hurt - calm)[:60, 400:600]  # top edge, away from the HUD
    centre = (hurt - calm)[330:390, 600:680]
    assert corner[..., 1].mean() < -30 and np.abs(centre).mean() < 2


def test_crosshair_only_while_aiming():
    st = field_state()
    calm = render(st, H, W)
    st.player.aiming = True
    aim = render(st, H, W)
    diff = np.any(calm != aim, axis=2)
    ys, xs = np.nonzero(diff[200:520, 400:880])
    assert len(ys) > 0 and abs(ys.mean() + 200 - H / 2) < 20 and abs(xs.mean() + 400 - W / 2) < 20


def test_showcase_frames_are_written():
    out = ROOT / "benchmarks" / "out" / "rdr2_frames"
    paths = save_showcase(out)
    assert [p.stem for p in paths] == list(SCENES)
    for p in paths:
        img = cv2.imread(str(p))
        assert img is not None and img.shape == (H, W, 3)


@pytest.mark.parametrize(("yaw", "up"), [(270.0, True), (90.0, False)])
def test_minimap_turns_with_the_view(yaw, up):
    from gcc_envs.games.rdr2.sim.state import NPC

    st = blank_state(FIELD, 15.0, 10.0, yaw_deg=yaw)
    st.npcs["dutch"] = NPC("dutch", "dutch", 15.0 * CELL_M, 5.0 * CELL_M)  # 10 m north
    frame = render(st, H, W).astype(int)
    b = minimap.box(H, W)
    crop = frame[b.cy - b.r : b.cy + b.r, b.cx - b.r : b.cx + b.r]
    blue = (crop[..., 2] - crop[..., 0] > 100) & (crop[..., 2] > 180)  # the ally dot
    ys, xs = np.nonzero(blue)
    assert len(ys) > 10 and abs(xs.mean() - b.r) < 4
    assert (ys.mean() < b.r) == up  # ahead is up: north is ahead when facing north
