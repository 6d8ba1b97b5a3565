"""Reading model replies: ``Key: value`` sections and the action code (parsed, never run)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from gcc_envs.core.code import MAX_CODE_CHARS, extract_code, parse_code
from gcc_envs.core.events import Done, Fail
from gcc_envs.core.skills import Skill, SkillCall
from gcc_envs.errors import CodeActionError

_SECTION = re.compile(r"^\s*\**([A-Za-z][A-Za-z ]{0,30}?)\**\s*:\s*(.*)$")


def sections(text: str) -> dict[str, str]:
    """``Key: value`` sections of a reply, keys lower-cased; a value runs to the next key."""
    out: dict[str, str] = {}
    key: str | None = None
    for line in text.splitlines():
        m = _SECTION.match(line)
        if m and not line.startswith((" ", "\t")):
            key = m.group(1).strip().lower()
            out[key] = m.group(2).strip()
        elif key is not None:
            out[key] = (out[key] + "\n" + line).strip("\n")
    return out


def yes(value: str | None, default: bool | None = None) -> bool | None:
    """``yes``/``true`` → True, ``no``/``false`` → False, else ``default``."""
    word = (value or "").strip().lower().split()[:1]
    if word and word[0].strip(".,!*") in ("yes", "true", "success", "succeeded"):
        return True
    if word and word[0].strip(".,!*") in ("no", "false", "failed", "failure"):
        return False
    return default


class NoAction(CodeActionError):
    """The reply holds no code to run (prose only, empty, or nothing callable)."""


@dataclass(frozen=True)
class ParsedAction:
    calls: tuple[SkillCall, ...]
    dropped: int  #: calls beyond ``max_calls`` that were left out
    #: ``"DONE"`` or ``"FAIL"`` when the code ends the episode after its calls (UseSkills' words)
    end: str | None = None

    @property
    def code(self) -> str:
        return "\n".join([*(c.to_code() for c in self.calls), *([self.end] if self.end else [])])


def action_code(reply: str) -> str:
    """The code of a reply: its fenced blocks, else the text after ``Action:``."""
    if "```" in reply:
        after = reply.split("Action:", 1)[-1] if "Action:" in reply else reply
        code = extract_code(after if "```" in after else reply)
    else:
        code = sections(reply).get("action", "")
    code = code.strip()
    if not code:
        raise NoAction("the reply has no action: give the skill calls under 'Action:' in ```python")
    return code


def parse_action(reply: str, skills: Mapping[str, Skill], max_calls: int | None) -> ParsedAction:
    """Skill calls of a reply, at most ``max_calls`` kept; raise CodeActionError if refused."""
    code = action_code(reply)
    if len(code) > MAX_CODE_CHARS:
        raise CodeActionError(f"the action code is longer than {MAX_CODE_CHARS} characters")
    parts = parse_code(code, skills)
    end = parts.pop() if parts and isinstance(parts[-1], (Done, Fail)) else None
    calls = [p for p in parts if isinstance(p, SkillCall)]
    if len(calls) != len(parts):
        raise CodeActionError(
            f"only skill calls (and a last DONE or FAIL) are accepted; skills: {', '.join(skills)}"
        )
    if not calls and end is None:
        raise NoAction("the action code calls no skill")
    keep = calls if max_calls is None else calls[:max_calls]
    word = None if end is None else ("DONE" if isinstance(end, Done) else "FAIL")
    return ParsedAction(tuple(keep), len(calls) - len(keep), word)
