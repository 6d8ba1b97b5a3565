"""The CapCut twin's media, made with OpenCV and numpy: every frame carries its own number.

A strip of 12 black/white cells along the top of each frame spells the frame's index in
binary (:func:`read_index` reads it back), so a checker knows which source frames an export
kept. ``coded_video`` shows a plain colour and the seconds; ``ball_video`` a ball rolling into
a goal at a seeded second; ``music`` a WAV tune; ``face`` and the other stickers are RGBA.
"""

from __future__ import annotations

import wave
from pathlib import Path

import cv2
import numpy as np

FPS = 25
SIZE = (320, 240)  # (W, H)
BITS = 12
CELL = SIZE[0] // BITS
STRIP = 16  # the code strip's height in pixels
STICKERS = ("face", "star", "heart", "flower", "diamond")


def _code(img: np.ndarray, index: int) -> None:
    for b in range(BITS):
        on = (index >> (BITS - 1 - b)) & 1
        img[:STRIP, b * CELL : (b + 1) * CELL] = 255 if on else 0


def read_index(rgb: np.ndarray) -> int | None:
    """The frame index spelt by the code strip of ``rgb`` (any size), or None if unreadable."""
    h, w = rgb.shape[:2]
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY) if rgb.ndim == 3 else rgb
    row = gray[max(1, int(h * STRIP / SIZE[1] / 2))]
    cell = w / BITS
    values = [float(row[int((b + 0.5) * cell)]) for b in range(BITS)]
    if any(40 < v < 215 for v in values):
        return None
    return sum(1 << (BITS - 1 - b) for b, v in enumerate(values) if v >= 128)


def _writer(path: Path) -> cv2.VideoWriter:
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, SIZE)
    if not out.isOpened():
        raise OSError(f"OpenCV cannot write {path}")
    return out


def coded_video(path: Path, seconds: float, colour: tuple[int, int, int], label: str = "") -> None:
    """A plain ``colour`` (RGB) clip of ``seconds`` showing the time and ``label``."""
    out = _writer(path)
    try:
        for i in range(round(seconds * FPS)):
            img = np.empty((SIZE[1], SIZE[0], 3), np.uint8)
            img[:] = colour
            _code(img, i)
            cv2.putText(img, f"{label}{i / FPS:4.1f}s", (40, 150), cv2.FONT_HERSHEY_SIMPLEX, 1.4,
                        (255, 255, 255), 3)  # fmt: skip
            out.write(cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
    finally:
        out.release()


GOAL_X = 270  # the goal's mouth (x) in the ball video


def ball_video(path: Path, seconds: float, goal_s: float) -> None:
    """A ball rolling from the left into a goal on the right; it crosses the goal line at
    ``goal_s`` seconds and stays in the net."""
    out = _writer(path)
    speed = (GOAL_X - 30) / goal_s  # px per second
    try:
        for i in range(round(seconds * FPS)):
            t = i / FPS
            img = np.empty((SIZE[1], SIZE[0], 3), np.uint8)
            img[:] = (40, 140, 60)
            cv2.rectangle(img, (GOAL_X, 100), (SIZE[0] - 6, 200), (240, 240, 240), 4)
            x = min(30 + speed * t, GOAL_X + 18)
            cv2.circle(img, (int(x), 170), 14, (250, 250, 250), -1)
            cv2.circle(img, (int(x), 170), 14, (20, 20, 20), 2)
            _code(img, i)
            out.write(cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
    finally:
        out.release()


def music(path: Path, seconds: float, rate: int = 44100) -> None:
    """A stereo WAV tune (a few notes, looped) of ``seconds``."""
    t = np.arange(int(seconds * rate)) / rate
    notes = np.array([262.0, 330.0, 392.0, 523.0])
    f = notes[(t * 2).astype(int) % len(notes)]
    y = (0.3 * np.sin(2 * np.pi * f * t) * 32767).astype(np.int16)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.repeat(y[:, None], 2, 1).tobytes())


def sticker(kind: str, size: int = 80) -> np.ndarray:
    """An RGBA sticker: ``face`` (a smiling face), ``star``, ``heart``, ``flower`` (pink
    petals round a yellow heart) or ``diamond`` (a purple rhombus with a pale facet)."""
    rgba = np.zeros((size, size, 4), np.uint8)
    c, r = size // 2, size // 2 - 3
    if kind == "face":
        cv2.circle(rgba, (c, c), r, (250, 205, 60, 255), -1)
        for dx in (-r // 3, r // 3):
            cv2.circle(rgba, (c + dx, c - r // 4), r // 8, (40, 30, 20, 255), -1)
        cv2.ellipse(rgba, (c, c + r // 6), (r // 2, r // 3), 0, 10, 170, (150, 40, 30, 255), 4)
    elif kind == "star":
        ang = np.arange(10) * np.pi / 5 - np.pi / 2
        rad = np.where(np.arange(10) % 2 == 0, r, 0.4 * r)
        pts = np.stack([c + rad * np.cos(ang), c + rad * np.sin(ang)], 1).astype(np.int32)
        cv2.fillPoly(rgba, [pts], (250, 190, 20, 255))
    elif kind == "heart":
        q = size // 4
        cv2.circle(rgba, (c - q + 3, c - q // 2), q, (210, 30, 50, 255), -1)
        cv2.circle(rgba, (c + q - 3, c - q // 2), q, (210, 30, 50, 255), -1)
        pts = np.array([[c - 2 * q + 4, c - q // 4], [c + 2 * q - 4, c - q // 4], [c, size - 6]])
        cv2.fillPoly(rgba, [pts.astype(np.int32)], (210, 30, 50, 255))
    elif kind == "flower":
        for k in range(6):
            a = k * np.pi / 3
            p = (int(c + 0.5 * r * np.cos(a)), int(c + 0.5 * r * np.sin(a)))
            cv2.circle(rgba, p, int(0.42 * r), (235, 90, 170, 255), -1)
        cv2.circle(rgba, (c, c), int(0.33 * r), (250, 210, 40, 255), -1)
    elif kind == "diamond":
        pts = np.array([[c, c - r], [c + int(0.7 * r), c], [c, c + r], [c - int(0.7 * r), c]])
        cv2.fillPoly(rgba, [pts.astype(np.int32)], (140, 50, 200, 255))
        facet = np.array([[c, c - r + 8], [c + int(0.35 * r), c], [c, c]])
        cv2.fillPoly(rgba, [facet.astype(np.int32)], (215, 180, 250, 255))
    else:
        raise ValueError(f"unknown sticker {kind!r}; known {STICKERS}")
    return rgba
