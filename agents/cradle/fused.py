"""Fused mode: every module's question in one request per step (the paper's cost suggestion).

The request carries the current screen once, at high detail, and — from the second step — the
frames recorded while the last action ran as ONE low-detail contact sheet (the current screen,
which is the chunk's last frame, is not repeated in it). The reply answers information
gathering, self-reflection, task inference and action planning in sections; this module reads
the non-action sections back into the task stack and the episodic summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.cradle import task_inference
from agents.cradle.contact_sheet import contact_sheet
from agents.cradle.information_gathering import instructions
from agents.cradle.memory import EpisodicMemory
from agents.cradle.parse import sections, yes
from agents.cradle.self_reflection import sample_frames
from agents.cradle.task_inference import TaskStack

MODULE = "fused"


@dataclass(frozen=True)
class FusedReading:
    """What the fused reply said besides its action."""

    description: str
    instructions: tuple[str, ...]
    success: bool | None
    cause: str


def reflection_images(frames: Sequence[np.ndarray], n: int, sheet: bool = True) -> list[np.ndarray]:
    """Low-detail images of the last chunk, the current screen (its last frame) left out: at
    most ``n`` frames, as one contact sheet when ``sheet`` (else one image each)."""
    earlier = list(frames[:-1])
    if not earlier:
        return []
    shown = sample_frames(earlier, n)
    return [contact_sheet(shown)] if sheet else shown


def read_reply(text: str, tasks: TaskStack, episodic: EpisodicMemory) -> FusedReading:
    """Apply the reply's ``Task:``/``Horizon:``/``Summary:`` and return the rest."""
    t = task_inference.proposal(text)
    tasks.propose(t)
    if t.summary:
        episodic.summary = t.summary
    s = sections(text)
    return FusedReading(
        s.get("description", "")[:2000],
        instructions(s.get("instructions")),
        yes(s.get("success")),
        s.get("cause", "")[:500],
    )
