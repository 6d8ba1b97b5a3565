"""Self-reflection: did the last action work? At most 8 low-detail frames of its video chunk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.cradle.llm import LLMClient, user_message
from agents.cradle.parse import sections, yes
from agents.cradle.prompts import Prompt

MODULE = "self_reflection"
MAX_FRAMES = 8  #: the paper's cap


@dataclass(frozen=True)
class Reflection:
    success: bool | None
    cause: str
    keep_going: bool

    def text(self) -> str:
        ok = {True: "succeeded", False: "failed", None: "unknown"}[self.success]
        return f"the last action {ok}; cause: {self.cause or 'none'}"


def sample_frames(frames: Sequence[np.ndarray], n: int) -> list[np.ndarray]:
    """``n`` frames spread evenly over ``frames``, first and last kept."""
    if len(frames) <= n:
        return list(frames)
    if n == 1:
        return [frames[-1]]
    idx = np.round(np.linspace(0, len(frames) - 1, n)).astype(int)
    return [frames[i] for i in idx]


def reflect(
    client: LLMClient,
    prompt: Prompt,
    frames: Sequence[np.ndarray],
    last_action: str,
    last_error: str | None,
    subtask: str,
    max_frames: int = MAX_FRAMES,
    detail: str = "low",
) -> Reflection:
    """One request with at most ``min(max_frames, 8)`` frames of the chunk at ``detail``."""
    text = prompt.render(last_action=last_action or "(none)", last_error=last_error or "none",
                         subtask=subtask)  # fmt: skip
    shown = sample_frames(frames, min(max_frames, MAX_FRAMES))
    reply = client.chat([user_message(text, shown, detail)], module=MODULE)
    s = sections(reply.text)
    return Reflection(yes(s.get("success")), s.get("cause", "")[:500], bool(yes(s.get("continue"))))
