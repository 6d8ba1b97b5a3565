"""Text for the RDR2 HUD: glyph coverage masks from a real font, blended into frames.

A string is rasterised once per (text, pixel size, weight) into an 8-bit coverage mask and kept
in a bounded cache, so a steady HUD costs one alpha blend per string per frame. The font is
DejaVu Sans when Pillow can find it, Pillow's bundled font otherwise, and OpenCV's Hershey
font when Pillow is missing. Fonts are looked up on first use, never at import.

Tests find drawn strings by rendering the same mask with :func:`mask` and template matching.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import cv2
import numpy as np

#: Below this pixel size text is not drawn (it would be an unreadable smear).
MIN_PX = 6


@lru_cache(maxsize=64)
def _font(px: int, bold: bool) -> Any:
    """A Pillow font of ``px`` pixels, or None when Pillow is not installed."""
    try:
        from PIL import ImageFont
    except ImportError:
        return None
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, px)
    except OSError:
        return ImageFont.load_default(size=px)


def _hershey_mask(s: str, px: int, bold: bool) -> np.ndarray:
    face = cv2.FONT_HERSHEY_DUPLEX if bold else cv2.FONT_HERSHEY_SIMPLEX
    scale = px / 30.0
    thick = max(1, round(px / (9 if bold else 14)))
    (w, h), base = cv2.getTextSize(s, face, scale, thick)
    img = np.zeros((h + base + 2 * thick, w + 2 * thick), np.uint8)
    cv2.putText(img, s, (thick, h + thick), face, scale, 255, thick, cv2.LINE_AA)
    return img


@lru_cache(maxsize=1024)
def mask(s: str, px: int, bold: bool = False) -> np.ndarray:
    """Coverage mask (h, w) uint8 of ``s`` at a font size of ``px`` pixels (read-only)."""
    px = max(1, int(px))
    font = _font(px, bold)
    if font is None:
        out = _hershey_mask(s, px, bold)
    else:
        from PIL import Image, ImageDraw

        x0, y0, x1, y1 = font.getbbox(s or " ")
        w, h = max(1, x1 - min(x0, 0)), max(1, y1 - min(y0, 0))
        img = Image.new("L", (w, h), 0)
        ImageDraw.Draw(img).text((-min(x0, 0), -min(y0, 0)), s, fill=255, font=font)
        out = np.asarray(img, np.uint8).copy()
    out.setflags(write=False)
    return out


def size(s: str, px: int, bold: bool = False) -> tuple[int, int]:
    """(width, height) in pixels of ``s`` drawn at ``px``."""
    m = mask(s, px, bold)
    return int(m.shape[1]), int(m.shape[0])


def fit_px(s: str, px: int, max_width: float, bold: bool = False) -> int:
    """The largest size <= ``px`` at which ``s`` is at most ``max_width`` pixels wide."""
    w, _ = size(s, px, bold)
    if w <= max_width:
        return px
    return max(1, int(px * max_width / w))


def clipped(
    m: np.ndarray, x: int, y: int, fh: int, fw: int
) -> tuple[int, int, int, int, np.ndarray] | None:
    """Mask ``m`` placed at top-left (x, y) on an (fh, fw) frame, cut to the frame: the box
    (x0, y0, x1, y1) it covers there and its part inside, or None when none is."""
    mh, mw = m.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + mw, fw), min(y + mh, fh)
    if x0 >= x1 or y0 >= y1:
        return None
    return x0, y0, x1, y1, m[y0 - y : y1 - y, x0 - x : x1 - x]


def coverage(m: np.ndarray, alpha: float) -> np.ndarray:
    """A coverage mask scaled by ``alpha`` as the blend takes it (uint16, truncated)."""
    a = m.astype(np.uint16)
    return (a * max(alpha, 0.0)).astype(np.uint16) if alpha < 1.0 else a


def blend_mask(
    frame: np.ndarray,
    m: np.ndarray,
    x: int,
    y: int,
    color: tuple[int, int, int],
    alpha: float = 1.0,
) -> None:
    """Blend ``color`` into ``frame`` through coverage mask ``m`` placed at top-left (x, y)."""
    cut = clipped(m, x, y, *frame.shape[:2])
    if cut is None:
        return
    x0, y0, x1, y1, mm = cut
    a = coverage(mm, alpha)[..., None]
    region = frame[y0:y1, x0:x1]
    col = np.asarray(color, np.uint16)
    region[:] = ((region * (255 - a) + col * a + 127) // 255).astype(np.uint8)


def draw(
    frame: np.ndarray,
    s: str,
    x: float,
    y: float,
    px: int,
    color: tuple[int, int, int] = (255, 255, 255),
    anchor: str = "lt",
    bold: bool = False,
    shadow: bool = True,
    alpha: float = 1.0,
) -> tuple[int, int, int, int]:
    """Draw ``s`` at (x, y); returns its box (x0, y0, x1, y1), or an empty box when too small.

    ``anchor`` is two letters: horizontal ``l``/``m``/``r`` then vertical ``t``/``m``/``b``,
    saying which point of the text's box lies at (x, y). ``shadow`` draws a dark copy one
    pixel down-right first, so text stays legible on bright snow and sky.
    """
    px = int(px)
    at = placed(s, x, y, px, anchor, bold)
    if at is None:
        return (int(x), int(y), int(x), int(y))
    m, x0, y0 = at
    if shadow:
        off = shadow_px(px)
        blend_mask(frame, m, x0 + off, y0 + off, SHADOW, 0.8 * alpha)
    blend_mask(frame, m, x0, y0, color, alpha)
    return (x0, y0, x0 + m.shape[1], y0 + m.shape[0])


#: The colour of a text's shadow; it is drawn at 0.8 of the text's alpha.
SHADOW = (0, 0, 0)


def shadow_px(px: int) -> int:
    """How far (pixels) down and right a shadow lies under text of ``px`` pixels."""
    return max(1, px // 14)


def placed(
    s: str, x: float, y: float, px: int, anchor: str = "lt", bold: bool = False
) -> tuple[np.ndarray, int, int] | None:
    """Where :func:`draw` puts ``s``: its coverage mask and top-left pixel, or None when it
    draws nothing (empty, or smaller than :data:`MIN_PX`)."""
    if px < MIN_PX or not s:
        return None
    m = mask(s, px, bold)
    h, w = m.shape
    hx = {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]]
    vy = {"t": 0.0, "m": 0.5, "b": 1.0}[anchor[1]]
    return m, round(x - hx * w), round(y - vy * h)
