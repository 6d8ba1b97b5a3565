"""Every screen type renders at any size; 1280x720 screenshots of each go to a folder."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest
from dl2_helpers import click, sim_at, to_haggle, type_price

#: Where the 720p screenshots go (``runs/`` is git-ignored); override with GCC_DL2_SHOTS.
SHOTS = Path(
    os.environ.get(
        "GCC_DL2_SHOTS", Path(__file__).resolve().parents[3] / "runs" / "dealers_life2_screens"
    )
)


def screens():
    """(name, simulator showing that screen) for every screen type."""
    out = []
    sim = sim_at(3)
    out.append(("01_newspaper", sim.render(720, 1280)))
    click(sim, "open")
    out.append(("02_customer", sim.render(720, 1280)))
    sim = sim_at(3)
    to_haggle(sim, "seller")
    click(sim, "item")
    out.append(("03_item_page", sim.render(720, 1280)))
    click(sim, "close")
    type_price(sim, str(max(1, int(sim.state.customer.reserve * 0.85))))
    assert sim.state.customer.history[-1][0] == "them"  # a counter-offer
    out.append(("04_haggle_seller", sim.render(720, 1280)))
    click(sim, "traits")
    out.append(("05_traits_page", sim.render(720, 1280)))
    click(sim, "close")
    type_price(sim, "")
    out.append(("06_warning_dialog", sim.render(720, 1280)))
    click(sim, "ok")
    click(sim, "accept")
    out.append(("07_deal_dialog", sim.render(720, 1280)))
    sim = sim_at(3)
    to_haggle(sim, "buyer")
    out.append(("08_haggle_buyer", sim.render(720, 1280)))
    click(sim, "accept")
    out.append(("09_sold_dialog", sim.render(720, 1280)))
    click(sim, "ok")
    click(sim, "stock")
    out.append(("10_stock_page", sim.render(720, 1280)))
    sim = sim_at(3, days=1)
    click(sim, "open")
    while sim.state.screen != "stats":
        s = sim.state
        if s.dialog is not None:
            click(sim, "ok")
        elif s.screen == "customer":
            click(sim, "option1" if s.customer.role == "redeem" else "option2")
    out.append(("11_daily_stats", sim.render(720, 1280)))
    return out


def test_every_screen_type_is_saved_as_a_720p_screenshot():
    SHOTS.mkdir(parents=True, exist_ok=True)
    shots = screens()
    assert len({n for n, _ in shots}) == 11
    for name, frame in shots:
        assert frame.shape == (720, 1280, 3) and frame.dtype == np.uint8
        assert frame.std() > 20  # a drawn screen, not a blank one
        assert cv2.imwrite(str(SHOTS / f"{name}.png"), cv2.cvtColor(frame, cv2.COLOR_RGB2BGR))
    # screens differ from each other
    frames = [f for _, f in shots]
    assert all(not np.array_equal(a, b) for a, b in zip(frames, frames[1:]))


@pytest.mark.parametrize("size", [(84, 84), (72, 128), (360, 640), (480, 640), (1080, 1920)])
def test_screens_render_at_any_size_as_fresh_arrays(size):
    sim = sim_at(2)
    to_haggle(sim)
    a = sim.render(*size)
    assert a.shape == (*size, 3)
    a[:] = 0
    b = sim.render(*size)
    assert b.any() and b is not a


def test_the_frame_changes_only_when_the_state_does():
    sim = sim_at(2)
    a = sim.render(72, 128)
    sim.pointer_move(0.3, 0.3)
    sim.advance(5.0)
    assert np.array_equal(a, sim.render(72, 128))
    click(sim, "open")
    assert not np.array_equal(a, sim.render(72, 128))
