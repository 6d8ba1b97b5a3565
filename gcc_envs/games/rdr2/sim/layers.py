"""Screen layers recorded once and replayed in one compiled pass: the panels, text, lines and
fills of the pause menu and of the HUD's text, over whatever view lies behind them.

A :class:`Recorder` takes the same drawing calls the screens make (:func:`panel`,
``text.draw``, a filled rectangle, ``cv2.line``) and keeps each twice: as the call itself,
which :func:`replay` makes in order where numba is missing, and as rows of one table for
:func:`layer_ops` (compiled where numba is installed), which does each operation's per-pixel
arithmetic as the call does it (a panel is ``cv2.convertScaleAbs``' own table of 256 bytes; text blends
through its clipped coverage mask with the uint16 rounding of ``text.blend_mask``; a line is
the pixels ``cv2.line`` sets). A layer depends only on what it shows, so callers keep it by
that (the frame behind it varies). ``tests/games/rdr2/test_layers_rdr2.py`` checks the kernel
against the calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim import jit, text

Color = tuple[int, int, int]
#: Operation kinds of a :class:`Layer`: a byte map, a blend through coverage, a fill, a mask
#: painted in one colour.
SCALE, BLEND, FILL, PAINT = 0, 1, 2, 3


@dataclass(frozen=True, eq=False)  # (compared by identity: it holds arrays)
class Layer:
    """Operations over an (h, w) frame: ``calls`` to make in order, and the same as ``ops``
    rows (kind, y0, y1, x0, x1, offset into ``data``, then a colour, or for SCALE the row of
    ``tables`` and two zeros)."""

    h: int
    w: int
    calls: tuple[Callable[[np.ndarray], object], ...]
    ops: np.ndarray  # (n, 9) int64
    data: np.ndarray  # uint8: coverage (BLEND), pixel masks (PAINT)
    tables: np.ndarray  # (k, 256) uint8: SCALE's byte maps


def panel(frame: np.ndarray, x0: int, y0: int, x1: int, y1: int, alpha: float = 0.6) -> None:
    """Darken a rectangle (a translucent black panel)."""
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x0 < x1 and y0 < y1:
        region = frame[y0:y1, x0:x1]
        region[:] = cv2.convertScaleAbs(region, alpha=1.0 - alpha)


@lru_cache(maxsize=8)
def _scale_table(k: float) -> np.ndarray:
    """``cv2.convertScaleAbs(v, alpha=k)`` for every byte ``v``."""
    return cv2.convertScaleAbs(np.arange(256, dtype=np.uint8)[None, :], alpha=k)[0]


class Recorder:
    """Collects a layer's operations for an (h, w) frame, in drawing order."""

    def __init__(self, h: int, w: int) -> None:
        self.h, self.w = h, w
        self._calls: list[Callable[[np.ndarray], object]] = []
        self._ops: list[tuple[int, ...]] = []
        self._data: list[np.ndarray] = []
        self._tables: list[np.ndarray] = []
        self._size = 0

    def _op(
        self, kind: int, y0: int, y1: int, x0: int, x1: int, data: np.ndarray | None, c: Color
    ) -> None:
        off = self._size
        if data is not None:
            flat = np.ascontiguousarray(data, np.uint8).reshape(-1)
            self._data.append(flat)
            self._size += flat.size
        self._ops.append((kind, y0, y1, x0, x1, off, int(c[0]), int(c[1]), int(c[2])))

    def panel(self, x0: int, y0: int, x1: int, y1: int, alpha: float = 0.6) -> None:
        """:func:`panel`: darken a rectangle."""
        self._calls.append(lambda f: panel(f, x0, y0, x1, y1, alpha))
        cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(self.w, x1), min(self.h, y1)
        if cx0 < cx1 and cy0 < cy1:
            self._tables.append(_scale_table(1.0 - alpha))
            self._op(SCALE, cy0, cy1, cx0, cx1, None, (len(self._tables) - 1, 0, 0))

    def fill(self, x0: int, y0: int, x1: int, y1: int, color: Color) -> None:
        """``frame[y0:y1, x0:x1] = color`` (bounds >= 0: a negative one would count from the
        far edge there)."""
        if min(x0, y0, x1, y1) < 0:
            raise ValueError(f"fill bounds must be >= 0, got {(x0, y0, x1, y1)}")
        self._calls.append(lambda f: _fill(f, x0, y0, x1, y1, color))
        cy1, cx1 = min(y1, self.h), min(x1, self.w)
        if x0 < cx1 and y0 < cy1:
            self._op(FILL, y0, cy1, x0, cx1, None, color)

    def line(self, p0: tuple[int, int], p1: tuple[int, int], color: Color, thickness: int) -> None:
        """``cv2.line`` (8-connected, not anti-aliased)."""
        self._calls.append(lambda f: cv2.line(f, p0, p1, color, thickness))
        drawn = cv2.line(np.zeros((self.h, self.w), np.uint8), p0, p1, 255, thickness)
        ys, xs = np.nonzero(drawn)
        if len(ys):
            y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
            self._op(PAINT, y0, y1, x0, x1, drawn[y0:y1, x0:x1], color)

    def text(
        self,
        s: str,
        x: float,
        y: float,
        px: int,
        color: Color = (255, 255, 255),
        anchor: str = "lt",
        bold: bool = False,
        shadow: bool = True,
        alpha: float = 1.0,
    ) -> tuple[int, int, int, int]:
        """``text.draw``; returns the box it returns."""
        self._calls.append(lambda f: text.draw(f, s, x, y, px, color, anchor, bold, shadow, alpha))
        at = text.placed(s, x, y, int(px), anchor, bold)
        if at is None:
            return (int(x), int(y), int(x), int(y))
        m, x0, y0 = at
        if shadow:
            off = text.shadow_px(int(px))
            self._blend(m, x0 + off, y0 + off, text.SHADOW, 0.8 * alpha)
        self._blend(m, x0, y0, color, alpha)
        return (x0, y0, x0 + m.shape[1], y0 + m.shape[0])

    def _blend(self, m: np.ndarray, x: int, y: int, color: Color, alpha: float) -> None:
        """``text.blend_mask``'s clipping and alpha, worked out here once."""
        cut = text.clipped(m, x, y, self.h, self.w)
        if cut is not None:
            x0, y0, x1, y1, mm = cut
            self._op(BLEND, y0, y1, x0, x1, text.coverage(mm, alpha), color)

    def layer(self) -> Layer:
        ops = np.array(self._ops, np.int64).reshape(-1, 9)
        data = np.concatenate(self._data) if self._data else np.zeros(1, np.uint8)
        tables = np.array(self._tables, np.uint8).reshape(-1, 256)
        for a in (ops, data, tables):
            a.flags.writeable = False
        return Layer(self.h, self.w, tuple(self._calls), ops, data, tables)


