"""Drawing helpers shared by the screens: a canvas at any size, text that fits, buttons.

Positions are :class:`~gcc_envs.games.dealers_life2.sim.layout.Rect` fractions or reference
pixels (1280x720) scaled to the frame; text sizes are at 720p and scale with
``min(H / 720, W / 1280)``, so a frame of any size shows the same screen.
"""

from __future__ import annotations

import cv2
import numpy as np

from gcc_envs.games.dealers_life2.sim.layout import REF_H, REF_W, RGB, C, Rect

FONT = cv2.FONT_HERSHEY_DUPLEX
#: Below this text scale nothing legible can be drawn (tiny frames skip the text).
MIN_SCALE = 0.14


class Canvas:
    """An RGB frame and its scale; draws in reference coordinates."""

    def __init__(self, img: np.ndarray) -> None:
        self.img = img
        self.h, self.w = img.shape[:2]
        self.sx, self.sy = self.w / REF_W, self.h / REF_H
        self.s = min(self.sx, self.sy)

    def box(self, r: Rect) -> tuple[int, int, int, int]:
        return r.at(self.w, self.h)

    def pt(self, x: float, y: float) -> tuple[int, int]:
        return (int(round(x * self.sx)), int(round(y * self.sy)))

    def fill(self, r: Rect, color: RGB, border: RGB | None = None, width: float = 2.0) -> None:
        x0, y0, x1, y1 = self.box(r)
        if x1 > x0 and y1 > y0:
            cv2.rectangle(self.img, (x0, y0), (x1 - 1, y1 - 1), color, -1)
        if border is not None and x1 - x0 > 2 and y1 - y0 > 2:
            t = max(1, int(round(width * self.s)))
            cv2.rectangle(self.img, (x0, y0), (x1 - 1, y1 - 1), border, t)

    def text_size(self, s: str, size: float, bold: bool = False) -> tuple[int, int]:
        sc = size * self.s
        (w, h), _ = cv2.getTextSize(s, FONT, sc, self.thick(bold))
        return w, h

    def thick(self, bold: bool) -> int:
        return max(1, int(round((2.0 if bold else 1.0) * max(self.s, 0.5))))

    def text(
        self,
        s: str,
        x: float,
        y: float,
        size: float = 0.7,
        color: RGB = C.INK,
        bold: bool = False,
        anchor: str = "l",
        max_w: float | None = None,
    ) -> None:
        """Write ``s`` with its baseline at reference (x, y); shrink or cut it to ``max_w``."""
        sc = size * self.s
        if sc < MIN_SCALE or not s:
            return
        t = self.thick(bold)
        (w, _), _ = cv2.getTextSize(s, FONT, sc, t)
        if max_w is not None:
            limit = max_w * self.sx
            if w > limit:
                sc = max(sc * 0.8, sc * limit / max(w, 1))
                (w, _), _ = cv2.getTextSize(s, FONT, sc, t)
                base = s
                while w > limit and len(base) > 1:
                    base = base[:-1]
                    s = base.rstrip() + "..."
                    (w, _), _ = cv2.getTextSize(s, FONT, sc, t)
        px, py = self.pt(x, y)
        if anchor == "c":
            px -= w // 2
        elif anchor == "r":
            px -= w
        cv2.putText(self.img, s, (px, py), FONT, sc, color, t, cv2.LINE_AA)

    def legible(self, size: float) -> bool:
        """Whether text of ``size`` is drawn at this frame size at all."""
        return size * self.s >= MIN_SCALE

    def text_in(self, r: Rect, s: str, size: float, color: RGB, bold: bool = True) -> None:
        """``s`` centred in ``r``."""
        if not self.legible(size):
            return
        x0, y0, x1, y1 = r.x0 * REF_W, r.y0 * REF_H, r.x1 * REF_W, r.y1 * REF_H
        _, h = self.text_size(s, size, bold)
        base = (y0 + y1) / 2 + h / self.sy / 2 if self.sy else y1
        self.text(s, (x0 + x1) / 2, base, size, color, bold, "c", max_w=(x1 - x0) * 0.94)

    def button(self, r: Rect, fill: RGB, label: str, size: float = 0.8, ink: RGB = C.WHITE) -> None:
        """A flat button of an exact fill colour with a dark rim outside it."""
        x0, y0, x1, y1 = self.box(r)
        t = max(1, int(round(2 * self.s)))
        cv2.rectangle(self.img, (x0 - t, y0 - t), (x1 - 1 + t, y1 - 1 + t), C.SHADE, t)
        if x1 > x0 and y1 > y0:
            cv2.rectangle(self.img, (x0, y0), (x1 - 1, y1 - 1), fill, -1)
        self.text_in(r, label, size, ink)

    def dim(self) -> None:
        """Darken everything drawn so far (a page or dialog is opened over it)."""
        np.right_shift(self.img, 1, out=self.img)


def money(v: float) -> str:
    """``$1,234`` (negative: ``-$1,234``)."""
    v = int(round(v))
    return f"-${-v:,}" if v < 0 else f"${v:,}"


def wrap(s: str, size: float, max_w: float, bold: bool = False) -> list[str]:
    """Split ``s`` into lines no wider than ``max_w`` reference pixels."""
    words, lines, cur = s.split(), [], ""
    t = 2 if bold else 1  # measured at 720p: text scales with the frame
    for w in words:
        trial = f"{cur} {w}".strip()
        if cv2.getTextSize(trial, FONT, size, t)[0][0] > max_w and cur:
            lines.append(cur)
            cur = w
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return lines
