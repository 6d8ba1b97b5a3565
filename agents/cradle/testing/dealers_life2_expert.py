"""Scripted model replies for Dealer's Life 2: the expert trader's next skill call as text.

The test server calls the function :func:`trader_replies` returns with each request body.
Action-planning requests get the one skill call the privileged trader
(:class:`agents.scripted.dealers_life2.PrivilegedTrader`, which reads the simulator's state)
would make now; the other modules get fixed, well-formed answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.scripted.dealers_life2 import PrivilegedTrader

CANNED = {
    "[information_gathering]": (
        "Description: the pawn shop; the bank balance is at the top right.\nInstructions: none"
    ),
    "[self_reflection]": "Success: yes\nCause: none\nContinue: yes",
    "[task_inference]": "Task: trade with the customer\nHorizon: short\nSummary: trading.",
}


def trader_replies(env: Any, log: list[str]) -> Callable[[dict[str, Any]], str]:
    trader = PrivilegedTrader(env.unwrapped)

    def reply(body: dict[str, Any]) -> str:
        content = body["messages"][0]["content"]
        text = content if isinstance(content, str) else content[0]["text"]
        head = text.split("]", 1)[0] + "]"
        if head in CANNED:
            return CANNED[head]
        call = trader.act()
        log.append(call)
        return f"Reasoning: the expert's next step.\nAction:\n```python\n{call}\n```"

    return reply
