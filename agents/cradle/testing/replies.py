"""Scripted, realistic model replies for the loopback server: one answer per Cradle module.

The answers have the length and form GPT-4o gives to the paper's prompts (a paragraph of
description, a reflection with its cause, a task with a summary, reasons before the action).
The fused answer is the same content in one reply, so comparing the two modes compares the
requests, not the answers. Actions come from ``actions()`` (skill-call lines).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

TEXTS: Mapping[str, Mapping[str, str]] = {
    "stardew": {
        "description": (
            "The farmer stands outdoors on the farm map, just south of the farmhouse porch. "
            "To the east a dirt path leads past a row of weeds and two small stones towards the "
            "bus stop; the farm exit to town is at the right edge of the screen. There are no "
            "people nearby. The toolbar at the bottom shows the Axe, Hoe, Watering Can, Pickaxe, "
            "Scythe and Parsnip Seeds; the clock at the top right reads Spring 1, 9:40 am and "
            "the energy bar is full."
        ),
        "cause": "none; the farmer moved east along the path as intended and is not blocked",
        "task": "walk east to the farm exit, then through town to Pierre's General Store",
        "summary": (
            "The farmer left the house and is walking to town to buy parsnip seeds at Pierre's. "
            "Nothing has been bought yet; the store opens at 9:00 and it is 9:40 now."
        ),
        "reasoning": (
            "The path east is clear and the exit to town is at the right edge of the screen, so "
            "walking east along the path is the shortest way to the store."
        ),
    },
    "rdr2": {
        "description": (
            "Arthur is on horseback on a snowy mountain trail at night. Dutch rides ahead of him "
            "about twenty metres away, slightly to the left; the minimap at the bottom left shows "
            "the red route line bending to the right and Dutch's blue dot ahead. The objective "
            "line at the bottom reads 'Follow Dutch'. No enemies or wolves are visible; there is "
            "no key prompt on the right side of the screen."
        ),
        "cause": "none; Arthur kept following Dutch and the distance between them stayed short",
        "task": "follow Dutch along the trail to the homestead",
        "summary": (
            "Arthur mounted his horse as Dutch asked and is riding behind him through the snow "
            "towards the homestead; no fight has happened yet."
        ),
        "reasoning": (
            "The objective says to follow Dutch and his blue dot is ahead on the minimap, so "
            "the follow skill keeps Arthur behind him on the route."
        ),
    },
}


def module_of(body: Mapping[str, Any]) -> str:
    """The module a request comes from: the ``[module]`` tag its text starts with."""
    content = body["messages"][0]["content"]
    text = content if isinstance(content, str) else content[0]["text"]
    return text.split("]", 1)[0].lstrip("[") if text.startswith("[") else ""


def module_reply(module: str, game: str, calls: list[str], instructions: str = "none") -> str:
    """The answer ``module`` gives in ``game`` (``calls`` for action planning and fused)."""
    t = TEXTS[game]
    action = "Action:\n```python\n" + "\n".join(calls) + "\n```"
    parts = {
        "information_gathering": f"Description: {t['description']}\nInstructions: {instructions}",
        "self_reflection": f"Success: yes\nCause: {t['cause']}\nContinue: no",
        "task_inference": f"Task: {t['task']}\nHorizon: long\nSummary: {t['summary']}",
        "action_planning": f"Reasoning: {t['reasoning']}\n{action}",
    }
    if module == "fused":
        return "\n".join([
            f"Description: {t['description']}", f"Instructions: {instructions}",
            "Success: yes", f"Cause: {t['cause']}", f"Task: {t['task']}", "Horizon: long",
            f"Summary: {t['summary']}", f"Reasoning: {t['reasoning']}", action,
        ])  # fmt: skip
    if module not in parts:
        return "```json\n[]\n```"  # skill curation: nothing to learn
    return parts[module]


def scripted(game: str, actions: Callable[[], list[str]]) -> Callable[[dict[str, Any]], str]:
    """A server reply function: each request answered as its module would be."""

    def reply(body: dict[str, Any]) -> str:
        module = module_of(body)
        calls = actions() if module in ("action_planning", "fused") else []
        return module_reply(module, game, calls)

    return reply
