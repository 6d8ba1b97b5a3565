"""FRIDAY's prompt templates (``prompts/*.txt``, ``string.Template`` with ``$field``s),
checked at load: each must use exactly the fields its module fills."""

from __future__ import annotations

import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from gcc_envs.errors import DataError

PROMPT_DIR = Path(__file__).parent / "prompts"

#: The fields each template uses.
FIELDS: Mapping[str, frozenset[str]] = {
    "planner": frozenset({"instruction", "profile", "facts", "tools", "max_subtasks"}),
    "actor_code": frozenset(
        {"module", "instruction", "subtask", "context", "profile", "facts", "tools", "feedback"}
    ),
    "actor_gui": frozenset(
        {
            "module",
            "instruction",
            "subtask",
            "context",
            "profile",
            "facts",
            "tools",
            "skills",
            "feedback",
        }
    ),  # fmt: skip
    "critic": frozenset({"instruction", "subtask", "code", "error", "output", "tool_rule"}),
    "curriculum": frozenset({"objective", "n", "tools", "check_rule"}),
}


@cache
def template(name: str) -> string.Template:
    """The checked template ``prompts/<name>.txt``."""
    path = PROMPT_DIR / f"{name}.txt"
    if name not in FIELDS:
        raise DataError(f"{path}: no such FRIDAY prompt (known: {', '.join(FIELDS)})")
    t = string.Template(path.read_text(encoding="utf-8"))
    used = {m.group("named") or m.group("braced") for m in t.pattern.finditer(t.template)} - {None}
    if used != FIELDS[name]:
        raise DataError(
            f"{path}: fields {sorted(used)} differ from what the module fills {sorted(FIELDS[name])}"
        )
    return t


def render(name: str, **fields: object) -> str:
    return template(name).substitute({k: str(v) for k, v in fields.items()})
