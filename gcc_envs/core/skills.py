"""Skills: named, documented functions that build a :class:`Program` from literal arguments.

The paper's skill libraries (``move_up(duration)``, ``turn(degree)``, ``buy_item()``) are
:class:`Skill` objects gathered in a :class:`SkillLibrary`. A skill is called through code text
(``move_up(duration=1)``) parsed by :func:`gcc_envs.parse_code`, which checks the call against
the skill's signature before anything runs, or directly from Python by scripted policies.

>>> from gcc_envs.core.events import KeyPress
>>> def move_up(duration: float = 0.5):
...     '''Walk up (north) by holding 'w' for ``duration`` seconds.'''
...     return [KeyPress("w", duration)]
>>> lib = SkillLibrary([Skill.from_function(move_up)])
>>> lib.describe()
"move_up(duration: float = 0.5): Walk up (north) by holding 'w' for ``duration`` seconds."
>>> lib.program(SkillCall("move_up", (), (("duration", 1),))).events
(KeyPress(key='w', hold_s=1.0),)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gcc_envs.core.program import Program
from gcc_envs.errors import CodeActionError, InvalidActionError

#: Python types a skill parameter may be annotated with (literals only).
_PARAM_TYPES = {"float": float, "int": int, "str": str, "bool": bool}


@dataclass(frozen=True)
class SkillCall:
    """A parsed call of a skill: name and literal arguments."""

    name: str
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()

    def to_code(self) -> str:
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs]
        return f"{self.name}({', '.join(parts)})"


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: Any = inspect.Parameter.empty

    @property
    def required(self) -> bool:
        return self.default is inspect.Parameter.empty


@dataclass(frozen=True)
class Skill:
    """A named program builder with a docstring and typed literal parameters."""

    name: str
    fn: Callable[..., Any]
    doc: str
    params: tuple[Param, ...]

    @classmethod
    def from_function(cls, fn: Callable[..., Any], name: str | None = None) -> Skill:
        sig = inspect.signature(fn)
        params = []
        for p in sig.parameters.values():
            ann = (
                p.annotation
                if isinstance(p.annotation, str)
                else getattr(p.annotation, "__name__", "float")
            )
            if ann not in _PARAM_TYPES:
                raise InvalidActionError(
                    f"skill {fn.__name__}: parameter {p.name} must be float, int, str or bool"
                )
            params.append(Param(p.name, ann, p.default))
        doc = inspect.getdoc(fn) or ""
        return cls(
            name or fn.__name__, fn, doc.strip().splitlines()[0] if doc else "", tuple(params)
        )

    def signature(self) -> str:
        parts = []
        for p in self.params:
            s = f"{p.name}: {p.type}"
            if not p.required:
                s += f" = {p.default!r}"
            parts.append(s)
        return f"{self.name}({', '.join(parts)})"

    def bind(self, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        """Match literal arguments to parameters, with types checked; raise CodeActionError."""
        if len(args) > len(self.params):
            raise CodeActionError(f"{self.signature()} takes {len(self.params)} argument(s)")
        bound: dict[str, Any] = {}
        for p, a in zip(self.params, args):
            bound[p.name] = a
        for k, v in kwargs.items():
            if k in bound:
                raise CodeActionError(f"{self.name}() got argument {k!r} twice")
            if k not in {p.name for p in self.params}:
                raise CodeActionError(f"{self.name}() has no parameter {k!r}: {self.signature()}")
            bound[k] = v
        out: dict[str, Any] = {}
        for p in self.params:
            if p.name not in bound:
                if p.required:
                    raise CodeActionError(f"{self.name}() needs {p.name!r}: {self.signature()}")
                continue
            out[p.name] = _coerce(self.name, p, bound[p.name])
        return out

    def program(self, *args: Any, **kwargs: Any) -> Program:
        """Build the program of one call (arguments validated)."""
        bound = self.bind(args, kwargs)
        body = self.fn(**bound)
        if isinstance(body, Program):
            body.fresh_input = True
            return body
        return Program(body, name=self.name, fresh_input=True)


def _coerce(skill: str, p: Param, v: Any) -> Any:
    want = _PARAM_TYPES[p.type]
    if want is float and isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    if isinstance(v, want) and not (want is int and isinstance(v, bool)):
        return v
    raise CodeActionError(f"{skill}(): {p.name} must be {p.type}, got {v!r}")


class SkillLibrary(Mapping[str, Skill]):
    """An immutable name → :class:`Skill` mapping with prompt text."""

    def __init__(self, skills: Iterable[Skill] = ()) -> None:
        self._skills: dict[str, Skill] = {}
        for s in skills:
            if s.name in self._skills:
                raise InvalidActionError(f"skill {s.name!r} defined twice")
            self._skills[s.name] = s

    @classmethod
    def from_functions(cls, *fns: Callable[..., Any]) -> SkillLibrary:
        return cls(Skill.from_function(f) for f in fns)

    def __getitem__(self, name: str) -> Skill:
        return self._skills[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._skills)

    def __len__(self) -> int:
        return len(self._skills)

    def with_skills(self, skills: Iterable[Skill]) -> SkillLibrary:
        """A new library with ``skills`` added (names must be new)."""
        return SkillLibrary([*self._skills.values(), *skills])

    def describe(self) -> str:
        """One line per skill, ``signature: doc`` — the text prompts show."""
        return "\n".join(f"{s.signature()}: {s.doc}" for s in self._skills.values())

    def program(self, call: SkillCall) -> Program:
        if call.name not in self._skills:
            raise CodeActionError(f"unknown skill {call.name!r}; known: {', '.join(self)}")
        return self._skills[call.name].program(*call.args, **dict(call.kwargs))
