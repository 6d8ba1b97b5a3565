"""Pixel art of things on tiles: obstacles, crops, characters and item icons (16 px per tile).

Like ``art_tiles``, every painter returns a float32 RGBA image drawn deterministically.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

import cv2
import numpy as np

from gcc_envs.games.stardew.sim.art_base import B, Color, canvas, outline, rect, rgba

SKIN = (246, 198, 160)
WOOD = (132, 88, 52)
GREY = (152, 152, 160)
LEAF = (70, 150, 60)


# ---------------------------------------------------------------- obstacles
def _weeds(variant: int) -> np.ndarray:
    img = canvas()
    c = (74, 150, 58) if variant == 0 else (96, 162, 54)
    tips = (
        ((3, 5), (6, 2), (9, 4), (12, 3), (14, 7), (1, 9))
        if variant == 0
        else ((2, 6), (5, 3), (8, 1), (11, 4), (13, 6))
    )
    for i, (x, y) in enumerate(tips):
        cv2.line(img, (8 + (x - 8) // 3, 14), (x, y), rgba(c, 1.0 if i % 2 else 1.2), 1)
    cv2.ellipse(img, (8, 13), (5, 2), 0, 0, 360, rgba(c, 0.8), -1)
    return outline(img, (30, 60, 24))


def _twig(variant: int) -> np.ndarray:
    img = canvas()
    c = (128, 84, 46)
    a, b = ((2, 12), (13, 6)) if variant == 0 else ((3, 6), (13, 12))
    cv2.line(img, a, b, rgba(c), 2)
    cv2.line(img, (7, 9), (8, 5) if variant == 0 else (9, 13), rgba(c, 1.2), 1)
    return outline(img)


def _stone(variant: int) -> np.ndarray:
    img = canvas()
    if variant == 0:
        cv2.ellipse(img, (8, 10), (6, 4), 0, 0, 360, rgba(GREY), -1)
        cv2.ellipse(img, (6, 9), (3, 2), 0, 0, 360, rgba(GREY, 1.2), -1)
    else:
        cv2.ellipse(img, (7, 10), (5, 4), 0, 0, 360, rgba(GREY, 0.9), -1)
        cv2.ellipse(img, (11, 11), (3, 3), 0, 0, 360, rgba(GREY, 1.05), -1)
        cv2.ellipse(img, (6, 9), (2, 2), 0, 0, 360, rgba(GREY, 1.25), -1)
    img[12:14, 4:12][img[12:14, 4:12, 3] > 0] = rgba(GREY, 0.7)
    return outline(img, (50, 50, 56))


def _tree(variant: int) -> np.ndarray:
    """32 px tall: the canopy's top half on the tile above, the trunk on the tree's tile."""
    img = canvas(2 * B, B)
    rect(img, 6, 18, 10, 31, (112, 76, 44))
    rect(img, 6, 18, 7, 31, (140, 98, 60))
    rect(img, 4, 29, 12, 31, (112, 76, 44))
    c = (52, 128, 56)
    cv2.ellipse(img, (8, 12), (8, 10), 0, 0, 360, rgba(c, 0.85), -1)
    for x, y, r in ((5, 8, 4), (11, 7, 4), (8, 14, 4), (4, 14, 3), (12, 14, 3)):
        cv2.circle(img, (x, y), r, rgba(c), -1)
        cv2.circle(img, (x - 1, y - 1), max(r - 2, 1), rgba(c, 1.3), -1)
    return outline(img, (24, 52, 26))


def _stump(variant: int) -> np.ndarray:
    img = canvas()
    rect(img, 3, 7, 13, 14, (118, 80, 46))
    cv2.ellipse(img, (8, 14), (5, 1), 0, 0, 180, rgba((118, 80, 46)), -1)
    cv2.ellipse(img, (8, 7), (5, 2), 0, 0, 360, rgba((196, 156, 104)), -1)
    cv2.ellipse(img, (8, 7), (2, 1), 0, 0, 360, rgba((150, 110, 70)), 1)
    return outline(img)


def _boulder(variant: int) -> np.ndarray:
    img = canvas(2 * B, 2 * B)
    c = (128, 128, 136)
    cv2.ellipse(img, (16, 19), (14, 11), 0, 0, 360, rgba(c), -1)
    cv2.ellipse(img, (12, 14), (8, 6), 0, 0, 360, rgba(c, 1.2), -1)
    cv2.ellipse(img, (9, 11), (3, 2), 0, 0, 360, rgba(c, 1.45), -1)
    cv2.ellipse(img, (18, 26), (11, 3), 0, 0, 180, rgba(c, 0.7), -1)
    cv2.line(img, (20, 12), (23, 20), rgba(c, 0.6), 1)
    cv2.line(img, (23, 20), (20, 25), rgba(c, 0.6), 1)
    return outline(img, (44, 44, 50))


def _large_stump(variant: int) -> np.ndarray:
    img = canvas(2 * B, 2 * B)
    bark = (108, 72, 42)
    rect(img, 5, 12, 27, 28, bark)
    for x in (8, 14, 20, 25):
        img[14:28, x] = rgba(bark, 0.7)
    cv2.ellipse(img, (16, 28), (13, 3), 0, 0, 180, rgba(bark, 0.9), -1)
    cv2.ellipse(img, (16, 12), (11, 5), 0, 0, 360, rgba((200, 158, 104)), -1)
    for r in (2, 5, 8):
        cv2.ellipse(img, (16, 12), (r, max(r // 2, 1)), 0, 0, 360, rgba((160, 118, 74)), 1)
    return outline(img)


OBSTACLE_PAINTERS: Mapping[str, Callable[[int], np.ndarray]] = MappingProxyType(
    {
        "weeds": _weeds,
        "twig": _twig,
        "stone": _stone,
        "tree": _tree,
        "stump": _stump,
        "boulder": _boulder,
        "large_stump": _large_stump,
    }
)
#: Rows of 16 px a sprite reaches above its tiles (drawn in the "upper" layer).
OBSTACLE_ROWS_ABOVE: Mapping[str, int] = MappingProxyType({"tree": 1})


# ---------------------------------------------------------------- crops
def crop(stage: int, produce: Color) -> np.ndarray:
    """Growth stage 0 (seeds) to 4 (ripe) of a crop whose produce has colour ``produce``."""
    img = canvas()
    if stage == 0:
        cv2.ellipse(img, (8, 12), (4, 2), 0, 0, 360, rgba((96, 64, 38)), -1)
        for x in (6, 9):
            img[11, x] = rgba((230, 210, 150))
        return img
    height = (0, 4, 7, 9, 9)[stage]
    base = 13
    cv2.line(img, (8, base), (8, base - height), rgba(LEAF, 0.9), 1)
    leaves = ((5, 1), (11, 1), (4, 4), (12, 4), (6, 7), (10, 7))[: 2 * stage]
    for x, dy in leaves:
        cv2.line(img, (8, base - dy // 2 - 1), (x, base - height + dy), rgba(LEAF, 1.15), 1)
    if stage == 4:
        cv2.ellipse(img, (8, 12), (4, 3), 0, 0, 360, rgba(produce), -1)
        cv2.ellipse(img, (7, 11), (1, 1), 0, 0, 360, rgba(produce, 1.2), -1)
    return outline(img, (30, 60, 24))


# ---------------------------------------------------------------- characters
def character(
    facing: str, frame: int, shirt: Color, hair: Color, pants: Color = (64, 84, 150)
) -> np.ndarray:
    """A 16x32 person facing ``facing``; ``frame`` 0/1 swaps the legs while walking."""
    img = canvas(2 * B, B)
    # legs and boots
    left_len, right_len = (6, 6) if frame == 0 else (7, 5)
    if facing in ("left", "right"):
        rect(img, 6, 23, 10, 23 + left_len, pants)
        rect(img, 6, 29 - (6 - left_len), 10, 31, (90, 58, 36))
    else:
        rect(img, 5, 23, 8, 23 + left_len, pants)
        rect(img, 9, 23, 12, 23 + right_len, pants)
        rect(img, 5, 23 + left_len, 8, 24 + left_len, (90, 58, 36))
        rect(img, 9, 23 + right_len, 12, 24 + right_len, (90, 58, 36))
    # torso and arms
    rect(img, 4, 14, 13, 23, shirt)
    rect(img, 4, 14, 13, 15, shirt, 1.2)
    if facing in ("left", "right"):
        ax = 8 if frame == 0 else 9
        rect(img, ax, 15, ax + 2, 22, shirt, 0.8)
        rect(img, ax, 22, ax + 2, 23, SKIN)
    else:
        rect(img, 2, 15, 4, 22, shirt, 0.85)
        rect(img, 13, 15, 15, 22, shirt, 0.85)
        rect(img, 2, 22, 4, 23, SKIN)
        rect(img, 13, 22, 15, 23, SKIN)
    # head
    rect(img, 4, 5, 13, 14, SKIN)
    rect(img, 3, 3, 14, 7, hair)
    if facing == "up":
        rect(img, 3, 3, 14, 13, hair)
    elif facing == "down":
        rect(img, 3, 7, 4, 11, hair)
        rect(img, 13, 7, 14, 11, hair)
        img[9:11, 6] = rgba((40, 30, 30))
        img[9:11, 10] = rgba((40, 30, 30))
        img[12, 7:10] = rgba((200, 120, 110))
    else:  # drawn facing right; mirrored below for left
        rect(img, 3, 3, 8, 12, hair)
        img[9:11, 11] = rgba((40, 30, 30))
        img[12, 10:12] = rgba((200, 120, 110))
    if facing == "left":
        img = np.ascontiguousarray(img[:, ::-1])
    return outline(img, (44, 30, 24))


# ---------------------------------------------------------------- item icons
def _handle(img: np.ndarray) -> None:
    cv2.line(img, (3, 14), (11, 4), rgba(WOOD), 2)


def _axe(c: Color) -> np.ndarray:
    img = canvas()
    _handle(img)
    cv2.fillConvexPoly(img, np.array([[8, 2], [14, 1], [14, 8], [10, 6]]), rgba(c))
    img[2:7, 13] = rgba(c, 1.3)
    return outline(img)


def _hoe(c: Color) -> np.ndarray:
    img = canvas()
    _handle(img)
    cv2.fillConvexPoly(img, np.array([[9, 2], [12, 5], [14, 11], [12, 11], [9, 5]]), rgba(c))
    return outline(img)


def _can(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 3, 6, 11, 14, (96, 126, 168))
    rect(img, 3, 6, 11, 7, (130, 160, 200))
    cv2.line(img, (11, 9), (14, 5), rgba((96, 126, 168)), 2)
    cv2.ellipse(img, (7, 6), (3, 3), 0, 180, 360, rgba(c), 1)
    return outline(img)


def _pickaxe(c: Color) -> np.ndarray:
    img = canvas()
    cv2.line(img, (4, 14), (10, 4), rgba(WOOD), 2)
    cv2.ellipse(img, (10, 8), (7, 5), -30, 200, 340, rgba(c), 2)
    return outline(img)


def _scythe(c: Color) -> np.ndarray:
    img = canvas()
    cv2.line(img, (3, 14), (10, 2), rgba(WOOD), 2)
    cv2.ellipse(img, (12, 7), (5, 5), 0, 200, 360, rgba(c, 1.1), 2)
    return outline(img)


def _packet(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 3, 2, 13, 15, (236, 224, 196))
    rect(img, 3, 2, 13, 4, (200, 180, 150))
    cv2.circle(img, (8, 9), 3, rgba(c), -1)
    cv2.line(img, (8, 6), (9, 4), rgba(LEAF), 1)
    return outline(img)


def _root(c: Color) -> np.ndarray:
    img = canvas()
    cv2.fillConvexPoly(img, np.array([[4, 6], [12, 6], [9, 15], [7, 15]]), rgba(c))
    rect(img, 5, 6, 7, 12, c, 1.15)
    for x in (5, 8, 11):
        cv2.line(img, (8, 6), (x, 1), rgba(LEAF), 1)
    return outline(img)


def _pod(c: Color) -> np.ndarray:
    img = canvas()
    cv2.ellipse(img, (7, 8), (3, 7), 20, 0, 360, rgba(c), -1)
    cv2.ellipse(img, (11, 9), (2, 6), -15, 0, 360, rgba(c, 1.15), -1)
    return outline(img)


def _round(c: Color) -> np.ndarray:
    img = canvas()
    cv2.circle(img, (8, 9), 5, rgba(c), -1)
    cv2.circle(img, (6, 7), 2, rgba(c, 1.15), -1)
    cv2.line(img, (8, 4), (10, 1), rgba(LEAF), 1)
    return outline(img)


def _flower(c: Color) -> np.ndarray:
    img = canvas()
    cv2.line(img, (8, 15), (8, 7), rgba(LEAF), 1)
    cv2.line(img, (8, 12), (11, 10), rgba(LEAF), 1)
    for dx, dy in ((-2, 0), (2, 0), (0, -2), (0, 2)):
        cv2.circle(img, (8 + dx, 5 + dy), 2, rgba(c), -1)
    img[5, 8] = rgba((250, 230, 90))
    return outline(img)


def _leafy(c: Color) -> np.ndarray:
    img = canvas()
    for x, ang in ((5, -30), (11, 30), (8, 0)):
        cv2.ellipse(img, (x, 8), (3, 6), ang, 0, 360, rgba(c, 1.0 + (x == 8) * 0.2), -1)
    return outline(img)


def _wood(c: Color) -> np.ndarray:
    img = canvas()
    rect(img, 2, 5, 13, 12, c)
    cv2.ellipse(img, (13, 8), (2, 3), 0, 0, 360, rgba((206, 164, 110)), -1)
    img[7, 3:11] = rgba(c, 0.75)
    return outline(img)


def _stone_icon(c: Color) -> np.ndarray:
    img = canvas()
    cv2.ellipse(img, (8, 9), (6, 4), 0, 0, 360, rgba(c), -1)
    cv2.ellipse(img, (6, 8), (2, 1), 0, 0, 360, rgba(c, 1.25), -1)
    return outline(img, (50, 50, 56))


def _fiber(c: Color) -> np.ndarray:
    img = canvas()
    for x in (5, 7, 9, 11):
        cv2.line(img, (8, 14), (x, 2), rgba(c, 0.9 + 0.1 * (x % 3)), 1)
    rect(img, 6, 9, 11, 11, (190, 160, 90))
    return outline(img)


ICON_PAINTERS: Mapping[str, Callable[[Color], np.ndarray]] = MappingProxyType(
    {
        "axe": _axe,
        "hoe": _hoe,
        "can": _can,
        "pickaxe": _pickaxe,
        "scythe": _scythe,
        "packet": _packet,
        "root": _root,
        "pod": _pod,
        "round": _round,
        "flower": _flower,
        "leafy": _leafy,
        "wood": _wood,
        "stone": _stone_icon,
        "fiber": _fiber,
    }
)
