"""macOS input, window lookup and capture: Quartz ``CGEvent`` (pyobjc), pywinctl, mss.

The same interface as :class:`gcc_envs.backends.desktop.x11.X11`'s input part: ``stroke``,
``key(code, down)``, ``move(x, y)``, ``move_by(dx, dy)``, ``button(number, down)`` (X11
numbers), plus ``find``, ``focus``, ``geometry`` and ``grab``. Coordinates are points (the
unit Quartz takes and window frames report); ``grab`` returns pixels, twice as many on a Retina
screen, and the backend resizes frames to the observation size anyway. Relative moves fill
``kCGMouseEventDeltaX/Y``, which games with a camera mouse read. Numbers come from
:mod:`keymaps` and :mod:`inputfields`.

Posting events needs the Accessibility permission and capture the Screen Recording
permission (System Settings → Privacy & Security) for the Python running this.

Not exercised on macOS in this project: it imports anywhere (pyobjc is imported on first
use) and its translation is unit-tested on Linux.
"""

from __future__ import annotations

from typing import Any

from gcc_envs.backends.desktop import inputfields as fields
from gcc_envs.backends.desktop import keymaps as km
from gcc_envs.backends.desktop.winctl import WinCtlScreen
from gcc_envs.errors import BackendError, InvalidActionError, MissingExtraError

_BUTTON_NAMES = {1: "left", 2: "middle", 3: "right"}


def _quartz() -> Any:
    try:
        import Quartz
    except ImportError as e:
        raise MissingExtraError("pyobjc-framework-Quartz", "desktop") from e
    return Quartz


class MacDesktop(WinCtlScreen):
    """Input to, and windows and pixels of, the macOS session this process runs in."""

    empty_capture_hint = "empty capture; grant this Python the Screen Recording permission"

    def __init__(self, quartz: Any = None) -> None:
        """``quartz``: the pyobjc ``Quartz`` module (default: imported; tests pass a recorder)."""
        self.Q = quartz if quartz is not None else _quartz()
        self._keys: set[int] = set()
        self._buttons: set[str] = set()
        self._mss: Any = None

    # ------------------------------------------------------------------ input
    def stroke(self, key: str) -> km.MacStroke:
        return km.mac_stroke(key)

    @property
    def shift_keycode(self) -> int:
        return km.mac_stroke("shift").keycode

    def _post(self, event: Any) -> None:
        if event is None:
            raise BackendError(
                "Quartz refused to create the event; grant this Python the Accessibility "
                "permission (System Settings → Privacy & Security → Accessibility)"
            )
        self.Q.CGEventPost(self.Q.kCGHIDEventTap, event)

    def key(self, code: int, down: bool) -> None:
        if down:
            self._keys.add(code)
        else:
            self._keys.discard(code)
        event = self.Q.CGEventCreateKeyboardEvent(None, code, down)
        if event is not None:
            self.Q.CGEventSetFlags(event, km.mac_flags(self._keys))
        self._post(event)

    def _pointer(self) -> tuple[float, float]:
        p = self.Q.CGEventGetLocation(self.Q.CGEventCreate(None))
        return float(p.x), float(p.y)

    def move(self, x: float, y: float) -> None:
        kind, button = fields.mac_move_event(self._buttons)
        self._post(self.Q.CGEventCreateMouseEvent(None, kind, (x, y), button))

    def move_by(self, dx: int, dy: int) -> None:
        b = self.Q.CGDisplayBounds(self.Q.CGMainDisplayID())
        bounds = (b.origin.x, b.origin.y, b.size.width, b.size.height)
        target = fields.mac_rel_target(self._pointer(), dx, dy, bounds)
        kind, button = fields.mac_move_event(self._buttons)
        event = self.Q.CGEventCreateMouseEvent(None, kind, target, button)
        if event is not None:
            self.Q.CGEventSetIntegerValueField(event, fields.MAC_FIELD_DELTA_X, int(dx))
            self.Q.CGEventSetIntegerValueField(event, fields.MAC_FIELD_DELTA_Y, int(dy))
        self._post(event)

    def button(self, number: int, down: bool) -> None:
        if number in _BUTTON_NAMES:
            name = _BUTTON_NAMES[number]
            kind, button = fields.mac_button_event(name, down)
            (self._buttons.add if down else self._buttons.discard)(name)
            self._post(self.Q.CGEventCreateMouseEvent(None, kind, self._pointer(), button))
        elif number in (4, 5, 6, 7):
            if down:  # a wheel click happens on press
                wheel1, wheel2 = fields.mac_scroll(number)
                unit = self.Q.kCGScrollEventUnitLine
                self._post(self.Q.CGEventCreateScrollWheelEvent(None, unit, 2, wheel1, wheel2))
        else:
            raise InvalidActionError(f"no mouse button number {number}")
