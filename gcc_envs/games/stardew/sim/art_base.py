"""Pixel-art helpers: a 16 px canvas, colours, hashed texture noise and outlines.

Painters draw float32 RGBA images at the real game's 16 px per tile; ``sprites.py`` scales them
to the render's tile size. Textures come from a fixed hash of the pixel coordinates, so every
run draws the same pixels (no random generator involved).
"""

from __future__ import annotations

import cv2
import numpy as np

B = 16
Color = tuple[float, ...]


def noise(h: int, w: int, seed: int) -> np.ndarray:
    """Deterministic per-pixel noise in [0, 1)."""
    y, x = np.mgrid[0:h, 0:w].astype(np.int64)
    n = (x * 374761393 + y * 668265263 + seed * 1442695041) & 0xFFFFFFFF
    n = ((n ^ (n >> 13)) * 1274126177) & 0xFFFFFFFF
    return ((n ^ (n >> 16)) & 0xFFFF).astype(np.float32) / 65536.0


def canvas(h: int = B, w: int = B) -> np.ndarray:
    return np.zeros((h, w, 4), np.float32)


def rgba(color: Color, f: float = 1.0, a: float = 255.0) -> tuple[float, float, float, float]:
    return (min(color[0] * f, 255.0), min(color[1] * f, 255.0), min(color[2] * f, 255.0), a)


def fill(img: np.ndarray, color: Color, f: float = 1.0) -> np.ndarray:
    img[...] = rgba(color, f)
    return img


def rect(img: np.ndarray, x0: int, y0: int, x1: int, y1: int, color: Color, f: float = 1.0) -> None:
    """Fill pixels x0 <= x < x1, y0 <= y < y1."""
    img[max(y0, 0) : y1, max(x0, 0) : x1] = rgba(color, f)


def textured(color: Color, seed: int, lo: float = 0.9, hi: float = 1.1) -> np.ndarray:
    img = canvas()
    n = noise(B, B, seed)[..., None]
    img[..., :3] = np.minimum(np.asarray(color, np.float32) * (lo + (hi - lo) * n), 255)
    img[..., 3] = 255
    return img


def speckle(img: np.ndarray, color: Color, seed: int, thresh: float, f: float) -> None:
    mask = noise(img.shape[0], img.shape[1], seed) > thresh
    img[mask] = rgba(color, f)


def outline(img: np.ndarray, color: Color = (40, 28, 20)) -> np.ndarray:
    """Dark one-pixel outline around the opaque part of a sprite."""
    mask = (img[..., 3] > 0).astype(np.uint8)
    grown = cv2.dilate(mask, np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8))
    img[(grown > 0) & (mask == 0)] = rgba(color)
    return img
