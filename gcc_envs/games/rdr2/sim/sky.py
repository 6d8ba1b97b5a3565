"""Sky colours by hour and weather, and the sky with its distant mountain ridge (pure)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from gcc_envs.games.rdr2.sim.pixels import color, pack

Color = tuple[int, int, int]


@dataclass(frozen=True)
class SkyColors:
    zenith: Color
    horizon: Color
    fog: Color
    ridge: Color
    cap: Color
    #: Daylight factor for lit surfaces (1 by day, 0.25 at night), in steps of 0.05.
    light: float = 1.0


def _mix(a: Color, b: Color, t: float) -> Color:
    return tuple(int(round(x * (1.0 - t) + y * t)) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _scale(a: Color, k: float) -> Color:
    return tuple(int(round(min(255.0, x * k))) for x in a)  # type: ignore[return-value]


def daylight(hour: float) -> float:
    """1 by day, 0.25 at night, ramping over dawn (5-7 h) and dusk (18-20 h).

    >>> daylight(12.0), daylight(0.0)
    (1.0, 0.25)
    """
    h = hour % 24.0
    if 7.0 <= h <= 18.0:
        return 1.0
    if h < 5.0 or h > 20.0:
        return 0.25
    t = (h - 5.0) / 2.0 if h < 7.0 else (20.0 - h) / 2.0
    return 0.25 + 0.75 * t


def sky_colors(hour: float, snow: bool) -> SkyColors:
    """The palette of the sky at ``hour`` (in quarter hours, so cached textures baked with
    these colours change only every 15 game minutes): snowy regions are overcast and pale."""
    return _sky_colors(round(hour * 4.0) / 4.0, bool(snow))


@lru_cache(maxsize=64)  # kept by the quarter hour: every frame of it asks for the same palette
def _sky_colors(hour: float, snow: bool) -> SkyColors:
    if snow:
        zenith, horizon, ridge = (150, 164, 182), (212, 218, 228), (118, 128, 144)
    else:
        zenith, horizon, ridge = (78, 128, 196), (196, 212, 226), (104, 118, 138)
    h = hour % 24.0
    dusk = max(0.0, 1.0 - abs(h - 18.5) / 1.5)
    if dusk > 0 and not snow:
        horizon = _mix(horizon, (232, 160, 104), 0.7 * dusk)
    k = daylight(hour)
    zenith, horizon, ridge = _scale(zenith, k), _scale(horizon, k), _scale(ridge, k)
    fog = _mix(horizon, zenith, 0.15)
    return SkyColors(zenith, horizon, fog, ridge, _scale((236, 240, 246), k), round(k * 20) / 20)


#: Above any elevation :func:`ridge_elevation` gives (0.055 + 0.035 + 0.022 + 0.010 = 0.122
#: radians at most, with room for float32 rounding).
RIDGE_MAX_ELEVATION = 0.1225


def ridge_elevation(angle: np.ndarray) -> np.ndarray:
    """Elevation (radians) of the mountain ridge seen along world heading ``angle`` (periodic)."""
    a = np.asarray(angle, np.float32)
    return (
        0.055
        + 0.035 * np.sin(3.0 * a + 1.0)
        + 0.022 * np.sin(7.0 * a + 2.3)
        + 0.010 * np.sin(17.0 * a + 0.4)
    ).astype(np.float32)


def paint_sky(
    canvas: np.ndarray, horizon: float, proj: float, yaw: float, fov: float, c: SkyColors
) -> None:
    """Gradient sky down to the horizon of a packed canvas, then the far ridge on it."""
    h, w = canvas.shape[:2]
    r_sky = min(h, max(0, int(math.ceil(horizon)) + 1))  # the ground covers the rest
    if r_sky == 0:
        return
    ys, rows = _gradient(r_sky, horizon, proj, c.horizon, c.zenith)
    canvas[:r_sky] = rows[:, None]
    if math.floor(horizon - math.tan(RIDGE_MAX_ELEVATION) * proj) >= r_sky:
        return  # the ridge's top lies below the sky, wherever the view turns (as r0 finds)
    heading = yaw + _column_turns(w, fov)
    top = horizon - np.tan(ridge_elevation(heading)) * proj  # (W,)
    r0 = max(0, int(math.floor(top.min())))
    if r_sky <= r0:
        return
    yy = ys[r0:r_sky, None]
    body = yy >= top[None, :]
    cap = yy < top[None, :] + 0.012 * proj
    band = canvas[r0:r_sky]
    np.copyto(band, color(c.ridge), where=body)
    np.copyto(band, color(c.cap), where=body & cap)


@lru_cache(maxsize=16)
def _gradient(
    r_sky: int, horizon: float, proj: float, low: Color, high: Color
) -> tuple[np.ndarray, np.ndarray]:
    """Row centres of the sky and its packed colour per row, horizon to zenith (read-only;
    the view's pitch rarely changes from one frame to the next)."""
    ys = np.arange(r_sky, dtype=np.float32) + 0.5
    elev = np.arctan((horizon - ys) / proj)
    t = np.clip(elev / math.radians(55.0), 0.0, 1.0)[:, None] ** 0.8
    rows = np.asarray(low, np.float32) * (1.0 - t) + np.asarray(high, np.float32) * t
    packed = pack(rows.astype(np.uint8))
    for a in (ys, packed):
        a.flags.writeable = False
    return ys, packed


@lru_cache(maxsize=8)
def _column_turns(w: int, fov: float) -> np.ndarray:
    """How far each column's centre looks from the view's heading (radians, read-only)."""
    cam_x = 2.0 * (np.arange(w, dtype=np.float32) + 0.5) / w - 1.0
    turns = np.arctan(cam_x * math.tan(fov / 2.0))
    turns.flags.writeable = False
    return turns
