"""Key names → key codes for the Windows and macOS input paths (pure tables, US layout).

Nothing here touches an OS, so it is unit-tested on any platform. Windows keys are *scan
codes* (set 1) sent with ``KEYEVENTF_SCANCODE``: DirectInput and raw-input games read scan
codes and ignore virtual-key-only input. Keys that the hardware sends with an ``E0`` prefix
carry the extended flag. macOS keys are virtual keycodes of the ANSI layout. The input field
values built from them are in :mod:`.inputfields`.

>>> hex(win_stroke("w").scan), win_stroke("up").extended, win_stroke("W").shift
('0x11', True, True)
>>> mac_stroke("a")
MacStroke(keycode=0, shift=False)
"""

from __future__ import annotations

from dataclasses import dataclass

from gcc_envs.core.events import normalize_key
from gcc_envs.errors import InvalidActionError

# ---------------------------------------------------------------------- US layout characters
#: Unshifted character on each key → the shifted character it types.
_SHIFTED = dict(
    zip(
        "`1234567890-=qwertyuiop[]\\asdfghjkl;'zxcvbnm,./",
        '~!@#$%^&*()_+QWERTYUIOP{}|ASDFGHJKL:"ZXCVBNM<>?',
    )
)
_BASE_OF = {shifted: base for base, shifted in _SHIFTED.items()}


def base_key(key: str) -> tuple[str, bool]:
    """``(unshifted key name, needs shift)`` for an event key name on a US layout.

    >>> base_key("A"), base_key("?"), base_key("enter")
    (('a', True), ('/', True), ('enter', False))
    """
    name = normalize_key(key)
    if name in _BASE_OF:
        return _BASE_OF[name], True
    if name == " ":
        return "space", False
    return name, False


# ---------------------------------------------------------------------- Windows scan codes
_WIN_CHARS = dict(
    zip(
        "1234567890-=qwertyuiop[]asdfghjkl;'`\\zxcvbnm,./",
        [
            *range(0x02, 0x0E),  # 1..0 - =
            *range(0x10, 0x1C),  # q..p [ ]
            *range(0x1E, 0x2A),  # a..l ; ' `
            0x2B,  # backslash
            *range(0x2C, 0x36),  # z..m , . /
        ],
    )
)
#: Named keys → (scan code, extended). ``pause`` has no single scan code: see :func:`win_stroke`.
_WIN_NAMED: dict[str, tuple[int, bool]] = {
    "esc": (0x01, False),
    "backspace": (0x0E, False),
    "tab": (0x0F, False),
    "enter": (0x1C, False),
    "space": (0x39, False),
    "ctrl": (0x1D, False),
    "ctrlleft": (0x1D, False),
    "ctrlright": (0x1D, True),
    "shift": (0x2A, False),
    "shiftleft": (0x2A, False),
    "shiftright": (0x36, False),
    "alt": (0x38, False),
    "altleft": (0x38, False),
    "altright": (0x38, True),
    "option": (0x38, False),
    "win": (0x5B, True),
    "winleft": (0x5B, True),
    "winright": (0x5C, True),
    "command": (0x5B, True),
    "menu": (0x5D, True),
    "capslock": (0x3A, False),
    "numlock": (0x45, True),
    "scrolllock": (0x46, False),
    "printscreen": (0x37, True),
    "insert": (0x52, True),
    "delete": (0x53, True),
    "home": (0x47, True),
    "end": (0x4F, True),
    "pageup": (0x49, True),
    "pagedown": (0x51, True),
    "up": (0x48, True),
    "down": (0x50, True),
    "left": (0x4B, True),
    "right": (0x4D, True),
    "volumemute": (0x20, True),
    "volumedown": (0x2E, True),
    "volumeup": (0x30, True),
    **{f"f{i}": (0x3A + i, False) for i in range(1, 11)},
    "f11": (0x57, False),
    "f12": (0x58, False),
    **{f"f{i}": (0x64 + i - 13, False) for i in range(13, 24)},
    "f24": (0x76, False),
    **{
        f"num{d}": (code, False)
        for d, code in zip(range(10), (0x52, 0x4F, 0x50, 0x51, 0x4B, 0x4C, 0x4D, 0x47, 0x48, 0x49))
    },
}
#: Virtual-key code of Pause (its make code is the 6-byte E1 sequence, not one scan code).
VK_PAUSE = 0x13


@dataclass(frozen=True)
class WinStroke:
    """How ``SendInput`` types one key: scan code (0 = use ``vk``), extended flag, Shift."""

    scan: int
    extended: bool
    shift: bool
    vk: int = 0

    @property
    def keycode(self) -> int:
        """One integer per physical key: ``0xE0xx`` for extended keys, ``0x1_00xx`` for a vk."""
        if self.scan == 0:
            return 0x10000 | self.vk
        return (0xE000 if self.extended else 0) | self.scan


