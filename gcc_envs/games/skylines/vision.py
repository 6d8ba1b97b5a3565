"""Reading the simulated Cities: Skylines screen: menus, previews, the ground and the wind.

Pure functions of a frame (any size down to 72 × 128): the median colour of a toolbar button
tells whether its menu is open (the open one is lit), the median colour of the construction
info box tells the preview's status (nothing previewed, valid, refused). Medians ignore the
icons and text drawn on top. :func:`read_ground` reads every map cell of the untouched plot
from its top-left pixel (trees, ramp dashes and highway marks are drawn at cell centres): the
sea (bluer than green), the highway and its ramps (grey), the owned land (full brightness; land
not owned is drawn darker) and the woods (a dark-green dot at the centre). :func:`read_wind`
inverts the wind view's colour scale, given the same pixels of the bare map.

>>> import numpy as np
>>> from gcc_envs.games.skylines.sim import SkylinesSim
>>> sim = SkylinesSim(); sim.reset(np.random.default_rng(0))
>>> frame = sim.render(360, 640)
>>> open_menu(frame), preview_status(frame)
(None, 'none')
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from gcc_envs.games.skylines.sim import art, hud, layout, views

_MENUS = tuple(layout.BUTTONS)


def _median(frame: np.ndarray, rect: layout.Rect, inset: float = 0.18) -> np.ndarray:
    H, W = frame.shape[:2]
    x0, y0, x1, y1 = layout.scale(rect, W, H)
    dx, dy = int((x1 - x0) * inset), int((y1 - y0) * inset)
    patch = frame[y0 + dy : max(y1 - dy, y0 + dy + 1), x0 + dx : max(x1 - dx, x0 + dx + 1)]
    return np.median(patch.reshape(-1, 3), axis=0)


def _nearest(colour: np.ndarray, options: dict[str, tuple[int, int, int]]) -> str:
    return min(options, key=lambda k: float(np.sum((colour - np.array(options[k])) ** 2)))


def menu_is_open(frame: np.ndarray, menu: str) -> bool:
    """Whether the toolbar button of ``menu`` is lit."""
    c = _median(frame, layout.button_rect(menu))
    return _nearest(c, {"on": hud.BUTTON_ON, "off": hud.BUTTON_BG}) == "on"


def open_menu(frame: np.ndarray) -> str | None:
    """The menu whose panel is open, or None."""
    for m in _MENUS:
        if menu_is_open(frame, m):
            return m
    return None


def preview_status(frame: np.ndarray) -> str:
    """``"none"`` (nothing previewed), ``"ok"`` (valid) or ``"bad"`` (refused)."""
    return _nearest(_median(frame, layout.INFO_RECT, 0.1), hud.STATUS_BG)


@dataclass(frozen=True)
class Ground:
    """What the untouched plot shows, per map cell (``(ROWS, COLS)`` boolean grids)."""

    water: np.ndarray
    #: Grey cells: the highway and its two ramps.
    grey: np.ndarray
    #: Land drawn at full brightness (owned; land not owned is drawn darker).
    bright: np.ndarray
    trees: np.ndarray


def cell_pixels(frame: np.ndarray, centre: bool = False) -> np.ndarray:
    """Each map cell's top-left (or centre) pixel, ``(ROWS, COLS, 3)`` int32."""
    H, W = frame.shape[:2]
    xs, ys = layout.edges(W, H)
    if centre:
        xs = (xs[:-1] + xs[1:]) // 2
        ys = (ys[:-1] + ys[1:]) // 2
    else:
        xs, ys = xs[:-1], ys[:-1]
    return np.asarray(frame)[ys][:, xs].astype(np.int32)


def read_ground(frame: np.ndarray) -> Ground:
    """The sea, the grey highway and ramps, the bright (owned) land and the woods of a frame
    of the untouched plot (nothing built, no view open)."""
    p = cell_pixels(frame)
    r, g, b = p[..., 0], p[..., 1], p[..., 2]
    grey = (np.abs(r - g) < 10) & (np.abs(g - b) < 12)
    water = (b > g + 15) & ~grey
    # grass is drawn at green ~150-170 and sand ~200; land not owned at 0.62 of that
    bright = ~water & ~grey & (g > 128)
    c = cell_pixels(frame, centre=True)
    trees = ~water & (np.abs(c - np.array(art.TREE)).sum(axis=-1) < 16)
    return Ground(water=water, grey=grey, bright=bright, trees=trees)


def read_wind(bare: np.ndarray, view: np.ndarray, water: np.ndarray) -> np.ndarray:
    """Wind strength per map cell (0.3 to 1, two decimals) read from the wind view ``view``,
    given a frame of the same plot without a view (``bare``) and the sea (``water``)."""
    base = cell_pixels(
        cv2.cvtColor(np.ascontiguousarray(bare), cv2.COLOR_RGB2GRAY)[..., None].repeat(3, axis=2)
    )
    base = (base * 140 // 255 + 60).astype(np.float32)
    alpha = np.where(water, views.WIND_ALPHA["water"], views.WIND_ALPHA["land"])[..., None]
    a = (alpha * 256).astype(np.int32) / 256.0
    seen = cell_pixels(view).astype(np.float32)
    colour = base + (seen - base) / a  # the scale's colour under the tint
    steps = np.round(np.arange(0.3, 1.0001, 0.01), 2)
    scale = views.wind_colour(steps)  # (n, 3)
    d = ((colour[..., None, :] - scale) ** 2).sum(axis=-1)
    return steps[np.argmin(d, axis=-1)].astype(np.float32)
