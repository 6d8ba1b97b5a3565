"""Shared pieces of the billboard art: sizes in metres, the canvas and two filled shapes.

Shapes take positions and radii as fractions of the image, so art is resolution-free.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Pixels per metre of the painted art (upscaled with nearest-neighbour on screen).
PPM = 48

Color = tuple[int, int, int]

#: Size (width, height) in metres of each billboard kind.
SIZES: dict[str, tuple[float, float]] = {
    "person": (0.8, 1.85),
    "pine": (4.0, 9.0),
    "lying": (1.85, 0.45),
    "kneeling": (0.8, 1.3),
    "horse": (2.4, 1.75),
    "rider": (2.4, 2.65),
    "wolf": (1.5, 0.85),
    "crate": (0.9, 0.85),
    "supply": (0.6, 0.55),
    "hitch_post": (2.0, 1.1),
    "barrel": (0.7, 1.0),
    "campfire": (1.0, 0.7),
    "wagon": (3.4, 2.4),
    "shelf": (1.6, 2.0),
    "lamp": (0.35, 0.5),
    "drawer": (1.1, 0.95),
    "cupboard": (1.1, 1.9),
}


def canvas(kind: str) -> np.ndarray:
    w, h = SIZES[kind]
    return np.zeros((round(h * PPM), round(w * PPM), 4), np.uint8)


def rect(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, c: Color) -> None:
    """Filled rectangle in fractions of the image size."""
    h, w = img.shape[:2]
    cv2.rectangle(
        img, (round(x0 * w), round(y0 * h)), (round(x1 * w) - 1, round(y1 * h) - 1), (*c, 255), -1
    )


def ellipse(img: np.ndarray, cx: float, cy: float, rx: float, ry: float, c: Color) -> None:
    h, w = img.shape[:2]
    cv2.ellipse(
        img,
        (round(cx * w), round(cy * h)),
        (max(1, round(rx * w)), max(1, round(ry * h))),
        0,
        0,
        360,
        (*c, 255),
        -1,
    )
