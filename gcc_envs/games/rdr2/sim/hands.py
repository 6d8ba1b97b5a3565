"""What the first-person camera sees of the player: the horse's neck when mounted, the gun in
hand, a muzzle flash, a carried man's arm, and falling snow in front of it all."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim import sprite_art as art
from gcc_envs.games.rdr2.sim.hud import scale
from gcc_envs.games.rdr2.sim.scene import under_roof
from gcc_envs.games.rdr2.sim.sky import sky_colors
from gcc_envs.games.rdr2.sim.state import CELL_M, GUNS


def _poly(frame: np.ndarray, pts: list[tuple[float, float]], color: tuple[int, int, int]) -> None:
    h, w = frame.shape[:2]
    # (x * w) * 16 rounded half to even, as numpy's float64 arrays gave it
    arr = np.array([(round(x * w * 16), round(y * h * 16)) for x, y in pts], np.int32)
    cv2.fillPoly(frame, [arr], color, cv2.LINE_AA, 4)


def _lit(state: Any, *colors: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """``colors`` dimmed by the daylight of the state's hour."""
    k = sky_colors(state.time_of_day(), state.map.snow).light
    return [tuple(int(c * k) for c in col) for col in colors]  # type: ignore[misc]


def draw_horse_neck(frame: np.ndarray, state: Any) -> None:
    """The mount's neck, mane and ears rising from the bottom centre."""
    owner = "player"
    horse = state.horses.get(state.player.mounted) if state.player.mounted else None
    if horse is not None:
        owner = getattr(horse, "owner", "player")
    coat = art.HORSE_COATS.get(owner, art.HORSE_COATS["player"])
    coat, dark = _lit(state, coat, tuple(int(c * 0.5) for c in coat))
    bob = 0.006 * math.sin(state.clock * 9.0) if getattr(state.player, "moving", False) else 0.0
    _poly(
        frame,
        [
            (0.40, 1.0),
            (0.44, 0.80 + bob),
            (0.47, 0.72 + bob),
            (0.53, 0.72 + bob),
            (0.56, 0.80 + bob),
            (0.60, 1.0),
        ],
        coat,
    )
    _poly(frame, [(0.47, 0.73 + bob), (0.53, 0.73 + bob), (0.515, 1.0), (0.485, 1.0)], dark)  # mane
    _poly(frame, [(0.455, 0.735 + bob), (0.465, 0.68 + bob), (0.478, 0.73 + bob)], coat)  # ears
    _poly(frame, [(0.522, 0.73 + bob), (0.535, 0.68 + bob), (0.545, 0.735 + bob)], coat)


def draw_gun(frame: np.ndarray, state: Any) -> None:
    """The gun raised in a gloved hand while aiming (holstered otherwise), and its flash."""
    weapon = state.player.weapon
    flash = float(getattr(state.ui, "muzzle_flash", 0.0))
    if weapon not in GUNS or not (state.player.aiming or flash > 0.05):
        return
    metal, dark, wood, glove = _lit(state, (84, 86, 92), (44, 44, 48), (110, 70, 40), (92, 64, 42))
    if weapon == "revolver":
        tip = (0.575, 0.745)
        _poly(frame, [(0.575, 0.738), (0.665, 0.778), (0.66, 0.797), (0.57, 0.757)], metal)
        _poly(frame, [(0.645, 0.765), (0.695, 0.787), (0.69, 0.822), (0.64, 0.80)], dark)
        _poly(frame, [(0.68, 0.80), (0.705, 0.80), (0.745, 0.93), (0.712, 0.95)], wood)
        _poly(frame, [(0.69, 0.86), (0.76, 0.85), (0.80, 1.0), (0.70, 1.0)], glove)
    else:
        tip = (0.545, 0.735)
        _poly(frame, [(0.545, 0.73), (0.80, 0.86), (0.795, 0.875), (0.54, 0.745)], metal)
        _poly(frame, [(0.70, 0.80), (0.90, 0.90), (0.88, 1.0), (0.66, 0.86)], wood)
        _poly(frame, [(0.74, 0.86), (0.81, 0.85), (0.85, 1.0), (0.75, 1.0)], glove)
    if flash > 0.05:
        h, w = frame.shape[:2]
        cx, cy = round(tip[0] * w), round(tip[1] * h)
        r = max(2, round(26 * scale(h, w) * flash))
        cv2.circle(frame, (cx, cy), r, (255, 200, 90), -1, cv2.LINE_AA)
        cv2.circle(frame, (cx, cy), max(1, r // 2), (255, 250, 220), -1, cv2.LINE_AA)


def draw_carried(frame: np.ndarray, state: Any) -> None:
    """A carried man's legs hang over the right shoulder."""
    if not getattr(state.player, "carrying", None):
        return
    legs, boots = _lit(state, (60, 58, 70), (40, 28, 20))
    _poly(frame, [(0.78, 1.0), (0.84, 0.62), (0.92, 0.60), (0.92, 1.0)], legs)
    _poly(frame, [(0.83, 0.64), (0.86, 0.56), (0.94, 0.55), (0.93, 0.62)], boots)


@lru_cache(maxsize=4)
def _flakes(h: int, w: int) -> tuple[np.ndarray, ...]:
    """The flakes of an (h, w) frame, as :func:`draw_snowfall` takes them: each flake's place
    at time 0 (across for all, then down for all, as shares of the frame), how it moves (weights
    of sin t, cos t, t and the view's turn, t the game clock: it sways across by
    ``0.05 sin(t + phase)`` and falls at its own speed), the frame's size per entry, the
    offsets of a flake's square of pixels and the last column and row."""
    n = max(8, int(h * w * 0.0004))
    across, down, seed = np.random.default_rng(1899).random((3, n))
    phase, fall = seed * 6.0, 0.08 + 0.1 * seed
    move = np.zeros((2, n, 4))
    move[0, :, 0], move[0, :, 1], move[0, :, 3] = 0.05 * np.cos(phase), 0.05 * np.sin(phase), -1
    move[1, :, 2] = fall
    d = np.arange(max(1, round(2 * scale(h, w))))  # a flake's square, in pixels
    square = np.stack(np.meshgrid(d, d, indexing="ij")).reshape(2, 1, -1)
    out = (
        np.concatenate((across, down)),
        move.reshape(2 * n, 4),
        np.repeat([float(w), float(h)], n),
        square,
        np.array([w - 1, h - 1]).reshape(2, 1, 1),
    )
    for a in out:
        a.setflags(write=False)
    return out


SNOW = (244, 246, 250)


def draw_snowfall(frame: np.ndarray, state: Any, fov_deg: float) -> None:
    """Flakes drifting down and sliding sideways as the view turns (deterministic in time)."""
    h, w = frame.shape[:2]
    start, move, size, square, last = _flakes(h, w)
    t = state.clock
    at = move.dot(np.array((math.sin(t), math.cos(t), t, state.player.yaw_deg / fov_deg)))
    at += start
    at %= 1.0
    at *= size
    xy = at.astype(np.intp).reshape(2, -1, 1)
    if square.shape[2] > 1:
        xy = xy + square
    np.minimum(xy, last, out=xy)
    frame[xy[1], xy[0]] = SNOW


def draw(frame: np.ndarray, state: Any, fov_deg: float) -> None:
    m = state.map
    if m.snow and not under_roof(m.roof, state.player.x / CELL_M, state.player.y / CELL_M):
        draw_snowfall(frame, state, fov_deg)
    if state.player.mounted:
        draw_horse_neck(frame, state)
    draw_carried(frame, state)
    draw_gun(frame, state)
