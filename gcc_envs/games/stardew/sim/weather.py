"""Rain on screen: falling streaks over outdoor maps and the weather icon of the clock panel.

The rules of weather (what rains, what rain waters) live in ``worldgen`` (the forecast drawn at
reset) and ``clock`` (rain waters the soil at dawn); this module only draws it, as pure
functions of the frame size and the game tick.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

RAIN = np.array((176, 196, 226), np.uint16)
#: Rows the streak pattern falls per game tick, as a share of the frame height.
FALL_PER_TICK = 0.035
#: Streaks per 10,000 pixels of frame.
DENSITY = 4.0


@lru_cache(maxsize=4)
def _streaks(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of the streak pixels of a pattern that wraps vertically."""
    gen = np.random.default_rng(1)  # a fixed pattern: the same picture for the same tick
    n = max(1, round(height * width * DENSITY / 10_000))
    length = max(2, round(height * 0.035))
    x0 = gen.integers(0, width, n)
    y0 = gen.integers(0, height, n)
    k = np.arange(length)
    ys = (y0[:, None] + k[None, :]) % height
    xs = np.clip(x0[:, None] - k[None, :] // 3, 0, width - 1)
    return ys.ravel(), xs.ravel()


def draw_rain(frame: np.ndarray, tick: int) -> None:
    """Blend rain streaks into ``frame`` in place, falling as ``tick`` grows."""
    h, w = frame.shape[:2]
    ys, xs = _streaks(h, w)
    shift = int(tick * FALL_PER_TICK * h) % h
    rows = (ys + shift) % h
    px = frame[rows, xs].astype(np.uint16)
    frame[rows, xs] = ((px + RAIN * 2) // 3).astype(np.uint8)


def draw_icon(img: np.ndarray, cx: float, cy: float, r: float, rain: bool) -> None:
    """A sun, or a cloud with rain drops, centred at (cx, cy) with radius ``r`` (pixels)."""
    c = (round(cx), round(cy))
    if not rain:
        cv2.circle(img, c, max(1, round(r)), (250, 200, 40), -1, cv2.LINE_AA)
        return
    for dx, dy, rr in ((-0.45, 0.1, 0.5), (0.1, -0.15, 0.6), (0.55, 0.1, 0.45)):
        center = (round(cx + dx * r), round(cy + dy * r))
        cv2.circle(img, center, max(1, round(rr * r)), (150, 156, 170), -1, cv2.LINE_AA)
    for dx in (-0.5, 0.0, 0.5):
        x = round(cx + dx * r)
        cv2.line(img, (x, round(cy + 0.6 * r)), (x - 1, round(cy + 1.0 * r)), (60, 110, 220), 1)
