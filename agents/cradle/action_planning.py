"""Action planning: choose skill calls with reasons; a malformed reply gets bounded re-asks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.cradle.llm import LLMClient, user_message
from agents.cradle.parse import ParsedAction, parse_action, sections
from agents.cradle.prompts import Prompt
from gcc_envs.core.skills import Skill, SkillCall
from gcc_envs.errors import CodeActionError

MODULE = "action_planning"
MAX_ERROR_CHARS = 500


@dataclass(frozen=True)
class Plan:
    action: ParsedAction | None  #: None when every try was malformed
    reasoning: str
    text: str  #: the accepted reply ("" when none was)
    errors: tuple[str, ...]  #: why each refused reply was refused
    asks: int


def plan(
    client: LLMClient,
    prompt: Prompt,
    frames: Sequence[np.ndarray],
    library: Mapping[str, Skill],
    max_calls: int | None,
    max_reasks: int = 1,
    detail: str = "high",
    module: str = MODULE,
    low_frames: Sequence[np.ndarray] = (),
    check: Callable[[tuple[SkillCall, ...]], object] | None = None,
    **fields: Any,
) -> Plan:
    """Ask for an action; re-ask at most ``max_reasks`` times with the parser's complaint.

    ``low_frames`` go first at low detail (the fused mode's reflection frames), then ``frames``
    at ``detail``. ``check`` may refuse parsed calls with :class:`CodeActionError` (e.g. a
    label that is not on screen); a refusal is re-asked like a parse error.
    """
    text = prompt.render(max_calls=max_calls or "any number of", **fields)
    first = user_message(text, [*low_frames, *frames], "low")
    for part in first["content"][1 + len(low_frames) :] if frames else []:
        part["image_url"]["detail"] = detail
    messages: list[dict[str, Any]] = [first]
    errors: list[str] = []
    for ask in range(max_reasks + 1):
        reply = client.chat(messages, module=module)
        try:
            if not reply.text.strip():
                raise CodeActionError("the reply was empty")
            action = parse_action(reply.text, library, max_calls)
            if check is not None:
                check(action.calls)
        except CodeActionError as e:
            errors.append(str(e)[:MAX_ERROR_CHARS])
            messages = [
                *messages,
                {"role": "assistant", "content": reply.text[:2000]},
                {"role": "user", "content": f"That answer was refused: {errors[-1]}\n"
                 "Answer again with Reasoning: and Action: with a ```python block of skill calls."},
            ]  # fmt: skip
            continue
        reasoning = sections(reply.text).get("reasoning", "")[:2000]
        return Plan(action, reasoning, reply.text, tuple(errors), ask + 1)
    return Plan(None, "", "", tuple(errors), max_reasks + 1)
