"""Twins of the OpenCV calls behind the pause menu and the dimmed screens, byte for byte.

The pause background is a soft, darkened copy of the view: an 8-to-1 area downscale, a linear
upscale and a pull towards grey (``screens.blurred`` and ``screens.dim``). At 84x84 OpenCV's
area downscale and the four calls of the dim cost more in their setup than in their pixels,
so :mod:`jit` compiles these twins of them:

* :func:`area_rows`: ``cv2.resize(..., INTER_AREA)`` to a size that does not divide the source
  (OpenCV's general path: per-axis tables of float32 weights, each output pixel summed source
  row by source row in float32, rounded half to even). Where the size divides the source
  OpenCV takes its integer path, and callers keep OpenCV.
* :func:`grey_dim`: ``cv2.cvtColor`` to grey (15-bit fixed point) and back, then
  ``cv2.addWeighted``, as one table lookup per channel; :func:`weighted_table` asks OpenCV for
  that table, so the bytes are OpenCV's own.

* :func:`layer_ops`: a recorded screen layer (``layers``) in one pass.

``tests/games/rdr2/test_cv_twins_rdr2.py`` compares the first two with OpenCV on random
frames, ``test_layers_rdr2.py`` the third with the calls it stands for.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

#: Operation kinds of a ``layers.Layer``: a byte map, a blend through coverage, a fill, a mask
#: painted in one colour.
SCALE, BLEND, FILL, PAINT = 0, 1, 2, 3
#: ``cv2.COLOR_RGB2GRAY`` on 8-bit pixels: (R, G, B) weights and the shift (round half up).
GREY_R, GREY_G, GREY_B, GREY_SHIFT = 9798, 19235, 3735, 15

#: One axis of an area downscale: per output pixel, its source pixels and float32 weights in
#: the order OpenCV sums them, padded with weight-0 terms (which add nothing) to one length.
AreaTable = tuple[np.ndarray, np.ndarray]


@lru_cache(maxsize=32)
def area_table(src: int, dst: int) -> AreaTable:
    """OpenCV's area weights along one axis from ``src`` to ``dst`` pixels: (dst, n) source
    pixels and weights (read-only)."""
    scale = 1.0 / (dst / src)
    rows = []
    for d in range(dst):
        f1 = d * scale
        f2 = f1 + scale
        cell = min(scale, src - f1)
        s2 = min(math.floor(f2), src - 1)
        s1 = min(math.ceil(f1), s2)
        terms = []
        if s1 - f1 > 1e-3:
            terms.append((s1 - 1, (s1 - f1) / cell))
        terms += [(s, 1.0 / cell) for s in range(s1, s2)]
        if f2 - s2 > 1e-3:
            terms.append((s2, min(min(f2 - s2, 1.0), cell) / cell))
        rows.append(terms)
    n = max(len(t) for t in rows)
    index = np.array([[s for s, _ in t] + [t[-1][0]] * (n - len(t)) for t in rows], np.int64)
    weight = np.array([[a for _, a in t] + [0.0] * (n - len(t)) for t in rows], np.float32)
    for arr in (index, weight):
        arr.flags.writeable = False
    return index, weight


def area_rows(
    src: np.ndarray, dst: np.ndarray, xs: np.ndarray, xa: np.ndarray, ys: np.ndarray, ya: np.ndarray
) -> None:
    """``dst = cv2.resize(src, dst's size, interpolation=cv2.INTER_AREA)`` for (H, W, 3) uint8
    images, from :func:`area_table` of each axis (x: ``xs, xa``; y: ``ys, ya``): each source
    row's weighted sum per output column, then each output pixel the weighted sum of its rows'
    sums, float32 in OpenCV's order."""
    w, nx, ny = dst.shape[1], xs.shape[1], ys.shape[1]
    part = np.empty((w, 3), np.float32)
    acc = np.empty((w, 3), np.float32)
    zero = np.float32(0.0)
    for dy in range(dst.shape[0]):
        for t in range(ny):
            row = src[ys[dy, t]]
            for dx in range(w):
                p0 = p1 = p2 = zero
                for i in range(nx):
                    a, sx = xa[dx, i], xs[dx, i]
                    p0 = p0 + np.float32(row[sx, 0]) * a
                    p1 = p1 + np.float32(row[sx, 1]) * a
                    p2 = p2 + np.float32(row[sx, 2]) * a
                part[dx, 0], part[dx, 1], part[dx, 2] = p0, p1, p2
            beta = ya[dy, t]
            for dx in range(w):
                for c in range(3):
                    v = beta * part[dx, c]
                    acc[dx, c] = v if t == 0 else acc[dx, c] + v  # OpenCV starts from the first
        for dx in range(w):
            for c in range(3):
                r = np.rint(acc[dx, c])  # saturate_cast<uchar>: half to even, clamped
                dst[dy, dx, c] = 0 if r < 0 else (255 if r > 255 else np.uint8(r))


@lru_cache(maxsize=8)
def weighted_table(alpha: float, beta: float) -> np.ndarray:
    """``cv2.addWeighted(v, alpha, g, beta, 0)`` for every pair of bytes, as OpenCV gives it:
    a (256, 256) uint8 table indexed ``[g, v]`` (read-only; a pixel's three lookups share
    its grey ``g``, so they fall in one row)."""
    g = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 256, axis=1)
    out = cv2.addWeighted(g.T.copy(), alpha, g, beta, 0.0)
    out.flags.writeable = False
    return out