def _fill(frame: np.ndarray, x0: int, y0: int, x1: int, y1: int, color: Color) -> None:
    frame[y0:y1, x0:x1] = color


def replay(frame: np.ndarray, layer: Layer) -> None:
    """Draw ``layer`` on an (h, w, 3) uint8 ``frame`` in place."""
    if frame.shape[:2] != (layer.h, layer.w):
        raise ValueError(f"a layer for {layer.h}x{layer.w} cannot go on a {frame.shape} frame")
    compiled = jit.compiled(layer_ops)
    if compiled is None:
        for call in layer.calls:
            call(frame)
        return
    compiled(frame, layer.ops, layer.data, layer.tables)


def layer_ops(frame: np.ndarray, ops: np.ndarray, data: np.ndarray, tables: np.ndarray) -> None:
    """Every operation of a recorded ``layers.Layer`` in order, on ``frame`` in place (compiled
    by :func:`replay`; see :class:`Recorder` for what each kind does)."""
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
                inv = np.uint16(255) - a  # text.blend_mask's rounding (text._blend_mask)
                v0, v1, v2 = frame[i, j, 0], frame[i, j, 1], frame[i, j, 2]
                frame[i, j, 0] = (np.uint16(v0) * inv + np.uint16(c0) * a + 127) // 255
                frame[i, j, 1] = (np.uint16(v1) * inv + np.uint16(c1) * a + 127) // 255
                frame[i, j, 2] = (np.uint16(v2) * inv + np.uint16(c2) * a + 127) // 255
