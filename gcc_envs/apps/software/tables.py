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

from gcc_envs.core.spec import SetupStep, SuiteTask
from gcc_envs.errors import DataError
from gcc_envs.games.toml_data import entries, read

_TASK_KEYS = {
    "key", "name", "instruction", "max_steps", "expected_steps", "checker", "checker_args",
    "setup", "paper_id", "paper_task", "difficulty", "script",
}  # fmt: skip


def load_tasks(path: Path) -> tuple[SuiteTask, ...]:
    """The tasks of ``path`` (a ``tasks.toml``), validated; errors name the file and entry."""
    doc = read(path)
    tasks = []
    for e in entries(path.name, doc, "task"):
        unknown = set(e.table) - _TASK_KEYS
        if unknown:
            e.fail(f"unknown field(s) {sorted(unknown)}")
        setup = []
        for i, step in enumerate(e.get("setup", list, [])):
            if not isinstance(step, dict) or not isinstance(step.get("kind"), str):
                e.fail(f"setup step #{i + 1} must be a table with a string 'kind'")
            args = {k: v for k, v in step.items() if k != "kind"}
            setup.append(SetupStep(step["kind"], args))
        expected = e.int("expected_steps", lo=1)
        try:
            tasks.append(
                SuiteTask(
                    key=e.get("key", str),
                    name=e.get("name", str),
                    max_steps=e.int("max_steps", lo=1),
                    difficulty=e.get("difficulty", str, ""),
                    instruction=e.get("instruction", str),
                    expected_steps=expected,
                    setup=tuple(setup),
                    checker=e.get("checker", str),
                    checker_args=dict(e.get("checker_args", dict, {})),
                    script=e.get("script", str, None),
                )
            )
        except DataError:
            raise
        except Exception as err:  # the spec's own validation (GCCError)
            e.fail(str(err))
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
