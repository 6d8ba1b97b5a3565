"""Small anti-aliased shapes as OpenCV draws them, recorded once and replayed in one pass.

OpenCV's anti-aliased drawing blends each pixel's channels on their own, by the shape's
coverage of that pixel, so a shape at a fixed place maps each channel of each pixel it
touches through a fixed table of 256 values. :func:`circles` records those tables by drawing
the shape on 256 flat images (value 0 to 255) and :func:`apply` replays them: the very bytes
OpenCV would write, from one gather per touched channel instead of one call per shape. A
shape is recorded at the centre of a canvas with room round it and replayed where it lies
wholly inside the image (OpenCV clips nothing there); near an edge callers draw with OpenCV.
The HUD's dots, rings and the minimap's arrow are drawn every frame, a few pixels each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim import jit

Color = tuple[int, int, int]
#: A circle: radius, colour, thickness (-1 fills it), as ``cv2.circle`` takes them.
Circle = tuple[int, Color, int]
#: Shapes touching more pixels than this are drawn with OpenCV (their tables would be large).
MAX_PIXELS = 256


@dataclass(frozen=True)
class Stamp:
    """Per touched pixel: its offset from the anchor and one 256-entry table per channel."""

    dy: np.ndarray  # (n,) int32
    dx: np.ndarray  # (n,) int32
    lut: np.ndarray  # (n, 3, 256) uint8
    #: How far (pixels) the recorded drawing reaches from the anchor on any side.
    reach: int


def record(draw: Callable[[np.ndarray], None], size: int, anchor: int) -> Stamp | None:
    """The tables of ``draw`` (which draws on a ``size`` x ``size`` RGB canvas) around pixel
    (``anchor``, ``anchor``); None when it touches more than :data:`MAX_PIXELS` pixels."""
    flat = np.empty((256, size, size, 3), np.uint8)
    for v in range(256):
        flat[v] = v
        draw(flat[v])
    values = np.arange(256, dtype=np.uint8)[:, None, None, None]
    ys, xs = np.nonzero((flat != values).any(axis=(0, 3)))
    if len(ys) > MAX_PIXELS:
        return None
    if len(ys) and (ys.min() == 0 or xs.min() == 0 or ys.max() == size - 1 or xs.max() == size - 1):
        return None  # it may run off the canvas: OpenCV clips it, a table cannot say how
    lut = np.ascontiguousarray(flat[:, ys, xs, :].transpose(1, 2, 0))  # (n, 3, 256)
    reach = int(max(np.abs(ys - anchor).max(), np.abs(xs - anchor).max())) if len(ys) else 0
    lut.setflags(write=False)
    return Stamp((ys - anchor).astype(np.int32), (xs - anchor).astype(np.int32), lut, reach)


@lru_cache(maxsize=128)
def circles(shapes: tuple[Circle, ...]) -> Stamp | None:
    """Concentric anti-aliased circles drawn in order about an integer centre."""
    reach = max(r + max(t, 1) for r, _, t in shapes) + 3
    size = 2 * reach + 1

    def draw(img: np.ndarray) -> None:
        for r, color, t in shapes:
            cv2.circle(img, (reach, reach), r, color, t, cv2.LINE_AA)

    return record(draw, size, reach)


def apply(img: np.ndarray, x: int, y: int, stamp: Stamp | None) -> bool:
    """Replay ``stamp`` with its anchor at pixel (x, y) of an (H, W, 3) uint8 image; False
    (nothing drawn) when it is missing or would not lie wholly inside."""
    if stamp is None:
        return False
    h, w = img.shape[:2]
    k = stamp.reach
    if not (k <= x < w - k and k <= y < h - k):
        return False
    kernel = jit.kernel("stamp")
    if kernel is not None:
        kernel(img, y, x, stamp.dy, stamp.dx, stamp.lut)
        return True
    ys, xs = stamp.dy + y, stamp.dx + x
    rows = np.arange(len(ys))
    for c in range(3):
        img[ys, xs, c] = stamp.lut[rows, c, img[ys, xs, c]]
    return True


def circle_stack(img: np.ndarray, x: int, y: int, shapes: tuple[Circle, ...]) -> None:
    """``cv2.circle`` of each shape at (x, y) in order, from a recorded stamp where it fits
    (and the replay is compiled: numpy's gathers cost more than OpenCV's small circles)."""
    if jit.kernel("stamp") is None or not apply(img, x, y, circles(shapes)):
        for r, color, t in shapes:
            cv2.circle(img, (x, y), r, color, t, cv2.LINE_AA)
