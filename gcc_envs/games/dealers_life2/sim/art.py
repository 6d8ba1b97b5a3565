"""Drawn pieces: customers (with a mood face), item icons, faces for the mood meter.

Pure functions that draw into an image inside a pixel box; cv2 primitives only. Colours avoid
the UI's button fills (:class:`~gcc_envs.games.dealers_life2.sim.layout.C`).
"""

from __future__ import annotations

import cv2
import numpy as np

Box = tuple[int, int, int, int]

SKIN = (
    (255, 220, 185),
    (234, 192, 150),
    (205, 155, 110),
    (170, 118, 80),
    (125, 85, 58),
    (92, 62, 44),
)
HAIR = (
    (30, 25, 22),
    (90, 60, 35),
    (150, 110, 60),
    (200, 170, 110),
    (130, 130, 130),
    (160, 60, 30),
    (235, 235, 225),
)
SHIRT = (
    (70, 90, 150), (150, 60, 70), (60, 120, 90), (110, 80, 140), (160, 150, 70),
    (80, 80, 85), (180, 110, 150), (50, 130, 150), (140, 100, 70),
)  # fmt: skip


def _pt(x: float, y: float) -> tuple[int, int]:
    return (int(round(x)), int(round(y)))


def mood_face(img: np.ndarray, cx: float, cy: float, r: float, mood: float) -> None:
    """A round face whose mouth and brows follow ``mood`` (0..100)."""
    r = max(r, 2.0)
    col = (250, 215, 80) if mood >= 55 else (245, 170, 70) if mood >= 30 else (230, 90, 60)
    cv2.circle(img, _pt(cx, cy), int(r), col, -1, cv2.LINE_AA)
    cv2.circle(img, _pt(cx, cy), int(r), (60, 40, 20), max(1, int(r / 10)), cv2.LINE_AA)
    _eyes_mouth(img, cx, cy, r, mood, (40, 30, 20))


def _eyes_mouth(
    img: np.ndarray, cx: float, cy: float, r: float, mood: float, ink: tuple[int, int, int]
) -> None:
    t = max(1, int(r / 9))
    for sx in (-1, 1):
        cv2.circle(img, _pt(cx + sx * r * 0.35, cy - r * 0.15), max(1, int(r * 0.1)), ink, -1)
        tilt = (mood - 40) / 60.0 * 0.1 * r  # > 0: inner ends raised (friendly), < 0: a scowl
        cv2.line(img, _pt(cx + sx * r * 0.5, cy - r * 0.4),
                 _pt(cx + sx * r * 0.2, cy - r * 0.4 - tilt), ink, t, cv2.LINE_AA)  # fmt: skip
    w = r * 0.45
    bend = (mood - 50) / 50.0 * r * 0.25  # > 0 smile, < 0 frown
    pts = np.array(
        [_pt(cx - w, cy + r * 0.38 - bend * 0.3), _pt(cx, cy + r * 0.38 + bend),
         _pt(cx + w, cy + r * 0.38 - bend * 0.3)], np.int32,
    )  # fmt: skip
    cv2.polylines(img, [pts], False, ink, t + 1, cv2.LINE_AA)


