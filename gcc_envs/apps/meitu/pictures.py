"""The Meitu twin's pictures, drawn from a seed: pure functions returning arrays (RGB, uint8).

``person_picture``: a person-shaped figure (head, neck, body, arms) on a plain background
with mild noise, and the figure's mask — what the cutout checker measures the saved alpha
against. ``photo``: a small landscape (sky, sun, hills) for filters, frames and collages.
``scene``: a muted landscape with one subject a person names by colour and kind ("the red
boat"): a boat, a house or a balloon in a saturated colour. ``sticker``: RGBA stickers (a
flower, a heart, a star, a sun, a drop) with transparent surroundings.
"""

from __future__ import annotations

import cv2
import numpy as np

SIZE = (480, 360)  # (W, H): small enough that GIMP shows it at 100 % on a 1280x800 screen
STICKERS = ("flower", "heart", "star", "sun", "drop")
#: The scenes' subjects: their colours (RGB) by name, and their kinds.
COLOURS = {"red": (215, 35, 35), "blue": (35, 75, 215), "yellow": (240, 200, 30),
           "purple": (140, 50, 190)}  # fmt: skip
SUBJECTS = ("boat", "house", "balloon")


def person_picture(rng: np.random.Generator, size: tuple[int, int] = SIZE):
    """``(rgb, mask)``: a figure of a person on a plain background (mask: uint8 0/255)."""
    W, H = size
    bg = np.array(rng.integers(150, 235, 3), np.int16)
    img = np.empty((H, W, 3), np.int16)
    img[:] = bg
    img += rng.integers(-3, 4, (H, W, 1), dtype=np.int16)
    mask = np.zeros((H, W), np.uint8)
    cx = int(rng.integers(W // 3, 2 * W // 3))
    head_r = int(rng.integers(26, 34))
    top = int(rng.integers(40, 70))
    cy = top + head_r
    cv2.circle(mask, (cx, cy), head_r, 255, -1)
    cv2.rectangle(mask, (cx - 10, cy + head_r - 4), (cx + 10, cy + head_r + 14), 255, -1)
    body_w = int(rng.integers(44, 60))
    cv2.ellipse(mask, (cx, H), (body_w + 18, H - cy - head_r - 10), 0, 180, 360, 255, -1)
    for side in (-1, 1):
        x0 = cx + side * (body_w + 8)
        cv2.line(mask, (cx + side * body_w // 2, cy + head_r + 30), (x0, H - 40), 255, 18)
    shirt = np.array(rng.integers(20, 110, 3), np.int16)
    skin = np.array((224, 172, 140), np.int16)
    person = np.where(np.arange(H)[:, None, None] < cy + head_r, skin, shirt)
    img = np.where(mask[..., None] > 0, person, img)
    return np.clip(img, 0, 255).astype(np.uint8), mask


def photo(rng: np.random.Generator, size: tuple[int, int] = SIZE) -> np.ndarray:
    """A landscape: a sky gradient, a sun, two hills (each seed its own colours and places)."""
    W, H = size
    sky_top, sky_low = rng.integers(60, 200, 3), rng.integers(150, 255, 3)
    t = np.linspace(0, 1, H)[:, None, None]
    img = ((1 - t) * sky_top + t * sky_low) * np.ones((1, W, 1))
    img = img.astype(np.uint8)
    cv2.circle(img, (int(rng.integers(40, W - 40)), int(rng.integers(30, H // 3))),
               int(rng.integers(18, 36)), (255, 220, 90), -1)  # fmt: skip
    for k in range(2):
        colour = tuple(int(c) for c in rng.integers(20, 140, 3))
        centre = (int(rng.integers(0, W)), H + int(rng.integers(20, 80)))
        cv2.ellipse(img, centre, (int(rng.integers(W // 3, W)), H // 2 + 30 * k), 0, 180, 360,
                    colour, -1)  # fmt: skip
    return img


def scene(
    rng: np.random.Generator, colour: str, subject: str, size: tuple[int, int] = SIZE
) -> np.ndarray:
    """A muted landscape (greyish sky and hills, a pale sun) with one ``subject`` of
    :data:`SUBJECTS` in ``colour`` (a name of :data:`COLOURS`) at a seeded place and size."""
    W, H = size
    g = int(rng.integers(150, 215))
    t = np.linspace(0, 1, H)[:, None, None]
    sky_top, sky_low = np.array((g - 25, g - 10, g + 5)), np.array((g + 10, g + 15, g + 20))
    img = np.clip(((1 - t) * sky_top + t * sky_low) * np.ones((1, W, 1)), 0, 255).astype(np.uint8)
    cv2.circle(img, (int(rng.integers(40, W - 40)), int(rng.integers(30, H // 4))),
               int(rng.integers(14, 26)), (245, 240, 222), -1)  # fmt: skip
    for k in range(2):
        h = int(rng.integers(70, 120))
        tone = (h, h + 20, h - 5)
        centre = (int(rng.integers(0, W)), H + int(rng.integers(20, 80)))
        cv2.ellipse(img, centre, (int(rng.integers(W // 3, W)), H // 2 + 30 * k), 0, 180, 360,
                    tone, -1)  # fmt: skip
    rgb = COLOURS[colour]
    s = int(rng.integers(44, 70))
    x = int(rng.integers(int(1.5 * s), W - int(1.5 * s)))
    y = int(rng.integers(int(1.3 * s), H - int(0.8 * s)))
    dark = (70, 50, 40)
    if subject == "boat":  # a wide hull, a mast and a white sail
        hull = [
            (x - 1.3 * s, y),
            (x + 1.3 * s, y),
            (x + 0.9 * s, y + 0.5 * s),
            (x - 0.9 * s, y + 0.5 * s),
        ]
        cv2.line(img, (x, y), (x, y - int(1.1 * s)), dark, 3)
        sail = [(x + 3, y - 1.05 * s), (x + 3, y - 6), (x + 0.8 * s, y - 6)]
        cv2.fillPoly(img, [np.array(sail, np.int32)], (250, 250, 245))
        cv2.fillPoly(img, [np.array(hull, np.int32)], rgb)
    elif subject == "house":  # square walls, a dark roof
        cv2.rectangle(img, (x - s // 2, y - s // 2), (x + s // 2, y + s // 2), rgb, -1)
        roof = [(x - s // 2 - 6, y - s // 2), (x + s // 2 + 6, y - s // 2), (x, y - s)]
        cv2.fillPoly(img, [np.array(roof, np.int32)], dark)
    elif subject == "balloon":  # a round envelope, ropes, a basket
        r = s // 2
        for dx in (-r // 2, r // 2):
            cv2.line(img, (x + dx, y + r - 4), (x + dx // 3, y + r + 16), dark, 1)
        cv2.rectangle(img, (x - 8, y + r + 14), (x + 8, y + r + 26), dark, -1)
        cv2.circle(img, (x, y), r, rgb, -1)
    else:
        raise ValueError(f"unknown subject {subject!r}; known {SUBJECTS}")
    return img


def sticker(kind: str, size: int = 96) -> np.ndarray:
    """An RGBA sticker of ``kind`` (one of :data:`STICKERS`), transparent around the shape."""
    rgba = np.zeros((size, size, 4), np.uint8)
    c = size // 2
    if kind == "flower":
        for k in range(6):
            a = k * np.pi / 3
            p = (int(c + 0.27 * size * np.cos(a)), int(c + 0.27 * size * np.sin(a)))
            cv2.circle(rgba, p, size // 5, (235, 90, 160, 255), -1)
        cv2.circle(rgba, (c, c), size // 6, (250, 210, 40, 255), -1)
    elif kind == "heart":
        r = size // 4
        cv2.circle(rgba, (c - r + 4, c - r // 2), r, (210, 30, 50, 255), -1)
        cv2.circle(rgba, (c + r - 4, c - r // 2), r, (210, 30, 50, 255), -1)
        pts = np.array([[c - 2 * r + 5, c - r // 4], [c + 2 * r - 5, c - r // 4], [c, size - 8]])
        cv2.fillPoly(rgba, [pts.astype(np.int32)], (210, 30, 50, 255))
    elif kind == "star":
        ang = np.arange(10) * np.pi / 5 - np.pi / 2
        rad = np.where(np.arange(10) % 2 == 0, 0.46 * size, 0.19 * size)
        pts = np.stack([c + rad * np.cos(ang), c + rad * np.sin(ang)], 1).astype(np.int32)
        cv2.fillPoly(rgba, [pts], (250, 190, 20, 255))
    elif kind == "sun":
        for k in range(12):
            a = k * np.pi / 6
            p = (int(c + 0.45 * size * np.cos(a)), int(c + 0.45 * size * np.sin(a)))
            cv2.line(rgba, (c, c), p, (250, 140, 30, 255), 5)
        cv2.circle(rgba, (c, c), size // 4, (250, 140, 30, 255), -1)
    elif kind == "drop":
        r = size // 4
        cv2.circle(rgba, (c, c + r // 2), r + 4, (60, 160, 230, 255), -1)
        pts = np.array([[c - r - 2, c + r // 2 - 6], [c + r + 2, c + r // 2 - 6], [c, 6]])
        cv2.fillPoly(rgba, [pts.astype(np.int32)], (60, 160, 230, 255))
    else:
        raise ValueError(f"unknown sticker {kind!r}; known {STICKERS}")
    return rgba
