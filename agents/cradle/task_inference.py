"""Task inference: the current subtask (long or short horizon) and the episode summary.

Short-horizon tasks run for :data:`SHORT_STEPS` interactions, then the long-horizon task on
top of the stack resumes (the paper's binary horizon rule).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from agents.cradle.llm import LLMClient, user_message
from agents.cradle.parse import sections
from agents.cradle.prompts import Prompt

MODULE = "task_inference"
SHORT_STEPS = 3


@dataclass(frozen=True)
class TaskProposal:
    task: str
    horizon: str  #: "long" or "short"
    summary: str | None


@dataclass
class TaskStack:
    """The long-horizon task stack and the running short task."""

    goal: str
    long: list[str] = field(default_factory=list)
    short: str | None = None
    short_left: int = 0

    @property
    def current(self) -> str:
        if self.short is not None and self.short_left > 0:
            return self.short
        return self.long[-1] if self.long else self.goal

    def tick(self) -> None:
        """One interaction done: a short task counts down, then the long one resumes."""
        if self.short is not None:
            self.short_left -= 1
            if self.short_left <= 0:
                self.short = None

    def propose(self, p: TaskProposal) -> None:
        if not p.task:
            return
        if p.horizon == "short":
            self.short, self.short_left = p.task, SHORT_STEPS
        elif not self.long or self.long[-1] != p.task:
            self.long.append(p.task)


def infer(
    client: LLMClient, prompt: Prompt, frame: np.ndarray, detail: str = "low", **fields: str
) -> TaskProposal:
    """One request with the last frame at ``detail``."""
    reply = client.chat([user_message(prompt.render(**fields), [frame], detail)], module=MODULE)
    return proposal(reply.text)


def proposal(text: str) -> TaskProposal:
    """The ``Task:``, ``Horizon:`` and ``Summary:`` sections of a reply."""
    s = sections(text)
    horizon = "short" if s.get("horizon", "").strip().lower().startswith("short") else "long"
    summary = s.get("summary")
    return TaskProposal(s.get("task", "")[:300], horizon, summary[:2000] if summary else None)
