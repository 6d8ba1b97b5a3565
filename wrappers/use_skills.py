"""``UseSkills`` and ``UseSkillGrid``: act with the env's skills (code text, or a table index)."""

from __future__ import annotations

import itertools
import string
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gcc_envs.core.code import MAX_CODE_CHARS, parse_code
from gcc_envs.core.events import Done, Event, Fail
from gcc_envs.core.program import Program, sequence
from gcc_envs.core.skills import SkillCall, SkillLibrary
from gcc_envs.errors import GCCError, InvalidActionError
from wrappers._refuse import refused

#: Skill calls per step when the env does not say (``env.unwrapped.max_skill_calls``).
DEFAULT_MAX_CALLS = 2
#: Characters a code-text action may use (the ``Text`` space's charset).
CODE_CHARSET = frozenset(string.printable)

SkillGrid = Mapping[str, Mapping[str, Sequence[Any]]] | Sequence[str]


def skill_library(env: gym.Env) -> SkillLibrary:
    skills = getattr(env.unwrapped, "skills", None)
    if not isinstance(skills, SkillLibrary) or not len(skills):
        raise GCCError(f"{type(env.unwrapped).__name__} has no skill library to act with")
    return skills


def skill_calls(text: str, skills: SkillLibrary, max_calls: int | None = None) -> list[SkillCall]:
    """Parse ``text`` into skill calls; raise :class:`CodeActionError` for anything else.

    >>> from gcc_envs.games.stardew.skills import SKILLS
    >>> skill_calls("move_up(duration=1)\\nuse_tool()", SKILLS)
    [SkillCall(name='move_up', args=(), kwargs=(('duration', 1.0),)), SkillCall(name='use_tool', args=(), kwargs=())]
    """
    calls, end = skill_text(text, skills, max_calls)
    if end is not None:
        raise InvalidActionError(f"only skill calls are accepted here, got {end.to_pyautogui()}")
    return calls


def skill_text(
    text: str, skills: SkillLibrary, max_calls: int | None = None
) -> tuple[list[SkillCall], Done | Fail | None]:
    """Parse ``text`` into skill calls and the episode's last word: a final ``DONE``/``FAIL``.

    ``DONE`` or ``FAIL`` (the core's words, as OSWorld's agents and Cradle's policy answer them)
    may end the text, alone or after the calls; it does not count against ``max_calls``.

    >>> from gcc_envs.games.stardew.skills import SKILLS
    >>> skill_text("use_tool()\\nDONE", SKILLS)
    ([SkillCall(name='use_tool', args=(), kwargs=())], Done())
    """
    parts = parse_code(text, skills)
    end = parts.pop() if parts and isinstance(parts[-1], (Done, Fail)) else None
    for p in parts:
        if not isinstance(p, SkillCall):
            code = p.to_pyautogui() if isinstance(p, Event) else repr(p)
            raise InvalidActionError(
                f"only skill calls are accepted, got {code!r}; skills: {', '.join(skills)}"
            )
    if max_calls is not None and len(parts) > max_calls:
        raise InvalidActionError(
            f"{len(parts)} skill calls in one step; at most {max_calls} per step"
        )
    return parts, end  # type: ignore[return-value]  # every part is a SkillCall (checked)


def skill_program(calls: Sequence[SkillCall], skills: SkillLibrary) -> Program:
    """One program running ``calls`` in order (arguments validated by each skill)."""
    return sequence((skills.program(c) for c in calls), name="; ".join(c.name for c in calls))


