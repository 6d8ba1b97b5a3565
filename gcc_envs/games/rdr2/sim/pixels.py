"""Packed pixels: one uint32 per RGB(A) pixel, so texture gathers move one word, not 3 bytes.

The 3D view is drawn into an (H, W) uint32 canvas whose bytes are R, G, B, A in memory order
(independent of the machine's endianness, since packing and unpacking both go through byte
views), then unpacked once into the (H, W, 3) RGB frame.

>>> rgb = np.array([[[10, 20, 30]]], np.uint8)
>>> unpack(pack(rgb)).tolist()
[[[10, 20, 30]]]
"""

from __future__ import annotations

import cv2
import numpy as np


def pack(rgb: np.ndarray, alpha: np.ndarray | None = None) -> np.ndarray:
    """(..., 3) uint8 RGB (and optional (...) alpha) -> (...) uint32."""
    out = np.empty(rgb.shape[:-1] + (4,), np.uint8)
    out[..., :3] = rgb
    out[..., 3] = 255 if alpha is None else alpha
    return out.view(np.uint32)[..., 0]


def color(c: tuple[int, int, int]) -> np.uint32:
    """One packed opaque colour."""
    return pack(np.asarray(c, np.uint8)[None])[0]


def alpha(packed: np.ndarray) -> np.ndarray:
    """The alpha bytes of packed pixels (a view)."""
    return packed[..., None].view(np.uint8)[..., 3]


def unpack(canvas: np.ndarray) -> np.ndarray:
    """(H, W) uint32 -> a fresh C-contiguous (H, W, 3) uint8 RGB array."""
    h, w = canvas.shape
    return cv2.cvtColor(
        np.ascontiguousarray(canvas).view(np.uint8).reshape(h, w, 4), cv2.COLOR_RGBA2RGB
    )
