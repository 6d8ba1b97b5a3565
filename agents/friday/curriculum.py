"""Self-directed learning's curriculum: practice tasks for an objective, easy to hard.

The model answers ``{"tasks": [{"instruction", "check", "expect"}]}``; :func:`parse_curriculum`
validates it. ``check`` (a bash command run after the episode, in the episode's sandbox) and
``expect`` (what it prints when the task is done) let an env that runs commands report a
verdict of its own, which the learning log sets beside the critic's.

>>> [t.instruction for t in parse_curriculum('{"tasks": [{"instruction": "Make a.txt"}]}')]
['Make a.txt']
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.cradle.llm import LLMClient, Usage, user_message
from agents.friday.prompts import render
from agents.friday.reply import ReplyError, json_object, kind, text_field

MAX_TASKS = 50
MAX_INSTRUCTION = 2000


@dataclass(frozen=True)
class PracticeTask:
    instruction: str
    #: a bash command whose output says whether the task was done (None: unchecked)
    check: str | None = None
    #: the text ``check`` prints when the task was done
    expect: str | None = None


def parse_curriculum(text: str, max_tasks: int = MAX_TASKS) -> list[PracticeTask]:
    """The validated practice tasks of a curriculum reply, in its order (easy to hard)."""
    raw = json_object(text).get("tasks")
    if not isinstance(raw, list) or not raw:
        raise ReplyError(f"curriculum: 'tasks' must be a non-empty list, got {kind(raw)}")
    out = []
    for i, t in enumerate(raw[:max_tasks]):
        where = f"curriculum: tasks[{i}]"
        if not isinstance(t, dict):
            raise ReplyError(f"{where} is {kind(t)}, not an object")
        instruction = text_field(t, "instruction", where, MAX_INSTRUCTION)
        check = text_field(t, "check", where, 4000, required=False) or None
        expect = text_field(t, "expect", where, 1000, required=False) or None
        if (check is None) != (expect is None):
            raise ReplyError(f"{where}: give both 'check' and 'expect', or neither")
        out.append(PracticeTask(instruction, check, expect))
    return out


CHECKED = (
    "Give each task a check: a bash command, run in the home folder after the task, that prints "
    "the 'expect' text only when the task was done (for instance a python3 -c one-liner that "
    "opens the file the task makes)."
)
UNCHECKED = "Set 'check' and 'expect' to null: this environment has no way to run them."


def propose(
    client: LLMClient, objective: str, n: int, tools: str, checked: bool, max_reasks: int = 1
) -> tuple[list[PracticeTask], Usage]:
    """Ask for ``n`` practice tasks for ``objective``; :class:`ReplyError` if the replies (the
    first and ``max_reasks`` more) cannot be used. Returns the tasks and the calls' usage."""
    prompt = render("curriculum", objective=objective, n=n, tools=tools,
                    check_rule=CHECKED if checked else UNCHECKED)  # fmt: skip
    messages = [user_message(prompt)]
    usage = Usage()
    for attempt in range(max_reasks + 1):
        reply = client.chat(messages, module="curriculum", max_tokens=4096)
        usage.add(reply.usage)
        try:
            tasks = parse_curriculum(reply.text)
        except ReplyError as e:
            if attempt == max_reasks:
                raise
            messages = [*messages, {"role": "assistant", "content": reply.text[:4000]},
                        user_message(f"That curriculum cannot be used: {e}. Answer with the JSON only.")]  # fmt: skip
            continue
        return (tasks if checked else [PracticeTask(t.instruction) for t in tasks]), usage
    raise AssertionError("unreachable")
