"""A kill switch: a hotkey that stops all input from a desktop backend at once.

A background thread with its own X connection polls the keyboard (XQueryKeymap) every
``period_s``. When every key of the hotkey is down at once it releases what the backend holds
(through its own connection, so it needs nothing from the agent's thread) and sets
``tripped``; the backend then refuses every further event with "kill switch pressed".
``ctrl``, ``alt`` and ``shift`` match either the left or the right key.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

from gcc_envs.errors import GCCError

log = logging.getLogger(__name__)

#: The default hotkey: unlikely in play, easy to press with one hand.
DEFAULT_KILL_SWITCH = ("ctrl", "alt", "k")
_EITHER = {
    "ctrl": ("ctrlleft", "ctrlright"),
    "alt": ("altleft", "altright"),
    "shift": ("shiftleft", "shiftright"),
}

#: Returns the keycodes and button numbers the backend holds now.
Held = Callable[[], tuple[list[int], list[int]]]


class KillSwitch:
    """Watches ``keys`` on display ``display``; see the module docstring."""

    def __init__(
        self, display: str, keys: Sequence[str], held: Held, period_s: float = 0.02
    ) -> None:
        from gcc_envs.backends.desktop.x11 import X11

        if isinstance(keys, str) or not keys:
            raise GCCError(f"kill_switch must be a non-empty list of key names, got {keys!r}")
        self.keys = tuple(keys)
        self.tripped = threading.Event()
        self._stop = threading.Event()
        self._held = held
        self._period = period_s
        self._x = X11(display)
        try:
            self._groups = [self._codes(k) for k in self.keys]
        except GCCError:
            self._x.close()
            raise
        self._thread = threading.Thread(target=self._watch, name="gcc-kill-switch", daemon=True)
        self._thread.start()

    def _codes(self, key: str) -> set[int]:
        return {self._x.stroke(name).keycode for name in _EITHER.get(key, (key,))}

    def _watch(self) -> None:
        while not self._stop.wait(self._period):
            try:
                down = self._x.pressed_keycodes()
            except Exception:  # noqa: BLE001 - the display went away: nothing left to guard
                return
            if all(group & down for group in self._groups):
                self.trip()
                return

    def trip(self) -> None:
        """Stop input now: release what the backend holds, then refuse further input."""
        self.tripped.set()
        log.warning("kill switch %s pressed: input stopped", "+".join(self.keys))
        codes, buttons = self._held()
        for code in reversed(codes):
            self._x.key(code, False)
        for number in buttons:
            self._x.button(number, False)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        self._x.close()
