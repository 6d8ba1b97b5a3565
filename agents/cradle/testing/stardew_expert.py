"""Scripted model replies for Stardew Shopping: the scripted expert's choices as skill-call text.

The test server calls :func:`shopping_replies`'s function with each request body. Action-
planning requests get the next one or two skill calls the expert (``ShoppingScript``, which
reads the simulator's state) would make — at most two calls, as the env allows; the other
modules get fixed, well-formed answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.scripted.stardew import ShoppingScript

CANNED = {
    "[information_gathering]": "Description: the farmer stands on a tile map.",
    "[self_reflection]": "Success: yes\nCause: none\nContinue: no",
    "[task_inference]": "Task: go shopping\nHorizon: long\nSummary: walking to Pierre's store.",
}


def expert_calls(sc: ShoppingScript) -> list[str]:
    """The skill calls (at most the env's two) the expert makes now."""
    return [c for c in sc.act(None, {}).splitlines() if c.strip()]  # type: ignore[arg-type]


def shopping_replies(env: Any, log: list[list[str]]) -> Callable[[dict[str, Any]], str]:
    sc = ShoppingScript(env.unwrapped, privileged=True)

    def reply(body: dict[str, Any]) -> str:
        content = body["messages"][0]["content"]
        text = content if isinstance(content, str) else content[0]["text"]
        head = text.split("]", 1)[0] + "]"
        if head in CANNED:
            return CANNED[head]
        calls = expert_calls(sc)
        log.append(calls)
        return "Reasoning: follow the path.\nAction:\n```python\n" + "\n".join(calls) + "\n```"

    return reply
