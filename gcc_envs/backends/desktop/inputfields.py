"""Field values of ``SendInput`` records (Windows) and Quartz events (macOS), and coordinates.

Pure functions from key codes (:mod:`.keymaps`), buttons and screen pixels to the numbers the
OS calls take, unit-tested on any platform; :mod:`.windows` and :mod:`.macos` only pack and
post them.

>>> normalize_absolute(960, 540, (0, 0, 1920, 1080))
(32785, 32798)
"""

from __future__ import annotations

from dataclasses import dataclass

from gcc_envs.errors import InvalidActionError

# ---------------------------------------------------------------------- SendInput field values
INPUT_MOUSE, INPUT_KEYBOARD = 0, 1
KEYEVENTF_EXTENDEDKEY, KEYEVENTF_KEYUP, KEYEVENTF_SCANCODE = 0x0001, 0x0002, 0x0008
MOUSEEVENTF_MOVE, MOUSEEVENTF_ABSOLUTE, MOUSEEVENTF_VIRTUALDESK = 0x0001, 0x8000, 0x4000
MOUSEEVENTF_WHEEL, MOUSEEVENTF_HWHEEL = 0x0800, 0x1000
WHEEL_DELTA = 120
#: Button name → (down flag, up flag).
MOUSE_BUTTON_FLAGS = {
    "left": (0x0002, 0x0004),
    "right": (0x0008, 0x0010),
    "middle": (0x0020, 0x0040),
}


@dataclass(frozen=True)
class KeyFields:
    """``KEYBDINPUT`` values: ``wVk``, ``wScan``, ``dwFlags``."""

    vk: int
    scan: int
    flags: int


@dataclass(frozen=True)
class MouseFields:
    """``MOUSEINPUT`` values: ``dx``, ``dy``, ``mouseData`` (as an unsigned DWORD), ``dwFlags``."""

    dx: int
    dy: int
    data: int
    flags: int


def win_key_fields(code: int, down: bool) -> KeyFields:
    """``KEYBDINPUT`` for a :attr:`WinStroke.keycode` going down or up.

    >>> win_key_fields(0x11, True), win_key_fields(0xE048, False)
    (KeyFields(vk=0, scan=17, flags=8), KeyFields(vk=0, scan=72, flags=11))
    """
    up = 0 if down else KEYEVENTF_KEYUP
    if code & 0x10000:
        return KeyFields(code & 0xFFFF, 0, up)
    flags = KEYEVENTF_SCANCODE | up | (KEYEVENTF_EXTENDEDKEY if code & 0xE000 == 0xE000 else 0)
    return KeyFields(0, code & 0xFF, flags)


def normalize_absolute(
    x: int, y: int, virtual_screen: tuple[int, int, int, int]
) -> tuple[int, int]:
    """Screen pixel → ``MOUSEEVENTF_ABSOLUTE`` coordinates (0..65535 over the virtual screen).

    ``virtual_screen`` is ``(left, top, width, height)``; pixels outside are clamped to it.
    """
    left, top, width, height = virtual_screen
    if width < 1 or height < 1:
        raise InvalidActionError(f"virtual screen {virtual_screen} has no area")
    cx = min(max(x - left, 0), width - 1)
    cy = min(max(y - top, 0), height - 1)
    return (
        round(cx * 65535 / max(width - 1, 1)),
        round(cy * 65535 / max(height - 1, 1)),
    )


def win_move_fields(x: int, y: int, virtual_screen: tuple[int, int, int, int]) -> MouseFields:
    """An absolute move to screen pixel ``(x, y)`` (the virtual desktop, all monitors)."""
    nx, ny = normalize_absolute(x, y, virtual_screen)
    flags = MOUSEEVENTF_MOVE | MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK
    return MouseFields(nx, ny, 0, flags)


def win_move_rel_fields(dx: int, dy: int) -> MouseFields:
    """A relative move: ``MOUSEEVENTF_MOVE`` without ``ABSOLUTE``, so raw-input games turn."""
    return MouseFields(int(dx), int(dy), 0, MOUSEEVENTF_MOVE)


def win_button_fields(button: str, down: bool) -> MouseFields:
    if button not in MOUSE_BUTTON_FLAGS:
        raise InvalidActionError(
            f"button must be one of {tuple(MOUSE_BUTTON_FLAGS)}, got {button!r}"
        )
    return MouseFields(0, 0, 0, MOUSE_BUTTON_FLAGS[button][0 if down else 1])