class UseSkills(gym.ActionWrapper, gym.utils.RecordConstructorArgs):
    """Act with code text of skill calls from the env's skill library (Cradle's action space).

    The action is text such as ``"move_down(duration=2.0)\\nuse_tool()"``: at most
    ``max_calls`` calls of the env's skills with literal arguments, parsed safely by
    :func:`gcc_envs.parse_code` (nothing is executed). The calls become one
    :class:`~gcc_envs.Program` passed down with ``self.env.step``. The text may end with
    ``DONE`` or ``FAIL`` (alone or after the calls, not counted as a call): the core's
    :class:`~gcc_envs.core.events.Done`/``Fail`` event, which ends the episode in every game and
    suite, as it does for ``UseCode`` and OSWorld. Anything else — pyautogui calls, ``WAIT``,
    a word before a call, unknown skills, bad arguments, too many calls — runs nothing and is
    reported in ``info["last_action_error"]``; the step still returns. Text with no call is a
    no-op step. A :class:`~gcc_envs.Program` is passed down unchanged.

    ``skill_text`` is the library's description (one ``signature: doc`` line per skill) for
    prompts.

    Example:
        >>> import gymnasium as gym
        >>> import gcc_envs
        >>> from wrappers import UseSkills
        >>> env = UseSkills(gym.make("GCC/Stardew-FarmClearup", obs_size=(72, 128)))
        >>> _ = env.reset(seed=0)
        >>> env.skill_text.splitlines()[0][:30]
        'move_up(duration: float = 0.5)'
        >>> info = env.step("move_down(duration=1.0)")[-1]
        >>> info["last_action_error"], [e["type"] for e in info["events"]]
        (None, ['KeyPress'])
        >>> env.step("pyautogui.press('c')")[-1]["last_action_error"][:35]
        'only skill calls are accepted, got '
        >>> env.step("DONE")[2]  # the episode ends
        True

    Args:
        env: a GCC env with a skill library (``env.unwrapped.skills``).
        max_calls: most skill calls per step; default ``env.unwrapped.max_skill_calls`` if the
            env sets it (RDR2: 1), else 2 (Stardew).
    """

    def __init__(self, env: gym.Env, max_calls: int | None = None) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, max_calls=max_calls)
        gym.ActionWrapper.__init__(self, env)
        self.skills = skill_library(env)
        if max_calls is None:
            max_calls = getattr(env.unwrapped, "max_skill_calls", DEFAULT_MAX_CALLS)
        if isinstance(max_calls, bool) or not isinstance(max_calls, int) or max_calls < 1:
            raise GCCError(f"max_calls must be an int >= 1, got {max_calls!r}")
        self.max_calls = max_calls
        self.action_space = spaces.Text(MAX_CODE_CHARS, min_length=0, charset=CODE_CHARSET)

    @property
    def skill_text(self) -> str:
        """One ``signature: doc`` line per skill: the text prompts show."""
        return self.skills.describe()

    def action(self, action: Any) -> Program:
        if isinstance(action, Program):
            return action
        if not isinstance(action, str):
            return refused(f"UseSkills takes code text of skill calls, got {type(action).__name__}")
        try:
            calls, end = skill_text(action, self.skills, self.max_calls)
            program = skill_program(calls, self.skills)
            return program if end is None else sequence([program, end], name=program.name)
        except InvalidActionError as e:
            return refused(str(e))


