"""A scripted FRIDAY model for the loopback OpenAI-compatible server
(:class:`agents.cradle.testing.FakeOpenAI`): each module's answer is a function of its prompt.

>>> script = Script(critic='{"complete": true, "score": 9}')
>>> script({"messages": [{"role": "user", "content": "[friday.critic] judge"}]})
'{"complete": true, "score": 9}'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Answer = str | Callable[[str], str]
_TAG = re.compile(r"^\[friday\.([a-z]+)\]")


def prompt_of(body: Mapping[str, Any]) -> str:
    """The text of a request's last user message."""
    content = [m for m in body["messages"] if m.get("role") == "user"][-1]["content"]
    if isinstance(content, str):
        return content
    return "\n".join(p["text"] for p in content if p.get("type") == "text")


def module_of(body: Mapping[str, Any]) -> str:
    """``planner``, ``actor``, ``refiner``, ``critic`` or ``curriculum``: the tag the first
    message starts with."""
    first = body["messages"][0]["content"]
    text = first if isinstance(first, str) else first[0]["text"]
    m = _TAG.match(text)
    return m.group(1) if m else ""


class Script:
    """Answers by module; a callable answer gets the request's (last) prompt text."""

    def __init__(self, **answers: Answer) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def __call__(self, body: Mapping[str, Any]) -> str:
        module = module_of(body)
        self.asked.append(module)
        answer = self.answers.get(module)
        if answer is None:
            return f"(no scripted answer for module {module!r})"
        return answer(prompt_of(body)) if callable(answer) else answer
