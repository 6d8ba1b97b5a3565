"""Window-region capture with ``mss``: clipped to the screen, BGRA → RGB, resized to the obs size.

Xvfb (and mss in general) leaves the mouse cursor out of screenshots; :func:`draw_pointer`
draws an arrow where the pointer is, for agents that must see it.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from gcc_envs.errors import BackendError, MissingExtraError

try:
    import mss
except ImportError as e:  # pragma: no cover - the desktop extra is missing
    raise MissingExtraError("mss", "desktop") from e


def clip_region(
    x: int, y: int, w: int, h: int, screen: tuple[int, int]
) -> tuple[int, int, int, int]:
    """``(x, y, w, h)`` clipped to a ``screen=(W, H)``; raises when nothing is left.

    >>> clip_region(-10, 5, 100, 100, (50, 50))
    (0, 5, 50, 45)
    """
    W, H = screen
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, W), min(y + h, H)
    if x1 <= x0 or y1 <= y0:
        raise BackendError(f"the window ({x}, {y}, {w}x{h}) lies off the {W}x{H} screen")
    return x0, y0, x1 - x0, y1 - y0


#: Arrow outline (x, y) in pixels, tip at (0, 0): the classic cursor shape.
_ARROW = np.array([(0, 0), (0, 17), (4, 13), (7, 20), (10, 19), (7, 12), (12, 12)], np.int32)


def draw_pointer(img: np.ndarray, x: int, y: int) -> None:
    """Draw a white, black-edged arrow with its tip at ``(x, y)`` into ``img`` (in place).

    >>> img = np.zeros((30, 30, 3), np.uint8)
    >>> draw_pointer(img, 5, 5)
    >>> bool(img[12, 7].any()), bool(img[2, 2].any())
    (True, False)
    """
    pts = _ARROW + np.array([x, y], np.int32)
    cv2.fillPoly(img, [pts], (255, 255, 255), lineType=cv2.LINE_AA)
    cv2.polylines(img, [pts], True, (0, 0, 0), 1, lineType=cv2.LINE_AA)


class Grabber:
    """Grabs screen regions of one X display as RGB arrays."""

    def __init__(self, display: str) -> None:
        try:
            self._mss: Any = mss.MSS(display=display)
        except Exception as e:  # mss raises ScreenShotError and OS errors
            raise BackendError(f"mss cannot open display {display!r}: {e}") from e

    def grab(
        self,
        x: int,
        y: int,
        w: int,
        h: int,
        screen: tuple[int, int],
        out_size: tuple[int, int],
        pointer: tuple[int, int] | None = None,
    ) -> np.ndarray:
        """The region's pixels as a fresh ``out_size=(W, H)`` RGB uint8 array.

        The part of the window outside the screen is black; the window's full size is kept.
        With ``pointer`` (screen pixels) an arrow is drawn there before resizing.
        """
        cx, cy, cw, ch = clip_region(x, y, w, h, screen)
        shot = self._mss.grab({"left": cx, "top": cy, "width": cw, "height": ch})
        # ``raw`` is the grab's own buffer (``bgra`` would copy it once more)
        bgra = np.frombuffer(shot.raw, np.uint8).reshape(shot.height, shot.width, 4)
        rgb = cv2.cvtColor(bgra, cv2.COLOR_BGRA2RGB)
        if (cw, ch) != (w, h):
            full = np.zeros((h, w, 3), np.uint8)
            full[cy - y : cy - y + ch, cx - x : cx - x + cw] = rgb
            rgb = full
        if pointer is not None:
            draw_pointer(rgb, pointer[0] - x, pointer[1] - y)
        if (w, h) != tuple(out_size):
            rgb = cv2.resize(rgb, tuple(out_size), interpolation=cv2.INTER_AREA)
        return rgb

    def close(self) -> None:
        self._mss.close()
