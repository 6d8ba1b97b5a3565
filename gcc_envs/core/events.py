"""Input events: the one vocabulary every action mode, program, skill and backend speaks.

Events are frozen dataclasses validated on construction, so a bad key name, a negative duration
or a non-finite coordinate is refused where it is made (:class:`InvalidActionError`), never deep
inside a backend. Pixel coordinates are frame pixels of the observation.

Each event has

* ``to_pyautogui()`` — one line of pyautogui code (read back by :func:`gcc_envs.parse_code`);
* ``to_dict()`` / :func:`event_from_dict` — the plain form used in ``info["events"]`` and datasets;
* :func:`gcc_envs.core.expand.expand` — the primitive form backends execute.

>>> KeyPress("w", hold_s=0.5).to_pyautogui()
"pyautogui.keyDown('w'); time.sleep(0.5); pyautogui.keyUp('w')"
>>> Click(10, 20).to_dict()
{'type': 'Click', 'x': 10, 'y': 20, 'button': 'left', 'count': 1}
"""

from __future__ import annotations

import math
import string
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from gcc_envs.errors import InvalidActionError

#: Shortest hold of any key or button, on every backend: games poll input once per frame,
#: so shorter taps get lost (clicks and typed characters are held this long; a real screen's
#: backend stretches any shorter hold to it).
MIN_TAP_S = 0.03
#: How long a key press is held by default (and at least): a deliberate tap.
TAP_S = 0.05
#: Longest duration a single event may ask for (hold, move, wait), in seconds.
MAX_EVENT_S = 60.0
#: Longest text one ``TypeText`` may type.
MAX_TEXT = 1000
#: Largest coordinate magnitude accepted before the frame check (keeps ints sane).
MAX_COORD = 100_000

BUTTONS = ("left", "right", "middle")
E = TypeVar("E", bound="Event")

_NAMED_KEYS = (
    {
        "enter",
        "esc",
        "tab",
        "space",
        "backspace",
        "delete",
        "insert",
        "home",
        "end",
        "pageup",
        "pagedown",
        "up",
        "down",
        "left",
        "right",
        "shift",
        "shiftleft",
        "shiftright",
        "ctrl",
        "ctrlleft",
        "ctrlright",
        "alt",
        "altleft",
        "altright",
        "win",
        "winleft",
        "winright",
        "command",
        "option",
        "capslock",
        "numlock",
        "scrolllock",
        "printscreen",
        "pause",
        "menu",
        "volumeup",
        "volumedown",
        "volumemute",
    }
    | {f"f{i}" for i in range(1, 25)}
    | {f"num{i}" for i in range(10)}
)
_ALIASES = {
    "escape": "esc",
    "return": "enter",
    "del": "delete",
    "pgup": "pageup",
    "pgdn": "pagedown",
    "control": "ctrl",
    "cmd": "command",
    "super": "win",
    "arrowup": "up",
    "arrowdown": "down",
    "arrowleft": "left",
    "arrowright": "right",
    "spacebar": "space",
    "prtsc": "printscreen",
}
#: Characters a US layout types with one key (shift included): what ``TypeText`` accepts.
TYPEABLE = frozenset(string.printable) - {"\x0b", "\x0c", "\r"}
#: Every key name an event accepts (after alias folding), single characters included.
KEY_NAMES = frozenset(_NAMED_KEYS | (TYPEABLE - {"\n", "\t"}))


def normalize_key(key: object) -> str:
    """Return the canonical name of ``key`` or raise :class:`InvalidActionError`.

    >>> normalize_key("Escape"), normalize_key("W"), normalize_key(" ")
    ('esc', 'W', ' ')
    """
    if not isinstance(key, str) or not key:
        raise InvalidActionError(f"key must be a non-empty string, got {key!r}")
    if len(key) == 1:
        if key in KEY_NAMES:
            return key
        if key == "\n":
            return "enter"
        if key == "\t":
            return "tab"
        raise InvalidActionError(f"unknown key {key!r}: not on the keyboard layout")
    name = key.lower()
    name = _ALIASES.get(name, name)
    if name not in _NAMED_KEYS:
        raise InvalidActionError(
            f"unknown key {key!r}; use a single character or a name such as 'enter', 'esc', "
            "'shift', 'ctrl', 'up', 'f1'"
        )
    return name


