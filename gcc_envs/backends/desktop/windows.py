"""Windows input, window lookup and capture: ``SendInput`` through ctypes, pywinctl, mss.

The same interface as :class:`gcc_envs.backends.desktop.x11.X11`'s input part: ``stroke``,
``key(code, down)``, ``move(x, y)``, ``move_by(dx, dy)``, ``button(number, down)`` (X11
numbers: 1 left, 2 middle, 3 right, 4/5 wheel up/down, 6/7 wheel left/right), plus ``find``,
``focus``, ``geometry`` and ``grab``. Keys go as scan codes (``KEYEVENTF_SCANCODE``) so
DirectInput games see them; relative moves go without ``MOUSEEVENTF_ABSOLUTE`` so raw-input
games turn. All numbers come from :mod:`keymaps` and :mod:`inputfields`.

Not exercised on Windows in this project: importing it works anywhere (``ctypes.windll`` is
touched only when input is sent) and the structures it builds are unit-tested on Linux.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

from gcc_envs.backends.desktop import inputfields as fields
from gcc_envs.backends.desktop import keymaps as km
from gcc_envs.backends.desktop.winctl import WinCtlScreen
from gcc_envs.errors import BackendError, InvalidActionError

_ULONG_PTR = ctypes.c_size_t  # pointer-sized, as on Windows


class MOUSEINPUT(ctypes.Structure):
    _fields_ = [
        ("dx", ctypes.c_int32),
        ("dy", ctypes.c_int32),
        ("mouseData", ctypes.c_uint32),
        ("dwFlags", ctypes.c_uint32),
        ("time", ctypes.c_uint32),
        ("dwExtraInfo", _ULONG_PTR),
    ]


class KEYBDINPUT(ctypes.Structure):
    _fields_ = [
        ("wVk", ctypes.c_uint16),
        ("wScan", ctypes.c_uint16),
        ("dwFlags", ctypes.c_uint32),
        ("time", ctypes.c_uint32),
        ("dwExtraInfo", _ULONG_PTR),
    ]


class HARDWAREINPUT(ctypes.Structure):
    _fields_ = [
        ("uMsg", ctypes.c_uint32),
        ("wParamL", ctypes.c_uint16),
        ("wParamH", ctypes.c_uint16),
    ]


class _INPUTUNION(ctypes.Union):
    _fields_ = [("mi", MOUSEINPUT), ("ki", KEYBDINPUT), ("hi", HARDWAREINPUT)]


class INPUT(ctypes.Structure):
    _fields_ = [("type", ctypes.c_uint32), ("u", _INPUTUNION)]


def key_input(code: int, down: bool) -> INPUT:
    """The ``INPUT`` record for a key (a :attr:`keymaps.WinStroke.keycode`) going down or up."""
    f = fields.win_key_fields(code, down)
    return INPUT(fields.INPUT_KEYBOARD, _INPUTUNION(ki=KEYBDINPUT(f.vk, f.scan, f.flags, 0, 0)))


def mouse_input(f: fields.MouseFields) -> INPUT:
    """The ``INPUT`` record of mouse field values."""
    return INPUT(fields.INPUT_MOUSE, _INPUTUNION(mi=MOUSEINPUT(f.dx, f.dy, f.data, f.flags, 0, 0)))


#: X11 button numbers → what they do here.
_BUTTON_NAMES = {1: "left", 2: "middle", 3: "right"}
_WHEEL = {4: (1, False), 5: (-1, False), 6: (-1, True), 7: (1, True)}


def button_inputs(number: int, down: bool) -> list[INPUT]:
    """``INPUT`` records for X11 button ``number``; a wheel click happens on press only."""
    if number in _BUTTON_NAMES:
        return [mouse_input(fields.win_button_fields(_BUTTON_NAMES[number], down))]
    if number in _WHEEL:
        clicks, horizontal = _WHEEL[number]
        return [mouse_input(fields.win_scroll_fields(clicks, horizontal))] if down else []
    raise InvalidActionError(f"no mouse button number {number}")


def _user32() -> Any:
    if sys.platform != "win32":
        raise BackendError("the Windows input path runs on Windows only")
    return ctypes.windll.user32  # type: ignore[attr-defined]


class WindowsDesktop(WinCtlScreen):
    """Input to, and windows and pixels of, the Windows desktop this process runs on."""

    #: ``GetSystemMetrics`` indices of the virtual screen (all monitors).
    _SM_VIRTUAL = (76, 77, 78, 79)

    def __init__(self, user32: Any = None) -> None:
        """``user32``: the DLL to call (default ``ctypes.windll.user32``; tests pass a recorder)."""
        if user32 is None:
            user32 = _user32()
            try:  # physical pixels everywhere: capture, window rects and input agree
                ctypes.windll.shcore.SetProcessDpiAwareness(2)  # type: ignore[attr-defined]
            except (AttributeError, OSError):
                user32.SetProcessDPIAware()
        self.user32 = user32
        self._mss: Any = None

    # ------------------------------------------------------------------ input
    def stroke(self, key: str) -> km.WinStroke:
        return km.win_stroke(key)

    @property
    def shift_keycode(self) -> int:
        return km.win_stroke("shift").keycode

    def _send(self, inputs: list[INPUT]) -> None:
        if not inputs:
            return
        array = (INPUT * len(inputs))(*inputs)
        sent = self.user32.SendInput(len(inputs), array, ctypes.sizeof(INPUT))
        if sent != len(inputs):
            raise BackendError(
                f"SendInput sent {sent} of {len(inputs)} events: input is blocked (UIPI: the "
                "target runs elevated, or a secure desktop is showing)"
            )

    def key(self, code: int, down: bool) -> None:
        self._send([key_input(code, down)])

    def virtual_screen(self) -> tuple[int, int, int, int]:
        m = self.user32.GetSystemMetrics
        return tuple(int(m(i)) for i in self._SM_VIRTUAL)  # type: ignore[return-value]

    def move(self, x: int, y: int) -> None:
        self._send([mouse_input(fields.win_move_fields(x, y, self.virtual_screen()))])

    def move_by(self, dx: int, dy: int) -> None:
        self._send([mouse_input(fields.win_move_rel_fields(dx, dy))])

    def button(self, number: int, down: bool) -> None:
        self._send(button_inputs(number, down))
