"""The compiled twins of the pause background's OpenCV calls give OpenCV's bytes: the area
downscale (its general path) and the grey-and-dim weighting, on random frames of many sizes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from gcc_envs.games.rdr2.sim import cv_twins, jit, screens

pytestmark = pytest.mark.skipif(
    jit.kernel("area_rows") is None, reason="numba (the fast extra) is missing"
)
SIZES = [(84, 84), (96, 160), (100, 84), (77, 131), (180, 320), (720, 1280), (16, 16), (31, 17)]
#: The sizes whose 8-to-1 downscale does not divide (OpenCV's general area path, the twin's).
AREA_SIZES = [(h, w) for h, w in SIZES if w % max(1, w // 8) or h % max(1, h // 8)]


def _frames(rng, h, w):
    yield rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    yield (rng.integers(0, 6, (h, w, 3)) * 51).astype(np.uint8)  # flat runs and extremes
    flat = np.full((h, w, 3), rng.integers(0, 256), np.uint8)
    flat[rng.integers(0, h) :] = rng.integers(0, 256, 3)
    yield flat


@pytest.mark.parametrize(("h", "w"), AREA_SIZES)
def test_area_twin_equals_opencv_where_the_size_does_not_divide(h, w):
    rng = np.random.default_rng(h * 1000 + w)
    dw, dh = max(1, w // 8), max(1, h // 8)
    kernel = jit.kernel("area_rows")
    for frame in (f for _ in range(20) for f in _frames(rng, h, w)):
        mine = np.empty((dh, dw, 3), np.uint8)
        kernel(frame, mine, *cv_twins.area_table(w, dw), *cv_twins.area_table(h, dh))
        np.testing.assert_array_equal(
            mine, cv2.resize(frame, (dw, dh), interpolation=cv2.INTER_AREA)
        )


@pytest.mark.parametrize(("k", "grey"), [(0.35, 0.5), (0.55, 0.6), (0.45, 1.0)])
def test_grey_dim_twin_equals_opencv(k, grey, monkeypatch):
    rng = np.random.default_rng(int(k * 100))
    for h, w in SIZES:
        for frame in _frames(rng, h, w):
            mine = frame.copy()
            screens.dim(mine, k, grey)
            with monkeypatch.context() as m:
                m.setattr(jit, "kernel", lambda name: None)
                ref = frame.copy()
                screens.dim(ref, k, grey)
            np.testing.assert_array_equal(mine, ref)
            assert not np.array_equal(mine, frame)  # (it did dim)


def test_the_pause_background_is_opencvs(monkeypatch):
    rng = np.random.default_rng(7)
    for h, w in SIZES:
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        mine = screens.pause_background(frame)
        with monkeypatch.context() as m:
            m.setattr(jit, "kernel", lambda name: None)
            np.testing.assert_array_equal(mine, screens.pause_background(frame))
