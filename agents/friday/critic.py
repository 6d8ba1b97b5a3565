"""The critic: was the subtask done, and how good is the tool that did it (0–10)?

It judges from what a person at the screen would have: the screen after the action (the
observation), the code that ran, and the env's feedback — ``info["last_action_error"]`` and,
where the env runs code, ``info["code_output"]``. It never sees a checker's verdict
(``info["success"]``, ``info["score"]``). A new tool is kept only when the subtask is done and
its score is above :data:`KEEP_ABOVE` (8, as in the paper: a tool scored 8 is not kept).

>>> v = parse_verdict('{"complete": true, "score": 9, "reasoning": "the file exists"}')
>>> v.complete, v.score, keeps(v), keeps(parse_verdict('{"complete": true, "score": 8}'))
(True, 9, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.cradle.llm import LLMClient, user_message
from agents.friday.planner import Subtask
from agents.friday.prompts import render
from agents.friday.reply import ReplyError, json_object, kind, text_field

#: Tools scored above this are kept (the paper's "above 8").
KEEP_ABOVE = 8
MAX_TEXT = 2000
MAX_FACTS = 5
#: How much of the code and of its output the critic is shown, in characters.
SHOWN_CODE, SHOWN_OUTPUT = 6000, 2000


@dataclass(frozen=True)
class Verdict:
    complete: bool
    score: int
    reasoning: str = ""
    suggestion: str = ""
    #: (app, fact) pairs the critic learned
    facts: tuple[tuple[str, str], ...] = ()


def keeps(verdict: Verdict) -> bool:
    """Whether a new tool with this verdict goes into the repository."""
    return verdict.complete and verdict.score > KEEP_ABOVE


def _facts(raw: Any) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ReplyError(f"critic: 'facts' must be a list, got {kind(raw)}")
    out = []
    for i, f in enumerate(raw[:MAX_FACTS]):
        if isinstance(f, str):
            f = {"app": "", "fact": f}
        if not isinstance(f, dict):
            raise ReplyError(f"critic: facts[{i}] must be an object, got {kind(f)}")
        fact = text_field(f, "fact", f"critic: facts[{i}]", 500, required=False)
        app = text_field(f, "app", f"critic: facts[{i}]", 60, required=False)
        if fact:
            out.append((app, fact))
    return tuple(out)


def parse_verdict(text: str) -> Verdict:
    """The validated verdict of a critic reply."""
    d = json_object(text)
    complete = d.get("complete")
    if not isinstance(complete, bool):
        raise ReplyError(f"critic: 'complete' must be true or false, got {kind(complete)}")
    score = d.get("score", 0)
    if isinstance(score, float) and score.is_integer():
        score = int(score)
    if isinstance(score, bool) or not isinstance(score, int) or not 0 <= score <= 10:
        raise ReplyError(f"critic: 'score' must be a whole number 0-10, got {score!r:.40}")
    return Verdict(
        complete,
        score,
        text_field(d, "reasoning", "critic", MAX_TEXT, required=False),
        text_field(d, "suggestion", "critic", MAX_TEXT, required=False),
        _facts(d.get("facts")),
    )


def judge(
    client: LLMClient,
    instruction: str,
    subtask: Subtask,
    code: str,
    frame: np.ndarray | None,
    info: dict[str, Any],
    new_tool: bool,
    detail: str = "low",
    max_reasks: int = 1,
) -> Verdict:
    """Ask the model to judge ``subtask`` after ``code`` ran; an unusable reply is asked again
    up to ``max_reasks`` times, then judged not complete (score 0), saying why."""
    error = info.get("last_action_error")
    output = info.get("code_output")
    prompt = render(
        "critic",
        instruction=instruction,
        subtask=subtask.description,
        code=code[-SHOWN_CODE:] or "(none)",
        error=error or "none",
        output=(output[-SHOWN_OUTPUT:] if output else "(none)") if output is not None
        else "(this env shows no output; judge from the screen)",
        tool_rule="The code is a NEW tool: score it." if new_tool
        else "The code calls a tool from the repository or plain actions.",
    )  # fmt: skip
    images = [frame] if frame is not None else []
    messages = [user_message(prompt, images, detail)]
    problem = ""
    for _ in range(max_reasks + 1):
        reply = client.chat(messages, module="critic")
        try:
            return parse_verdict(reply.text)
        except ReplyError as e:
            problem = str(e)
            messages = [*messages, {"role": "assistant", "content": reply.text[:4000]},
                        user_message(f"That reply cannot be used: {e}. Answer with the JSON only.")]  # fmt: skip
    return Verdict(False, 0, f"the critic's reply could not be used: {problem}")
