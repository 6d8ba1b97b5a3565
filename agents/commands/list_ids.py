"""``gcc-gym list``: the registered ids, each with its card's first line and its task."""

from __future__ import annotations

import argparse
import inspect
from typing import Any

from agents.commands.options import plain


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "list", help="list registered env ids: their cards' first lines and their tasks"
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import gcc_envs

    for env_id in gcc_envs.env_ids():
        print(f"{env_id:<28} {card_line(env_id)}")
    return 0


def card_line(env_id: str, width: int = 160) -> str:
    """The card's first line, then the task's instruction (cut at ``width``), which tells
    apart the ids that share a card."""
    from gcc_envs.core.spec import load
    from gcc_envs.registration import spec_of, task_of

    spec = spec_of(env_id)
    doc = inspect.getdoc(load(spec.env_class)) or ""
    first = plain(doc.splitlines()[0]) if doc else ""
    task = task_of(env_id)
    if task is None:
        return first
    what = plain(_instruction(spec, task))
    what = what if len(what) <= width else what[: width - 1].rstrip() + "…"
    return f"{first} — {what or task.name}"


def _instruction(spec: object, task: object) -> str:
    """A task's instruction: its row's, else its task class's (a game) or its task file's."""
    from gcc_envs.core.spec import GameSpec, load

    if task is None:
        return ""
    text = getattr(task, "instruction", "")
    if not text and isinstance(spec, GameSpec):
        text = getattr(load(spec.make_task)(task.key), "instruction", "")  # type: ignore[attr-defined]
    if not text and getattr(spec, "key", None) == "osworld":
        from gcc_envs.osworld.taskfile import load_task

        text = load_task(task.key).instruction  # type: ignore[attr-defined]
    return str(text)
