"""Text for the city's screens: strings rasterised once into coverage masks, then blended.

DejaVu Sans through Pillow when it is there (it has the ₡ and ³ glyphs), Pillow's own font
otherwise; looked up on first use, never at import. Below :data:`MIN_PX` nothing is drawn (an
unreadable smear helps nobody, and tiny frames stay fast).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

MIN_PX = 7
RGB = tuple[int, int, int]


@lru_cache(maxsize=16)
def _font(px: int, bold: bool) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", px)
    except OSError:
        return ImageFont.load_default(size=px)


@lru_cache(maxsize=2048)
def mask(s: str, px: int, bold: bool = False) -> np.ndarray:
    """Coverage (h, w) uint8 of ``s`` at ``px`` pixels; the box starts at the text's top."""
    from PIL import Image, ImageDraw

    font = _font(max(1, int(px)), bold)
    x0, y0, x1, y1 = font.getbbox(s or " ")
    ascent = font.getbbox("Ag")[1]
    w, h = max(1, x1 - min(x0, 0)), max(1, max(y1, font.getbbox("Agy")[3]) - ascent)
    img = Image.new("L", (w, h), 0)
    ImageDraw.Draw(img).text((-min(x0, 0), -ascent), s, fill=255, font=font)
    out = np.asarray(img, np.uint8).copy()
    out.setflags(write=False)
    return out


def size(s: str, px: int, bold: bool = False) -> tuple[int, int]:
    """(width, height) of ``s`` at ``px`` (0, 0 below :data:`MIN_PX`)."""
    if px < MIN_PX:
        return (0, 0)
    m = mask(s, int(px), bold)
    return int(m.shape[1]), int(m.shape[0])


def fit(s: str, px: int, width: float, bold: bool = False) -> int:
    """The largest size <= ``px`` at which ``s`` fits in ``width`` pixels."""
    w, _ = size(s, px, bold)
    if w <= width or w == 0:
        return int(px)
    return max(1, int(px * width / w))


def draw(
    img: np.ndarray,
    s: str,
    x: float,
    y: float,
    px: int,
    rgb: RGB,
    bold: bool = False,
    anchor: str = "lt",
    shadow: RGB | None = None,
) -> tuple[int, int]:
    """Blend ``s`` into ``img`` in place; ``anchor`` is "l"/"c"/"r" + "t"/"m" for (x, y).

    Returns the drawn (width, height).
    """
    px = int(px)
    if px < MIN_PX or not s:
        return (0, 0)
    m = mask(s, px, bold)
    h, w = m.shape
    x0 = int(round(x - (w / 2 if anchor[0] == "c" else w if anchor[0] == "r" else 0)))
    y0 = int(round(y - (h / 2 if anchor[1] == "m" else 0)))
    if shadow is not None:
        _blend(img, m, x0 + 1, y0 + 1, shadow)
    _blend(img, m, x0, y0, rgb)
    return (w, h)


def _blend(img: np.ndarray, m: np.ndarray, x0: int, y0: int, rgb: RGB) -> None:
    H, W = img.shape[:2]
    h, w = m.shape
    a0, b0 = max(0, -y0), max(0, -x0)
    a1, b1 = min(h, H - y0), min(w, W - x0)
    if a1 <= a0 or b1 <= b0:
        return
    region = img[y0 + a0 : y0 + a1, x0 + b0 : x0 + b1]
    alpha = m[a0:a1, b0:b1, None].astype(np.uint16)
    colour = np.array(rgb, np.uint16)
    region[:] = ((region * (255 - alpha) + colour * alpha + 127) // 255).astype(np.uint8)
