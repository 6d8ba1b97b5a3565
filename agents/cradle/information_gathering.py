"""Information gathering: describe the current screen (the chunk's last frame).

Besides the description, the reply lists the instructional text the screen shows — key prompts
("[E] Hitch Horse") and tutorial boxes ("Hold [TAB] to view your stored weapons") — which is what
triggers skill curation (:func:`instructions`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from agents.cradle.llm import LLMClient, user_message
from agents.cradle.parse import sections
from agents.cradle.prompts import Prompt

MODULE = "information_gathering"
MAX_INSTRUCTIONS = 5
_NONE = {"", "none", "n/a", "no", "nothing", "-", "(none)"}


@dataclass(frozen=True)
class ScreenInfo:
    description: str
    instructions: tuple[str, ...] = ()


def instructions(value: str | None) -> tuple[str, ...]:
    """On-screen instructions of an ``Instructions:`` section: one per line or ``;``, quoted or
    bulleted; ``none`` means none.

    >>> instructions('"Hold [TAB] to view your stored weapons"; - [E] Hitch Horse')
    ('Hold [TAB] to view your stored weapons', '[E] Hitch Horse')
    >>> instructions("none")
    ()
    """
    out: list[str] = []
    for part in re.split(r"[;\n]", value or ""):
        text = part.strip().lstrip("-*• ").strip().strip("\"'“”").strip()
        if text.lower().rstrip(".") not in _NONE and text not in out:
            out.append(text[:200])
    return tuple(out[:MAX_INSTRUCTIONS])


def gather(
    client: LLMClient, prompt: Prompt, frame: np.ndarray, subtask: str, detail: str = "high"
) -> ScreenInfo:
    """One request: the last frame at ``detail``; the reply's ``Description:`` (or all of it)
    and ``Instructions:``."""
    reply = client.chat(
        [user_message(prompt.render(subtask=subtask), [frame], detail)], module=MODULE
    )
    text = reply.text.strip()
    s = sections(text)
    return ScreenInfo(s.get("description", text)[:2000], instructions(s.get("instructions")))
