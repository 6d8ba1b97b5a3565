"""JSON forms of actions and events, as a trajectory's steps table stores them.

An action is stored as given, with a kind that says how to read it back:

* ``"space"`` — a member of the env's action space: numpy arrays become lists, numpy scalars
  Python numbers (:func:`space_action` turns it back into a space member);
* ``"code"`` — code text (pyautogui calls, skill calls, ``WAIT``/``DONE``/``FAIL``), as text;
* ``"events"`` — an event, a list of events or an open-loop :class:`~gcc_envs.Program`, as
  :meth:`~gcc_envs.Event.to_dict` dicts;
* ``"program"`` — a closed-loop program: only its name is kept (the events it yielded are in
  the step's event log, which is what replay runs).

>>> encode_action({"keys": np.array([0, 1], np.int8), "scroll": np.int64(-1)})
('space', {'keys': [0, 1], 'scroll': -1})
>>> encode_action("move_down(duration=1.0)")
('code', 'move_down(duration=1.0)')
>>> events_of([{"t": 0.5, "type": "KeyPress", "key": "w", "hold_s": 1.0}])
[KeyPress(key='w', hold_s=1.0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from gcc_envs.core.events import Event, event_from_dict
from gcc_envs.core.program import Program
from gcc_envs.errors import DataError


def jsonable(x: Any) -> Any:
    """``x`` with numpy arrays as lists, numpy scalars as numbers, events as dicts."""
    if x is None or isinstance(x, (bool, str, float)):
        return x
    if isinstance(x, int):
        return int(x)
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, Event):
        return x.to_dict()
    if isinstance(x, Program):
        return encode_action(x)[1]
    if isinstance(x, Mapping):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    return repr(x)


def encode_action(action: Any) -> tuple[str, Any]:
    """``(kind, value)``: how the steps table stores ``action`` (see the module docstring)."""
    if isinstance(action, str):
        return "code", action
    if isinstance(action, Event):
        return "events", [action.to_dict()]
    if isinstance(action, Program):
        if action.closed_loop:
            return "program", {"name": action.name, "closed_loop": True}
        return "events", [e.to_dict() for e in action.events]
    if isinstance(action, (list, tuple)) and action and all(isinstance(e, Event) for e in action):
        return "events", [e.to_dict() for e in action]
    return "space", jsonable(action)


def events_of(logged: Iterable[Mapping[str, Any]]) -> list[Event]:
    """The events of one step's event log (``info["events"]``), without their timestamps."""
    return [event_from_dict({k: v for k, v in d.items() if k != "t"}) for d in logged]


def space_action(space: spaces.Space, value: Any) -> Any:
    """Turn a stored ``"space"`` action back into a member of ``space``."""
    if isinstance(space, spaces.Dict):
        if not isinstance(value, Mapping):
            raise DataError(f"expected a dict action for {space}, got {value!r}")
        return {k: space_action(sub, value[k]) for k, sub in space.spaces.items()}
    if isinstance(space, spaces.Tuple):
        return tuple(space_action(sub, v) for sub, v in zip(space.spaces, value))
    if isinstance(space, spaces.Discrete):
        return np.int64(value)
    if isinstance(space, spaces.Text):
        return str(value)
    if isinstance(space, (spaces.Box, spaces.MultiBinary, spaces.MultiDiscrete)):
        return np.asarray(value, dtype=space.dtype).reshape(space.shape)
    raise DataError(f"cannot rebuild actions of a {type(space).__name__} space")
