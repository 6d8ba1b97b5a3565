"""Expansion of input events into the primitives backends execute.

Primitives are ``KeyDown``/``KeyUp``/``MoveTo`` (no duration)/``MouseDown``/``MouseUp``/
``Scroll`` and ``float`` waits in game seconds, plus ``MoveBy`` (no duration) for games whose
mouse turns a camera: there the motion itself is the input and no pointer position exists. Durations become waits, moves with a duration
become glides of small steps, clicks become press/release pairs held long enough for games.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from gcc_envs.core.events import (
    MAX_COORD,
    MIN_TAP_S,
    TAP_S,
    Click,
    Done,
    DragTo,
    Event,
    Fail,
    Hotkey,
    KeyDown,
    KeyPress,
    KeyUp,
    MouseDown,
    MouseUp,
    MoveBy,
    MoveTo,
    Scroll,
    TypeText,
    Wait,
    normalize_key,
    prechecked,
)
from gcc_envs.errors import InvalidActionError

#: What :func:`expand` yields: a primitive event or a wait in seconds.
Primitive = KeyDown | KeyUp | MoveTo | MoveBy | MouseDown | MouseUp | Scroll | float


def _glide(x0: float, y0: float, x1: int, y1: int, duration: float) -> Iterator[Primitive]:
    n = max(1, min(30, math.ceil(duration / 0.05))) if duration > 0 else 1
    # between two points in range every point is in range: MoveTo's checks cannot fail
    inside = max(abs(x0), abs(y0), abs(x1), abs(y1)) <= MAX_COORD and type(x0) is type(y0) is int
    for i in range(1, n + 1):
        if duration > 0:
            yield duration / n
        x, y = round(x0 + (x1 - x0) * i / n), round(y0 + (y1 - y0) * i / n)
        yield prechecked(MoveTo, x=x, y=y, duration_s=0.0) if inside else MoveTo(x, y)


def _glide_by(dx: int, dy: int, duration: float) -> Iterator[Primitive]:
    """Relative motion in steps whose sum is exactly ``(dx, dy)``."""
    n = max(1, min(30, math.ceil(duration / 0.05))) if duration > 0 else 1
    sent_x = sent_y = 0
    for i in range(1, n + 1):
        if duration > 0:
            yield duration / n
        tx, ty = round(dx * i / n), round(dy * i / n)
        if (tx - sent_x, ty - sent_y) != (0, 0):
            yield MoveBy(tx - sent_x, ty - sent_y)
        sent_x, sent_y = tx, ty


class PointerTracker:
    """Where the pointer is, so relative moves and drags can be expanded to absolute moves."""

    def __init__(self, x: int = 0, y: int = 0) -> None:
        self.x, self.y = x, y


def expand(event: Event, pointer: PointerTracker, relative: bool = False) -> Iterator[Primitive]:
    """Yield the primitive events and waits (seconds) that carry out ``event``.

    ``pointer`` is read for relative moves and drags and updated by every move. With
    ``relative=True`` (a camera mouse) a ``MoveBy`` stays relative: it becomes ``MoveBy``
    primitives and leaves ``pointer`` alone, so turning is never stopped by a window edge.

    >>> list(expand(KeyPress("w", 0.5), PointerTracker()))
    [KeyDown(key='w'), 0.5, KeyUp(key='w')]
    """
    if isinstance(event, (KeyDown, KeyUp, MouseDown, MouseUp)):
        yield event
    elif isinstance(event, KeyPress):  # (an event's key names are canonical already)
        yield prechecked(KeyDown, key=event.key)
        yield event.hold_s
        yield prechecked(KeyUp, key=event.key)
    elif isinstance(event, Hotkey):
        for k in event.keys:
            yield prechecked(KeyDown, key=k)
        yield TAP_S
        for k in reversed(event.keys):
            yield prechecked(KeyUp, key=k)
    elif isinstance(event, TypeText):
        for ch in event.text:
            key = normalize_key(ch)
            yield prechecked(KeyDown, key=key)
            yield MIN_TAP_S
            yield prechecked(KeyUp, key=key)
            yield event.interval_s
    elif isinstance(event, MoveBy) and relative:
        yield from _glide_by(event.dx, event.dy, event.duration_s)
    elif isinstance(event, (MoveTo, MoveBy)):
        if isinstance(event, MoveTo):
            tx, ty = event.x, event.y
        else:
            tx, ty = pointer.x + event.dx, pointer.y + event.dy
        for p in _glide(pointer.x, pointer.y, tx, ty, event.duration_s):
            if isinstance(p, MoveTo):
                pointer.x, pointer.y = p.x, p.y
            yield p
    elif isinstance(event, Click):
        pointer.x, pointer.y = event.x, event.y
        yield prechecked(MoveTo, x=event.x, y=event.y, duration_s=0.0)
        for i in range(event.count):
            yield prechecked(MouseDown, button=event.button)
            yield MIN_TAP_S
            yield prechecked(MouseUp, button=event.button)
            if i + 1 < event.count:
                yield MIN_TAP_S
    elif isinstance(event, DragTo):
        yield MouseDown(event.button)
        yield MIN_TAP_S
        for p in _glide(pointer.x, pointer.y, event.x, event.y, max(event.duration_s, TAP_S)):
            if isinstance(p, MoveTo):
                pointer.x, pointer.y = p.x, p.y
            yield p
        yield MouseUp(event.button)
    elif isinstance(event, Scroll):
        if event.x is not None:
            pointer.x, pointer.y = event.x, event.y
            yield MoveTo(event.x, event.y)
        yield event
    elif isinstance(event, Wait):
        yield event.seconds
    elif isinstance(event, (Done, Fail)):
        return
    else:
        raise InvalidActionError(f"not an input event: {event!r}")


def event_seconds(event: Event) -> float:
    """The game seconds ``event`` takes when expanded (its holds, glides, gaps and waits).

    >>> event_seconds(TypeText("abcdef", interval_s=60))
    360.15
    """
    cls = type(event)
    if cls is KeyPress:
        return event.hold_s  # type: ignore[attr-defined]
    if cls is Wait:
        return event.seconds  # type: ignore[attr-defined]
    if cls is TypeText:
        return len(event.text) * (TAP_S / 2 + event.interval_s)  # type: ignore[attr-defined]
    if cls in (MoveTo, MoveBy):
        return event.duration_s  # type: ignore[attr-defined]
    if cls is Hotkey:
        return TAP_S
    if cls is Click:
        return (2 * event.count - 1) * TAP_S / 2  # type: ignore[attr-defined]
    if cls is DragTo:
        return TAP_S / 2 + max(event.duration_s, TAP_S)  # type: ignore[attr-defined]
    return 0.0


def event_points(event: Event) -> list[tuple[int, int]]:
    """The absolute frame points ``event`` names (for bounds checks)."""
    if isinstance(event, (MoveTo, Click, DragTo)):
        return [(event.x, event.y)]
    if isinstance(event, Scroll) and event.x is not None:
        return [(event.x, event.y)]  # type: ignore[list-item]
    return []
