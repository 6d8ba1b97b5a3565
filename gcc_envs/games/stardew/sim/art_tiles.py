"""Pixel art of ground tiles (outdoor painters here, indoor ones in ``art_indoor``).

Each painter takes the tile's RGB colour from ``tiles.toml`` and returns a float32 RGBA image
at 16 px; :data:`TILE_PAINTERS` maps the ``art`` names of ``tiles.toml`` to painters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

import cv2
import numpy as np

from gcc_envs.games.stardew.sim import art_indoor as ind
from gcc_envs.games.stardew.sim.art_base import (
    B,
    Color,
    canvas,
    fill,
    noise,
    outline,
    rect,
    rgba,
    speckle,
    textured,
)


def grass(c: Color) -> np.ndarray:
    img = textured(c, 1, 0.9, 1.08)
    n = noise(B, B, 2)
    for y, x in zip(*np.nonzero(n > 0.9), strict=True):
        img[max(y - 1, 0) : y + 1, x] = rgba(c, 0.72)
        img[max(y - 2, 0), x] = rgba(c, 1.18)
    return img


def dirt(c: Color) -> np.ndarray:
    img = textured(c, 3, 0.93, 1.05)
    speckle(img, c, 4, 0.93, 0.78)
    speckle(img, c, 5, 0.96, 1.15)
    return img


def path(c: Color) -> np.ndarray:
    img = textured(c, 6, 0.92, 1.04)
    for x, y in ((3, 4), (11, 2), (7, 10), (13, 12), (2, 13)):
        cv2.ellipse(img, (x, y), (2, 1), 0, 0, 360, rgba(c, 1.12), -1)
        img[y + 1, x - 1 : x + 2] = rgba(c, 0.82)
    return img


def pavers(c: Color) -> np.ndarray:
    img = textured(c, 7, 0.94, 1.06)
    for j, y0 in enumerate((0, 8)):
        off = 4 if j else 0
        img[y0, :] = rgba(c, 0.72)
        for x in (off, off + 8):
            img[y0 : y0 + 8, x % B] = rgba(c, 0.72)
        img[y0 + 1, :] = rgba(c, 1.1)
    return img


def forest(c: Color) -> np.ndarray:
    img = fill(canvas(), c, 0.55)
    for x, y, r in ((4, 4, 5), (12, 3, 5), (8, 9, 5), (2, 13, 4), (13, 12, 5)):
        cv2.circle(img, (x, y), r, rgba(c, 0.8), -1)
        cv2.circle(img, (x - 1, y - 1), r - 2, rgba(c), -1)
        cv2.circle(img, (x - 2, y - 2), max(r - 4, 1), rgba(c, 1.25), -1)
    return img


def water(c: Color) -> np.ndarray:
    img = textured(c, 8, 0.92, 1.05)
    for x, y, w in ((2, 3, 5), (9, 6, 4), (4, 10, 4), (11, 13, 4)):
        img[y, x : x + w] = rgba(c, 1.45)
        img[y + 1, x + 1 : x + w - 1] = rgba(c, 1.2)
    return img


def fence(c: Color) -> np.ndarray:
    img = canvas()
    for x in (2, 11):
        rect(img, x, 2, x + 3, 15, c)
        rect(img, x, 2, x + 1, 15, c, 1.2)
    rect(img, 0, 5, B, 7, c, 0.95)
    rect(img, 0, 10, B, 12, c, 0.95)
    rect(img, 0, 5, B, 6, c, 1.15)
    return outline(img)


def flowers(c: Color) -> np.ndarray:
    img = canvas()
    for x, y in ((4, 5), (11, 4), (7, 11), (13, 12), (2, 12)):
        img[y + 1 : y + 4, x] = rgba((60, 130, 50))
        cv2.circle(img, (x, y), 1, rgba(c), -1)
        img[y, x] = rgba((250, 230, 90))
    return img


def bush(c: Color) -> np.ndarray:
    img = canvas()
    cv2.ellipse(img, (8, 9), (7, 6), 0, 0, 360, rgba(c), -1)
    for x, y in ((5, 7), (10, 6), (8, 10)):
        cv2.circle(img, (x, y), 2, rgba(c, 1.25), -1)
    cv2.ellipse(img, (8, 13), (6, 2), 0, 0, 180, rgba(c, 0.7), -1)
    return outline(img)


def lamp(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 7, 5, 9, 15, c)
    rect(img, 5, 14, 11, 16, c)
    rect(img, 5, 0, 11, 5, c)
    rect(img, 6, 1, 10, 4, (250, 222, 120))
    return outline(img)


def bench(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 1, 3, 15, 6, c, 0.9)
    rect(img, 1, 7, 15, 10, c, 1.1)
    for x in (2, 12):
        rect(img, x, 10, x + 2, 14, c, 0.7)
    return outline(img)


def mailbox(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 7, 8, 9, 15, (120, 80, 50))
    rect(img, 3, 3, 13, 9, c)
    rect(img, 3, 3, 13, 4, c, 1.25)
    rect(img, 12, 1, 14, 5, (210, 50, 40))
    return outline(img)


def bus_top(c: Color) -> np.ndarray:
    img = fill(canvas(), c)
    rect(img, 0, 0, B, 2, c, 1.2)
    for x in (1, 9):
        rect(img, x, 4, x + 6, 11, (190, 226, 240))
        rect(img, x, 4, x + 2, 6, (240, 250, 255))
    rect(img, 0, 13, B, 15, c, 0.7)
    return img


def bus_bottom(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 0, 0, B, 11, c, 0.85)
    rect(img, 0, 3, B, 5, (236, 236, 226))
    rect(img, 0, 10, B, 11, c, 0.6)
    return img


def bus_wheel(c: Color) -> np.ndarray:
    img = bus_bottom(c)
    cv2.circle(img, (8, 11), 4, rgba((36, 36, 40)), -1)
    cv2.circle(img, (8, 11), 2, rgba((150, 150, 150)), -1)
    return img


def roof(c: Color) -> np.ndarray:
    img = textured(c, 9, 0.95, 1.05)
    for j, y0 in enumerate(range(0, B, 4)):
        img[y0 + 3, :] = rgba(c, 0.62)
        img[y0, :] = rgba(c, 1.15)
        for x in range((j % 2) * 4, B, 8):
            img[y0 : y0 + 3, x] = rgba(c, 0.78)
    return img


def planks(c: Color) -> np.ndarray:
    img = textured(c, 10, 0.93, 1.05)
    for y in range(3, B, 4):
        img[y, :] = rgba(c, 0.65)
    for j, y0 in enumerate(range(0, B, 4)):
        x = (5 + 7 * j) % B
        img[y0 : y0 + 3, x] = rgba(c, 0.75)
    return img


def plaster(c: Color) -> np.ndarray:
    img = textured(c, 11, 0.96, 1.03)
    rect(img, 0, 13, B, B, c, 0.72)
    img[13, :] = rgba(c, 0.55)
    return img


def bricks(c: Color) -> np.ndarray:
    img = textured(c, 12, 0.92, 1.06)
    for j, y0 in enumerate(range(0, B, 4)):
        img[y0, :] = rgba(c, 0.7)
        for x in range((j % 2) * 4, B, 8):
            img[y0 : y0 + 4, x] = rgba(c, 0.7)
    return img


def window(c: Color) -> np.ndarray:
    img = fill(canvas(), (104, 68, 40))
    rect(img, 2, 2, 14, 14, c)
    rect(img, 7, 2, 9, 14, (104, 68, 40))
    rect(img, 2, 7, 14, 9, (104, 68, 40))
    for i in range(3):
        img[3 + i, 3 + i] = rgba((245, 250, 255))
    rect(img, 1, 14, 15, 16, (104, 68, 40), 1.3)
    return img


def door(c: Color) -> np.ndarray:
    img = fill(canvas(), c, 0.55)
    rect(img, 2, 1, 14, B, c)
    rect(img, 4, 3, 12, 8, c, 0.8)
    rect(img, 4, 10, 12, 15, c, 0.8)
    rect(img, 10, 8, 12, 10, (240, 200, 80))
    return img


def sign(c: Color) -> np.ndarray:
    img = textured(c, 13, 0.9, 1.05)
    rect(img, 0, 0, B, 2, c, 0.6)
    rect(img, 0, 14, B, B, c, 0.6)
    return img


def soil(c: Color) -> np.ndarray:
    img = textured(c, 17, 0.9, 1.08)
    for y in range(1, B, 4):
        img[y, 1:15] = rgba(c, 0.7)
        img[y + 1, 1:15] = rgba(c, 1.18)
    img[0, :] = rgba(c, 0.8)
    img[:, 0] = rgba(c, 0.8)
    return img


def flat(c: Color) -> np.ndarray:
    return fill(canvas(), c)


TILE_PAINTERS: Mapping[str, Callable[[Color], np.ndarray]] = MappingProxyType(
    {
        "grass": grass,
        "dirt": dirt,
        "path": path,
        "pavers": pavers,
        "forest": forest,
        "water": water,
        "fence": fence,
        "flowers": flowers,
        "bush": bush,
        "lamp": lamp,
        "bench": bench,
        "mailbox": mailbox,
        "bus_top": bus_top,
        "bus_bottom": bus_bottom,
        "bus_wheel": bus_wheel,
        "roof": roof,
        "planks": planks,
        "plaster": plaster,
        "bricks": bricks,
        "window": window,
        "door": door,
        "sign": sign,
        "floor": ind.floor,
        "wall_top": ind.wall_top,
        "wallpaper": ind.wallpaper,
        "mat": ind.mat,
        "bed_top": ind.bed_top,
        "bed_bottom": ind.bed_bottom,
        "tv": ind.tv,
        "table": ind.table,
        "fireplace": ind.fireplace,
        "plant": ind.plant,
        "rug": ind.rug,
        "counter": ind.counter,
        "shelf": ind.shelf,
        "soil": soil,
        "flat": flat,
    }
)