def _seconds(value: object, what: str, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidActionError(f"{what} must be a number of seconds, got {value!r}")
    v = float(value) if not isinstance(value, int) or abs(value) <= MAX_EVENT_S else math.inf
    if not math.isfinite(v) or v < minimum or v > MAX_EVENT_S:
        raise InvalidActionError(
            f"{what} must be between {minimum} and {MAX_EVENT_S} seconds, got {value!r}"
        )
    return v


def _coord(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidActionError(f"{what} must be a pixel number, got {value!r}")
    if abs(value) > MAX_COORD or not math.isfinite(value):  # abs first: a huge int has no float
        raise InvalidActionError(f"{what} out of range: {value!r:.40}")
    return int(round(value))


def _button(value: object) -> str:
    if value not in BUTTONS:
        raise InvalidActionError(f"button must be one of {BUTTONS}, got {value!r}")
    return str(value)


def _set(obj: object, name: str, value: object) -> None:
    object.__setattr__(obj, name, value)


@dataclass(frozen=True)
class Event:
    """Base class of input events."""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": type(self).__name__}
        for k, v in self.__dict__.items():
            if k[0] != "_":  # not a field: the copy :func:`stamped` keeps
                d[k] = list(v) if isinstance(v, tuple) else v
        return d

    def to_pyautogui(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


@dataclass(frozen=True)
class KeyDown(Event):
    key: str

    def __post_init__(self) -> None:
        _set(self, "key", normalize_key(self.key))

    def to_pyautogui(self) -> str:
        return f"pyautogui.keyDown({self.key!r})"


@dataclass(frozen=True)
class KeyUp(Event):
    key: str

    def __post_init__(self) -> None:
        _set(self, "key", normalize_key(self.key))

    def to_pyautogui(self) -> str:
        return f"pyautogui.keyUp({self.key!r})"


@dataclass(frozen=True)
class KeyPress(Event):
    """Press ``key``, hold it ``hold_s`` seconds (at least :data:`TAP_S`), release it."""

    key: str
    hold_s: float = TAP_S

    def __post_init__(self) -> None:
        _set(self, "key", normalize_key(self.key))
        _set(self, "hold_s", max(TAP_S, _seconds(self.hold_s, "hold_s")))

    def to_pyautogui(self) -> str:
        if self.hold_s <= TAP_S:
            return f"pyautogui.press({self.key!r})"
        return (
            f"pyautogui.keyDown({self.key!r}); time.sleep({self.hold_s!r}); "
            f"pyautogui.keyUp({self.key!r})"
        )


@dataclass(frozen=True)
class Hotkey(Event):
    """Press ``keys`` in order, release them in reverse order (``ctrl+c``)."""

    keys: tuple[str, ...]

    def __post_init__(self) -> None:
        keys = self.keys
        if isinstance(keys, str) or not isinstance(keys, (tuple, list)) or not 1 <= len(keys) <= 6:
            raise InvalidActionError(f"hotkey needs 1 to 6 key names, got {keys!r}")
        _set(self, "keys", tuple(normalize_key(k) for k in keys))

    def to_pyautogui(self) -> str:
        return f"pyautogui.hotkey({', '.join(repr(k) for k in self.keys)})"


@dataclass(frozen=True)
class TypeText(Event):
    """Type ``text`` one character at a time, ``interval_s`` apart (at least 10 ms)."""

    text: str
    interval_s: float = 0.01

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise InvalidActionError(f"text must be a string, got {self.text!r}")
        if len(self.text) > MAX_TEXT:
            raise InvalidActionError(f"text longer than {MAX_TEXT} characters")
        bad = sorted({c for c in self.text if c not in TYPEABLE})
        if bad:
            raise InvalidActionError(
                f"characters the keyboard layout cannot type: {''.join(bad)!r}"
            )
        _set(self, "interval_s", max(0.01, _seconds(self.interval_s, "interval_s")))

    def to_pyautogui(self) -> str:
        return f"pyautogui.typewrite({self.text!r}, interval={self.interval_s!r})"


@dataclass(frozen=True)
class MoveTo(Event):
    x: int
    y: int
    duration_s: float = 0.0

    def __post_init__(self) -> None:
        _set(self, "x", _coord(self.x, "x"))
        _set(self, "y", _coord(self.y, "y"))
        _set(self, "duration_s", _seconds(self.duration_s, "duration_s"))

    def to_pyautogui(self) -> str:
        if self.duration_s:
            return f"pyautogui.moveTo({self.x}, {self.y}, duration={self.duration_s!r})"
        return f"pyautogui.moveTo({self.x}, {self.y})"


@dataclass(frozen=True)
class MoveBy(Event):
    dx: int
    dy: int
    duration_s: float = 0.0

    def __post_init__(self) -> None:
        _set(self, "dx", _coord(self.dx, "dx"))
        _set(self, "dy", _coord(self.dy, "dy"))
        _set(self, "duration_s", _seconds(self.duration_s, "duration_s"))

    def to_pyautogui(self) -> str:
        if self.duration_s:
            return f"pyautogui.moveRel({self.dx}, {self.dy}, duration={self.duration_s!r})"
        return f"pyautogui.moveRel({self.dx}, {self.dy})"


@dataclass(frozen=True)
class MouseDown(Event):
    button: str = "left"

    def __post_init__(self) -> None:
        _set(self, "button", _button(self.button))

    def to_pyautogui(self) -> str:
        return f"pyautogui.mouseDown(button={self.button!r})"


@dataclass(frozen=True)
class MouseUp(Event):
    button: str = "left"

    def __post_init__(self) -> None:
        _set(self, "button", _button(self.button))

    def to_pyautogui(self) -> str:
        return f"pyautogui.mouseUp(button={self.button!r})"


@dataclass(frozen=True)
class Click(Event):
    """Move to ``(x, y)`` and click ``count`` times (1 to 3) with ``button``."""

    x: int
    y: int
    button: str = "left"
    count: int = 1

    def __post_init__(self) -> None:
        _set(self, "x", _coord(self.x, "x"))
        _set(self, "y", _coord(self.y, "y"))
        _set(self, "button", _button(self.button))
        if isinstance(self.count, bool) or self.count not in (1, 2, 3):
            raise InvalidActionError(f"click count must be 1, 2 or 3, got {self.count!r}")

    def to_pyautogui(self) -> str:
        extra = ""
        if self.count != 1:
            extra += f", clicks={self.count}"
        if self.button != "left":
            extra += f", button={self.button!r}"
        return f"pyautogui.click({self.x}, {self.y}{extra})"


@dataclass(frozen=True)
class DragTo(Event):
    """Press ``button`` where the pointer is, move to ``(x, y)`` over ``duration_s``, release."""

    x: int
    y: int
    button: str = "left"
    duration_s: float = 0.2

    def __post_init__(self) -> None:
        _set(self, "x", _coord(self.x, "x"))
        _set(self, "y", _coord(self.y, "y"))
        _set(self, "button", _button(self.button))
        _set(self, "duration_s", _seconds(self.duration_s, "duration_s"))

    def to_pyautogui(self) -> str:
        return (
            f"pyautogui.dragTo({self.x}, {self.y}, duration={self.duration_s!r}, "
            f"button={self.button!r})"
        )


@dataclass(frozen=True)
class Scroll(Event):
    """Scroll ``dy`` clicks (positive = up) or ``dx`` clicks (positive = right), at (x, y) if given."""

    dy: int = 0
    dx: int = 0
    x: int | None = None
    y: int | None = None

    def __post_init__(self) -> None:
        for name in ("dy", "dx"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 100:
                raise InvalidActionError(f"scroll {name} must be an int in [-100, 100], got {v!r}")
        if (self.dy == 0) == (self.dx == 0):
            raise InvalidActionError("scroll needs exactly one of dy, dx non-zero")
        if (self.x is None) != (self.y is None):
            raise InvalidActionError("scroll position needs both x and y, or neither")
        if self.x is not None:
            _set(self, "x", _coord(self.x, "x"))
            _set(self, "y", _coord(self.y, "y"))

    def to_pyautogui(self) -> str:
        at = "" if self.x is None else f", x={self.x}, y={self.y}"
        if self.dy:
            return f"pyautogui.scroll({self.dy}{at})"
        return f"pyautogui.hscroll({self.dx}{at})"


@dataclass(frozen=True)
class Wait(Event):
    seconds: float

    def __post_init__(self) -> None:
        _set(self, "seconds", _seconds(self.seconds, "seconds"))

    def to_pyautogui(self) -> str:
        return f"time.sleep({self.seconds!r})"


@dataclass(frozen=True)
class Done(Event):
    """The agent declares the task finished (OSWorld ``DONE``)."""

    def to_pyautogui(self) -> str:
        return "DONE"


@dataclass(frozen=True)
class Fail(Event):
    """The agent declares the task infeasible (OSWorld ``FAIL``)."""

    def to_pyautogui(self) -> str:
        return "FAIL"


def stamped(event: Event, t: float) -> dict[str, Any]:
    """``{"t": t, **event.to_dict()}``: one entry of ``info["events"]``, a fresh dict each call.

    The plain form of an event whose fields are all scalars is kept on the event the first
    time (events are frozen, so it cannot go stale): the env sends the same instances step
    after step (the ``state`` mode's key presses, its tick), so each is converted once.

    >>> e = Wait(0.25)
    >>> stamped(e, 1.5), stamped(e, 1.75) == {"t": 1.75, **e.to_dict()}
    ({'t': 1.5, 'type': 'Wait', 'seconds': 0.25}, True)
    """
    plain = event.__dict__.get("_plain")
    if plain is None:
        plain = event.to_dict()
        if any(type(v) is list for v in plain.values()):  # shared lists could be edited
            return {"t": t, **plain}
        _set(event, "_plain", plain)
    return {"t": t, **plain}


def prechecked(cls: type[E], **fields: Any) -> E:
    """An event of ``cls`` made from field values that are already what its checks give
    (ints for pixels, floats for seconds, canonical key and button names), without running
    the checks again: for the core's hot paths, whose values come from checked ones.

    Give every field, in the class's order (``to_dict`` keeps it).

    >>> prechecked(MoveTo, x=3, y=4, duration_s=0.0) == MoveTo(3, 4)
    True
    """
    event = object.__new__(cls)
    event.__dict__.update(fields)
    return event


EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        KeyDown,
        KeyUp,
        KeyPress,
        Hotkey,
        TypeText,
        MoveTo,
        MoveBy,
        MouseDown,
        MouseUp,
        Click,
        DragTo,
        Scroll,
        Wait,
        Done,
        Fail,
    )
}


def event_from_dict(d: Mapping[str, Any]) -> Event:
    """Rebuild an event from :meth:`Event.to_dict` output, validating it.

    >>> event_from_dict({"type": "Hotkey", "keys": ["ctrl", "c"]})
    Hotkey(keys=('ctrl', 'c'))
    """
    if not isinstance(d, Mapping) or d.get("type") not in EVENT_TYPES:
        raise InvalidActionError(f"not an event dict: {d!r}")
    cls = EVENT_TYPES[d["type"]]
    names = {f.name for f in fields(cls)}
    extra = set(d) - names - {"type"}
    if extra:
        raise InvalidActionError(f"{d['type']} has no field(s) {sorted(extra)}")
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items() if k != "type"}
    try:
        return cls(**kwargs)
    except TypeError as e:
        raise InvalidActionError(f"bad {d['type']} event {d!r}: {e}") from None


EVENT_CLASSES: tuple[type[Event], ...] = tuple(EVENT_TYPES.values())
