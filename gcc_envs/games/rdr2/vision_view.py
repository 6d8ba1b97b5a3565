"""Reading RDR2's view (not its HUD): flat-painted patches (drawers, doors, a clerk's shirt,
a bandana), how far a thing standing on the ground is, sky overhead, a door set in a wall and
the hit marker. Pure functions of frames (``(H, W, 3)`` uint8 RGB); no game state. The HUD's
minimap and prompts are :mod:`.vision`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim.layers import runs
from gcc_envs.games.rdr2.vision import colour_mask


@dataclass(frozen=True)
class ScreenBlob:
    """A patch of one flat colour in the view: its bounding box in pixels (``right`` and
    ``bottom`` exclusive), the centre column and how many pixels it has."""

    left: int
    top: int
    right: int
    bottom: int
    area: int

    @property
    def x(self) -> float:
        return (self.left + self.right - 1) / 2.0

    @property
    def width(self) -> int:
        return self.right - self.left

    @property
    def height(self) -> int:
        return self.bottom - self.top


def colour_blobs(
    frame: np.ndarray,
    rgb: tuple[int, int, int],
    tol: int,
    min_area: int = 4,
    min_fill: float = 0.0,
    rows: tuple[float, float] = (0.0, 1.0),
) -> list[ScreenBlob]:
    """The patches of ``rgb`` (± ``tol`` per channel) in ``frame`` between the fractions
    ``rows`` of its height, with at least ``min_area`` pixels filling at least ``min_fill`` of
    their box (flat painted panels do, textures only in specks), largest first.

    >>> f = np.zeros((20, 20, 3), np.uint8); f[4:8, 10:16] = (150, 108, 64)
    >>> [(b.left, b.top, b.width, b.height) for b in colour_blobs(f, (150, 108, 64), 8)]
    [(10, 4, 6, 4)]
    """
    H = frame.shape[0]
    y0, y1 = int(round(rows[0] * H)), int(round(rows[1] * H))
    mask = colour_mask(frame[y0:y1], rgb, tol)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=4)
    out = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area >= min_area and area >= min_fill * w * h:
            out.append(ScreenBlob(x, y + y0, x + w, y + y0 + h, area))
    return sorted(out, key=lambda b: -b.area)


def merge_columns(blobs: list[ScreenBlob], gap: int = 1) -> list[ScreenBlob]:
    """Blobs whose column ranges overlap (within ``gap`` pixels) merged into one box each
    (the panels of one piece of furniture, the parts of one figure), largest first.

    >>> a, b = ScreenBlob(0, 0, 4, 2, 8), ScreenBlob(1, 3, 5, 5, 8)
    >>> merge_columns([a, b, ScreenBlob(9, 0, 11, 2, 4)])[0]
    ScreenBlob(left=0, top=0, right=5, bottom=5, area=16)
    """
    groups: list[ScreenBlob] = []
    for b in sorted(blobs, key=lambda b: b.left):
        if groups and b.left <= groups[-1].right + gap:
            g = groups[-1]
            groups[-1] = ScreenBlob(
                g.left, min(g.top, b.top), max(g.right, b.right), max(g.bottom, b.bottom),
                g.area + b.area,
            )  # fmt: skip
        else:
            groups.append(b)
    return sorted(groups, key=lambda b: -b.area)


def ground_distance(bottom: float, height: int, width: int, hfov_deg: float, eye_m: float) -> float:
    """Metres to where a thing standing on the ground meets it at row ``bottom`` (the view
    level, its horizon in the middle row): ``inf`` at or above the horizon.

    >>> round(ground_distance(180.0, 180, 320, 70.0, 1.6), 2)
    4.06
    """
    f = (width / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    below = bottom - height / 2.0
    return math.inf if below <= 0 else eye_m * f / below


def sky_share(frame: np.ndarray, band: float = 0.1, skip_left: float = 0.35) -> float:
    """The share of the view's top ``band`` (right of the tutorial box's ``skip_left``) that is
    sky: bright, and at least as blue as it is red. Under a roof (a ceiling of planks) or
    facing a wall it is about 0.

    >>> f = np.zeros((10, 10, 3), np.uint8); f[:] = (144, 175, 212)
    >>> sky_share(f), sky_share(f[..., ::-1].copy())
    (1.0, 0.0)
    """
    H, W = frame.shape[:2]
    top = frame[: max(1, int(band * H)), int(skip_left * W) :].astype(np.int16)
    sky = (top[..., 2] >= top[..., 0]) & (top.sum(axis=2) > 300)
    return float(sky.mean())


def tint_mask(
    img: np.ndarray,
    g_over_r: tuple[float, float],
    b_over_r: tuple[float, float],
    min_r: int = 40,
) -> np.ndarray:
    """Pixels whose green and blue stand to their red within the given ratios (a paint's
    tint, however lit or shaded), and whose red is at least ``min_r``.

    >>> img = np.array([[[196, 176, 136], [98, 88, 68], [124, 132, 96]]], np.uint8)
    >>> tint_mask(img, (0.85, 0.95), (0.64, 0.8)).tolist()
    [[True, True, False]]
    """
    f = img[..., :3].astype(np.float32)
    r, g, b = f[..., 0], f[..., 1], f[..., 2]
    return (
        (r >= min_r)
        & (g >= g_over_r[0] * r)
        & (g <= g_over_r[1] * r)
        & (b >= b_over_r[0] * r)
        & (b <= b_over_r[1] * r)
    )


def door_in_wall(
    wall: np.ndarray, door: np.ndarray, min_rows: int = 3, reach: int = 3
) -> tuple[int, int] | None:
    """Columns ``[left, right)`` of the widest run of door-coloured columns (at least
    ``min_rows`` ``door`` pixels, fewer ``wall`` ones) that has wall-coloured columns within
    ``reach`` pixels on both sides: a door set in a wall; None when there is none. ``wall`` and
    ``door`` are masks of the same band of a view.

    >>> wall = np.zeros((6, 12), bool); door = np.zeros((6, 12), bool)
    >>> wall[:, :4] = wall[:, 7:] = True; door[:, 4:7] = True
    >>> door_in_wall(wall, door)
    (4, 7)
    """
    w_cols, d_cols = wall.sum(axis=0), door.sum(axis=0)
    is_wall = w_cols >= min_rows
    is_door = (d_cols >= min_rows) & (d_cols > w_cols)
    best: tuple[int, int] | None = None
    for x, x1 in runs(is_door, gap=0):
        left = is_wall[max(0, x - reach) : x].any()
        right = is_wall[x1 : x1 + reach].any()
        if left and right and (best is None or x1 - x > best[1] - best[0]):
            best = (x, x1)
    return best


def hit_marker(frame: np.ndarray, inner: int = 5, outer: int = 14, base_h: int = 720) -> bool:
    """Whether the hit marker shows: four white strokes on the diagonals around the view's
    centre, from ``inner`` to ``outer`` pixels out at a height of ``base_h`` (scaled).

    >>> f = np.zeros((180, 320, 3), np.uint8)
    >>> for k in (2, 3): f[90 + k, 160 + k] = f[90 - k, 160 - k] = f[90 + k, 160 - k] = f[90 - k, 160 + k] = 255
    >>> hit_marker(f), hit_marker(np.zeros_like(f))
    (True, False)
    """
    H, W = frame.shape[:2]
    s = min(H / base_h, W / (base_h * 16 / 9))
    g, k = max(1, round(inner * s)), max(2, round(outer * s))
    cx, cy = W // 2, H // 2
    lum = frame[..., :3].min(axis=2)
    for sx, sy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        ks = range(g + 1, k)
        if not any(lum[cy + sy * d, cx + sx * d] >= 250 for d in ks):
            return False
    return True


@dataclass(frozen=True)
class Figure:
    """A wolf's figure in the view: its box, and the way its head points (+1 right, -1 left):
    the side-view art faces the way the animal runs across the view."""

    box: ScreenBlob
    facing: int


#: The red the view is washed with when the player is hurt, towards its corners.
HURT_RED = 170


def hurt_reach(height: int, width: int) -> np.ndarray:
    """(H, W) weight of the red wash at each pixel when it is at its strongest: 0 about the
    middle, 1 in the corners.

    >>> v = hurt_reach(90, 160); float(v[45, 80]), float(v[0, 0]) > 0.95
    (0.0, True)
    """
    y = (np.arange(height, dtype=np.float32) + 0.5) / height * 2.0 - 1.0
    x = (np.arange(width, dtype=np.float32) + 0.5) / width * 2.0 - 1.0
    r = np.sqrt(x[None, :] ** 2 + y[:, None] ** 2) / math.sqrt(2.0)
    return np.clip((r - 0.35) / 0.65, 0.0, 1.0) ** 1.5


def wolf_mask(frame: np.ndarray) -> np.ndarray:
    """Pixels of a wolf's coat: a cool grey, its blue a little above its green (rock is a warm
    grey, snow far brighter, the horses brown), seen through the red wash of a hurt view (a
    grey's red above its green is the wash, no more than reaches that pixel).

    >>> f = np.array([[[133, 133, 137], [133, 131, 128], [222, 226, 234], [70, 70, 76]]], np.uint8)
    >>> wolf_mask(f).tolist()
    [[True, False, False, True]]
    """
    return _wolf_coat(frame)[0]


def _wolf_coat(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`wolf_mask`, and each pixel's green before the wash (in steps of 3 levels)."""
    H, W = frame.shape[:2]
    f = frame[..., :3].astype(np.float32)
    r, g, b = f[..., 0], f[..., 1], f[..., 2]
    wash = np.clip((r - g) / HURT_RED, 0.0, 0.9)
    keep = 1.0 - wash
    g0, b0 = g / keep, b / keep  # the colours before the wash
    bright = 2.0 * g0 + b0
    mask = (
        (r - g >= -3.0)
        & (wash <= hurt_reach(H, W) + 0.02)
        & (b0 - g0 >= 1.5)
        & (b0 - g0 <= 12.5)
        & (bright > 120)
        & (bright < 570)
    )
    return mask, np.round(g0 / 3.0).astype(np.int16)


def wolf_figures(
    frame: np.ndarray,
    horizon: float,
    min_area: int = 12,
    min_height: int = 4,
    min_flat: float = 0.4,
) -> list[Figure]:
    """The wolves standing below the view's ``horizon`` row (a wolf is lower than the eye, so
    its whole figure lies below it; far rock and ledges of snow reach above), out of the HUD's
    corners and subtitles, largest (nearest) first, with the way each faces (its ears and head
    are the top of its figure, at one end). A coat is painted flat: at least ``min_flat`` of a
    figure's pixels share one colour (fogged rock far off is speckled).

    >>> f = np.full((90, 160, 3), 224, np.uint8); f[60:70, 40:60] = (133, 133, 137)
    >>> f[56:60, 54:58] = (70, 70, 76)  # the ears, at the right
    >>> [(w.box.left, w.box.top, w.box.width, w.facing) for w in wolf_figures(f, 45.0)]
    [(40, 56, 20, 1)]
    """
    H, W = frame.shape[:2]
    mask, shade = _wolf_coat(frame)
    mask[: max(0, int(math.floor(horizon)) + 1)] = False
    mask[: int(0.3 * H), : int(0.36 * W)] = False  # the tutorial box
    mask[int(0.62 * H) :, : int(0.175 * W)] = False  # the cores and the minimap
    mask[int(0.82 * H) :] = False  # subtitles and prompts
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    out = []
    for i in range(1, n):
        x, y, w, h, a = (int(v) for v in stats[i])
        if a < min_area or h < min_height or w < h:  # a wolf is seen from its side
            continue
        pixels = shade[y : y + h, x : x + w][labels[y : y + h, x : x + w] == i]
        _, counts = np.unique(pixels, return_counts=True)
        if counts.max() < min_flat * a:  # fogged rock is speckled, a coat flat
            continue
        top = labels[y : y + max(1, h // 4), x : x + w] == i
        cols = np.nonzero(top.any(axis=0))[0]
        head = (cols.mean() if cols.size else (w - 1) / 2.0) - (w - 1) / 2.0
        out.append(Figure(ScreenBlob(x, y, x + w, y + h, a), 1 if head >= 0 else -1))
    return sorted(out, key=lambda f: -f.box.area)
