"""Prompt templates: one ``string.Template`` file per game and module, checked at load.

``prompts/<game>/<module>.txt`` uses ``$name`` fields. :func:`load_prompts` reads a game's
templates and checks that each uses exactly the fields its module fills (a missing or unknown
field is a :class:`~gcc_envs.errors.DataError` naming the file).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from gcc_envs.core.templates import template_fields
from gcc_envs.errors import DataError

PROMPT_DIR = Path(__file__).parent / "prompts"

#: The fields each module fills.
FIELDS: Mapping[str, frozenset[str]] = {
    "information_gathering": frozenset({"subtask"}),
    "self_reflection": frozenset({"last_action", "last_error", "subtask"}),
    "task_inference": frozenset(
        {"goal", "subtask", "description", "reflection", "summary", "recent"}
    ),
    "skill_curation": frozenset({"skills", "subtask", "instructions"}),
    "fused": frozenset(
        {"goal", "subtask", "last_error", "summary", "recent", "skills", "max_calls"}
    ),
    "action_planning": frozenset(
        {"goal", "subtask", "description", "reflection", "summary", "recent", "skills", "max_calls"}
    ),
}


@dataclass(frozen=True)
class Prompt:
    module: str
    path: Path
    template: string.Template

    def render(self, **fields: object) -> str:
        unknown = set(fields) ^ FIELDS[self.module]
        if unknown:
            raise DataError(f"{self.path}: fields given do not match the module: {sorted(unknown)}")
        return self.template.substitute({k: str(v) for k, v in fields.items()})


def load_prompt(path: Path, module: str) -> Prompt:
    if module not in FIELDS:
        raise DataError(f"{path}: unknown module {module!r}; known: {', '.join(FIELDS)}")
    try:
        t = string.Template(path.read_text())
    except OSError as e:
        raise DataError(f"{path}: cannot read the prompt template ({e})") from None
    if any(m.group("invalid") is not None for m in t.pattern.finditer(t.template)):
        raise DataError(f"{path}: invalid $ placeholder (write $$ for a dollar sign)")
    used, want = template_fields(t), FIELDS[module]
    if used - want:
        raise DataError(f"{path}: unknown field(s) {sorted(used - want)}; allowed {sorted(want)}")
    if want - used:
        raise DataError(f"{path}: missing field(s) {sorted(want - used)}")
    return Prompt(module, path, t)


def load_prompts(game: str, root: Path = PROMPT_DIR) -> dict[str, Prompt]:
    """All module templates of ``game`` (``root/<game>/<module>.txt``)."""
    folder = root / game
    if not folder.is_dir():
        known = sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
        raise DataError(f"no prompt templates for game {game!r} in {root}; known: {known}")
    return {m: load_prompt(folder / f"{m}.txt", m) for m in FIELDS}
