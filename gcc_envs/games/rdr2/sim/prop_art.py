"""Billboard art of things: fir trees and props (crates, sacks, hitching posts, furniture)."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim.art_shapes import canvas, ellipse, rect


@lru_cache(maxsize=4)
def pine(snow: bool) -> np.ndarray:
    """A fir tree: a trunk and five stacked tiers of needles, snow on each tier's top."""
    img = canvas("pine")
    h, w = img.shape[:2]
    rect(img, 0.45, 0.8, 0.55, 1.0, (78, 52, 34))
    rng = np.random.default_rng(7)
    for k in range(5):
        top, bottom = 0.02 + 0.16 * k, 0.26 + 0.145 * k
        half = 0.16 + 0.085 * k
        pts = np.array(
            [[0.5 * w, top * h], [(0.5 + half) * w, bottom * h], [(0.5 - half) * w, bottom * h]]
        )
        shade = (36 + 6 * k, 70 + 8 * k, 46 + 4 * k)
        cv2.fillPoly(img, [np.round(pts).astype(np.int32)], (*shade, 255))
        if snow:
            sp = np.array(
                [
                    [0.5 * w, top * h],
                    [(0.5 + half * 0.7) * w, (top + 0.7 * (bottom - top)) * h],
                    [(0.5 - half * 0.5) * w, (top + 0.5 * (bottom - top)) * h],
                ]
            )
            cv2.fillPoly(img, [np.round(sp).astype(np.int32)], (226, 232, 240, 255))
    speck = (rng.random((h, w)) < 0.08) & (img[..., 3] > 0) & (img[..., 0] < 100)
    img[speck, :3] = (img[speck, :3] * 0.7).astype(np.uint8)
    return img


@lru_cache(maxsize=32)
def prop(kind: str, used: bool = False) -> np.ndarray:
    """A prop; ``used`` shows it opened / looted (darker, lid off)."""
    img = canvas(kind)
    wood, dark = (150, 108, 64), (92, 62, 36)
    if used:
        wood = tuple(int(c * 0.7) for c in wood)
    if kind == "crate":
        rect(img, 0.0, 0.0 if not used else 0.2, 1.0, 1.0, wood)
        for a in (0.0, 0.45, 0.9):
            rect(img, 0.0, a if not used else max(a, 0.2), 1.0, a + 0.1, dark)
        rect(img, 0.0, 0.0, 0.1, 1.0, dark)
        rect(img, 0.9, 0.0, 1.0, 1.0, dark)
    elif kind == "supply":
        ellipse(img, 0.5, 0.6, 0.45, 0.4, (196, 176, 130))
        rect(img, 0.4, 0.1, 0.6, 0.28, (150, 130, 96))
        rect(img, 0.3, 0.55, 0.7, 0.62, (120, 40, 30))
    elif kind == "hitch_post":
        rect(img, 0.05, 0.0, 0.13, 1.0, dark)
        rect(img, 0.87, 0.0, 0.95, 1.0, dark)
        rect(img, 0.0, 0.08, 1.0, 0.2, wood)
    elif kind == "barrel":
        rect(img, 0.05, 0.0, 0.95, 1.0, wood)
        for a in (0.12, 0.85):
            rect(img, 0.0, a, 1.0, a + 0.06, (70, 70, 74))
    elif kind == "campfire":
        rect(img, 0.05, 0.75, 0.95, 0.95, dark)
        ellipse(img, 0.5, 0.55, 0.25, 0.4, (240, 140, 40))
        ellipse(img, 0.5, 0.65, 0.13, 0.25, (255, 220, 110))
    elif kind == "wagon":
        rect(img, 0.05, 0.35, 0.95, 0.72, wood)
        ellipse(img, 0.5, 0.38, 0.42, 0.33, (226, 218, 196))  # canvas cover
        rect(img, 0.05, 0.38, 0.95, 0.72, wood)
        for cx in (0.22, 0.78):
            ellipse(img, cx, 0.8, 0.1, 0.19, (50, 36, 24))
            ellipse(img, cx, 0.8, 0.06, 0.11, wood)
    elif kind in ("shelf", "cupboard"):
        rect(img, 0.0, 0.0, 1.0, 1.0, dark)
        rows = 4 if kind == "shelf" else 2
        for r in range(rows):
            y = 0.06 + r / rows
            rect(
                img,
                0.06,
                y,
                0.94,
                y + 1.0 / rows - 0.1,
                (40, 28, 18) if used or kind == "shelf" else wood,
            )
            if kind == "shelf" and not used:
                for k in range(3):
                    rect(
                        img,
                        0.12 + 0.28 * k,
                        y + 0.08,
                        0.30 + 0.28 * k,
                        y + 1.0 / rows - 0.1,
                        ((170, 60, 40), (60, 110, 160), (200, 180, 90))[k],
                    )
    elif kind == "drawer":
        rect(img, 0.0, 0.0, 1.0, 1.0, dark)
        for r in range(3):
            y = 0.06 + 0.31 * r
            rect(img, 0.06, y, 0.94, y + 0.26, wood)
            rect(img, 0.45, y + 0.1, 0.55, y + 0.15, (210, 180, 90))
        if used:
            rect(img, 0.06, 0.06, 0.94, 0.32, (30, 20, 14))
    elif kind == "lamp":
        rect(img, 0.3, 0.7, 0.7, 1.0, (60, 50, 40))
        ellipse(img, 0.5, 0.45, 0.35, 0.3, (255, 214, 120))
    else:
        rect(img, 0.0, 0.0, 1.0, 1.0, wood)
    return img
