"""The ``key`` pause strategy: press the game's pause key and confirm the pause screen.

A player pauses RDR2 with Esc and sees the pause menu. Here the key is tapped, and the pause
screen is confirmed by template matching (``TM_CCOEFF_NORMED`` ≥ ``threshold``) within
``confirm_s``; if it does not show, the key is tapped once more; if it still does not show,
:class:`BackendError` says so. Resuming taps the key again and waits for the screen to go.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gcc_envs.core.image_match import load_template, match_score
from gcc_envs.errors import BackendError, GCCError


class KeyPause:
    """Pause by ``key``, confirmed by ``template`` (a PNG path or an RGB array)."""

    def __init__(
        self,
        key: str,
        template: str | Path | np.ndarray,
        *,
        threshold: float = 0.8,
        confirm_s: float = 1.5,
    ) -> None:
        if not key:
            raise GCCError("pause='key' needs pause_key= (the game's pause key, e.g. 'esc')")
        self.key = key
        self.template = template if isinstance(template, np.ndarray) else load_template(template)
        self.threshold = threshold
        self.confirm_s = confirm_s
        #: Seconds the last pause / resume took (measured, for reports).
        self.last_pause_s = 0.0
        self.last_resume_s = 0.0

    def shown(self, frame: np.ndarray, scale: float = 1.0) -> bool:
        """Whether the pause screen is in ``frame``."""
        return match_score(frame, self.template, scale) >= self.threshold

    def pause(
        self, tap: Callable[[str], None], grab: Callable[[], np.ndarray], scale: float
    ) -> None:
        t0 = time.perf_counter()
        self._toggle(tap, grab, scale, want=True)
        self.last_pause_s = time.perf_counter() - t0

    def resume(
        self, tap: Callable[[str], None], grab: Callable[[], np.ndarray], scale: float
    ) -> None:
        t0 = time.perf_counter()
        self._toggle(tap, grab, scale, want=False)
        self.last_resume_s = time.perf_counter() - t0

    def _toggle(
        self, tap: Callable[[str], None], grab: Callable[[], np.ndarray], scale: float, want: bool
    ) -> None:
        if self.shown(grab(), scale) == want:
            return
        for _attempt in range(2):  # the game may miss one tap (a loading frame): retry once
            tap(self.key)
            deadline = time.monotonic() + self.confirm_s
            while time.monotonic() < deadline:
                if self.shown(grab(), scale) == want:
                    return
                time.sleep(0.02)
        state = "appear" if want else "go away"
        raise BackendError(
            f"pressed {self.key!r} twice but the pause screen did not {state} within "
            f"{self.confirm_s:.1f} s each (template match below {self.threshold}); check "
            "pause_key and pause_template, or use another pause strategy"
        )
