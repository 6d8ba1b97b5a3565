"""Skill curation: new skills from what the screen teaches, as JSON data, validated, never run.

The reply's JSON list of skills (name, doc, params, body) is read with ``json.loads``; each
entry is checked by :meth:`ProceduralMemory.add` (the body must parse with
:func:`gcc_envs.parse_code` against the env's skills). Refused entries are reported, not added.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

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
    task: str,
    detail: str = "high",
) -> Curation:
    """One request with the last frame; add the valid skills to ``memory``."""
    text = prompt.render(skills=memory.base.describe(), task=task)
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
