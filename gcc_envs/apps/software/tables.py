"""Reading a software twin's task table (``tasks.toml``) into :class:`SuiteTask` rows.

Each ``[[task]]`` has ``key``, ``name``, ``instruction``, ``max_steps``, ``expected_steps``
(the steps a person needs: efficiency = expected_steps / steps), ``checker`` and its
``[task.checker_args]``, ``[[task.setup]]`` steps (``kind`` plus the step's arguments) and
``script``, the scripted solution (``"module:Class"``, imported only by ``agents``).
``paper_id`` and ``paper_task`` keep the Cradle task's number and text as the paper has them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gcc_envs.apps.table import row
from gcc_envs.core.spec import SuiteTask
from gcc_envs.core.toml_data import entries, read
from gcc_envs.errors import DataError

_TASK_KEYS = {
    "key", "name", "instruction", "max_steps", "expected_steps", "checker", "checker_args",
    "setup", "paper_id", "paper_task", "difficulty", "script",
}  # fmt: skip


def load_tasks(path: Path) -> tuple[SuiteTask, ...]:
    """The tasks of ``path`` (a ``tasks.toml``), validated; errors name the file and entry.

    The rows are the desktop suites' (:func:`gcc_envs.apps.table.row`); a software twin's
    table also needs ``expected_steps`` on every task and knows only :data:`_TASK_KEYS`.
    """
    tasks = []
    for e in entries(path.name, read(path), "task"):
        unknown = set(e.table) - _TASK_KEYS
        if unknown:
            e.fail(f"unknown field(s) {sorted(unknown)}")
        e.int("expected_steps", lo=1)  # required here
        tasks.append(row(e))
    if not tasks:
        raise DataError(f"{path.name}: no [[task]] entries")
    return tuple(tasks)


def paper_rows(path: Path) -> list[dict[str, Any]]:
    """``(key, paper_id, paper_task)`` of each task, for the README's and the report's tables."""
    doc = read(path)
    return [
        {"key": t.get("key"), "paper_id": t.get("paper_id"), "paper_task": t.get("paper_task")}
        for t in doc.get("task", [])
    ]
