"""Reading RDR2 screens: the minimap's route line and NPC dots, prompt boxes, the pause menu.

Pure functions of frames (``(H, W, 3)`` uint8 RGB) and the profile's HUD fractions; no game
state. The minimap turns with the camera (heading up, as in the game), with the player's arrow
at its centre, so a bearing read there is the turn the player needs: 0 is straight ahead,
positive to the right (clockwise), in degrees.

Colours are a :class:`HudColours` passed in (the simulator's come from its renderer); each is
matched within a tolerance so scaled, blended frames still read.

>>> import numpy as np
>>> mm = np.zeros((60, 60, 3), np.uint8)
>>> mm[5:30, 29:31] = HudColours().route  # a route line straight up from the centre
>>> round(route_bearing(mm, HudColours()))
0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

Region = tuple[float, float, float, float]


@dataclass(frozen=True)
class HudColours:
    """RGB colours of the HUD elements the skills read, and how a pixel may stray from them.

    The defaults are the simulator's HUD; the minimap is drawn over the view with up to
    ``blend`` of the picture behind showing through, so a minimap colour ``c`` appears anywhere
    between ``(1 - blend) c`` and ``(1 - blend) c + blend * 255`` on each channel, ± ``tol``.
    """

    route: tuple[int, int, int] = (214, 24, 24)
    ally: tuple[int, int, int] = (60, 140, 255)
    enemy: tuple[int, int, int] = (236, 40, 32)
    #: The player's own horse (when not ridden).
    horse: tuple[int, int, int] = (250, 140, 30)
    #: The objective marker at the route line's end (on the rim when further).
    objective: tuple[int, int, int] = (255, 214, 40)
    player: tuple[int, int, int] = (250, 250, 250)
    #: The accent strip down the left edge of a tutorial box.
    tutorial_accent: tuple[int, int, int] = (196, 30, 30)
    #: Prompt text (white on a dark panel).
    prompt_text: tuple[int, int, int] = (255, 255, 255)
    #: The line under ``PAUSED`` in the pause menu.
    pause_line: tuple[int, int, int] = (200, 24, 24)
    tol: int = 12
    blend: float = 3 / 16


@dataclass(frozen=True)
class Blip:
    """A dot on the minimap: bearing (degrees, 0 ahead, + right), distance (fraction of the
    minimap's half-size), size in pixels."""

    bearing: float
    distance: float
    area: int


def crop(frame: np.ndarray, region: Region) -> np.ndarray:
    """The part of ``frame`` a fractional (x, y, w, h) region covers (a view, not a copy)."""
    if frame.ndim != 3:
        raise ValueError(f"expected an (H, W, 3) frame, got shape {frame.shape}")
    H, W = frame.shape[:2]
    x, y, w, h = region
    x0, y0 = int(round(x * W)), int(round(y * H))
    x1, y1 = int(round((x + w) * W)), int(round((y + h) * H))
    x0, y0 = min(max(x0, 0), W - 1), min(max(y0, 0), H - 1)
    x1, y1 = min(max(x1, x0 + 1), W), min(max(y1, y0 + 1), H)
    return frame[y0:y1, x0:x1]


def circle_of(region: Region, height: int, width: int) -> tuple[float, float, float]:
    """(cx, cy, r) in pixels of the round minimap inscribed in a fractional region."""
    x, y, w, h = region
    return (x + w / 2) * width, (y + h / 2) * height, min(w * width, h * height) / 2


def minimap_crop(frame: np.ndarray, circle: tuple[float, float, float]) -> np.ndarray:
    """The square of ``frame`` around the minimap circle (cx, cy, r), centred on the player."""
    cx, cy, r = circle
    H, W = frame.shape[:2]
    x0, x1 = max(0, int(round(cx - r))), min(W, int(round(cx + r)) + 1)
    y0, y1 = max(0, int(round(cy - r))), min(H, int(round(cy + r)) + 1)
    return frame[y0:y1, x0:x1]


def colour_mask(
    img: np.ndarray, rgb: tuple[int, int, int], tol: int, blend: float = 0.0
) -> np.ndarray:
    """Boolean mask of the pixels that show ``rgb`` (mixed with up to ``blend`` of anything
    behind it), give or take ``tol`` per channel."""
    c = np.array(rgb, np.float64)
    lo = np.clip(np.floor(c * (1.0 - blend)) - tol, 0, 255).astype(np.uint8)
    hi = np.clip(np.ceil(c * (1.0 - blend) + 255.0 * blend) + tol, 0, 255).astype(np.uint8)
    return cv2.inRange(np.ascontiguousarray(img[..., :3]), lo, hi) > 0


def _disc_mask(h: int, w: int, inner: float = 0.0, outer: float = 0.97) -> np.ndarray:
    """Pixels between ``inner`` and ``outer`` of the half-size from the centre."""
    ys, xs = np.mgrid[0:h, 0:w]
    d = np.hypot(xs - (w - 1) / 2.0, ys - (h - 1) / 2.0) / (min(h, w) / 2.0)
    return (d >= inner) & (d <= outer)


def _polar(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Bearings (degrees) and distances (fraction of the half-size) of the mask's pixels."""
    h, w = mask.shape
    ys, xs = np.nonzero(mask)
    cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
    dx, dy = xs - cx, ys - cy
    half = min(w, h) / 2.0
    return np.degrees(np.arctan2(dx, -dy)), np.hypot(dx, dy) / half, half


def circular_mean(deg: np.ndarray, weights: np.ndarray | None = None) -> float:
    """The mean direction of angles in degrees, in (-180, 180]."""
    r = np.radians(deg)
    s = float(np.average(np.sin(r), weights=weights))
    c = float(np.average(np.cos(r), weights=weights))
    return math.degrees(math.atan2(s, c))


def route_bearing(
    minimap: np.ndarray,
    colours: HudColours,
    ring: tuple[float, float] = (0.18, 0.55),
    start: float = 0.3,
    min_pixels: int = 3,
) -> float | None:
    """Where the route line leaves the player: its bearing in degrees, or None if absent.

    ``minimap`` is the square crop around the round minimap. The route starts at the player
    (the centre), so only red strokes reaching within ``start`` of the half-size of the centre
    count — red enemy dots elsewhere do not (when no stroke does, as when an ally's dot hides
    the line's start, a long stroke reaching within twice that does). Route pixels in a ring around the centre (``ring``
    as fractions of the half-size) give the direction of the line's next stretch; if the ring
    is empty (the objective is very near) all the route's pixels are used.
    """
    h, w = minimap.shape[:2]
    mask = colour_mask(minimap, colours.route, colours.tol, colours.blend) & _disc_mask(h, w)
    n, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    if n <= 1:
        return None
    bearing, dist, _ = _polar(mask)
    ys, xs = np.nonzero(mask)
    lab = labels[ys, xs]
    near = np.zeros(n, bool)
    np.maximum.at(near, lab, dist <= start)
    keep = near[lab]
    if int(keep.sum()) < min_pixels:
        # its start hidden (under an ally's dot, say): a stroke, not a dot, that comes
        # within twice as close
        lo, hi = np.full(n, np.inf), np.zeros(n)
        np.minimum.at(lo, lab, dist)
        np.maximum.at(hi, lab, dist)
        near = (lo <= 2 * start) & (hi - lo >= 0.25)
        keep = near[lab]
    if int(keep.sum()) < min_pixels:
        return None
    bearing, dist = bearing[keep], dist[keep]
    inside = (dist >= ring[0]) & (dist <= ring[1])
    if inside.sum() >= min_pixels:
        return circular_mean(bearing[inside])
    beyond = dist > ring[1]
    if beyond.sum() >= min_pixels:
        return circular_mean(bearing[beyond])
    return circular_mean(bearing)


def ground_bearing(
    minimap: np.ndarray,
    rgb: tuple[int, int, int],
    colours: HudColours,
    ahead_deg: float = 80.0,
    ring: tuple[float, float] = (0.3, 0.95),
    min_pixels: int = 4,
) -> float | None:
    """The mean bearing of the minimap's pixels of ground colour ``rgb`` (a road) in ``ring``
    and within ``ahead_deg`` of ahead, the farther ones weighing more; None when too few.

    >>> mm = np.zeros((60, 60, 3), np.uint8); mm[:, 40:44] = (196, 176, 136)
    >>> 5 < ground_bearing(mm, (196, 176, 136), HudColours()) < 60
    True
    """
    h, w = minimap.shape[:2]
    mask = colour_mask(minimap, rgb, colours.tol, colours.blend) & _disc_mask(h, w, *ring)
    bearing, dist, _ = _polar(mask)
    keep = np.abs(bearing) <= ahead_deg
    if int(keep.sum()) < min_pixels:
        return None
    return circular_mean(bearing[keep], weights=dist[keep])


def blips(
    minimap: np.ndarray, rgb: tuple[int, int, int], colours: HudColours, min_area: int = 3
) -> list[Blip]:
    """The dots of colour ``rgb`` on the round minimap, nearest first."""
    h, w = minimap.shape[:2]
    mask = colour_mask(minimap, rgb, colours.tol, colours.blend) & _disc_mask(h, w)
    n, _, stats, centroids = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
    half = min(w, h) / 2.0
    out = []
    for i in range(1, n):
        area = int(stats[i, cv2.CC_STAT_AREA])
        if area < min_area:
            continue
        x, y = centroids[i]
        dx, dy = x - cx, y - cy
        out.append(Blip(math.degrees(math.atan2(dx, -dy)), math.hypot(dx, dy) / half, area))
    return sorted(out, key=lambda b: b.distance)


def box_present(
    frame: np.ndarray,
    region: Region,
    rgb: tuple[int, int, int],
    tol: int,
    min_fraction: float = 0.08,
) -> bool:
    """Whether colour ``rgb`` covers at least ``min_fraction`` of ``region``."""
    part = crop(frame, region)
    return float(colour_mask(part, rgb, tol).mean()) >= min_fraction


def tutorial_shown(
    frame: np.ndarray, region: Region, colours: HudColours, min_run: float = 0.3
) -> bool:
    """Whether a tutorial box shows: its accent strip, a column of the accent colour at least
    ``min_run`` of the region's height, at the region's left."""
    part = crop(frame, region)
    left = part[:, : max(2, part.shape[1] // 6)]
    m = colour_mask(left, colours.tutorial_accent, colours.tol + 20)
    return bool(m.any()) and float(m.mean(axis=0).max()) >= min_run


def prompt_shown(
    frame: np.ndarray, region: Region, colours: HudColours, min_fraction: float = 0.004
) -> bool:
    """Whether a key prompt (``[E] Hitch Horse``) shows: its white text in ``region``."""
    part = crop(frame, region)
    return float(colour_mask(part, colours.prompt_text, 8).mean()) >= min_fraction


def glyph_score(frame: np.ndarray, mask: np.ndarray, x0: int, y0: int, slack: int = 1) -> float:
    """How well white text shaped like ``mask`` (an alpha mask, 0-255) sits at (x0, y0):
    the mean brightness (darkest channel) under the glyphs minus that around them, at the
    best offset within ``slack`` pixels. About 0 where the text is not, up to ~255.

    >>> f = np.zeros((12, 12, 3), np.uint8); m = np.zeros((4, 4), np.uint8); m[1:3, 1:3] = 255
    >>> f[5:7, 5:7] = 255
    >>> glyph_score(f, m, 4, 4) > 200, glyph_score(f, m, 0, 0) < 50
    (True, True)
    """
    H, W = frame.shape[:2]
    h, w = mask.shape
    on, off = mask >= 160, mask <= 40
    if not on.any() or not off.any():
        return 0.0
    best = 0.0
    for dy in range(-slack, slack + 1):
        for dx in range(-slack, slack + 1):
            x, y = x0 + dx, y0 + dy
            if x < 0 or y < 0 or x + w > W or y + h > H:
                continue
            b = frame[y : y + h, x : x + w].min(axis=2).astype(np.float32)
            best = max(best, float(b[on].mean() - b[off].mean()))
    return best


def pause_menu_shown(frame: np.ndarray, colours: HudColours, min_run: float = 0.8) -> bool:
    """The ``pause_menu`` check of the live profile: the red rule under ``PAUSED`` spans the
    left quarter of the screen (0.06 to 0.30 of the width, at 0.24 of the height) over a
    dimmed picture. The real game's menu needs its own template (a screenshot of it)."""
    band = crop(frame, (0.07, 0.225, 0.22, 0.03))
    m = colour_mask(band, colours.pause_line, colours.tol + 20)
    return float(m.mean(axis=1).max()) >= min_run and float(frame.mean()) < 110


def angle_to_point(
    x: float, y: float, width: int, height: int, hfov_deg: float
) -> tuple[float, float]:
    """(yaw, pitch) degrees that bring screen point (x, y) under the centre crosshair.

    A pinhole camera with horizontal field of view ``hfov_deg``: yaw is positive to the right,
    pitch positive downwards (the mouse moves down to look down).

    >>> angle_to_point(1279.5, 359.5, 1280, 720, 90.0)
    (45.0, 0.0)
    """
    f = (width / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    dx = x + 0.5 - width / 2.0
    dy = y + 0.5 - height / 2.0
    yaw = math.degrees(math.atan2(dx, f))
    pitch = math.degrees(math.atan2(dy, math.hypot(f, dx)))
    return round(yaw, 6), round(pitch, 6)


def wheel_point(
    sector: int, sectors: int, width: int, height: int, radius: float = 0.25
) -> tuple[int, int]:
    """Screen point over sector ``sector`` of a wheel of ``sectors`` centred on the screen,
    counted clockwise from the top; ``radius`` is a fraction of the frame height.

    >>> wheel_point(0, 4, 100, 100)
    (50, 25)
    """
    a = math.radians(360.0 * sector / sectors)
    r = radius * height
    return int(round(width / 2 + r * math.sin(a))), int(round(height / 2 - r * math.cos(a)))