def win_stroke(key: str) -> WinStroke:
    """The scan code that types ``key`` on a US layout, or :class:`InvalidActionError`."""
    name, shift = base_key(key)
    if name in _WIN_CHARS:
        return WinStroke(_WIN_CHARS[name], False, shift)
    if name == "pause":
        return WinStroke(0, False, False, vk=VK_PAUSE)
    if name in _WIN_NAMED:
        scan, extended = _WIN_NAMED[name]
        return WinStroke(scan, extended, shift)
    raise InvalidActionError(f"key {key!r} has no Windows scan code on a US layout")


# ---------------------------------------------------------------------- macOS virtual keycodes
_MAC_CHARS = {
    **dict(zip("asdfhgzxcv", (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09))),
    **dict(zip("bqweryt", (0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11))),
    **dict(zip("123465=97-80]ou[ip", range(0x12, 0x24))),
    **dict(zip("lj'k;\\,/nm.", range(0x25, 0x30))),
    "`": 0x32,
}
_MAC_NAMED = {
    "enter": 0x24,
    "tab": 0x30,
    "space": 0x31,
    "backspace": 0x33,
    "esc": 0x35,
    "command": 0x37,
    "win": 0x37,
    "winleft": 0x37,
    "winright": 0x36,
    "shift": 0x38,
    "shiftleft": 0x38,
    "shiftright": 0x3C,
    "capslock": 0x39,
    "alt": 0x3A,
    "altleft": 0x3A,
    "option": 0x3A,
    "altright": 0x3D,
    "ctrl": 0x3B,
    "ctrlleft": 0x3B,
    "ctrlright": 0x3E,
    "volumeup": 0x48,
    "volumedown": 0x49,
    "volumemute": 0x4A,
    "delete": 0x75,  # forward delete
    "home": 0x73,
    "end": 0x77,
    "pageup": 0x74,
    "pagedown": 0x79,
    "left": 0x7B,
    "right": 0x7C,
    "down": 0x7D,
    "up": 0x7E,
    **dict(
        zip(
            (f"f{i}" for i in range(1, 21)),
            (
                0x7A,
                0x78,
                0x63,
                0x76,
                0x60,
                0x61,
                0x62,
                0x64,
                0x65,
                0x6D,
                0x67,
                0x6F,
                0x69,
                0x6B,
                0x71,
                0x6A,
                0x40,
                0x4F,
                0x50,
                0x5A,
            ),
        )
    ),  # fmt: skip
    **dict(
        zip(
            (f"num{d}" for d in range(10)),
            (0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5B, 0x5C),
        )
    ),
}
#: Keys a US PC keyboard has and a Mac keyboard does not.
MAC_MISSING = frozenset(
    {"f21", "f22", "f23", "f24", "insert", "numlock", "scrolllock", "printscreen", "pause", "menu"}
)
#: Modifier keycodes → their ``CGEventFlags`` bit (Shift, Control, Option, Command).
MAC_MODIFIER_FLAGS = {
    0x38: 0x00020000,
    0x3C: 0x00020000,
    0x3B: 0x00040000,
    0x3E: 0x00040000,
    0x3A: 0x00080000,
    0x3D: 0x00080000,
    0x37: 0x00100000,
    0x36: 0x00100000,
}


def mac_flags(held_keycodes: set[int] | frozenset[int]) -> int:
    """The ``CGEventFlags`` a key event needs while ``held_keycodes`` are down.

    Quartz does not derive them from earlier modifier events, so each event carries them.

    >>> hex(mac_flags({0x38, 0x00})), mac_flags(set())
    ('0x20000', 0)
    """
    flags = 0
    for code in held_keycodes:
        flags |= MAC_MODIFIER_FLAGS.get(code, 0)
    return flags


@dataclass(frozen=True)
class MacStroke:
    """How Quartz types one key: the virtual keycode and whether Shift must be held."""

    keycode: int
    shift: bool


def mac_stroke(key: str) -> MacStroke:
    """The macOS virtual keycode (ANSI layout) that types ``key``, or :class:`InvalidActionError`."""
    name, shift = base_key(key)
    if name in _MAC_CHARS:
        return MacStroke(_MAC_CHARS[name], shift)
    if name in _MAC_NAMED:
        return MacStroke(_MAC_NAMED[name], shift)
    if name in MAC_MISSING:
        raise InvalidActionError(f"key {key!r} is not on a Mac keyboard; it cannot be sent there")
    raise InvalidActionError(f"key {key!r} has no macOS virtual keycode")
