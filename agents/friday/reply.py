"""Reading FRIDAY's model replies: JSON documents, fenced code and ``Key: value`` lines.

A model may answer anything: prose, a megabyte, ``NaN``, a list where an object belongs. The
readers here take the reply text and either return what a caller can use or raise
:class:`ReplyError` saying what was wrong (the caller shows it to the model, or gives up).
Nothing in a reply is run here.

>>> json_object('Here:\\n```json\\n{"a": 1}\\n```')
{'a': 1}
>>> json_object("I'd rather not.")
Traceback (most recent call last):
...
agents.friday.reply.ReplyError: the reply holds no JSON object (it starts "I'd rather not.")
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gcc_envs.errors import GCCError

#: Longest reply read, in characters (a longer one is refused, not cut).
MAX_REPLY_CHARS = 40_000
_FENCE = re.compile(r"```([A-Za-z0-9_+.-]*)[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)
_LINE = re.compile(r"^\s*\**([A-Za-z][A-Za-z ]{0,30}?)\**\s*:\s*(.*?)\s*$")


class ReplyError(GCCError, ValueError):
    """A model reply that cannot be used; the message says what was wrong."""


def check_size(text: str) -> str:
    if not isinstance(text, str):
        raise ReplyError(f"the reply is {type(text).__name__}, not text")
    if len(text) > MAX_REPLY_CHARS:
        raise ReplyError(f"the reply is {len(text):,} characters; at most {MAX_REPLY_CHARS:,}")
    if not text.strip():
        raise ReplyError("the reply is empty")
    return text


def _no_constant(name: str) -> Any:
    raise ReplyError(f"the reply's JSON holds {name}, which is not JSON")


def json_object(text: str) -> dict[str, Any]:
    """The JSON object of a reply: its first ```json block, else from its first ``{`` to its
    last ``}``."""
    check_size(text)
    blocks = [body for tag, body in _FENCE.findall(text) if tag.lower() in ("json", "")]
    candidates = [b for b in blocks if "{" in b]
    if candidates:
        doc = candidates[0]
    elif "{" in text and "}" in text:
        doc = text[text.index("{") : text.rindex("}") + 1]
    else:
        raise ReplyError(f"the reply holds no JSON object (it starts {text.strip()[:40]!r})")
    try:
        value = json.loads(doc, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise ReplyError(f"the reply's JSON does not parse: {e}") from None
    except RecursionError:
        raise ReplyError("the reply's JSON nests too deep") from None
    if not isinstance(value, dict):
        raise ReplyError(f"the reply's JSON is {kind(value)}, not an object")
    return value


def kind(value: Any) -> str:
    """A value's JSON type name, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "an object", list: "a list", str: "a string", int: "a number",
            float: "a number"}.get(type(value), type(value).__name__)  # fmt: skip


def text_field(
    d: Mapping[str, Any], key: str, where: str, limit: int, required: bool = True
) -> str:
    """``d[key]`` as stripped text of at most ``limit`` characters."""
    v = d.get(key)
    if v is None and not required:
        return ""
    if not isinstance(v, str) or (required and not v.strip()):
        raise ReplyError(f"{where}.{key} must be non-empty text, got {kind(v)}")
    if len(v) > limit:
        raise ReplyError(f"{where}.{key} is {len(v):,} characters; at most {limit:,}")
    return v.strip()


@dataclass(frozen=True)
class Block:
    """A fenced block: its language tag (lower case, may be empty) and its text."""

    tag: str
    text: str


def blocks(text: str) -> list[Block]:
    """The fenced code blocks of a reply, in order (an unclosed last one runs to the end)."""
    return [Block(tag.lower(), body) for tag, body in _FENCE.findall(text)]


def lines(text: str) -> dict[str, str]:
    """``Key: value`` lines outside fenced blocks, keys lower-cased (the last one wins)."""
    out: dict[str, str] = {}
    for line in _FENCE.sub("", text).splitlines():
        m = _LINE.match(line)
        if m:
            out[m.group(1).strip().lower()] = m.group(2)
    return out
