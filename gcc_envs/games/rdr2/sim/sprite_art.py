"""Billboard art: people, horses and wolves painted with a few shapes into RGBA images.

Every image is a pure function of its key and is built once (bounded cache). People share one
body painter; their hats, coats and scarves differ so an agent can tell Dutch (black hat, dark
suit, red waistcoat) from Micah (cream hat, grey coat), Javier (wide black hat, blue jacket),
John (brown hat, brown coat, blue scarf), the O'Driscoll enemies (red bandanas over the face)
and the store clerk (no hat, white shirt, apron). Trees and props live in :mod:`prop_art`;
:func:`image` and :func:`fogged` serve every kind by its art key.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim.art_shapes import SIZES, Color
from gcc_envs.games.rdr2.sim.art_shapes import canvas as _canvas
from gcc_envs.games.rdr2.sim.art_shapes import ellipse as _ellipse
from gcc_envs.games.rdr2.sim.art_shapes import rect as _rect
from gcc_envs.games.rdr2.sim.pixels import pack
from gcc_envs.games.rdr2.sim.prop_art import pine, prop


@dataclass(frozen=True)
class Look:
    hat: Color | None
    brim: float  # hat brim half-width as a fraction of the body width
    skin: Color
    coat: Color
    shirt: Color
    trousers: Color
    accent: Color | None  # scarf, bandana or waistcoat colour
    accent_on_face: bool = False
    hair: Color = (60, 40, 24)


LOOKS: dict[str, Look] = {
    "dutch": Look(
        (22, 22, 24),
        0.36,
        (222, 182, 150),
        (44, 44, 52),
        (230, 226, 214),
        (38, 36, 40),
        (140, 30, 36),
        hair=(28, 22, 18),
    ),
    "micah": Look(
        (226, 216, 188),
        0.34,
        (230, 190, 160),
        (150, 150, 146),
        (210, 200, 170),
        (90, 84, 76),
        (200, 180, 120),
        hair=(214, 190, 120),
    ),
    "javier": Look(
        (16, 16, 18),
        0.46,
        (178, 128, 92),
        (42, 66, 124),
        (228, 228, 228),
        (30, 30, 40),
        (210, 200, 190),
    ),
    "john": Look(
        (96, 66, 40),
        0.34,
        (220, 176, 144),
        (112, 80, 50),
        (180, 170, 150),
        (60, 58, 70),
        (58, 92, 150),
        hair=(40, 30, 24),
    ),
    "enemy": Look(
        (70, 62, 52),
        0.32,
        (214, 172, 140),
        (96, 96, 88),
        (150, 140, 120),
        (70, 64, 56),
        (196, 28, 28),
        accent_on_face=True,
    ),
    "clerk": Look(
        None,
        0.0,
        (230, 194, 166),
        (34, 34, 36),
        (240, 240, 236),
        (50, 50, 54),
        (236, 232, 220),
        hair=(90, 70, 50),
    ),
    "arthur": Look(
        (54, 40, 30), 0.36, (220, 180, 150), (92, 70, 52), (200, 190, 170), (56, 52, 50), None
    ),
}

#: Horse coat colours by owner.
HORSE_COATS: dict[str, Color] = {
    "player": (86, 54, 34),
    "dutch": (214, 212, 206),
    "micah": (40, 36, 34),
    "javier": (150, 86, 44),
    "barn": (196, 158, 100),
}


def _person(img: np.ndarray, look: Look, y0: float = 0.0, y1: float = 1.0) -> None:
    """Paint a standing person into the vertical band [y0, y1) of ``img``."""

    def band(a: float) -> float:
        return y0 + a * (y1 - y0)

    _rect(img, 0.30, band(0.55), 0.47, band(1.0), look.trousers)  # legs
    _rect(img, 0.53, band(0.55), 0.70, band(1.0), look.trousers)
    _rect(img, 0.28, band(0.95), 0.48, band(1.0), (40, 28, 20))  # boots
    _rect(img, 0.52, band(0.95), 0.72, band(1.0), (40, 28, 20))
    _rect(img, 0.22, band(0.22), 0.78, band(0.60), look.coat)  # torso
    _rect(img, 0.42, band(0.22), 0.58, band(0.50), look.shirt)
    if look.accent is not None and not look.accent_on_face:
        _rect(img, 0.38, band(0.24), 0.62, band(0.40), look.accent)
    _rect(img, 0.10, band(0.24), 0.22, band(0.55), look.coat)  # arms
    _rect(img, 0.78, band(0.24), 0.90, band(0.55), look.coat)
    _rect(img, 0.10, band(0.53), 0.22, band(0.58), look.skin)
    _rect(img, 0.78, band(0.53), 0.90, band(0.58), look.skin)
    _rect(img, 0.43, band(0.17), 0.57, band(0.23), look.skin)  # neck
    _ellipse(img, 0.5, band(0.115), 0.16, 0.065 * (y1 - y0), look.skin)  # head
    _rect(img, 0.37, band(0.10), 0.45, band(0.12), (30, 20, 16))  # eyes
    _rect(img, 0.55, band(0.10), 0.63, band(0.12), (30, 20, 16))
    if look.accent is not None and look.accent_on_face:
        _rect(img, 0.33, band(0.125), 0.67, band(0.19), look.accent)  # bandana
    if look.hat is not None:
        _rect(img, 0.5 - look.brim, band(0.055), 0.5 + look.brim, band(0.075), look.hat)
        _rect(img, 0.34, band(0.0), 0.66, band(0.065), look.hat)
    else:
        _rect(img, 0.34, band(0.035), 0.66, band(0.07), look.hair)


def _horse(img: np.ndarray, coat: Color, y0: float = 0.0) -> None:
    def band(a: float) -> float:
        return y0 + a * (1.0 - y0)

    dark = tuple(int(c * 0.55) for c in coat)
    for x in (0.22, 0.32, 0.66, 0.76):  # legs
        _rect(img, x, band(0.55), x + 0.06, band(1.0), coat)
        _rect(img, x, band(0.93), x + 0.06, band(1.0), (30, 26, 24))
    _ellipse(img, 0.5, band(0.46), 0.32, 0.16 * (1.0 - y0), coat)  # body
    _rect(img, 0.74, band(0.12), 0.86, band(0.45), coat)  # neck
    _ellipse(img, 0.88, band(0.16), 0.10, 0.07 * (1.0 - y0), coat)  # head
    _rect(img, 0.74, band(0.06), 0.78, band(0.40), dark)  # mane
    _rect(img, 0.78, band(0.02), 0.81, band(0.09), dark)  # ear
    _rect(img, 0.12, band(0.40), 0.20, band(0.75), dark)  # tail
    _rect(img, 0.91, band(0.13), 0.94, band(0.16), (20, 16, 14))  # eye


@lru_cache(maxsize=64)
def person(kind: str, lying: bool = False) -> np.ndarray:
    """A person of ``kind`` (a :data:`LOOKS` key) standing, or lying on the ground."""
    look = LOOKS.get(kind, LOOKS["enemy"])
    if not lying:
        img = _canvas("person")
        _person(img, look)
        return img
    up = _canvas("person")
    _person(up, look)
    img = cv2.rotate(up, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(img, _canvas("lying").shape[1::-1], interpolation=cv2.INTER_NEAREST)


@lru_cache(maxsize=16)
def kneeling(kind: str) -> np.ndarray:
    """A person of ``kind`` down on one knee, a rifle raised to the shoulder: the upper body
    as it stands, the legs folded under it."""
    look = LOOKS.get(kind, LOOKS["enemy"])
    img = _canvas("kneeling")
    h = img.shape[0]
    up = _canvas("person")
    _person(up, look)
    top = up[: round(up.shape[0] * 0.58)]  # head to hips, as a standing person's
    img[: top.shape[0]] = top[:h]
    hip = top.shape[0] / h
    _rect(img, 0.26, hip - 0.02, 0.48, 1.0, look.trousers)  # the knee on the ground, shin back
    _rect(img, 0.06, 0.94, 0.48, 1.0, look.trousers)
    _rect(img, 0.52, hip - 0.02, 0.78, hip + 0.12, look.trousers)  # the other thigh forward
    _rect(img, 0.60, hip + 0.1, 0.76, 1.0, look.trousers)  # its shin down
    _rect(img, 0.58, 0.95, 0.82, 1.0, (40, 28, 20))  # boots
    _rect(img, 0.0, 0.92, 0.10, 1.0, (40, 28, 20))
    steel, stock = (34, 32, 34), (52, 44, 40)
    _rect(img, 0.10, 0.33, 0.90, 0.38, look.coat)  # arms raised level, hands on the rifle
    _rect(img, 0.10, 0.72, 0.22, 0.84, look.coat)  # (no hands hang at the sides)
    _rect(img, 0.78, 0.72, 0.90, 0.84, look.coat)
    _rect(img, 0.40, 0.33, 0.48, 0.38, look.skin)
    _rect(img, 0.62, 0.33, 0.70, 0.38, look.skin)
    _rect(img, 0.0, 0.30, 0.78, 0.335, steel)  # the barrel, across, below the face
    _rect(img, 0.70, 0.29, 1.0, 0.37, stock)  # the stock at the shoulder
    return img


@lru_cache(maxsize=64)
def horse(owner: str, rider: str | None = None) -> np.ndarray:
    """A horse seen from the side, with ``rider`` (a :data:`LOOKS` key) in the saddle."""
    coat = HORSE_COATS.get(owner, HORSE_COATS["player"])
    if rider is None:
        img = _canvas("horse")
        _horse(img, coat)
        return img
    img = _canvas("rider")
    top = 1.0 - SIZES["horse"][1] / SIZES["rider"][1]
    _horse(img, coat, top)
    h, w = img.shape[:2]
    body = np.zeros((round(h * 0.62), round(w * 0.33), 4), np.uint8)
    _person(body, LOOKS.get(rider, LOOKS["enemy"]), 0.0, 1.0)
    body = body[: round(body.shape[0] * 0.62)]  # upper body only; the legs hide in the saddle
    x0 = round(w * 0.5 - body.shape[1] / 2)
    y0 = round(h * 0.2)
    region = img[y0 : y0 + body.shape[0], x0 : x0 + body.shape[1]]
    np.copyto(
        region,
        body[: region.shape[0], : region.shape[1]],
        where=body[: region.shape[0], : region.shape[1], 3:] > 0,
    )
    return img


@lru_cache(maxsize=8)
def wolf(dead: bool = False, growl: bool = False) -> np.ndarray:
    """A wolf from its side, head to the right; ``growl``: crouched low, head down level with
    its back, ears laid flat (about half its standing height)."""
    img = _canvas("wolf")
    fur, dark = (128, 128, 132), (70, 70, 76)
    low = 0.24 if growl and not dead else 0.0  # how far (share of the height) the body sinks
    for x in (0.22, 0.32, 0.66, 0.74):
        _rect(img, x, 0.55 + low * 0.6, x + 0.06, 1.0, fur)
    _ellipse(img, 0.48, 0.48 + low, 0.32, 0.2 - low * 0.15, fur)
    head = 0.34 + low * 1.15
    _ellipse(img, 0.84, head, 0.12, 0.14 - low * 0.1, fur)
    _rect(img, 0.90, head + 0.02, 0.99, head + 0.12, dark)  # snout
    ears = 0.12 if not low else head - 0.08
    _rect(img, 0.80, ears, 0.84, ears + 0.12 - low * 0.15, dark)
    _rect(img, 0.87, ears, 0.91, ears + 0.12 - low * 0.15, dark)
    _rect(img, 0.05, 0.35 + low, 0.18, 0.48 + low, dark)  # tail
    _rect(img, 0.86, head - 0.04, 0.89, head, (230, 200, 40))  # eye
    if dead:
        img = cv2.flip(img, 0)
        img[: img.shape[0] // 2] = 0
    return img


#: Art keys: ``(painter, *args)``, e.g. ``("person", "dutch", False)`` or ``("pine", True)``.
ArtKey = tuple[Any, ...]
#: Baked fog strengths of billboard art.
FOG_STEPS = 16


def image(key: ArtKey) -> np.ndarray:
    """The RGBA art of ``key`` (cached by its painter)."""
    painters = {
        "person": person,
        "kneeling": kneeling,
        "horse": horse,
        "wolf": wolf,
        "pine": pine,
        "prop": prop,
    }
    return painters[key[0]](*key[1:])


@lru_cache(maxsize=512)
def fogged(key: ArtKey, step: int, fog: Color, light: float = 1.0) -> np.ndarray:
    """The art of ``key`` dimmed by ``light`` and blended ``step / (FOG_STEPS - 1)`` towards
    ``fog``, packed (h, w) uint32 with the alpha byte 255 where painted (see :mod:`pixels`)."""
    img = image(key)
    f = max(0, step) / (FOG_STEPS - 1)
    lit = img[..., :3] * (light * (1.0 - f))
    rgb = (lit + np.asarray(fog, np.float32) * f).astype(np.uint8)
    out = pack(rgb, np.where(img[..., 3] > 0, 255, 0).astype(np.uint8))
    out.setflags(write=False)
    return out


def size_m(kind: str) -> tuple[float, float]:
    """(width, height) in metres of a billboard kind."""
    return SIZES[kind]
