"""Window lookup, focus and capture shared by the Windows and macOS input modules.

Both platforms find and focus windows through pywinctl and capture through mss; only input
differs (``windows.py``, ``macos.py``). Neither has run on its platform in this project.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from gcc_envs.errors import BackendError, MissingExtraError


def pywinctl() -> Any:
    """The pywinctl module, or an error naming the extra that installs it."""
    try:
        import pywinctl as module
    except ImportError as e:
        raise MissingExtraError("pywinctl", "desktop") from e
    return module


class WinCtlScreen:
    """Windows by title regex, focus, client geometry, and region capture."""

    #: What to say when a capture comes back empty (a platform's permission hint).
    empty_capture_hint = "empty capture"
    _mss: Any = None

    def find(self, title: str) -> Any | None:
        """The first window whose title matches the regex ``title``."""
        pattern = re.compile(title)
        for win in pywinctl().getAllWindows():
            if pattern.search(win.title or ""):
                return win
        return None

    def focus(self, win: Any) -> bool:
        try:
            win.activate(wait=True)
        except Exception as e:  # noqa: BLE001 - pywinctl raises platform errors
            raise BackendError(f"cannot focus {win.title!r}: {e}") from e
        return bool(win.isActive)

    def geometry(self, win: Any) -> tuple[int, int, int, int]:
        """The window's client area ``(left, top, width, height)``."""
        r = win.getClientFrame()
        return int(r.left), int(r.top), int(r.right - r.left), int(r.bottom - r.top)

    def grab(self, rect: tuple[int, int, int, int]) -> np.ndarray:
        """The screen region ``rect`` as a fresh RGB array."""
        import cv2

        if self._mss is None:
            try:
                import mss
            except ImportError as e:
                raise MissingExtraError("mss", "desktop") from e
            self._mss = mss.mss()
        left, top, width, height = rect
        shot = self._mss.grab({"left": left, "top": top, "width": width, "height": height})
        if shot.width == 0 or shot.height == 0:
            raise BackendError(self.empty_capture_hint)
        bgra = np.frombuffer(shot.bgra, np.uint8).reshape(shot.height, shot.width, 4)
        return cv2.cvtColor(bgra, cv2.COLOR_BGRA2RGB)
