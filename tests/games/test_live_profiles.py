"""The real games' live profiles are valid data: known keys, sane HUD fractions, pause method."""

from __future__ import annotations

import importlib

import pytest

from gcc_envs.core.events import normalize_key

GAMES = ("rdr2", "stardew", "dealers_life2", "skylines")


@pytest.mark.parametrize("game", GAMES)
def test_profile_keys_are_real_key_names_and_hud_regions_fit_the_window(game: str) -> None:
    profile = importlib.import_module(f"gcc_envs.games.{game}.live").PROFILE
    assert [normalize_key(k) for k in profile.keys] == list(profile.keys)
    for name, (x, y, w, h) in profile.hud.items():
        assert 0 <= x and 0 <= y and w > 0 and h > 0, name
        assert x + w <= 1.0001 and y + h <= 1.0001, name


def test_turn_based_and_paused_builders_need_no_pause_between_steps() -> None:
    for game in ("dealers_life2", "skylines"):
        profile = importlib.import_module(f"gcc_envs.games.{game}.live").PROFILE
        assert profile.pause == "none" and profile.mouse == "absolute"


def test_rdr2_pauses_with_esc_checked_by_the_pause_menu_check() -> None:
    from gcc_envs.games.rdr2 import live, vision

    assert live.PROFILE.pause == "key" and live.PROFILE.pause_key == "esc"
    assert live.PROFILE.mouse == "camera"
    assert hasattr(vision, f"{live.LIVE.pause_template}_shown")
    assert live.LIVE.pause_animation_s == 0.5


def test_rdr2_real_camera_is_looked_up_by_resolution() -> None:
    from gcc_envs.games.rdr2.live import CALIBRATED, Camera, real_camera

    assert real_camera((1920, 1080)) is CALIBRATED[(1920, 1080)]
    assert real_camera((2560, 1440)).size == (1920, 1080)  # same aspect, scaled by width
    mine = {(1280, 800): Camera((3.0, 3.5), size=(1280, 800))}
    assert real_camera((1280, 800), mine).pixels_per_degree == (3.0, 3.5)
    with pytest.raises(ValueError):
        real_camera((1280, 720), {})
    with pytest.raises(ValueError):
        Camera((0.0, 1.0))
