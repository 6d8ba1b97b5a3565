"""Pixel art of indoor tiles: floors, walls, furniture, the shop counter and shelves."""

from __future__ import annotations

import cv2
import numpy as np

from gcc_envs.games.stardew.sim.art_base import (
    B,
    Color,
    canvas,
    fill,
    outline,
    rect,
    rgba,
    textured,
)


def floor(c: Color) -> np.ndarray:
    img = textured(c, 14, 0.94, 1.05)
    for y in range(3, B, 4):
        img[y, :] = rgba(c, 0.72)
    for j, y0 in enumerate(range(0, B, 4)):
        img[y0 : y0 + 3, (3 + 9 * j) % B] = rgba(c, 0.8)
    return img


def wall_top(c: Color) -> np.ndarray:
    return textured(c, 15, 0.9, 1.1)


def wallpaper(c: Color) -> np.ndarray:
    img = textured(c, 16, 0.97, 1.03)
    for x in range(1, B, 4):
        img[:, x] = rgba(c, 1.1)
    rect(img, 0, 10, B, B, c, 0.62)
    img[10, :] = rgba(c, 0.45)
    return img


def mat(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 1, 2, 15, 15, c)
    rect(img, 3, 4, 13, 13, c, 1.3)
    rect(img, 5, 6, 11, 11, c)
    return img


def bed_top(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 1, 0, 15, B, (124, 82, 50))
    rect(img, 1, 0, 15, 3, (150, 100, 60))
    rect(img, 3, 4, 13, 9, c)
    rect(img, 3, 8, 13, 9, c, 0.8)
    rect(img, 2, 11, 14, B, (72, 112, 192))
    rect(img, 2, 11, 14, 12, (72, 112, 192), 1.3)
    return outline(img)


def bed_bottom(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 1, 0, 15, 15, (124, 82, 50))
    rect(img, 2, 0, 14, 12, c)
    for y in (3, 7):
        img[y, 3:13] = rgba(c, 0.8)
    rect(img, 1, 12, 15, 15, (150, 100, 60))
    return outline(img)


def tv(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 1, 9, 15, 15, (120, 80, 48))
    rect(img, 2, 1, 14, 10, (90, 90, 96))
    rect(img, 3, 2, 13, 9, c)
    rect(img, 4, 3, 7, 4, (120, 160, 220))
    return outline(img)


def table(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 0, 3, B, 11, c)
    rect(img, 0, 3, B, 5, c, 1.2)
    for x in (1, 13):
        rect(img, x, 11, x + 2, 15, c, 0.7)
    return outline(img)


def fireplace(c: Color) -> np.ndarray:
    img = fill(canvas(), c)
    for y in range(0, B, 4):
        img[y, :] = rgba(c, 0.7)
    rect(img, 3, 6, 13, B, (30, 20, 20))
    cv2.ellipse(img, (8, 13), (4, 3), 0, 180, 360, rgba((240, 120, 40)), -1)
    cv2.ellipse(img, (8, 13), (2, 2), 0, 180, 360, rgba((255, 220, 90)), -1)
    rect(img, 0, 0, B, 3, (120, 80, 50))
    return img


def plant(c: Color) -> np.ndarray:
    img = canvas()
    for x, y in ((5, 6), (10, 5), (8, 3), (6, 9), (11, 9)):
        cv2.circle(img, (x, y), 2, rgba(c), -1)
    rect(img, 4, 10, 12, 15, (190, 100, 60))
    rect(img, 4, 10, 12, 11, (220, 130, 80))
    return outline(img)


def rug(c: Color) -> np.ndarray:
    img = fill(canvas(), c)
    img[1, :] = rgba(c, 1.35)
    img[14, :] = rgba(c, 1.35)
    img[:, 1] = rgba(c, 1.35)
    img[:, 14] = rgba(c, 1.35)
    cv2.fillConvexPoly(img, np.array([[8, 4], [12, 8], [8, 12], [4, 8]]), rgba(c, 1.25))
    return img


def counter(c: Color) -> np.ndarray:
    img = fill(canvas(), c, 0.8)
    rect(img, 0, 0, B, 7, c, 1.2)
    img[7, :] = rgba(c, 0.55)
    for x in (3, 11):
        img[9:B, x] = rgba(c, 0.62)
    return img


def shelf(c: Color) -> np.ndarray:
    img = fill(canvas(), c, 0.6)
    goods = ((210, 70, 60), (90, 160, 80), (230, 200, 90), (90, 120, 200), (220, 220, 210))
    for j, y in enumerate((1, 6, 11)):
        rect(img, 0, y + 4, B, y + 5, c, 1.1)
        for i in range(4):
            col = goods[(i + 2 * j) % len(goods)]
            rect(img, 1 + 4 * i, y + 1, 3 + 4 * i, y + 4, col)
    return img
