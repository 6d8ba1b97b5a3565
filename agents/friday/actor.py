"""The actor: turns a subtask into the code text of one env step — a call of a stored tool or
a new tool written by the model — and, with the critic's feedback, refines it.

Where the env runs code in its sandbox (``mode="sandbox"``) a tool is Python (or bash) and the
step's action is its source followed by its call (:func:`~agents.friday.tools.action_code`).
Elsewhere (``mode="gui"``) the action is whitelisted calls (pyautogui, the env's skills)
checked by the env's safe parser, optionally named and kept as a GUI tool. The reply is read
with ``ast`` (:mod:`agents.friday.tools`); nothing in it runs here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.cradle.llm import LLMClient, user_message
from agents.friday.configurator import Configuration
from agents.friday.planner import Subtask
from agents.friday.prompts import render
from agents.friday.reply import ReplyError, blocks, check_size, lines
from agents.friday.tools import (
    NAME,
    Provenance,
    Tool,
    ToolCall,
    action_code,
    bash_tool,
    calls_tool,
    check_calls,
    parse_call,
    python_tool,
)

MODES = ("sandbox", "gui")
_PYTHON = ("python", "python3", "py", "")


@dataclass(frozen=True)
class Feedback:
    """What went wrong with the last attempt, for the refiner."""

    code: str
    error: str | None
    output: str | None
    critique: str
    suggestion: str = ""

    def text(self) -> str:
        parts = [
            "Your last attempt at this subtask did not do it. Fix the tool or the call.",
            f"Code that ran:\n```\n{self.code[-4000:]}\n```" if self.code else "No code ran.",
            f"Error: {self.error or 'none'}",
        ]
        if self.output is not None:
            parts.append(f"Output: {self.output[-1500:] or '(none)'}")
        parts.append(f"Critic: {self.critique or '(no reasoning)'}")
        if self.suggestion:
            parts.append(f"Suggestion: {self.suggestion}")
        return "\n".join(parts)


@dataclass(frozen=True)
class Attempt:
    """One attempt at a subtask: the code text the env runs and the tool behind it."""

    subtask: Subtask
    number: int  #: 0: the first attempt; 1, 2, 3: refinements
    action: str
    tool: Tool | None
    new_tool: bool
    call: ToolCall | None = None
    reasoning: str = ""


def read_reply(
    text: str,
    mode: str,
    offered: Mapping[str, Tool],
    skills: Mapping[str, Any] | None = None,
    provenance: Provenance | None = None,
) -> tuple[Tool | None, ToolCall | None, bool, str]:
    """``(tool, call, new, action code)`` of an actor reply; :class:`ReplyError` if unusable."""
    check_size(text)
    keys = lines(text)
    code = blocks(text)
    prov = {"provenance": provenance} if provenance is not None else {}
    invocation = keys.get("invocation", "")
    if mode == "gui":
        if not code:
            if not invocation:
                raise ReplyError("the reply has no calls in ```python and no 'Invocation:' line")
            call = parse_call(invocation, offered)
            return offered[call.name], call, False, action_code(offered[call.name], call)
        source = code[0].text
        name = keys.get("tool", "").strip().strip("`").lower()
        if name in ("", "none", "no", "null"):
            check_calls(source, "action", skills)
            return None, None, False, source
        tool = calls_tool(source, name, keys.get("description", ""), skills, **prov)
        return tool, ToolCall(name), True, source
    if not invocation:
        raise ReplyError("the reply has no 'Invocation:' line (write: Invocation: tool_name(...))")
    if not code:
        call = parse_call(invocation, offered)
        return offered[call.name], call, False, action_code(offered[call.name], call)
    block = code[0]
    if block.tag in ("bash", "sh", "shell"):
        name = keys.get("tool", "").strip().strip("`")
        if not NAME.fullmatch(name):
            raise ReplyError("a bash tool needs a 'Tool: lower_case_name' line")
        tool = bash_tool(block.text, name, keys.get("description", ""), **prov)
    elif block.tag in _PYTHON:
        head = invocation.strip().strip("`").split("(", 1)[0].strip()
        tool = python_tool(block.text, head, **prov)
    else:
        raise ReplyError(f"the tool's block is tagged {block.tag!r}; write it in ```python")
    call = parse_call(invocation, {tool.name})
    return tool, call, True, action_code(tool, call)


class Actor:
    """Asks the model for an attempt at a subtask, in the env's ``mode``."""

    def __init__(
        self, client: LLMClient, mode: str, skills: Mapping[str, Any] | None = None,
        detail: str = "high",
    ) -> None:  # fmt: skip
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        self.client, self.mode, self.skills, self.detail = client, mode, skills, detail

    def _skills_text(self) -> str:
        names = "pyautogui.<function>(...) (click, doubleClick, moveTo, dragTo, write, press, hotkey, scroll), time.sleep(s)"  # noqa: E501
        if self.skills:
            describe = getattr(self.skills, "describe", None)
            listed = describe() if callable(describe) else "\n".join(self.skills)
            return f"{names}\nskills:\n{listed}"
        return names

    def attempt(
        self,
        instruction: str,
        subtask: Subtask,
        number: int,
        config: Configuration,
        context: str,
        frame: np.ndarray | None,
        feedback: Feedback | None,
        provenance: Provenance,
    ) -> Attempt:
        """One attempt (a refinement when ``feedback`` is given); :class:`ReplyError` when the
        reply cannot be used."""
        module = "friday.refiner" if feedback is not None else "friday.actor"
        fields = dict(
            module=module, instruction=instruction, subtask=subtask.description, context=context,
            profile=config.profile, facts=config.facts_text(), tools=config.tools_text(),
            feedback=feedback.text() if feedback is not None else "This is the first attempt.",
        )  # fmt: skip
        if self.mode == "gui":
            prompt = render("actor_gui", skills=self._skills_text(), **fields)
            images = [frame] if frame is not None else []
        else:
            prompt = render("actor_code", **fields)
            images = []
        reply = self.client.chat([user_message(prompt, images, self.detail)], module=module[7:])
        offered = {t.name: t for t in config.tools}
        tool, call, new, code = read_reply(reply.text, self.mode, offered, self.skills, provenance)
        reasoning = lines(reply.text).get("reasoning", "")[:1000]
        return Attempt(subtask, number, code, tool, new, call, reasoning)
