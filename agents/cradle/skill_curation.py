"""Skill curation: new skills from what the screen teaches, as JSON data, validated, never run.

It runs when information gathering (or the fused reply) reports on-screen instructional text
that it has not curated before (:class:`CurationTrigger`), e.g. a tutorial box "Hold [TAB] to
view your stored weapons" or a key prompt "[E] Hitch Horse".

The reply's JSON list of skills (name, doc, params, body) is read with ``json.loads``; each
entry is checked by :meth:`ProceduralMemory.add` (the body must parse with
:func:`gcc_envs.parse_code` against the env's skills). Refused entries are reported, not added.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from agents.cradle.llm import LLMClient, user_message
from agents.cradle.memory import LearnedSkill, ProceduralMemory
from agents.cradle.prompts import Prompt
from gcc_envs.core.code import extract_code
from gcc_envs.errors import CodeActionError, DataError

MODULE = "skill_curation"
MAX_NEW = 5  #: most skills taken from one reply


@dataclass(frozen=True)
class Curation:
    added: tuple[str, ...]
    refused: tuple[str, ...]  #: one reason per refused entry


@dataclass
class CurationTrigger:
    """Which on-screen instructions are new this episode (each is curated once)."""

    seen: set[str] = field(default_factory=set)

    def new(self, instructions: Sequence[str]) -> tuple[str, ...]:
        fresh = tuple(i for i in instructions if i.lower() not in self.seen)
        self.seen.update(i.lower() for i in fresh)
        return fresh

    def clear(self) -> None:
        self.seen.clear()


def read_skills(text: str) -> list[LearnedSkill]:
    """The skills of a reply's JSON list; raise :class:`DataError` if it is not one."""
    try:
        data = json.loads(extract_code(text).strip() or "[]")
    except ValueError as e:
        raise DataError(f"the skill curation reply is not JSON ({e})") from None
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
        raise DataError("the skill curation reply must be a JSON list of objects")
    return [LearnedSkill.from_json(d) for d in data[:MAX_NEW]]


def curate(
    client: LLMClient,
    prompt: Prompt,
    frame: np.ndarray,
    memory: ProceduralMemory,
    subtask: str,
    detail: str = "high",
    instructions: Sequence[str] = (),
) -> Curation:
    """One request with the last frame and the ``instructions`` seen on it; add the valid
    skills to ``memory``."""
    shown = "\n".join(f"- {i}" for i in instructions) or "(read them from the screen)"
    text = prompt.render(skills=memory.base.describe(), subtask=subtask, instructions=shown)
    reply = client.chat([user_message(text, [frame], detail)], module=MODULE)
    try:
        skills = read_skills(reply.text)
    except DataError as e:
        return Curation((), (str(e)[:300],))
    added, refused = [], []
    for s in skills:
        try:
            memory.add(s)
            added.append(s.name)
        except CodeActionError as e:
            refused.append(str(e)[:300])
    return Curation(tuple(added), tuple(refused))
