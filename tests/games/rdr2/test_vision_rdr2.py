"""RDR2 vision on synthetic frames: minimap route and dots, boxes, pause menu, geometry."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from gcc_envs.games.rdr2 import vision
from gcc_envs.games.rdr2.live import PROFILE

C = vision.HudColours()


def minimap(size: int = 81) -> np.ndarray:
    img = np.full((size, size, 3), (124, 132, 96), np.uint8)  # grass
    c = size // 2
    cv2.circle(img, (c, c), 3, C.player, -1)  # the player's arrow
    return img


def blend(img: np.ndarray, behind: int = 200) -> np.ndarray:
    """The minimap drawn over a picture at 13/16, as the simulator does."""
    return ((img.astype(np.uint16) * 13 + behind * 3) // 16).astype(np.uint8)


def route_towards(img: np.ndarray, bearing_deg: float, length: float = 0.9) -> np.ndarray:
    h, w = img.shape[:2]
    c = (w - 1) / 2.0, (h - 1) / 2.0
    a = math.radians(bearing_deg)
    end = c[0] + length * w / 2 * math.sin(a), c[1] - length * h / 2 * math.cos(a)
    cv2.line(img, (round(c[0]), round(c[1])), (round(end[0]), round(end[1])), C.route, 2)
    return img


@pytest.mark.parametrize("bearing", [0.0, 30.0, -45.0, 90.0, -120.0, 179.0])
@pytest.mark.parametrize("behind", [0, 255])
def test_route_bearing_reads_the_direction_the_line_leaves_the_player(
    bearing: float, behind: int
) -> None:
    got = vision.route_bearing(blend(route_towards(minimap(), bearing), behind), C)
    assert got is not None
    assert abs((got - bearing + 180) % 360 - 180) < 4.0


def test_route_bearing_follows_the_first_stretch_of_a_bent_route() -> None:
    img = minimap(100)
    cv2.line(img, (50, 50), (50, 25), C.route, 2)  # straight ahead first ...
    cv2.line(img, (50, 25), (95, 25), C.route, 2)  # ... then right, far away
    got = vision.route_bearing(img, C)
    assert got is not None and abs(got) < 12


def test_route_bearing_is_none_without_a_route() -> None:
    assert vision.route_bearing(minimap(), C) is None


def test_a_short_route_to_a_near_objective_is_still_found() -> None:
    img = minimap(100)
    cv2.line(img, (50, 50), (56, 56), C.route, 2)  # the objective is close, behind right
    got = vision.route_bearing(img, C)
    assert got is not None and 120 < got < 150


def test_red_enemy_dots_away_from_the_player_are_not_a_route() -> None:
    img = minimap(100)
    cv2.circle(img, (80, 30), 4, C.enemy, -1)
    cv2.circle(img, (20, 70), 4, C.route, -1)
    assert vision.route_bearing(img, C) is None


def test_blips_are_found_with_bearings_nearest_first() -> None:
    img = minimap(100)
    cv2.circle(img, (50, 20), 3, C.ally, -1)  # ahead, far
    cv2.circle(img, (65, 50), 3, C.ally, -1)  # right, near
    cv2.circle(img, (50, 85), 3, (20, 200, 20), -1)  # behind (another colour)
    dots = vision.blips(img, C.ally, C)
    assert len(dots) == 2
    assert abs(dots[0].bearing - 90) < 3 and abs(dots[1].bearing) < 3
    assert dots[0].distance < dots[1].distance
    enemies = vision.blips(img, (20, 200, 20), C)
    assert len(enemies) == 1 and abs(abs(enemies[0].bearing) - 180) < 3


def test_crop_takes_the_profile_fraction_at_any_resolution() -> None:
    for W, H in ((1280, 720), (1920, 1080), (640, 360)):
        frame = np.zeros((H, W, 3), np.uint8)
        part = vision.crop(frame, PROFILE.hud["objective"])
        assert abs(part.shape[1] - 0.5 * W) <= 1 and abs(part.shape[0] - 0.08 * H) <= 1


def test_minimap_crop_is_the_square_around_the_circle() -> None:
    frame = np.zeros((720, 1280, 3), np.uint8)
    circle = vision.circle_of(PROFILE.hud["minimap"], 720, 1280)
    part = vision.minimap_crop(frame, circle)
    assert abs(part.shape[0] - part.shape[1]) <= 1 and abs(part.shape[0] - 2 * circle[2]) <= 2


def test_crop_never_returns_an_empty_view() -> None:
    frame = np.zeros((10, 10, 3), np.uint8)
    assert vision.crop(frame, (0.99, 0.99, 0.001, 0.001)).size > 0
    with pytest.raises(ValueError):
        vision.crop(np.zeros((10, 10), np.uint8), (0, 0, 1, 1))


def test_blips_outside_the_round_map_are_ignored() -> None:
    img = minimap(100)
    cv2.circle(img, (3, 3), 3, C.ally, -1)  # a corner of the square crop: the 3D view
    assert vision.blips(img, C.ally, C) == []


def test_tutorial_shown_by_its_accent_strip() -> None:
    frame = np.full((720, 1280, 3), 160, np.uint8)
    region = PROFILE.hud["tutorial"]
    assert not vision.tutorial_shown(frame, region, C)
    frame[24:130, 24:28] = C.tutorial_accent
    assert vision.tutorial_shown(frame, region, C)


def test_prompt_shown_by_its_white_text() -> None:
    frame = np.full((720, 1280, 3), 120, np.uint8)
    region = PROFILE.hud["prompts"]
    assert not vision.prompt_shown(frame, region, C)
    cv2.putText(frame, "[E] Hitch", (1080, 670), cv2.FONT_HERSHEY_SIMPLEX, 0.8, C.prompt_text, 2)
    assert vision.prompt_shown(frame, region, C)


def test_pause_menu_shown_only_with_its_rule_over_a_dim_picture() -> None:
    frame = np.full((360, 640, 3), 60, np.uint8)
    assert not vision.pause_menu_shown(frame, C)
    frame[85:88, 38:192] = C.pause_line
    assert vision.pause_menu_shown(frame, C)
    assert not vision.pause_menu_shown(np.maximum(frame, 200), C)


def test_angle_to_point_is_zero_at_the_centre_and_symmetric() -> None:
    assert vision.angle_to_point(639.5, 359.5, 1280, 720, 90.0) == (0.0, 0.0)
    yl, _ = vision.angle_to_point(319.5, 359.5, 1280, 720, 90.0)
    yr, _ = vision.angle_to_point(959.5, 359.5, 1280, 720, 90.0)
    assert yl == pytest.approx(-yr)
    assert yr == pytest.approx(math.degrees(math.atan(0.5)))
    _, down = vision.angle_to_point(639.5, 539.5, 1280, 720, 90.0)
    assert down > 0


def test_wheel_points_go_clockwise_from_the_top() -> None:
    pts = [vision.wheel_point(i, 6, 1280, 720) for i in range(6)]
    assert pts[0][0] == 640 and pts[0][1] < 360
    assert pts[1][0] > 640 and pts[5][0] < 640
    assert pts[3][1] > 360


# ---------------------------------------------------------------- on the simulator's frames
@pytest.fixture
def sim_env():
    import gymnasium as gym

    import gcc_envs  # noqa: F401

    env = gym.make("GCC/RDR2-Mission1", obs_size=(360, 640))
    yield env
    env.close()


def sim_minimap(frame: np.ndarray) -> np.ndarray:
    from gcc_envs.games.rdr2.skills import sim_minimap as circle

    return vision.minimap_crop(frame, circle(*frame.shape[:2]))


def test_route_and_allies_read_from_a_simulator_frame(sim_env) -> None:
    import math

    sim_env.reset(seed=0, options={"vary": False})  # the data's layout: both allies near
    obs, *_ = sim_env.step("wait(duration=0.1)")  # the route line now starts at the player
    s = sim_env.unwrapped.backend.sim.state
    p, (rx, ry) = s.player, s.route[1]
    want = math.degrees(math.atan2(ry - p.y, rx - p.x)) - p.yaw_deg  # the seed turns the view
    mm = sim_minimap(obs)
    ahead = vision.route_bearing(mm, C)
    assert ahead is not None and abs((ahead - want + 180) % 360 - 180) < 10
    assert len(vision.blips(mm, C.ally, C)) == 2  # Dutch and Micah beside the player
    obs, *_ = sim_env.step("turn(degree=90)")
    right = vision.route_bearing(sim_minimap(obs), C)
    assert right is not None and abs((right - want + 90 + 180) % 360 - 180) < 10


def test_prompt_tutorial_and_pause_read_from_simulator_frames(sim_env) -> None:
    from gcc_envs.games.rdr2.live import PROFILE

    obs, _ = sim_env.reset(seed=0, options={"vary": False})  # the horse at hand
    assert not vision.tutorial_shown(obs, PROFILE.hud["tutorial"], C)
    obs, *_ = sim_env.step("wait(duration=1.5)")
    assert vision.prompt_shown(obs, PROFILE.hud["prompts"], C)  # [E] Mount
    assert not vision.pause_menu_shown(obs, C)
    assert vision.tutorial_shown(obs, PROFILE.hud["tutorial"], C)  # the run tutorial
    obs, *_ = sim_env.step("pyautogui.press('esc'); time.sleep(1.0)")
    assert vision.pause_menu_shown(obs, C)
