"""``UseCode``: act with pyautogui code text or OSWorld ``computer_13`` action dicts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from gcc_envs.core import events as ev
from gcc_envs.core.code import MAX_CODE_CHARS, parse_code
from gcc_envs.core.program import Program
from gcc_envs.core.skills import SkillCall, SkillLibrary
from gcc_envs.errors import InvalidActionError
from wrappers._refuse import refused
from wrappers.use_skills import CODE_CHARSET

Params = Mapping[str, Any]


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


def _press(cls: type[ev.KeyPress | ev.KeyDown | ev.KeyUp]) -> Callable[[Params], list[ev.Event]]:
    def make(p: Params) -> list[ev.Event]:
        if "key" not in p:
            raise InvalidActionError("'key' is required")
        return [cls(p["key"])]

    return make


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
    return [] if at is None else [ev.MoveTo(*at)]  # OSWorld: moveTo() without x, y stays put


def _drag_to(p: Params) -> list[ev.Event]:
    # OSWorld drags with the left button over 1 s.
    return [ev.DragTo(*_xy(p, required=True), button="left", duration_s=1.0)]  # type: ignore[misc]


#: computer_13 action types → (accepted parameter names, builder of events).
COMPUTER_13: Mapping[str, tuple[frozenset[str], Callable[[Params], list[ev.Event]]]] = {
    "MOVE_TO": (frozenset({"x", "y"}), _move_to),
    "CLICK": (
        frozenset({"x", "y", "button", "num_clicks"}),
        lambda p: _clicks(p, p.get("button", "left"), p.get("num_clicks", 1)),
    ),
    "MOUSE_DOWN": (frozenset({"button"}), lambda p: [ev.MouseDown(p.get("button", "left"))]),
    "MOUSE_UP": (frozenset({"button"}), lambda p: [ev.MouseUp(p.get("button", "left"))]),
    "RIGHT_CLICK": (frozenset({"x", "y"}), lambda p: _clicks(p, "right", 1)),
    "DOUBLE_CLICK": (frozenset({"x", "y"}), lambda p: _clicks(p, "left", 2)),
    "DRAG_TO": (frozenset({"x", "y"}), _drag_to),
    "SCROLL": (frozenset({"dx", "dy"}), _scroll),
    "TYPING": (frozenset({"text"}), _typing),
    "PRESS": (frozenset({"key"}), _press(ev.KeyPress)),
    "KEY_DOWN": (frozenset({"key"}), _press(ev.KeyDown)),
    "KEY_UP": (frozenset({"key"}), _press(ev.KeyUp)),
    "HOTKEY": (frozenset({"keys"}), _hotkey),
    "WAIT": (frozenset(), lambda p: [ev.Wait(1.0)]),  # as the WAIT token of code actions
    "FAIL": (frozenset(), lambda p: [ev.Fail()]),
    "DONE": (frozenset(), lambda p: [ev.Done()]),
}


def computer13_events(action: Mapping[str, Any]) -> list[ev.Event]:
    """The events of one OSWorld ``computer_13`` action; raise :class:`InvalidActionError`.

    The parameters sit under ``"parameters"`` or, as OSWorld also accepts, beside
    ``"action_type"``. Coordinates are frame pixels.

    >>> computer13_events({"action_type": "CLICK", "parameters": {"x": 5, "y": 7, "num_clicks": 2}})
    [Click(x=5, y=7, button='left', count=2)]
    >>> computer13_events({"action_type": "HOTKEY", "keys": ["ctrl", "c"]})
    [Hotkey(keys=('ctrl', 'c'))]
    """
    kind = action.get("action_type")
    if kind not in COMPUTER_13:
        raise InvalidActionError(
            f"unknown computer_13 action_type {kind!r}; use one of {', '.join(COMPUTER_13)}"
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
    names, build = COMPUTER_13[kind]
    unknown = set(params) - names
    if unknown:
        allowed = ", ".join(sorted(names)) or "none"
        raise InvalidActionError(
            f"{kind} has no parameter(s) {sorted(unknown)}; allowed: {allowed}"
        )
    try:
        return build(params)
    except InvalidActionError as e:
        raise InvalidActionError(f"{kind}: {e}") from None
    except TypeError as e:  # a wrongly typed value reaching an event constructor
        raise InvalidActionError(f"{kind}: bad parameters {dict(params)!r}: {e}") from None


class UseCode(gym.ActionWrapper, gym.utils.RecordConstructorArgs):
    """Act with pyautogui code text or an OSWorld ``computer_13`` dict (OSWorld's action spaces).

    * Text: pyautogui calls, ``time.sleep(s)`` and ``WAIT``/``FAIL``/``DONE``, parsed safely by
      :func:`gcc_envs.parse_code` (nothing is executed). Skill calls are refused here: this is
      the code-only action space (use :class:`~wrappers.UseSkills` for skills).
    * A dict ``{"action_type": "CLICK", "parameters": {"x": 10, "y": 20, "button": "left",
      "num_clicks": 1}}``, with OSWorld's action types and parameter names: ``MOVE_TO(x, y)``,
      ``CLICK(x, y, button, num_clicks)``, ``MOUSE_DOWN(button)``, ``MOUSE_UP(button)``,
      ``RIGHT_CLICK(x, y)``, ``DOUBLE_CLICK(x, y)``, ``DRAG_TO(x, y)``, ``SCROLL(dx, dy)``,
      ``TYPING(text)``, ``PRESS(key)``, ``KEY_DOWN(key)``, ``KEY_UP(key)``, ``HOTKEY(keys)``,
      ``WAIT``, ``FAIL``, ``DONE``. Coordinates are frame pixels.

    The events are passed down as one :class:`~gcc_envs.Program`; what they did is in
    ``info["events"]``. Input that cannot be turned into events runs nothing and is reported in
    ``info["last_action_error"]``. A :class:`~gcc_envs.Program` is passed down unchanged. The
    declared ``action_space`` is the code text (``Text``); dicts are accepted besides.

    Example:
        >>> import gymnasium as gym
        >>> import gcc_envs
        >>> from wrappers import UseCode
        >>> env = UseCode(gym.make("GCC/Stardew-FarmClearup", obs_size=(72, 128)))
        >>> _ = env.reset(seed=0)
        >>> info = env.step({"action_type": "PRESS", "parameters": {"key": "c"}})[-1]
        >>> [(e["type"], e["key"]) for e in info["events"]]
        [('KeyPress', 'c')]
        >>> env.step("move_up(duration=1)")[-1]["last_action_error"][:30]
        'skill calls are not accepted h'
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.ActionWrapper.__init__(self, env)
        skills = getattr(env.unwrapped, "skills", None)
        self._skills = skills if isinstance(skills, SkillLibrary) else SkillLibrary()
        self.action_space = spaces.Text(MAX_CODE_CHARS, min_length=0, charset=CODE_CHARSET)

    def action(self, action: Any) -> Program:
        if isinstance(action, Program):
            return action
        try:
            if isinstance(action, str):
                return Program(self._code_events(action))
            if isinstance(action, Mapping):
                return Program(computer13_events(action))
        except InvalidActionError as e:
            return refused(str(e))
        return refused(
            f"UseCode takes pyautogui code text or a computer_13 dict, got {type(action).__name__}"
        )

    def _code_events(self, text: str) -> list[ev.Event]:
        # Parsed against the skill library only to name skill calls as such in the refusal.
        parts = parse_code(text, self._skills)
        calls = [p.name for p in parts if isinstance(p, SkillCall)]
        if calls:
            raise InvalidActionError(
                f"skill calls are not accepted here ({', '.join(calls)}): write pyautogui code, "
                "time.sleep, WAIT, FAIL or DONE (wrap the env with UseSkills to act with skills)"
            )
        return [p for p in parts if isinstance(p, ev.Event)]