def win_scroll_fields(clicks: int, horizontal: bool = False) -> MouseFields:
    """Wheel ``clicks`` (positive: up, or right when ``horizontal``), ``mouseData`` as a DWORD."""
    flags = MOUSEEVENTF_HWHEEL if horizontal else MOUSEEVENTF_WHEEL
    return MouseFields(0, 0, (int(clicks) * WHEEL_DELTA) & 0xFFFFFFFF, flags)


# ---------------------------------------------------------------------- Quartz mouse events
#: ``CGEventType`` numbers: (down, up, dragged) per button, and a plain move.
MAC_MOUSE_MOVED = 5
MAC_BUTTON_EVENTS = {"left": (1, 2, 6), "right": (3, 4, 7), "middle": (25, 26, 27)}
#: ``CGMouseButton`` numbers.
MAC_BUTTON_NUMBER = {"left": 0, "right": 1, "middle": 2}
#: ``CGEventField`` numbers of the relative motion a game reads (``kCGMouseEventDeltaX/Y``).
MAC_FIELD_DELTA_X, MAC_FIELD_DELTA_Y = 4, 5


def mac_button_event(button: str, down: bool) -> tuple[int, int]:
    """``(CGEventType, CGMouseButton)`` of pressing or releasing ``button``."""
    if button not in MAC_BUTTON_EVENTS:
        raise InvalidActionError(
            f"button must be one of {tuple(MAC_BUTTON_EVENTS)}, got {button!r}"
        )
    return MAC_BUTTON_EVENTS[button][0 if down else 1], MAC_BUTTON_NUMBER[button]


def mac_move_event(held: set[str] | frozenset[str]) -> tuple[int, int]:
    """``(CGEventType, CGMouseButton)`` of a pointer move: a drag while a button is held.

    >>> mac_move_event(set()), mac_move_event({"left"}), mac_move_event({"right"})
    ((5, 0), (6, 0), (7, 1))
    """
    for button in ("left", "right", "middle"):
        if button in held:
            return MAC_BUTTON_EVENTS[button][2], MAC_BUTTON_NUMBER[button]
    return MAC_MOUSE_MOVED, 0


def mac_scroll(number: int) -> tuple[int, int]:
    """``(wheel1, wheel2)`` line counts of X11 wheel button ``number`` (4 up 5 down 6 left 7 right)."""
    wheels = {4: (1, 0), 5: (-1, 0), 6: (0, -1), 7: (0, 1)}
    if number not in wheels:
        raise InvalidActionError(f"no wheel button number {number}; use 4, 5, 6 or 7")
    return wheels[number]


def mac_rel_target(
    pos: tuple[float, float], dx: int, dy: int, bounds: tuple[float, float, float, float]
) -> tuple[float, float]:
    """Where the cursor goes for a relative move from ``pos``, kept inside ``bounds``.

    The event also carries ``(dx, dy)`` in its delta fields, which is what games read; the
    cursor itself stops at the display edge.
    """
    left, top, width, height = bounds
    x = min(max(pos[0] + dx, left), left + width - 1)
    y = min(max(pos[1] + dy, top), top + height - 1)
    return x, y


# ---------------------------------------------------------------------- coordinates
def scale_rect(rect: tuple[int, int, int, int], scale: float) -> tuple[int, int, int, int]:
    """A rectangle in logical (DPI-independent) units → physical pixels at ``scale``.

    Windows reports logical coordinates to a process that is not DPI-aware (scale = DPI/96);
    macOS reports points, and a Retina screen has ``scale`` = 2 pixels per point.

    >>> scale_rect((100, 50, 640, 360), 1.5)
    (150, 75, 960, 540)
    """
    if not scale > 0:
        raise InvalidActionError(f"DPI scale must be positive, got {scale!r}")
    return tuple(round(v * scale) for v in rect)  # type: ignore[return-value]


def frame_to_screen(
    x: int, y: int, frame_size: tuple[int, int], window: tuple[int, int, int, int]
) -> tuple[int, int]:
    """Frame pixel ``(x, y)`` of a ``frame_size=(W, H)`` observation → screen coordinates.

    ``window`` is the client area ``(left, top, width, height)`` in the units the input API
    takes (Windows: physical pixels once DPI-aware; macOS: points). The result is clamped to
    the window, as the X11 path does.

    >>> frame_to_screen(0, 0, (320, 180), (100, 50, 1280, 720))
    (102, 52)
    >>> frame_to_screen(10_000, -5, (320, 180), (100, 50, 1280, 720))
    (1379, 50)
    """
    W, H = frame_size
    left, top, width, height = window
    sx = min(max(int((x + 0.5) * width / W), 0), width - 1)
    sy = min(max(int((y + 0.5) * height / H), 0), height - 1)
    return left + sx, top + sy
