"""``gcc-gym calibrate`` measures pixels per degree from picture shifts."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from agents.calibrate import calibrate, fit_pixels_per_degree, image_shift, shift_to_degrees
from gcc_envs.core.events import MoveBy
from gcc_envs.errors import GCCError


class PanoramaEnv:
    """A pinhole camera turning inside a textured cylinder; the mouse turns it ``ppd`` px/deg."""

    def __init__(self, ppd: float, hfov: float = 90.0, size: tuple[int, int] = (180, 320)) -> None:
        rng = np.random.default_rng(1)
        tex = rng.integers(0, 255, (size[0], 3600, 3), dtype=np.uint8)
        self.tex = cv2.GaussianBlur(tex, (0, 0), 3)
        self.ppd, self.hfov, self.size, self.yaw = ppd, hfov, size, 0.0

    def frame(self) -> np.ndarray:
        H, W = self.size
        f = (W / 2) / math.tan(math.radians(self.hfov) / 2)
        ang = self.yaw + np.degrees(np.arctan((np.arange(W) + 0.5 - W / 2) / f))
        cols = np.round(ang * 10).astype(int) % self.tex.shape[1]
        return self.tex[:, cols]

    def reset(self, seed: int | None = None):
        self.yaw = 0.0
        return self.frame(), {}

    def step(self, events):
        for e in events:
            if isinstance(e, MoveBy):
                self.yaw += e.dx / self.ppd
        return self.frame(), 0.0, False, False, {}


@pytest.mark.parametrize("ppd", [2.0, 4.0, 7.5])
def test_calibrate_recovers_the_true_pixels_per_degree(ppd: float) -> None:
    cal = calibrate(PanoramaEnv(ppd), hfov_deg=90.0)
    assert cal.pixels_per_degree == pytest.approx(ppd, rel=0.05)
    assert len(cal.samples) >= 4 and cal.width == 320


def test_turning_right_shifts_the_picture_left() -> None:
    env = PanoramaEnv(4.0)
    a, _ = env.reset()
    b, *_ = env.step([MoveBy(20, 0)])
    dx, dy, response = image_shift(a, b)
    assert dx < 0 and abs(dy) < 0.5 and response > 0.1


def test_shift_to_degrees_inverts_the_pinhole_projection() -> None:
    f = 640 / math.tan(math.radians(45))
    assert shift_to_degrees(f * math.tan(math.radians(10)), 1280, 90.0) == pytest.approx(10.0)


def test_fit_refuses_when_nothing_moved() -> None:
    with pytest.raises(GCCError):
        fit_pixels_per_degree([])


def test_image_shift_refuses_frames_of_different_sizes() -> None:
    with pytest.raises(GCCError):
        image_shift(np.zeros((10, 10, 3), np.uint8), np.zeros((10, 12, 3), np.uint8))


def test_calibrate_measures_the_rdr2_simulators_known_scale() -> None:
    import gymnasium as gym

    import gcc_envs  # noqa: F401
    from gcc_envs.games.rdr2.live import SIM_CAMERA

    # Mission 3's camp is a still scene (Mission 1's riders crossing the view fool the shift)
    env = gym.make("GCC/RDR2-Mission3", obs_size=(360, 640))
    try:
        cal = calibrate(env, hfov_deg=SIM_CAMERA.hfov_deg)
    finally:
        env.close()
    assert cal.pixels_per_degree == pytest.approx(SIM_CAMERA.pixels_per_degree_at(640)[0], rel=0.1)
