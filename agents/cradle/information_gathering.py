"""Information gathering: describe the current screen (the chunk's last frame)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.cradle.llm import LLMClient, user_message
from agents.cradle.parse import sections
from agents.cradle.prompts import Prompt

MODULE = "information_gathering"


@dataclass(frozen=True)
class ScreenInfo:
    description: str


def gather(
    client: LLMClient, prompt: Prompt, frame: np.ndarray, task: str, detail: str = "high"
) -> ScreenInfo:
    """One request: the last frame at ``detail``; the reply's ``Description:`` (or all of it)."""
    reply = client.chat([user_message(prompt.render(task=task), [frame], detail)], module=MODULE)
    text = reply.text.strip()
    return ScreenInfo(sections(text).get("description", text)[:2000])
