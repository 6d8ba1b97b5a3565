"""``UseCode``: act with pyautogui code text or OSWorld ``computer_13`` action dicts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from gcc_envs.core import computer13
from gcc_envs.core import events as ev
from gcc_envs.core.code import MAX_CODE_CHARS, parse_code
from gcc_envs.core.program import Program
from gcc_envs.core.skills import SkillCall, SkillLibrary
from gcc_envs.errors import InvalidActionError
from wrappers._refuse import refused
from wrappers.use_skills import CODE_CHARSET

#: computer_13 action types → (accepted parameter names, builder of events).
COMPUTER_13 = computer13.ACTIONS
computer13_events = computer13.events


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
                return Program(computer13.events(action))
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
