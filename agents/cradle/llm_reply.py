"""Reading an OpenAI-compatible endpoint's reply bodies: validated, never trusted.

An endpoint may answer 200 with anything: truncated JSON, ``Infinity``, usage counts that are
not numbers, a ``null`` message, content that is a number. :func:`chat_reply` and
:func:`embedding_reply` read the raw body and either return what a caller can use or raise
:class:`MalformedReply` saying what was wrong (the client retries it like a 5xx).

>>> chat_reply(b'{"choices": [{"message": {"content": "hi"}}], "usage": {"prompt_tokens": 3}}')
('hi', 3, 0)
>>> chat_reply(b'{"choices": [{"message": null}]}')
Traceback (most recent call last):
...
agents.cradle.llm_reply.MalformedReply: choices[0].message is null, not an object
"""

from __future__ import annotations

import json
import math
from typing import Any

from gcc_envs.errors import GCCError

#: Largest token count believed (a bigger one is a broken server, not a bill).
MAX_TOKENS = 10**9


class MalformedReply(GCCError):
    """The endpoint answered 200 with a body that is not a usable reply."""


def _constant(name: str) -> Any:
    raise MalformedReply(f"the reply holds {name}, which is not JSON")


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def load(body: bytes) -> Any:
    """The JSON document of ``body``; :class:`MalformedReply` if it is not one."""
    try:
        return json.loads(body, parse_constant=_constant)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise MalformedReply(f"the reply is not JSON ({e}); {len(body)} bytes") from None
    except RecursionError:
        raise MalformedReply("the reply nests too deep") from None


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MalformedReply(f"{what} is {_kind(value)}, not an object")
    return value


def _tokens(usage: dict[str, Any], key: str) -> int:
    v = usage.get(key)
    if v is None:
        return 0
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_TOKENS:
        raise MalformedReply(f"usage.{key} is {v!r}, not a token count")
    return v


def _text(content: Any) -> str:
    if content is None:
        return ""  # the model sent no text
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # some servers send content parts
        parts = []
        for part in content:
            if not (isinstance(part, dict) and isinstance(part.get("text"), str)):
                raise MalformedReply(f"choices[0].message.content holds {_kind(part)} parts")
            parts.append(part["text"])
        return "".join(parts)
    raise MalformedReply(f"choices[0].message.content is {_kind(content)}, not text")


def chat_reply(body: bytes) -> tuple[str, int, int]:
    """``(text, prompt_tokens, completion_tokens)`` of a chat completion body."""
    doc = _object(load(body), "the reply")
    choices = doc.get("choices")
    if not isinstance(choices, list) or not choices:
        raise MalformedReply(f"the reply has no choices (got {_kind(choices)})")
    message = _object(_object(choices[0], "choices[0]").get("message"), "choices[0].message")
    usage = doc.get("usage")
    usage = {} if usage is None else _object(usage, "usage")
    text = _text(message.get("content"))
    return text, _tokens(usage, "prompt_tokens"), _tokens(usage, "completion_tokens")


def embedding_reply(body: bytes, n: int) -> tuple[list[list[float]], int]:
    """``(vectors in input order, prompt_tokens)`` of an embeddings body for ``n`` inputs."""
    doc = _object(load(body), "the reply")
    data = doc.get("data")
    if not isinstance(data, list) or len(data) != n:
        raise MalformedReply(f"the reply has {_kind(data)} data, not {n} embeddings")
    vectors: list[list[float] | None] = [None] * n
    for i, item in enumerate(data):
        item = _object(item, f"data[{i}]")
        index, vec = item.get("index", i), item.get("embedding")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
            raise MalformedReply(f"data[{i}].index is {index!r}")
        if (
            not isinstance(vec, list)
            or not vec
            or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                for x in vec
            )
        ):
            raise MalformedReply(f"data[{i}].embedding is not a list of finite numbers")
        vectors[index] = [float(x) for x in vec]
    if any(v is None for v in vectors) or len({len(v) for v in vectors if v}) > 1:
        raise MalformedReply("the embeddings are missing some inputs or differ in length")
    usage = doc.get("usage")
    usage = {} if usage is None else _object(usage, "usage")
    return [v for v in vectors if v is not None], _tokens(usage, "prompt_tokens")
