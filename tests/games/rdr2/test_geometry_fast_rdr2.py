"""The fast geometry paths answer exactly as the plain ones: a line of sight walked compiled,
in Python floats or with numpy; a path's progress from cached segment terms."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim import jit


def _segments(rng: np.random.Generator, trials: int):
    for trial in range(trials):
        h, w = (int(v) for v in rng.integers(3, 40, 2))
        walls = (rng.random((h, w)) < 0.15).astype(np.int8)
        ax, ay = float(rng.uniform(-2, w * 2 + 2)), float(rng.uniform(-2, h * 2 + 2))
        if trial % 3 == 0:  # on cell corners: the ties of floor()
            ax, ay = float(rng.integers(0, w)) * 2.0, float(rng.integers(0, h)) * 2.0
        length, a = float(rng.uniform(0, 40)), float(rng.uniform(0, 2 * math.pi))
        bx, by = ax + length * math.cos(a), ay + length * math.sin(a)
        if trial % 5 == 0:
            by = ay  # axis-aligned
        yield walls, ax, ay, bx, by


def _numpy_sight(monkeypatch, walls, ax, ay, bx, by) -> bool:
    with monkeypatch.context() as m:
        m.setattr(jit, "compiled", lambda fn: None)
        m.setattr(geo, "_SCALAR_SAMPLES", -1)
        return geo.line_of_sight(walls, 2.0, ax, ay, bx, by)


def test_line_of_sight_in_python_floats_equals_numpy(monkeypatch):
    rng = np.random.default_rng(3)
    for walls, ax, ay, bx, by in _segments(rng, 1500):
        with monkeypatch.context() as m:
            m.setattr(jit, "compiled", lambda fn: None)  # short ones walked in Python
            got = geo.line_of_sight(walls, 2.0, ax, ay, bx, by)
        assert got == _numpy_sight(monkeypatch, walls, ax, ay, bx, by), (ax, ay, bx, by)


@pytest.mark.skipif(
    jit.compiled(geo._sight_walk) is None, reason="numba is missing or GCC_NO_JIT=1"
)
def test_compiled_line_of_sight_equals_numpy(monkeypatch):
    rng = np.random.default_rng(4)
    answers = set()
    for walls, ax, ay, bx, by in _segments(rng, 1500):
        got = geo.line_of_sight(walls, 2.0, ax, ay, bx, by)
        assert got == _numpy_sight(monkeypatch, walls, ax, ay, bx, by), (ax, ay, bx, by)
        answers.add(got)
    assert answers == {True, False}


def _progress_reference(points, x, y):
    """``path_progress`` as first written: every segment's terms worked out on each call."""
    best_d, best_s, run = math.inf, 0.0, 0.0
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        vx, vy = bx - ax, by - ay
        n = vx * vx + vy * vy
        t = 0.0 if n == 0 else min(max(((x - ax) * vx + (y - ay) * vy) / n, 0.0), 1.0)
        d = math.hypot(ax + t * vx - x, ay + t * vy - y)
        if d < best_d:
            best_d, best_s = d, run + t * math.sqrt(n)
        run += math.sqrt(n)
    return best_s


def test_path_progress_and_length_from_cached_terms_equal_the_plain_sums():
    rng = np.random.default_rng(5)
    for k in range(800):
        pts = [
            tuple(float(v) for v in p) for p in rng.uniform(0, 100, (int(rng.integers(1, 25)), 2))
        ]
        if len(pts) > 3:
            pts[2] = pts[1]  # a zero-length segment
        x, y = (float(v) for v in rng.uniform(-10, 110, 2))
        if k % 7 == 0:
            x, y = pts[0]
        want = _progress_reference(pts, x, y)
        assert geo.path_progress(pts, x, y) == want
        assert geo.path_progress([list(p) for p in pts], x, y) == want  # unhashable points
        assert geo.polyline_length(pts) == sum(geo.dist(*a, *b) for a, b in zip(pts, pts[1:]))


def test_kept_path_answers_follow_a_path_changed_in_place():
    pts = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]
    assert geo.path_progress(pts, 12.0, 4.0) == 14.0
    assert geo.polyline_length(pts) == 20.0
    pts[2] = (10.0, 30.0)  # the same list object, new content: its kept terms are stale
    assert geo.path_progress(pts, 12.0, 4.0) == _progress_reference(pts, 12.0, 4.0) == 14.0
    assert geo.path_progress(pts, 10.0, 25.0) == 35.0
    assert geo.polyline_length(pts) == 40.0
    pts.append((0.0, 30.0))
    assert geo.path_progress(pts, 0.0, 31.0) == 50.0


def _circle_free_python(monkeypatch, *args):
    with monkeypatch.context() as m:
        m.setattr(jit, "compiled", lambda fn: None)
        return geo.circle_free(*args)


@pytest.mark.skipif(
    jit.compiled(geo._cells_free) is None, reason="numba is missing or GCC_NO_JIT=1"
)
def test_compiled_circle_free_equals_python(monkeypatch):
    rng = np.random.default_rng(6)
    answers = set()
    for k in range(3000):
        h, w = (int(v) for v in rng.integers(2, 20, 2))
        walls = (rng.random((h, w)) < 0.2).astype(np.int8)
        level = rng.integers(0, 2, (h, w)).astype(np.int8)
        x, y = float(rng.uniform(-1, w * 2 + 1)), float(rng.uniform(-1, h * 2 + 1))
        if k % 4 == 0:  # on cell edges: the ties of floor() and of the nearest-point clamp
            x = float(rng.integers(0, w)) * 2.0
        r, z = float(rng.choice([0.25, 0.35, 0.5, 1.0, 2.0])), int(rng.integers(0, 2))
        solids = [(x + 0.5, y, 0.3)] if k % 5 == 0 else []
        got = geo.circle_free(walls, level, 2.0, x, y, r, z, solids)
        assert got == _circle_free_python(monkeypatch, walls, level, 2.0, x, y, r, z, solids)
        answers.add(got)
    assert answers == {True, False}


def test_path_progress_settles_near_ties_as_the_plain_sums_do():
    """Points as near to two segments as rounding can tell (the compiled search ranks squared
    distances and leaves those to the distances themselves): the first segment wins."""
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    for x, y in [(5.0, 5.0), (7.5, 5.0), (12.0, -2.0), (10.0, 0.0), (5.0, 5.0 + 1e-12)]:
        want = _progress_reference(square, x, y)
        assert geo.path_progress(list(square), x, y) == want, (x, y)
    assert geo.path_progress(list(square), 5.0, 5.0) == 5.0  # y = 0 is the first of three
    assert geo.path_progress([(3.0, 4.0)], 1.0, 1.0) == 0.0  # one point: no segment


def test_behind_on_path_compares_the_two_progresses():
    rng = np.random.default_rng(7)
    seen = set()
    for _ in range(300):
        pts = tuple(tuple(float(v) for v in p) for p in rng.uniform(0, 50, (6, 2)))
        a = tuple(float(v) for v in rng.uniform(-5, 55, 2))
        b = tuple(float(v) for v in rng.uniform(-5, 55, 2))
        want = _progress_reference(pts, *a) < _progress_reference(pts, *b)
        assert geo.behind_on_path(pts, *a, *b) is want
        assert geo.behind_on_path([list(p) for p in pts], *a, *b) is want  # unhashable
        seen.add(want)
    assert seen == {True, False}
