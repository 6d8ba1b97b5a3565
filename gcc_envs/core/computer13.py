"""OSWorld's ``computer_13`` action space, mapped once to input events.

``computer_13`` is OSWorld's dict action space: ``{"action_type": "CLICK", "parameters":
{"x": 10, "y": 20, "button": "left", "num_clicks": 1}}``. The same table serves the ``event``
action mode (:class:`~gcc_envs.core.spaces.EventActions`, one op per step) and the
``UseCode`` wrapper, so the two cannot drift apart. Two gcc-gym extensions sit beside
OSWorld's names: an optional ``duration`` (seconds) on ``MOVE_TO``, ``DRAG_TO``, ``PRESS`` and
``WAIT`` and a ``button`` on ``DOUBLE_CLICK``/``DRAG_TO``, and the op ``MOVE_BY(dx, dy)`` for
games whose mouse turns a camera. Coordinates are frame pixels.

>>> events({"action_type": "CLICK", "parameters": {"x": 5, "y": 7, "num_clicks": 2}})
[Click(x=5, y=7, button='left', count=2)]
>>> events({"action_type": "HOTKEY", "keys": ["ctrl", "c"]})
[Hotkey(keys=('ctrl', 'c'))]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gcc_envs.core import events as ev
from gcc_envs.errors import InvalidActionError

Params = Mapping[str, Any]

#: OSWorld's seconds for a drag and for WAIT.
DRAG_S = 1.0
WAIT_S = 1.0


def _xy(p: Params, required: bool) -> tuple[Any, Any] | None:
    if ("x" in p) != ("y" in p):
        raise InvalidActionError("give both x and y, or neither")
    if "x" not in p:
        if required:
            raise InvalidActionError("x and y are required")
        return None
    return p["x"], p["y"]


def _clicks(p: Params, button: str, count: int) -> list[ev.Event]:
    at = _xy(p, required=False)
    if at is not None:
        return [ev.Click(*at, button=button, count=count)]
    ev.Click(0, 0, button, count)  # validates button and count
    taps: list[ev.Event] = []
    for i in range(count):  # click where the pointer is
        if i:
            taps.append(ev.Wait(ev.MIN_TAP_S))
        taps += [ev.MouseDown(button), ev.Wait(ev.MIN_TAP_S), ev.MouseUp(button)]
    return taps


def _scroll(p: Params) -> list[ev.Event]:
    out: list[ev.Event] = []
    if p.get("dx"):  # OSWorld scrolls horizontally first, then vertically
        out.append(ev.Scroll(dx=p["dx"]))
    if p.get("dy"):
        out.append(ev.Scroll(dy=p["dy"]))
    if not out:
        raise InvalidActionError("SCROLL needs a non-zero dx or dy")
    return out


def _key(p: Params) -> Any:
    if "key" not in p:
        raise InvalidActionError("'key' is required")
    return p["key"]


def _press(p: Params) -> list[ev.Event]:
    if "duration" in p:
        return [ev.KeyPress(_key(p), max(float(p["duration"]), ev.TAP_S))]
    return [ev.KeyPress(_key(p))]


def _hotkey(p: Params) -> list[ev.Event]:
    keys = p.get("keys")
    if not isinstance(keys, (list, tuple)):
        raise InvalidActionError(f"'keys' must be a list of key names, got {keys!r}")
    return [ev.Hotkey(tuple(keys))]


def _typing(p: Params) -> list[ev.Event]:
    if "text" not in p:
        raise InvalidActionError("'text' is required")
    return [ev.TypeText(p["text"])]


def _move_to(p: Params) -> list[ev.Event]:
    at = _xy(p, required=False)
    if at is None:  # OSWorld: moveTo() without x, y stays put
        return []
    return [ev.MoveTo(*at, duration_s=p.get("duration", 0.0))]


def _move_by(p: Params) -> list[ev.Event]:
    return [ev.MoveBy(p.get("dx", 0), p.get("dy", 0), p.get("duration", 0.0))]


def _drag_to(p: Params) -> list[ev.Event]:
    duration = max(float(p.get("duration", DRAG_S)), ev.TAP_S)
    at = _xy(p, required=True)
    assert at is not None
    return [ev.DragTo(*at, button=p.get("button", "left"), duration_s=duration)]


#: Action types → (accepted parameter names, builder of events), in the ``event`` mode's
#: ``op`` order: OSWorld's 16, then the camera mouse's ``MOVE_BY``.
ACTIONS: Mapping[str, tuple[frozenset[str], Callable[[Params], list[ev.Event]]]] = {
    "MOVE_TO": (frozenset({"x", "y", "duration"}), _move_to),
    "CLICK": (
        frozenset({"x", "y", "button", "num_clicks"}),
        lambda p: _clicks(p, p.get("button", "left"), p.get("num_clicks", 1)),
    ),
    "MOUSE_DOWN": (frozenset({"button"}), lambda p: [ev.MouseDown(p.get("button", "left"))]),
    "MOUSE_UP": (frozenset({"button"}), lambda p: [ev.MouseUp(p.get("button", "left"))]),
    "RIGHT_CLICK": (frozenset({"x", "y"}), lambda p: _clicks(p, "right", 1)),
    "DOUBLE_CLICK": (
        frozenset({"x", "y", "button"}),
        lambda p: _clicks(p, p.get("button", "left"), 2),
    ),
    "DRAG_TO": (frozenset({"x", "y", "button", "duration"}), _drag_to),
    "SCROLL": (frozenset({"dx", "dy"}), _scroll),
    "TYPING": (frozenset({"text"}), _typing),
    "PRESS": (frozenset({"key", "duration"}), _press),
    "KEY_DOWN": (frozenset({"key"}), lambda p: [ev.KeyDown(_key(p))]),
    "KEY_UP": (frozenset({"key"}), lambda p: [ev.KeyUp(_key(p))]),
    "HOTKEY": (frozenset({"keys"}), _hotkey),
    "WAIT": (frozenset({"duration"}), lambda p: [ev.Wait(p.get("duration", WAIT_S))]),
    "FAIL": (frozenset(), lambda p: [ev.Fail()]),
    "DONE": (frozenset(), lambda p: [ev.Done()]),
    "MOVE_BY": (frozenset({"dx", "dy", "duration"}), _move_by),
}
#: The ``event`` action mode's ops, in order.
OPS: tuple[str, ...] = tuple(ACTIONS)
#: OSWorld's own action types (without the extension op).
OSWORLD_TYPES: tuple[str, ...] = OPS[:16]


def events(action: Mapping[str, Any]) -> list[ev.Event]:
    """The events of one ``computer_13`` action; raise :class:`InvalidActionError`.

    The parameters sit under ``"parameters"`` or, as OSWorld also accepts, beside
    ``"action_type"``.
    """
    kind = action.get("action_type")
    if kind not in ACTIONS:
        raise InvalidActionError(
            f"unknown computer_13 action_type {kind!r}; use one of {', '.join(ACTIONS)}"
        )
    if "parameters" in action:
        extra = set(action) - {"action_type", "parameters"}
        if extra:
            raise InvalidActionError(
                f"{kind}: unexpected entries {sorted(extra)} beside parameters"
            )
        params = action["parameters"] if action["parameters"] is not None else {}
    else:
        params = {k: v for k, v in action.items() if k != "action_type"}
    if not isinstance(params, Mapping):
        raise InvalidActionError(f"{kind}: parameters must be a dict, got {params!r}")
    return build(kind, params)


def build(kind: str, params: Params) -> list[ev.Event]:
    """The events of action type ``kind`` with ``params`` (names checked against the table)."""
    names, make = ACTIONS[kind]
    unknown = set(params) - names
    if unknown:
        allowed = ", ".join(sorted(names)) or "none"
        raise InvalidActionError(
            f"{kind} has no parameter(s) {sorted(unknown)}; allowed: {allowed}"
        )
    try:
        return make(params)
    except InvalidActionError as e:
        raise InvalidActionError(f"{kind}: {e}") from None
    except (TypeError, ValueError) as e:  # a wrongly typed value reaching an event constructor
        raise InvalidActionError(f"{kind}: bad parameters {dict(params)!r}: {e}") from None