def grey_dim(frame: np.ndarray, table: np.ndarray) -> None:
    """Each channel ``v`` of each pixel of an (H, W, 3) uint8 ``frame`` becomes
    ``table[grey, v]``, its grey the fixed-point weighting of ``cv2.COLOR_RGB2GRAY``; in place."""
    half = 1 << (GREY_SHIFT - 1)
    for i in range(frame.shape[0]):
        for j in range(frame.shape[1]):
            r, g, b = np.int32(frame[i, j, 0]), np.int32(frame[i, j, 1]), np.int32(frame[i, j, 2])
            row = table[(r * GREY_R + g * GREY_G + b * GREY_B + half) >> GREY_SHIFT]
            frame[i, j, 0] = row[r]
            frame[i, j, 1] = row[g]
            frame[i, j, 2] = row[b]


def layer_ops(frame: np.ndarray, ops: np.ndarray, data: np.ndarray, tables: np.ndarray) -> None:
    """Every operation of a recorded ``layers.Layer`` in order, on ``frame`` in place (the
    ``layer`` kernel; see ``layers.Recorder`` for what each kind does)."""
    for n in range(ops.shape[0]):
        kind, y0, y1, x0, x1, off = ops[n, 0], ops[n, 1], ops[n, 2], ops[n, 3], ops[n, 4], ops[n, 5]
        c0, c1, c2 = ops[n, 6], ops[n, 7], ops[n, 8]
        if kind == SCALE:
            t = tables[c0]
            for i in range(y0, y1):
                for j in range(x0, x1):
                    for c in range(3):
                        frame[i, j, c] = t[frame[i, j, c]]
            continue
        if kind == FILL:
            for i in range(y0, y1):
                for j in range(x0, x1):
                    frame[i, j, 0], frame[i, j, 1], frame[i, j, 2] = c0, c1, c2
            continue
        w = x1 - x0
        for i in range(y0, y1):
            for j in range(x0, x1):
                a = np.uint16(data[off + (i - y0) * w + (j - x0)])
                if a == 0:
                    continue
                if kind == PAINT:
                    frame[i, j, 0], frame[i, j, 1], frame[i, j, 2] = c0, c1, c2
                    continue
                inv = np.uint16(255) - a  # text.blend_mask's rounding (jit._blend_mask)
                v0, v1, v2 = frame[i, j, 0], frame[i, j, 1], frame[i, j, 2]
                frame[i, j, 0] = (np.uint16(v0) * inv + np.uint16(c0) * a + 127) // 255
                frame[i, j, 1] = (np.uint16(v1) * inv + np.uint16(c1) * a + 127) // 255
                frame[i, j, 2] = (np.uint16(v2) * inv + np.uint16(c2) * a + 127) // 255
