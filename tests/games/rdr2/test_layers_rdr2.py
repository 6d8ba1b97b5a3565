"""A recorded layer replayed by the compiled kernel draws exactly what its drawing calls draw
(``layers.panel``, ``text.draw``, fills, ``cv2.line``), on any frame behind it; the pause menu is
one, kept by what it shows."""

from __future__ import annotations

import numpy as np
import pytest

from gcc_envs.games.rdr2.sim import jit, layers, screens
from gcc_envs.games.rdr2.sim.state import PauseMenu

PAUSE_ITEMS = PauseMenu().items

pytestmark = pytest.mark.skipif(
    jit.compiled(layers.layer_ops) is None, reason="numba is missing or GCC_NO_JIT=1"
)
SIZES = [(84, 84), (96, 160), (100, 84), (180, 320), (720, 1280), (16, 16)]


def _both(layer, frame, monkeypatch):
    mine = frame.copy()
    layers.replay(mine, layer)
    ref = frame.copy()
    with monkeypatch.context() as m:
        m.setattr(jit, "compiled", lambda fn: None)
        layers.replay(ref, layer)
    return mine, ref


def _random_layer(rng, h, w):
    rec = layers.Recorder(h, w)
    for _ in range(12):
        x0, x1 = sorted(int(v) for v in rng.integers(-w // 4, w + w // 4, 2))
        y0, y1 = sorted(int(v) for v in rng.integers(-h // 4, h + h // 4, 2))
        color = tuple(int(c) for c in rng.integers(0, 256, 3))
        kind = int(rng.integers(4))
        if kind == 0:
            rec.panel(x0, y0, x1, y1, float(rng.choice([0.3, 0.4, 0.5, 0.6, 0.7])))
        elif kind == 1:
            rec.fill(max(x0, 0), max(y0, 0), max(x1, 0), max(y1, 0), color)  # (bounds >= 0)
        elif kind == 2:
            rec.line((x0, y0), (x1, y1), color, int(rng.integers(1, 6)))
        else:
            px = int(rng.integers(4, max(8, h // 6)))
            anchor = str(rng.choice(["lt", "mm", "rb", "lm"]))
            alpha = float(rng.choice([1.0, 0.7, 0.25]))
            rec.text(
                "Resume Game",
                x0,
                y0,
                px,
                color,
                anchor,
                bool(rng.integers(2)),
                bool(rng.integers(2)),
                alpha,
            )
    return rec.layer()


@pytest.mark.parametrize(("h", "w"), SIZES)
def test_a_random_layer_draws_what_its_calls_draw(h, w, monkeypatch):
    rng = np.random.default_rng(h * 7 + w)
    for _ in range(6):
        layer = _random_layer(rng, h, w)
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        mine, ref = _both(layer, frame, monkeypatch)
        np.testing.assert_array_equal(mine, ref)


@pytest.mark.parametrize(("h", "w"), SIZES)
def test_the_pause_menu_layer_draws_what_the_menu_calls_draw(h, w, monkeypatch):
    rng = np.random.default_rng(h + w)
    for hovered in (None, *range(len(PAUSE_ITEMS))):
        layer = screens._pause_menu(h, w, hovered, tuple(PAUSE_ITEMS))
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        mine, ref = _both(layer, frame, monkeypatch)
        np.testing.assert_array_equal(mine, ref)
        assert not np.array_equal(mine, frame)
    assert screens._pause_menu(h, w, 0, tuple(PAUSE_ITEMS)) is screens._pause_menu(
        h, w, 0, tuple(PAUSE_ITEMS)
    )


def test_a_layer_refuses_a_frame_of_another_size():
    layer = layers.Recorder(20, 30).layer()
    with pytest.raises(ValueError, match="20x30"):
        layers.replay(np.zeros((30, 20, 3), np.uint8), layer)


@pytest.mark.parametrize(("h", "w"), SIZES)
def test_the_hud_text_layer_draws_what_its_calls_draw(h, w, monkeypatch):
    from gcc_envs.games.rdr2.sim import hud

    rng = np.random.default_rng(h * 3 + w)
    shown = [
        ("6 | 24", "Revolver", "$12.50", "Hold R to search drawers and cupboards for supplies.",
         "Search the house for supplies (1/3)", "Dutch: Quickly, Arthur.", ("[E] Hitch horse", "[R] Search")),
        (None, "", None, "", "Follow Dutch to the homestead.", "", ()),
        (None, "", "$0.05", "", "", "A very long subtitle " * 6, ("[Tab] Weapons",)),
    ]  # fmt: skip
    for inputs in shown:
        layer = hud.text_layer(h, w, *inputs)
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        mine, ref = _both(layer, frame, monkeypatch)
        np.testing.assert_array_equal(mine, ref)
        assert not np.array_equal(mine, frame) or h < 30
