"""The planner: a task as a directed acyclic graph of subtasks (OS-Copilot's graph planner).

The model answers JSON ``{"subtasks": [{"id", "description", "dependencies", "type"}]}``;
:func:`parse_plan` validates it — ids unique and well-formed, descriptions text, dependencies
known ids, no cycle — and orders the subtasks topologically (ties keep the model's order),
which is the order the actor takes them in.

>>> plan = parse_plan('{"subtasks": [{"id": "b", "description": "sum", "dependencies": ["a"]},'
...                   ' {"id": "a", "description": "load", "dependencies": []}]}')
>>> [s.id for s in plan.order]
['a', 'b']
>>> parse_plan('{"subtasks": [{"id": "a", "description": "x", "dependencies": ["b"]},'
...            ' {"id": "b", "description": "y", "dependencies": ["a"]}]}')
Traceback (most recent call last):
...
agents.friday.reply.ReplyError: plan: the dependencies form a cycle: a -> b -> a
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agents.friday.reply import ReplyError, json_object, kind, text_field

#: Most subtasks in one plan.
MAX_SUBTASKS = 12
MAX_DESCRIPTION = 2000
_ID = re.compile(r"[A-Za-z0-9_.-]{1,40}")


@dataclass(frozen=True)
class Subtask:
    id: str
    description: str
    dependencies: tuple[str, ...] = ()
    #: the paper's task type (Code, API, QA, GUI); informative only
    type: str = ""


@dataclass(frozen=True)
class Plan:
    subtasks: tuple[Subtask, ...]
    #: the subtasks in dependency order
    order: tuple[Subtask, ...]

    @classmethod
    def single(cls, description: str) -> Plan:
        """The one-subtask plan (the whole task), used when the planner gives no usable plan."""
        s = Subtask("task", description)
        return cls((s,), (s,))


def _subtask(raw: Any, i: int) -> Subtask:
    where = f"plan: subtasks[{i}]"
    if not isinstance(raw, dict):
        raise ReplyError(f"{where} is {kind(raw)}, not an object")
    sid = raw.get("id")
    if isinstance(sid, int) and not isinstance(sid, bool):
        sid = str(sid)
    if not isinstance(sid, str) or not _ID.fullmatch(sid):
        raise ReplyError(
            f"{where}.id must be 1-40 letters, digits, '_', '.' or '-', got {sid!r:.60}"
        )
    deps = raw.get("dependencies", [])
    if not isinstance(deps, list):
        raise ReplyError(f"{where}.dependencies must be a list of ids, got {kind(deps)}")
    deps = [str(d) if isinstance(d, int) and not isinstance(d, bool) else d for d in deps]
    if not all(isinstance(d, str) for d in deps):
        raise ReplyError(f"{where}.dependencies must be a list of ids (text)")
    stype = raw.get("type", "")
    if not isinstance(stype, str) or len(stype) > 20:
        raise ReplyError(f"{where}.type must be short text, got {kind(stype)}")
    desc = text_field(raw, "description", where, MAX_DESCRIPTION)
    return Subtask(sid, desc, tuple(dict.fromkeys(deps)), stype)


def _cycle(subtasks: dict[str, Subtask]) -> list[str] | None:
    """One cycle among the dependencies (as a path that returns to its start), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in subtasks:
        if state.get(start):
            continue
        path, stack = [start], [iter(subtasks[start].dependencies)]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(subtasks[nxt].dependencies))
    return None


def order(subtasks: tuple[Subtask, ...]) -> tuple[Subtask, ...]:
    """Topological order, ties in the given order; :class:`ReplyError` on a cycle."""
    by_id = {s.id: s for s in subtasks}
    cycle = _cycle(by_id)
    if cycle is not None:
        raise ReplyError(f"plan: the dependencies form a cycle: {' -> '.join(cycle)}")
    done: set[str] = set()
    out: list[Subtask] = []
    while len(out) < len(subtasks):
        s = next(s for s in subtasks if s.id not in done and set(s.dependencies) <= done)
        out.append(s)
        done.add(s.id)
    return tuple(out)


def parse_plan(text: str, max_subtasks: int = MAX_SUBTASKS) -> Plan:
    """The validated plan of a planner reply."""
    doc = json_object(text)
    raw = doc.get("subtasks")
    if not isinstance(raw, list) or not raw:
        raise ReplyError(f"plan: 'subtasks' must be a non-empty list, got {kind(raw)}")
    if len(raw) > max_subtasks:
        raise ReplyError(f"plan: {len(raw)} subtasks; at most {max_subtasks}")
    subtasks = tuple(_subtask(r, i) for i, r in enumerate(raw))
    ids = [s.id for s in subtasks]
    dup = next((i for i in ids if ids.count(i) > 1), None)
    if dup is not None:
        raise ReplyError(f"plan: the id {dup!r} is used by more than one subtask")
    for s in subtasks:
        unknown = [d for d in s.dependencies if d not in ids]
        if unknown:
            raise ReplyError(f"plan: subtask {s.id!r} depends on unknown {unknown[0]!r}")
        if s.id in s.dependencies:
            raise ReplyError(f"plan: the dependencies form a cycle: {s.id} -> {s.id}")
    return Plan(subtasks, order(subtasks))


def make_plan(
    client: Any,
    instruction: str,
    tools: str,
    facts: str,
    profile: str,
    max_subtasks: int = MAX_SUBTASKS,
    max_reasks: int = 1,
) -> tuple[Plan, str | None]:
    """Ask the model (an :class:`~agents.cradle.llm.LLMClient`) for a plan of
    ``instruction``; an unusable reply is asked again up to ``max_reasks`` times, then the plan
    is the task as one subtask. Returns the plan and the last reply's problem (None if none)."""
    from agents.cradle.llm import user_message
    from agents.friday.prompts import render

    prompt = render("planner", instruction=instruction, profile=profile, facts=facts,
                    tools=tools, max_subtasks=max_subtasks)  # fmt: skip
    messages = [user_message(prompt)]
    problem = ""
    for _ in range(max_reasks + 1):
        reply = client.chat(messages, module="planner")
        try:
            return parse_plan(reply.text, max_subtasks), None
        except ReplyError as e:
            problem = str(e)
            messages = [*messages, {"role": "assistant", "content": reply.text[:4000]},
                        user_message(f"That plan cannot be used: {e}. Answer with the JSON only.")]  # fmt: skip
    return Plan.single(instruction), problem