class UseSkillGrid(gym.ActionWrapper, gym.utils.RecordConstructorArgs):
    """Act with a ``Discrete`` index into a table of concrete skill calls (skill-level RL).

    ``grid`` maps skill names to their parameter values; every combination is one action::

        {"move_up": {"duration": [0.25, 0.5, 1.0]}, "use_tool": {}}
        # -> ["move_up(duration=0.25)", "move_up(duration=0.5)", "move_up(duration=1.0)",
        #     "use_tool()"]

    or it is a list of code strings. Each is checked against the env's skill library when the
    wrapper is made. Action ``i`` passes the code text ``codes[i]`` down (the env, or a
    :class:`UseSkills` below, runs it). Without a grid the env's ``skill_grid`` attribute (the game's
    default) is used (Stardew: moves of 0.25/0.5/1 s, tool use,
    ``do_action``, ``select_tool(1..6)`` — 20 actions). An index out of range runs nothing and
    is reported in ``info["last_action_error"]``.

    Example:
        >>> import gymnasium as gym
        >>> import gcc_envs
        >>> from wrappers import UseSkillGrid
        >>> env = UseSkillGrid(gym.make("GCC/Stardew-FarmClearup", obs_size=(72, 128)))
        >>> env.action_space, env.codes[0], env.codes[-1]
        (Discrete(20), 'move_up(duration=0.25)', 'select_tool(key=6)')

    With ``noop=True`` action 0 is a no-op (a step with no input: game time passes) and the
    grid follows from 1. :meth:`get_keys_to_action` maps the keys ``1``–``9``, ``0``, ``a``–``z``
    to the grid's entries in order, so Gymnasium's player works as it is:
    ``gymnasium.utils.play.play(UseSkillGrid(env, noop=True))`` (its default ``noop=0``).

    Args:
        env: a GCC env with a skill library.
        grid: the table of calls (see above), or None for the env's or game's default.
        noop: put a no-op first (action 0).
    """

    #: The keys :meth:`get_keys_to_action` gives the grid's entries, in order.
    PLAY_KEYS = "1234567890abcdefghijklmnopqrstuvwxyz"

    def __init__(self, env: gym.Env, grid: SkillGrid | None = None, noop: bool = False) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, grid=grid, noop=noop)
        gym.ActionWrapper.__init__(self, env)
        skills = skill_library(env)
        if grid is None:
            inner = env.unwrapped
            grid = getattr(inner, "skill_grid", None)
            if grid is None:
                raise GCCError(
                    f"no default skill grid for {type(inner).__name__}; pass grid={{skill: "
                    "{param: [values]}}"
                )
        self.codes: tuple[str, ...] = tuple(expand_grid(grid))
        if not self.codes:
            raise GCCError("the skill grid is empty")
        for code in self.codes:
            try:
                skill_program(skill_calls(code, skills), skills)
            except InvalidActionError as e:
                raise GCCError(
                    f"skill grid entry {code!r} is not a valid skill call: {e}"
                ) from None
        self.noop = bool(noop)
        if self.noop:
            self.codes = ("", *self.codes)  # text with no call: a no-op step
        self.action_space = spaces.Discrete(len(self.codes))

    def get_keys_to_action(self) -> dict[tuple[str], int]:
        """``{(key,): action}`` for the grid's entries (not the no-op), keys in ``PLAY_KEYS``."""
        first = 1 if self.noop else 0
        pairs = zip(self.PLAY_KEYS, range(first, len(self.codes)))
        return {(key,): i for key, i in pairs}

    def action(self, action: Any) -> str | Program:
        if isinstance(action, Program):
            return action
        try:
            i = int(np.asarray(action).reshape(()))
        except (TypeError, ValueError):
            return refused(f"UseSkillGrid takes an action index, got {action!r}")
        if not 0 <= i < len(self.codes) or i != np.asarray(action).reshape(()):
            return refused(f"action {action!r} outside [0, {len(self.codes)})")
        return self.codes[i]


def expand_grid(grid: SkillGrid) -> list[str]:
    """Code strings of every combination of a grid's parameter values.

    >>> expand_grid({"move_up": {"duration": [0.5, 1.0]}, "select_tool": {"key": [1]}})
    ['move_up(duration=0.5)', 'move_up(duration=1.0)', 'select_tool(key=1)']
    """
    if not isinstance(grid, Mapping):
        if isinstance(grid, str) or not all(isinstance(c, str) for c in grid):
            raise GCCError("a skill grid is a {skill: {param: [values]}} mapping or code strings")
        return list(grid)
    out: list[str] = []
    for name, params in grid.items():
        if not isinstance(params, Mapping):
            raise GCCError(f"skill grid entry {name!r}: give {{param: [values]}}, got {params!r}")
        keys = list(params)
        values = [[v] if isinstance(v, (str, int, float)) else list(v) for v in params.values()]
        for combo in itertools.product(*values):
            args = ", ".join(f"{k}={v!r}" for k, v in zip(keys, combo))
            out.append(f"{name}({args})")
    return out
