"""``gcc-gym calibrate``: measure a camera-mouse game's mouse pixels per degree of turn.

It sends known horizontal ``MoveBy`` amounts through the env and measures how far the picture
shifts between the frames before and after with phase correlation (``cv2.phaseCorrelate`` on
a band around the screen centre, where a pinhole camera's shift is ``f · tan(angle)``). With
the game's horizontal field of view that gives degrees per move, and a least-squares line
through the origin gives pixels per degree, in frame pixels of the observation at its width.

Works on any env whose mouse turns the view: the RDR2 simulator (where the true value is
known, so the method is checked there) or the real game through the desktop backend.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from gcc_envs.core.events import MoveBy, Wait
from gcc_envs.errors import GCCError

#: Fraction of the frame (x0, y0, x1, y1) compared: a band around the centre, away from the
#: HUD (minimap, prompts, objective text) and from the picture's stretched edges.
BAND = (0.3, 0.15, 0.7, 0.62)
#: Phase-correlation peaks weaker than this are not trusted.
MIN_RESPONSE = 0.05


@dataclass(frozen=True)
class Calibration:
    """The measured scale and the moves it came from."""

    pixels_per_degree: float
    width: int
    #: (mouse pixels sent, picture shift in pixels, degrees turned) per accepted move.
    samples: tuple[tuple[int, float, float], ...]
    #: Root-mean-square residual of the fit, in degrees.
    rms_deg: float


def image_shift(
    before: np.ndarray, after: np.ndarray, band: tuple[float, float, float, float] = BAND
) -> tuple[float, float, float]:
    """(dx, dy, response): how far the picture inside ``band`` moved from ``before`` to ``after``.

    >>> rng = np.random.default_rng(0)
    >>> img = cv2.GaussianBlur(rng.integers(0, 255, (120, 200, 3), dtype=np.uint8), (5, 5), 0)
    >>> dx, dy, r = image_shift(img, np.roll(img, -7, axis=1), (0.1, 0.1, 0.9, 0.9))
    >>> round(dx), round(dy)
    (-7, 0)
    """
    if before.shape != after.shape:
        raise GCCError(f"frames differ in shape: {before.shape} vs {after.shape}")
    H, W = before.shape[:2]
    x0, y0, x1, y1 = (int(band[0] * W), int(band[1] * H), int(band[2] * W), int(band[3] * H))
    a = _grey(before[y0:y1, x0:x1])
    b = _grey(after[y0:y1, x0:x1])
    win = cv2.createHanningWindow((a.shape[1], a.shape[0]), cv2.CV_64F)
    (dx, dy), response = cv2.phaseCorrelate(a, b, win)
    return float(dx), float(dy), float(response)


def _grey(img: np.ndarray) -> np.ndarray:
    g = cv2.cvtColor(np.ascontiguousarray(img[..., :3]), cv2.COLOR_RGB2GRAY).astype(np.float64)
    return g - g.mean()


def shift_to_degrees(shift_px: float, width: int, hfov_deg: float) -> float:
    """Degrees of turn that move the centre of a pinhole picture ``shift_px`` pixels.

    >>> round(shift_to_degrees(640.0, 1280, 90.0), 6)
    45.0
    """
    f = (width / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    return math.degrees(math.atan2(abs(shift_px), f))


def fit_pixels_per_degree(samples: Sequence[tuple[int, float, float]]) -> tuple[float, float]:
    """Least-squares slope through the origin of mouse pixels against signed degrees, and the
    RMS residual in degrees."""
    px = np.array([s[0] for s in samples], float)
    deg = np.array([math.copysign(s[2], s[0]) for s in samples], float)
    if len(px) == 0 or not np.any(deg):
        raise GCCError("no usable move: the picture did not shift (is the mouse a camera mouse?)")
    k = float(px @ px / (px @ deg))  # px = k * deg, fitted as deg = px / k
    rms = float(np.sqrt(np.mean((deg - px / k) ** 2)))
    return k, rms


def calibrate(
    env: object,
    hfov_deg: float,
    moves: Sequence[int] = (20, -20, 40, -40, 60, -60),
    settle_s: float = 0.1,
    seed: int = 0,
) -> Calibration:
    """Turn the view of ``env`` by each of ``moves`` mouse pixels and fit pixels per degree.

    ``env`` is a Gymnasium env of this package (it takes lists of events as actions). Moves
    whose picture shift can't be measured (a flat wall, a scene change) are dropped.
    """
    obs, _ = env.reset(seed=seed)  # type: ignore[attr-defined]
    W = obs.shape[1]
    samples = []
    for m in moves:
        after, *_ = env.step([MoveBy(int(m), 0), Wait(settle_s)])  # type: ignore[attr-defined]
        dx, _, response = image_shift(obs, after)
        obs = after
        if response < MIN_RESPONSE or dx == 0 or (dx > 0) == (m > 0):
            continue  # turning right moves the picture left: a same-sign shift is a misread
        samples.append((int(m), dx, shift_to_degrees(dx, W, hfov_deg)))
    k, rms = fit_pixels_per_degree(samples)
    return Calibration(round(k, 4), W, tuple(samples), round(rms, 4))
