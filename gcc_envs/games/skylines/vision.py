"""Reading the simulated Cities: Skylines screen: which menu is open, whether a preview shows.

Pure functions of a frame (any size down to 72 × 128): the median colour of a toolbar button
tells whether its menu is open (the open one is lit), the median colour of the construction
info box tells the preview's status (nothing previewed, valid, refused). Medians ignore the
icons and text drawn on top.

>>> import numpy as np
>>> from gcc_envs.games.skylines.sim import SkylinesSim
>>> sim = SkylinesSim(); sim.reset(np.random.default_rng(0))
>>> frame = sim.render(360, 640)
>>> open_menu(frame), preview_status(frame)
(None, 'none')
"""

from __future__ import annotations

import numpy as np

from gcc_envs.games.skylines.sim import hud, layout

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
