"""Action modes (DESIGN §2.2): two space shapes over the one event vocabulary.

* :class:`StateActions` — ``Dict(keys, buttons, mouse, scroll)``: what is held during one tick
  of ``step_seconds``; diffed against what is held now into KeyDown/KeyUp/MouseDown/MouseUp.
* :class:`EventActions` — ``Dict(op, xy, dxy, button, clicks, key, mods, scroll, text,
  duration)``: one operation per step (``duration`` is a fraction of ``max_duration`` seconds), mapping 1:1 to OSWorld's computer_13 (plus ``MOVE_BY``
  for games whose mouse turns a camera) and to exactly one line of pyautogui code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from gcc_envs.core import computer13
from gcc_envs.core import events as ev
from gcc_envs.core.held import HeldInput
from gcc_envs.errors import InvalidActionError

BUTTONS = ev.BUTTONS
#: computer_13 operations (OSWorld) plus MOVE_BY, in ``op`` order (one table: ``computer13``).
OPS = computer13.OPS
MODS = ("ctrl", "shift", "alt")
#: Keys every event-mode space offers besides a game's own (apps need them).
COMMON_KEYS = (
    "enter",
    "esc",
    "tab",
    "space",
    "backspace",
    "delete",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pageup",
    "pagedown",
    "shift",
    "ctrl",
    "alt",
)


def _key_tuple(keys: Sequence[str]) -> tuple[str, ...]:
    out: list[str] = []
    for k in keys:
        k = ev.normalize_key(k)
        if k not in out:
            out.append(k)
    return tuple(out)


class StateActions:
    """The ``state`` action mode: held keys/buttons, relative mouse, scroll per tick."""

    def __init__(self, keys: Sequence[str], max_mouse_px: float, step_seconds: float) -> None:
        self.keys = _key_tuple(keys)
        self.max_mouse_px = float(max_mouse_px)
        self.step_seconds = float(step_seconds)
        # Events are immutable, so one instance per key serves every step.
        self._down = [ev.KeyDown(k) for k in self.keys]
        self._up = [ev.KeyUp(k) for k in self.keys]
        self._button_down = [ev.MouseDown(b) for b in BUTTONS]
        self._button_up = [ev.MouseUp(b) for b in BUTTONS]
        self._scroll = {-1: ev.Scroll(dy=-1), 1: ev.Scroll(dy=1)}
        self._tick = ev.Wait(self.step_seconds)
        # a move of at most max_mouse_px pixels passes MoveBy's checks whatever the action
        self._moves_in_range = self.max_mouse_px <= ev.MAX_COORD
        self.space = spaces.Dict(
            {
                "keys": spaces.MultiBinary(len(self.keys)),
                "buttons": spaces.MultiBinary(3),
                "mouse": spaces.Box(-1.0, 1.0, (2,), np.float32),
                "scroll": spaces.Discrete(3, start=-1),
            }
        )

    def noop(self) -> dict[str, Any]:
        return {
            "keys": np.zeros(len(self.keys), np.int8),
            "buttons": np.zeros(3, np.int8),
            "mouse": np.zeros(2, np.float32),
            "scroll": 0,
        }

    def to_events(self, action: Mapping[str, Any], held: HeldInput) -> list[ev.Event]:
        """Events that make the held state equal ``action``, then one tick of waiting."""
        if not isinstance(action, Mapping):
            raise InvalidActionError(
                f"state-mode action must be a dict with keys/buttons/mouse/scroll, got "
                f"{type(action).__name__}"
            )
        if action.keys() != _STATE_ENTRIES:
            _refuse_entries(action, _STATE_ENTRIES, _STATE_ENTRIES, "state")
        keys = _bits(action.get("keys"), len(self.keys), "keys")
        buttons = _bits(action.get("buttons"), 3, "buttons")
        mu, mv = _mouse(action.get("mouse", (0.0, 0.0)))
        scroll = action.get("scroll", 0)
        if not (type(scroll) is int or isinstance(scroll, np.integer)) or scroll not in (-1, 0, 1):
            if int(scroll) != scroll or int(scroll) not in (-1, 0, 1):
                raise InvalidActionError(f"scroll must be -1, 0 or 1, got {scroll!r}")
        out: list[ev.Event] = []
        down = held.key_names
        for i, k in enumerate(self.keys):
            if keys[i] != (k in down):  # (most keys stay as they are)
                out.append(self._down[i] if keys[i] else self._up[i])
        for i, b in enumerate(BUTTONS):
            if buttons[i] != held.button_held(b):
                out.append(self._button_down[i] if buttons[i] else self._button_up[i])
        dx, dy = round(mu * self.max_mouse_px), round(mv * self.max_mouse_px)
        if dx or dy:
            if self._moves_in_range:
                out.append(ev.prechecked(ev.MoveBy, dx=dx, dy=dy, duration_s=0.0))
            else:
                out.append(ev.MoveBy(dx, dy))
        if scroll:
            out.append(self._scroll[int(scroll)])
        out.append(self._tick)
        return out


_BITS = frozenset((0, 1))
_STATE_ENTRIES = frozenset(("keys", "buttons", "mouse", "scroll"))
_EVENT_ENTRIES = frozenset(
    ("op", "xy", "dxy", "button", "clicks", "key", "mods", "scroll", "text", "duration")
)


def _refuse_entries(
    action: Mapping[str, Any], needed: frozenset[str], known: frozenset[str], mode: str
) -> None:
    """Raise :class:`InvalidActionError` naming the missing and the unknown entries."""
    missing, unknown = sorted(needed - action.keys()), sorted(map(str, action.keys() - known))
    if missing or unknown:
        what = [f"missing {missing}"] * bool(missing) + [f"unknown {unknown}"] * bool(unknown)
        raise InvalidActionError(
            f"{mode}-mode action: {', '.join(what)}; its entries are {sorted(known)}"
        )


def _bits(value: Any, n: int, what: str) -> list[int]:
    """``_binary(value, n, what).tolist()``, without numpy's checks for the common case (an
    integer array of the right shape, as the space samples)."""
    if type(value) is np.ndarray and value.shape == (n,) and value.dtype.kind in "iub":
        bits = value.tolist()
        if _BITS.issuperset(bits):
            return [int(b) for b in bits] if value.dtype.kind == "b" else bits
    return _binary(value, n, what).tolist()


def _mouse(value: Any) -> tuple[float, float]:
    """The mouse entry as two floats in [-1, 1] (float64), or :class:`InvalidActionError`."""
    if (
        type(value) is np.ndarray
        and value.shape == (2,)
        and value.dtype.kind == "f"
        and value.itemsize <= 8
    ):
        u, v = value.tolist()  # exact: float32 and float64 both become Python floats
        if -1.0 <= u <= 1.0 and -1.0 <= v <= 1.0:  # false for NaN
            return u, v
    mouse = np.asarray(value, dtype=np.float64)
    if mouse.shape != (2,) or not np.all(np.isfinite(mouse)) or np.any(np.abs(mouse) > 1):
        raise InvalidActionError(f"mouse must be 2 numbers in [-1, 1], got {mouse.tolist()}")
    return float(mouse[0]), float(mouse[1])


def _binary(value: Any, n: int, what: str) -> np.ndarray:
    arr = np.asarray(value if value is not None else np.zeros(n), dtype=np.int64)
    if arr.shape != (n,) or np.any((arr != 0) & (arr != 1)):
        raise InvalidActionError(f"{what} must be {n} values of 0 or 1, got {arr.tolist()}")
    return arr


class EventActions:
    """The ``event`` action mode: one operation per step."""

    def __init__(
        self,
        keys: Sequence[str],
        size: tuple[int, int],
        max_mouse_px: float,
        max_text: int = 64,
        max_duration: float = 5.0,
        max_scroll: int = 5,
    ) -> None:
        self.keys = _key_tuple([*keys, *COMMON_KEYS])
        self.size = size  # (W, H)
        self.max_mouse_px = float(max_mouse_px)
        self.max_duration = float(max_duration)
        self.max_scroll = int(max_scroll)
        self.space = spaces.Dict(
            {
                "op": spaces.Discrete(len(OPS)),
                "xy": spaces.Box(0.0, 1.0, (2,), np.float32),
                "dxy": spaces.Box(-1.0, 1.0, (2,), np.float32),
                "button": spaces.Discrete(3),
                "clicks": spaces.Discrete(3, start=1),
                "key": spaces.Discrete(len(self.keys)),
                "mods": spaces.MultiBinary(len(MODS)),
                "scroll": spaces.Discrete(2 * self.max_scroll + 1, start=-self.max_scroll),
                "text": spaces.Text(max_text, min_length=0, charset=frozenset(ev.TYPEABLE)),
                "duration": spaces.Box(0.0, 1.0, (1,), np.float32),
            }
        )

    def op_index(self, name: str) -> int:
        return OPS.index(name)

    def to_event(self, action: Mapping[str, Any]) -> ev.Event:
        """The one event of an event-mode action."""
        if not isinstance(action, Mapping) or "op" not in action:
            raise InvalidActionError("event-mode action must be a dict with an 'op' entry")
        if not _EVENT_ENTRIES.issuperset(action.keys()):
            _refuse_entries(action, frozenset(("op",)), _EVENT_ENTRIES, "event")
        op_i = action["op"]
        if isinstance(op_i, str):
            if op_i not in OPS:
                raise InvalidActionError(f"unknown op {op_i!r}; ops: {OPS}")
            op = op_i
        else:
            if int(op_i) != op_i or not 0 <= int(op_i) < len(OPS):
                raise InvalidActionError(f"op must be in [0, {len(OPS)}), got {op_i!r}")
            op = OPS[int(op_i)]
        g = action.get
        W, H = self.size
        frac = float(np.asarray(g("duration", 0.0)).reshape(-1)[0])
        if not 0.0 <= frac <= 1.0:
            raise InvalidActionError(
                f"duration must lie in [0, 1] (x {self.max_duration} s), got {frac}"
            )
        dur = frac * self.max_duration
        button = BUTTONS[_index(g("button", 0), 3, "button")]

        def xy() -> tuple[int, int]:
            u, v = _unit_pair(g("xy", (0.0, 0.0)), 0.0, "xy")
            return min(int(u * W), W - 1), min(int(v * H), H - 1)

        def key() -> str:
            return self.keys[_index(g("key", 0), len(self.keys), "key")]

        p: dict[str, Any]
        if op in ("MOVE_TO", "CLICK", "RIGHT_CLICK", "DOUBLE_CLICK", "DRAG_TO"):
            x, y = xy()
            p = {"x": x, "y": y}
            if op == "CLICK":
                p["num_clicks"] = _index(g("clicks", 1) - 1, 3, "clicks") + 1
            if op in ("CLICK", "DOUBLE_CLICK", "DRAG_TO"):
                p["button"] = button
            if op in ("MOVE_TO", "DRAG_TO"):
                p["duration"] = dur
        elif op == "MOVE_BY":
            du, dv = _unit_pair(g("dxy", (0.0, 0.0)), -1.0, "dxy")
            p = {"dx": round(du * self.max_mouse_px), "dy": round(dv * self.max_mouse_px)}
            p["duration"] = dur
        elif op in ("MOUSE_DOWN", "MOUSE_UP"):
            p = {"button": button}
        elif op == "SCROLL":
            p = {"dy": int(g("scroll", 0))}
        elif op == "TYPING":
            p = {"text": str(g("text", ""))}
        elif op in ("PRESS", "KEY_DOWN", "KEY_UP"):
            p = {"key": key(), **({"duration": dur} if op == "PRESS" else {})}
        elif op == "HOTKEY":
            mods = _binary(g("mods", np.zeros(len(MODS))), len(MODS), "mods")
            p = {"keys": [m for m, on in zip(MODS, mods) if on] + [key()]}
        elif op == "WAIT":
            p = {"duration": dur}
        else:  # FAIL, DONE
            p = {}
        (event,) = computer13.build(op, p)
        return event


def _index(value: Any, n: int, what: str) -> int:
    try:
        i = int(np.asarray(value).reshape(-1)[0])
    except (TypeError, ValueError, IndexError):
        raise InvalidActionError(f"{what} must be an integer, got {value!r}") from None
    if not 0 <= i < n:
        raise InvalidActionError(f"{what} out of range [0, {n}): {value!r}")
    return i


def _unit_pair(value: Any, low: float, what: str) -> tuple[float, float]:
    arr = np.asarray(value, dtype=np.float64).reshape(-1)
    if arr.shape != (2,) or not np.all(np.isfinite(arr)) or np.any(arr < low) or np.any(arr > 1):
        raise InvalidActionError(f"{what} must be 2 numbers in [{low}, 1], got {value!r}")
    return float(arr[0]), float(arr[1])
