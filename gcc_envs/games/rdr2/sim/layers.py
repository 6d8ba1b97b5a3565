"""Screen layers baked once and laid over any frame: the panels, text, lines and fills of the
HUD and the pause menu depend only on what they show, while the view behind them changes
every frame.

:func:`bake` runs a layer's drawing calls (:func:`panel`, ``text.draw``, :func:`fill`,
``cv2.line``) twice, on a black frame and on a white one. Every call either darkens a pixel by
a factor or blends a colour into it, so each pixel's result is ``keep * behind + add``; the
black copy gives ``add`` and the white one ``keep``. :func:`lay` then does that sum over the
boxes of the frame the layer covers (one compiled pass where numba is installed), and what it
shows is within a level or two of making the calls on that frame
(``tests/games/rdr2/test_layers_rdr2.py``). A new element is a drawing call, nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim import jit

Color = tuple[int, int, int]
#: Rows (and columns) a box may skip before the next covered one starts a new box.
GAP_PX = 6


@dataclass(frozen=True, eq=False)  # (compared by identity: it holds arrays)
class Layer:
    """What a layer does to an (h, w) frame, box by box: ``boxes`` rows (y0, y1, x0, x1,
    offset into ``keep`` and ``add``); ``keep`` is 255 × the share of the frame behind that
    stays, ``add`` what the layer adds (each box's pixels in row order, 3 bytes a pixel)."""

    h: int
    w: int
    boxes: np.ndarray  # (n, 5) int64
    keep: np.ndarray  # uint8
    add: np.ndarray  # uint8


def bake(h: int, w: int, draw: Callable[[np.ndarray], object]) -> Layer:
    """The layer that ``draw`` (drawing calls on an (h, w, 3) uint8 frame in place) makes."""
    dark = np.zeros((h, w, 3), np.uint8)
    draw(dark)
    light = np.full((h, w, 3), 255, np.uint8)
    draw(light)
    keep = cv2.subtract(light, dark)
    touched = (dark != 0).any(axis=2) | (light != 255).any(axis=2)
    boxes, keeps, adds, off = [], [np.zeros(0, np.uint8)], [np.zeros(0, np.uint8)], 0
    for y0, y1 in runs(touched.any(axis=1)):
        for x0, x1 in runs(touched[y0:y1].any(axis=0)):
            boxes.append((y0, y1, x0, x1, off))
            keeps.append(keep[y0:y1, x0:x1].reshape(-1))
            adds.append(dark[y0:y1, x0:x1].reshape(-1))
            off += keeps[-1].size
    out = Layer(
        h, w, np.array(boxes, np.int64).reshape(-1, 5), np.concatenate(keeps), np.concatenate(adds)
    )
    for a in (out.boxes, out.keep, out.add):
        a.flags.writeable = False
    return out


def runs(covered: np.ndarray, gap: int = GAP_PX) -> list[tuple[int, int]]:
    """The [start, end) runs of True in a 1-D bool array, runs fewer than ``gap`` apart
    joined."""
    idx = np.flatnonzero(covered)
    if not len(idx):
        return []
    breaks = np.flatnonzero(np.diff(idx) > gap + 1)
    starts = np.concatenate(([idx[0]], idx[breaks + 1]))
    ends = np.concatenate((idx[breaks], [idx[-1]])) + 1
    return [(int(a), int(b)) for a, b in zip(starts, ends, strict=True)]


def lay(frame: np.ndarray, layer: Layer) -> None:
    """Lay ``layer`` over an (h, w, 3) uint8 ``frame`` in place."""
    if frame.shape[:2] != (layer.h, layer.w):
        raise ValueError(f"a layer for {layer.h}x{layer.w} cannot go on a {frame.shape} frame")
    compiled = jit.compiled(lay_boxes)
    if compiled is not None:
        compiled(frame, layer.boxes, layer.keep, layer.add)
        return
    for y0, y1, x0, x1, off in layer.boxes.tolist():
        region = frame[y0:y1, x0:x1]
        end = off + region.size
        v = region.astype(np.uint16)
        v *= layer.keep[off:end].reshape(region.shape)
        v += 127
        v //= 255
        v += layer.add[off:end].reshape(region.shape)
        region[:] = np.minimum(v, 255)


def lay_boxes(frame: np.ndarray, boxes: np.ndarray, keep: np.ndarray, add: np.ndarray) -> None:
    """:func:`lay`'s boxes, compiled where numba is installed: ``keep * behind / 255`` rounded,
    plus ``add``, at most 255, per byte (the same integer steps as the numpy path)."""
    for n in range(boxes.shape[0]):
        y0, y1, x0, x1, k = boxes[n, 0], boxes[n, 1], boxes[n, 2], boxes[n, 3], boxes[n, 4]
        for i in range(y0, y1):
            for j in range(x0, x1):
                for c in range(3):
                    v = (np.int32(frame[i, j, c]) * np.int32(keep[k]) + 127) // 255
                    frame[i, j, c] = min(v + np.int32(add[k]), 255)
                    k += 1


def panel(frame: np.ndarray, x0: int, y0: int, x1: int, y1: int, alpha: float = 0.6) -> None:
    """Darken a rectangle (a translucent black panel)."""
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x0 < x1 and y0 < y1:
        region = frame[y0:y1, x0:x1]
        region[:] = cv2.convertScaleAbs(region, alpha=1.0 - alpha)


def fill(frame: np.ndarray, x0: int, y0: int, x1: int, y1: int, color: Color) -> None:
    """Fill a rectangle with ``color``, cut to the frame."""
    x0, y0 = max(0, x0), max(0, y0)
    if x0 < x1 and y0 < y1:
        frame[y0:y1, x0:x1] = color
