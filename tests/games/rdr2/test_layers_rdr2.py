"""A baked layer laid over any frame shows what its drawing calls draw there (``layers.panel``,
``text.draw``, fills, ``cv2.line``), within two levels (three under a pile of twelve calls,
each of which rounds); the compiled pass and the numpy pass lay
exactly the same bytes; the pause menu and the HUD's text are layers kept by what they show."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from gcc_envs.games.rdr2.sim import hud, jit, layers, screens, text
from gcc_envs.games.rdr2.sim.state import PauseMenu

PAUSE_ITEMS = PauseMenu().items
SIZES = [(84, 84), (96, 160), (100, 84), (180, 320), (720, 1280), (16, 16)]
HUD_SHOWS = [
    ("6 | 24", "Revolver", "$12.50", "Hold R to search drawers and cupboards for supplies.",
     "Search the house for supplies (1/3)", "Dutch: Quickly, Arthur.", ("[E] Hitch horse", "[R] Search")),
    (None, "", None, "", "Follow Dutch to the homestead.", "", ()),
    (None, "", "$0.05", "", "", "A very long subtitle " * 6, ("[Tab] Weapons",)),
]  # fmt: skip


def _random_calls(rng, h, w):
    """Twelve drawing calls of every kind, some reaching past the frame's edges."""
    calls = []
    for _ in range(12):
        x0, x1 = sorted(int(v) for v in rng.integers(-w // 4, w + w // 4, 2))
        y0, y1 = sorted(int(v) for v in rng.integers(-h // 4, h + h // 4, 2))
        color = tuple(int(c) for c in rng.integers(0, 256, 3))
        kind = int(rng.integers(4))
        if kind == 0:
            a = float(rng.choice([0.3, 0.4, 0.5, 0.6, 0.7]))
            calls.append(lambda f, b=(x0, y0, x1, y1), a=a: layers.panel(f, *b, a))
        elif kind == 1:
            calls.append(lambda f, b=(x0, y0, x1, y1), c=color: layers.fill(f, *b, c))
        elif kind == 2:
            t = int(rng.integers(1, 6))
            calls.append(
                lambda f, b=(x0, y0, x1, y1), c=color, t=t: cv2.line(f, b[:2], b[2:], c, t)
            )
        else:
            px = int(rng.integers(4, max(8, h // 6)))
            args = (
                str(rng.choice(["lt", "mm", "rb", "lm"])),
                bool(rng.integers(2)),
                bool(rng.integers(2)),
                float(rng.choice([1.0, 0.7, 0.25])),
            )
            calls.append(
                lambda f, p=(x0, y0, px, color), a=args: text.draw(f, "Resume Game", *p, *a)
            )
    return lambda f: [c(f) for c in calls]


def _laid(layer, frame, monkeypatch, compiled=True):
    out = frame.copy()
    with monkeypatch.context() as m:
        if not compiled:
            m.setattr(jit, "compiled", lambda fn: None)
        layers.lay(out, layer)
    return out


def _assert_shows_what_calls_draw(draw, layer, frame, monkeypatch, levels=2):
    """Within ``levels`` of the calls (each call rounds to a byte; a baked layer rounds once)."""
    ref = frame.copy()
    draw(ref)
    for compiled in (True, False):
        mine = _laid(layer, frame, monkeypatch, compiled)
        diff = np.abs(mine.astype(np.int16) - ref)
        assert diff.max() <= levels, (compiled, int(diff.max()))
        assert diff.mean() < 0.25
    return ref


@pytest.mark.parametrize(("h", "w"), SIZES)
def test_a_random_layer_shows_what_its_calls_draw(h, w, monkeypatch):
    rng = np.random.default_rng(h * 7 + w)
    for _ in range(6):
        draw = _random_calls(rng, h, w)
        layer = layers.bake(h, w, draw)
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        ref = _assert_shows_what_calls_draw(draw, layer, frame, monkeypatch, levels=3)
        # what no call touches stays as it was, and no box covers it needlessly far
        untouched = (ref == frame).all(axis=2)
        covered = np.zeros((h, w), bool)
        for y0, y1, x0, x1, _ in layer.boxes.tolist():
            covered[y0:y1, x0:x1] = True
        mine = _laid(layer, frame, monkeypatch)
        assert (mine[~covered] == frame[~covered]).all()
        assert covered[~untouched].all()


@pytest.mark.parametrize(("h", "w"), SIZES)
def test_compiled_and_numpy_passes_lay_the_same_bytes(h, w, monkeypatch):
    if jit.compiled(layers.lay_boxes) is None:
        pytest.skip("numba is missing or GCC_NO_JIT=1")
    rng = np.random.default_rng(h + 5 * w)
    for _ in range(4):
        layer = layers.bake(h, w, _random_calls(rng, h, w))
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        np.testing.assert_array_equal(
            _laid(layer, frame, monkeypatch), _laid(layer, frame, monkeypatch, compiled=False)
        )


@pytest.mark.parametrize(("h", "w"), SIZES)
def test_the_pause_menu_shows_what_the_menu_calls_draw(h, w, monkeypatch):
    rng = np.random.default_rng(h + w)
    for hovered in (None, *range(len(PAUSE_ITEMS))):
        layer = screens._pause_menu(h, w, hovered, tuple(PAUSE_ITEMS))
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        mine = _laid(layer, frame, monkeypatch)
        assert not np.array_equal(mine, frame)
        # the hovered item is a light fill: the same pixels whatever lay behind it
        if hovered is not None:
            u0, v0, u1, v1 = screens.pause_item_rect(hovered)
            y, x = round((v0 * 0.9 + v1 * 0.1) * h), round((u0 * 0.1 + u1 * 0.9) * w)
            other = _laid(layer, 255 - frame, monkeypatch)
            assert (mine[y, x] == other[y, x]).all() or h < 30
    assert screens._pause_menu(h, w, 0, tuple(PAUSE_ITEMS)) is screens._pause_menu(
        h, w, 0, tuple(PAUSE_ITEMS)
    )


def test_a_layer_refuses_a_frame_of_another_size():
    layer = layers.bake(20, 30, lambda f: None)
    assert layer.boxes.shape == (0, 5)
    with pytest.raises(ValueError, match="20x30"):
        layers.lay(np.zeros((30, 20, 3), np.uint8), layer)


@pytest.mark.parametrize(("h", "w"), SIZES)
def test_the_hud_text_layer_shows_what_its_calls_draw(h, w, monkeypatch):
    rng = np.random.default_rng(h * 3 + w)
    for inputs in HUD_SHOWS:

        def draw(f, inputs=inputs):
            hud.draw_text(f, *inputs)

        layer = hud.text_layer(h, w, *inputs)
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        _assert_shows_what_calls_draw(draw, layer, frame, monkeypatch)
        assert not np.array_equal(_laid(layer, frame, monkeypatch), frame) or h < 30


def test_runs_join_what_lies_close():
    covered = np.zeros(40, bool)
    covered[[2, 3, 4, 9, 20, 21, 39]] = True
    assert layers.runs(covered, gap=5) == [(2, 10), (20, 22), (39, 40)]
    assert layers.runs(covered, gap=0) == [(2, 5), (9, 10), (20, 22), (39, 40)]
    assert layers.runs(np.zeros(5, bool)) == []


@pytest.mark.parametrize(("h", "w"), [(84, 84), (180, 320), (720, 1280)])
def test_the_health_core_fills_with_health_whatever_lies_behind(h, w, monkeypatch):
    """The cores are a layer: opaque where drawn (the same pixels on any background), and the
    health core's red fill grows with health."""
    rng = np.random.default_rng(h)
    s, r = hud.scale(h, w), max(3, hud.px(14, hud.scale(h, w)))
    x, y = w // 4, h // 2
    reds = []
    for health in (0.05, 0.3, 0.6, 1.0):
        inner = (max(1, round((r - 2) * health**0.5)), r - 2)
        layer = hud.cores_layer(h, w, x, y, r, s, inner)
        a = _laid(layer, rng.integers(0, 256, (h, w, 3), dtype=np.uint8), monkeypatch)
        b = _laid(layer, rng.integers(0, 256, (h, w, 3), dtype=np.uint8), monkeypatch)
        np.testing.assert_array_equal(a[y - r + 2 : y + r - 1, x], b[y - r + 2 : y + r - 1, x])
        core = a[y - r : y + r + 1, x - r : x + r + 1].astype(int)
        yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
        inside = yy**2 + xx**2 <= (r - 1) ** 2  # (the opaque disc hides what lies behind)
        reds.append(int(((core[..., 0] > 150) & (core[..., 1] < 90) & inside).sum()))
    assert reds == sorted(reds), reds
    assert reds[0] < reds[-1] or r < 5, reds  # (a 3-pixel core has one size of fill)
