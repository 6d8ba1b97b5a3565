"""Cradle's memory: episodic (recent interactions + a running summary) and procedural (skills).

Learned skills are data — a name, a docstring, literal parameters and a body of whitelisted
calls with ``$param`` placeholders — validated by :func:`gcc_envs.parse_code` against the
env's skills when made and when loaded. They are stored as JSON; nothing is executed.
"""

from __future__ import annotations

import json
import re
import string
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gcc_envs.core.code import parse_code
from gcc_envs.core.skills import Param, Skill, SkillCall, SkillLibrary
from gcc_envs.errors import CodeActionError, DataError

RECENT = 5  #: interactions kept in short-term episodic memory
_NAME = re.compile(r"[a-z_][a-z0-9_]{0,63}")
_TYPES = {"float": float, "int": int, "str": str, "bool": bool}


@dataclass(frozen=True)
class Interaction:
    step: int
    task: str
    action: str
    reflection: str = ""


@dataclass
class EpisodicMemory:
    recent: deque[Interaction] = field(default_factory=lambda: deque(maxlen=RECENT))
    summary: str = ""

    def add(self, it: Interaction) -> None:
        self.recent.append(it)

    def text(self) -> str:
        """The recent interactions, grouped by task (each task written once, in order).

        >>> m = EpisodicMemory()
        >>> for i, a in enumerate(["move_up()", "use_tool()"], 1):
        ...     m.add(Interaction(i, "clear weeds", a))
        >>> m.add(Interaction(3, "go home", "move_down(duration=1.0)"))
        >>> print(m.text())
        task 'clear weeds': 1) move_up() 2) use_tool()
        task 'go home': 3) move_down(duration=1.0)
        """
        lines: list[str] = []
        task: str | None = None
        for i in self.recent:
            act = " ".join(i.action.split("\n"))
            if i.task != task:
                task = i.task
                lines.append(f"task {task!r}:")
            lines[-1] += f" {i.step}) {act}"
        return "\n".join(lines) or "(none)"

    def clear(self) -> None:
        self.recent.clear()
        self.summary = ""


@dataclass(frozen=True)
class LearnedSkill:
    """A skill as data: ``body`` is code of whitelisted calls; ``$name`` marks a parameter."""

    name: str
    doc: str
    params: tuple[tuple[str, str, Any], ...] = ()  #: (name, type, default)
    body: str = ""

    def expand(self, **kwargs: Any) -> str:
        """The body with arguments (or defaults) filled in as literals."""
        values = {n: kwargs.get(n, d) for n, _, d in self.params}
        return string.Template(self.body).substitute({k: repr(v) for k, v in values.items()})

    def validate(self, skills: Mapping[str, Skill]) -> None:
        """Raise :class:`CodeActionError` unless the skill is well-formed and its body parses."""
        if not _NAME.fullmatch(self.name) or self.name in skills:
            raise CodeActionError(f"learned skill name {self.name!r} is invalid or taken")
        for n, t, d in self.params:
            if not _NAME.fullmatch(n) or t not in _TYPES or not isinstance(d, _TYPES[t]):
                raise CodeActionError(
                    f"learned skill {self.name}: bad parameter {n!r}: {t} = {d!r}"
                )
        try:
            code = self.expand()
        except (KeyError, ValueError) as e:
            raise CodeActionError(f"learned skill {self.name}: bad placeholder ({e})") from None
        try:
            parsed = parse_code(code, skills)
        except CodeActionError as e:
            raise CodeActionError(f"learned skill {self.name}: body refused: {e}") from None
        if not parsed:
            raise CodeActionError(f"learned skill {self.name}: the body calls nothing")

    def as_skill(self) -> Skill:
        """A :class:`Skill` for binding calls (its programs come from :meth:`expand`)."""
        params = tuple(Param(n, t, d) for n, t, d in self.params)
        return Skill(self.name, lambda **kw: [], self.doc, params)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "params": [list(p) for p in self.params]}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> LearnedSkill:
        try:
            params = tuple((str(n), str(t), v) for n, t, v in d.get("params", []))
            return cls(str(d["name"]), str(d.get("doc", "")), params, str(d["body"]))
        except (KeyError, TypeError, ValueError) as e:
            raise DataError(f"learned skill entry {dict(d)!r} is malformed ({e})") from None


class ProceduralMemory:
    """The env's skill library plus learned skills; calls of learned skills expand to code.

    ``lower`` (for skills the env does not know, e.g. app skills) turns a base call into the
    code the env runs; learned bodies are then lowered call by call too.
    """

    def __init__(self, base: SkillLibrary, lower: Callable[[SkillCall], str] | None = None) -> None:
        self.base = base
        self.lower = lower
        self.learned: dict[str, LearnedSkill] = {}

    def add(self, skill: LearnedSkill) -> None:
        skill.validate(self.base)
        self.learned[skill.name] = skill

    @property
    def library(self) -> SkillLibrary:
        return self.base.with_skills(s.as_skill() for s in self.learned.values())

    def describe(self) -> str:
        return self.library.describe()

    def code(self, calls: tuple[SkillCall, ...]) -> str:
        """Code text the env runs: base calls as they are, learned calls expanded."""
        out = []
        for c in calls:
            s = self.learned.get(c.name)
            if s is not None:
                kwargs = dict(zip((n for n, _, _ in s.params), c.args)) | dict(c.kwargs)
                c = SkillCall(c.name, (), tuple(kwargs.items()))
            if s is None:
                out.append(c.to_code() if self.lower is None else self.lower(c))
            elif self.lower is None:
                out.append(s.expand(**dict(c.kwargs)))
            else:
                for part in parse_code(s.expand(**dict(c.kwargs)), self.base):
                    out.append(
                        self.lower(part) if isinstance(part, SkillCall) else part.to_pyautogui()
                    )
        return "\n".join(out)

    def save(self, path: Path) -> None:
        data = {"skills": [s.to_json() for s in self.learned.values()]}
        path.write_text(json.dumps(data, indent=2))

    def load(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text())
            entries = data["skills"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise DataError(f"{path}: not a learned-skill file ({e})") from None
        for d in entries:
            try:
                self.add(LearnedSkill.from_json(d))
            except CodeActionError as e:
                raise DataError(f"{path}: skill {d.get('name')!r} refused: {e}") from None