def customer(img: np.ndarray, box: Box, look: tuple[int, ...], mood: float) -> None:
    """A person behind the counter: head, hair, glasses, shirt; the face shows the mood."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w < 4 or h < 4:
        return
    skin, hair, shirt = SKIN[look[0] % 6], HAIR[look[1] % 7], SHIRT[look[2] % 9]
    cx = x0 + w / 2
    hr = min(w * 0.26, h * 0.2)
    hy = y0 + h * 0.28
    # body and arms
    body = np.array([_pt(cx - w * 0.42, y1), _pt(cx - w * 0.36, hy + hr * 1.6),
                     _pt(cx + w * 0.36, hy + hr * 1.6), _pt(cx + w * 0.42, y1)], np.int32)  # fmt: skip
    cv2.fillPoly(img, [body], shirt, cv2.LINE_AA)
    cv2.ellipse(img, _pt(cx, hy + hr * 1.6), (int(w * 0.36), int(hr * 0.5)), 0, 180, 360, shirt, -1,
                cv2.LINE_AA)  # fmt: skip
    cv2.rectangle(
        img, _pt(cx - hr * 0.3, hy + hr * 0.8), _pt(cx + hr * 0.3, hy + hr * 1.3), skin, -1
    )
    collar = np.array([_pt(cx - hr * 0.45, hy + hr * 1.15), _pt(cx, hy + hr * 1.6),
                       _pt(cx + hr * 0.45, hy + hr * 1.15)], np.int32)  # fmt: skip
    cv2.fillPoly(img, [collar], tuple(min(255, c + 40) for c in shirt), cv2.LINE_AA)
    # hair behind, head, hair on top
    style = look[3] % 4
    if style == 2:  # long hair
        cv2.ellipse(img, _pt(cx, hy + hr * 0.3), (int(hr * 1.15), int(hr * 1.35)), 0, 0, 360, hair,
                    -1, cv2.LINE_AA)  # fmt: skip
    cv2.ellipse(img, _pt(cx, hy), (int(hr), int(hr * 1.12)), 0, 0, 360, skin, -1, cv2.LINE_AA)
    if style in (0, 2):
        cv2.ellipse(img, _pt(cx, hy - hr * 0.35), (int(hr * 1.02), int(hr * 0.8)), 0, 180, 360,
                    hair, -1, cv2.LINE_AA)  # fmt: skip
    elif style == 1:  # short, with a parting
        cv2.ellipse(img, _pt(cx, hy - hr * 0.45), (int(hr * 0.98), int(hr * 0.7)), 0, 170, 370,
                    hair, -1, cv2.LINE_AA)  # fmt: skip
    else:  # bald with a fringe and a beard
        cv2.ellipse(img, _pt(cx, hy + hr * 0.55), (int(hr * 0.8), int(hr * 0.55)), 0, 0, 180, hair,
                    -1, cv2.LINE_AA)  # fmt: skip
    ink = (40, 30, 25)
    _eyes_mouth(img, cx, hy + hr * 0.05, hr, mood, ink)
    if look[4] % 3 == 1:  # glasses
        t = max(1, int(hr / 12))
        for sx in (-1, 1):
            cv2.circle(img, _pt(cx + sx * hr * 0.36, hy - hr * 0.1), int(hr * 0.24), ink, t,
                       cv2.LINE_AA)  # fmt: skip
        cv2.line(
            img, _pt(cx - hr * 0.12, hy - hr * 0.1), _pt(cx + hr * 0.12, hy - hr * 0.1), ink, t
        )
    if mood < 30:  # an angry flush
        cv2.ellipse(img, _pt(cx, hy + hr * 0.2), (int(hr * 0.75), int(hr * 0.3)), 0, 0, 360,
                    (220, 110, 100), max(1, int(hr / 14)), cv2.LINE_AA)  # fmt: skip


def item_icon(img: np.ndarray, box: Box, category: str, color: tuple[int, int, int]) -> None:
    """A simple picture of an item of ``category`` in ``color``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w < 4 or h < 4:
        return
    cx, cy, r = x0 + w / 2, y0 + h / 2, min(w, h) * 0.4
    ink = (40, 32, 28)
    t = max(1, int(r / 14))
    col = tuple(int(c) for c in color)
    if category == "watches":
        cv2.rectangle(img, _pt(cx - r * 0.3, cy - r), _pt(cx + r * 0.3, cy + r), (90, 60, 40), -1)
        cv2.circle(img, _pt(cx, cy), int(r * 0.65), col, -1, cv2.LINE_AA)
        cv2.circle(img, _pt(cx, cy), int(r * 0.5), (245, 240, 225), -1, cv2.LINE_AA)
        cv2.line(img, _pt(cx, cy), _pt(cx, cy - r * 0.4), ink, t, cv2.LINE_AA)
        cv2.line(img, _pt(cx, cy), _pt(cx + r * 0.3, cy), ink, t, cv2.LINE_AA)
    elif category == "jewelry":
        cv2.circle(img, _pt(cx, cy + r * 0.2), int(r * 0.6), col, max(2, int(r / 5)), cv2.LINE_AA)
        gem = np.array([_pt(cx, cy - r), _pt(cx - r * 0.3, cy - r * 0.55), _pt(cx, cy - r * 0.3),
                        _pt(cx + r * 0.3, cy - r * 0.55)], np.int32)  # fmt: skip
        cv2.fillPoly(img, [gem], (170, 220, 240), cv2.LINE_AA)
    elif category == "art":
        cv2.rectangle(
            img, _pt(cx - r, cy - r * 0.75), _pt(cx + r, cy + r * 0.75), (150, 110, 50), -1
        )
        cv2.rectangle(
            img, _pt(cx - r * 0.82, cy - r * 0.58), _pt(cx + r * 0.82, cy + r * 0.58), col, -1
        )
        hill = np.array([_pt(cx - r * 0.82, cy + r * 0.58), _pt(cx - r * 0.2, cy - r * 0.1),
                         _pt(cx + r * 0.3, cy + r * 0.3), _pt(cx + r * 0.82, cy + r * 0.58)], np.int32)  # fmt: skip
        cv2.fillPoly(img, [hill], tuple(max(0, c - 50) for c in col), cv2.LINE_AA)
    elif category == "antiques":
        pts = np.array([_pt(cx - r * 0.25, cy - r), _pt(cx + r * 0.25, cy - r), _pt(cx + r * 0.2, cy - r * 0.6),
                        _pt(cx + r * 0.7, cy + r * 0.1), _pt(cx + r * 0.4, cy + r), _pt(cx - r * 0.4, cy + r),
                        _pt(cx - r * 0.7, cy + r * 0.1), _pt(cx - r * 0.2, cy - r * 0.6)], np.int32)  # fmt: skip
        cv2.fillPoly(img, [pts], col, cv2.LINE_AA)
        cv2.polylines(img, [pts], True, ink, t, cv2.LINE_AA)
    elif category == "electronics":
        cv2.rectangle(img, _pt(cx - r, cy - r * 0.7), _pt(cx + r, cy + r * 0.5), col, -1)
        cv2.rectangle(img, _pt(cx - r * 0.85, cy - r * 0.58), _pt(cx + r * 0.85, cy + r * 0.35),
                      (60, 90, 110), -1)  # fmt: skip
        cv2.rectangle(
            img, _pt(cx - r * 0.4, cy + r * 0.5), _pt(cx + r * 0.4, cy + r * 0.7), col, -1
        )
    elif category == "toys":
        cv2.rectangle(
            img, _pt(cx - r * 0.5, cy - r * 0.2), _pt(cx + r * 0.5, cy + r * 0.8), col, -1
        )
        cv2.rectangle(
            img, _pt(cx - r * 0.35, cy - r * 0.9), _pt(cx + r * 0.35, cy - r * 0.25), col, -1
        )
        for sx in (-1, 1):
            cv2.circle(
                img,
                _pt(cx + sx * r * 0.15, cy - r * 0.6),
                max(1, int(r * 0.08)),
                (250, 240, 120),
                -1,
            )
    elif category == "music":
        cv2.line(
            img,
            _pt(cx + r * 0.1, cy),
            _pt(cx + r * 0.9, cy - r * 0.9),
            (90, 60, 30),
            max(2, int(r / 6)),
        )
        cv2.ellipse(img, _pt(cx - r * 0.2, cy + r * 0.3), (int(r * 0.6), int(r * 0.5)), 30, 0, 360, col, -1,
                    cv2.LINE_AA)  # fmt: skip
        cv2.circle(
            img, _pt(cx - r * 0.15, cy + r * 0.25), max(1, int(r * 0.15)), ink, -1, cv2.LINE_AA
        )
    else:  # collectibles: a card with a star
        cv2.rectangle(
            img, _pt(cx - r * 0.6, cy - r), _pt(cx + r * 0.6, cy + r), (245, 240, 230), -1
        )
        cv2.rectangle(
            img, _pt(cx - r * 0.5, cy - r * 0.88), _pt(cx + r * 0.5, cy + r * 0.88), col, -1
        )
        star = [
            _pt(cx + r * 0.4 * np.cos(a) * (1 if i % 2 == 0 else 0.45),
                cy + r * 0.4 * np.sin(a) * (1 if i % 2 == 0 else 0.45))
            for i, a in enumerate(np.linspace(-np.pi / 2, 1.5 * np.pi, 10, endpoint=False))
        ]  # fmt: skip
        cv2.fillPoly(img, [np.array(star, np.int32)], (250, 235, 120), cv2.LINE_AA)
