"""Recorded anti-aliased shapes write the bytes OpenCV writes: on random backgrounds, at every
place they fit, with the compiled replay and the numpy one; near an edge OpenCV draws."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from gcc_envs.games.rdr2.sim import jit, minimap, stamps

SHAPES = [
    ((3, (20, 20, 20), -1), (2, (60, 140, 255), -1)),  # a minimap dot
    ((4, (20, 20, 20), -1), (3, (255, 214, 40), -1)),  # the objective's dot
    ((3, (20, 20, 20), -1), (1, (220, 40, 36), -1), (3, (200, 200, 200), 1)),  # a core
    ((6, (20, 20, 20), -1), (4, (240, 240, 240), -1), (6, (200, 200, 200), 1)),
]


def _cv2(img, x, y, shapes):
    for r, color, t in shapes:
        cv2.circle(img, (x, y), r, color, t, cv2.LINE_AA)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("shapes", SHAPES)
def test_circle_stacks_write_what_opencv_writes(shapes, compiled, monkeypatch):
    if not compiled:
        monkeypatch.setattr(jit, "kernel", lambda name: None)
    rng = np.random.default_rng(1)
    placed = fell_back = 0
    for _ in range(200):
        img = rng.integers(0, 256, (int(rng.integers(16, 64)), int(rng.integers(16, 64)), 3))
        img = img.astype(np.uint8)
        x, y = int(rng.integers(-2, img.shape[1] + 2)), int(rng.integers(-2, img.shape[0] + 2))
        want, got = img.copy(), img.copy()
        _cv2(want, x, y, shapes)
        if stamps.apply(got, x, y, stamps.circles(shapes)):
            placed += 1
        else:
            fell_back += 1
            stamps.circle_stack(got, x, y, shapes)
        np.testing.assert_array_equal(got, want)
    assert placed > 40 and fell_back > 10


def test_the_minimap_arrow_is_the_one_opencv_draws():
    rng = np.random.default_rng(2)
    for r, s in ((6, 6 / 92), (12, 12 / 92), (30, 30 / 92)):
        patch = rng.integers(0, 256, (2 * r + 1, 2 * r + 1, 3)).astype(np.uint8)
        want, got = patch.copy(), patch.copy()
        minimap._draw_arrow(want, r, s)
        minimap._arrow(got, r, s)
        np.testing.assert_array_equal(got, want)


def test_large_shapes_are_not_recorded():
    assert stamps.circles(((14, (20, 20, 20), -1),)) is None
    img = np.zeros((60, 60, 3), np.uint8)
    assert not stamps.apply(img, 30, 30, None)
    stamps.circle_stack(img, 30, 30, ((14, (20, 200, 20), -1),))  # drawn by OpenCV
    assert img[30, 30].tolist() == [20, 200, 20]
