"""Reading a desktop suite's task table (TOML) into :class:`~gcc_envs.core.spec.SuiteTask` rows.

A table is an array of ``[[task]]`` tables::

    [[task]]
    key = "make_file"              # the env's task= value
    name = "MakeFile"              # the id's suffix: GCC/<Suite>-MakeFile
    instruction = "..."            # may name setup values: $url, $home
    max_steps = 15
    difficulty = "easy"            # optional
    expected_steps = 2             # optional: a person's steps (efficiency)
    checker = "file_contains"      # a function of the suite's checkers module
    checker_args = { path = "hello.txt", text = "hello" }
    infeasible = false             # optional
    script = "agents.scripted.x:Y" # optional: the scripted solution (imported only by agents)
    [[task.setup]]                 # steps, in order (see gcc_envs.apps.setup)
    kind = "launch"
    argv = ["xterm"]
    window = "xterm"
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gcc_envs.core.spec import DIFFICULTIES, SetupStep, SuiteTask
from gcc_envs.core.toml_data import Entry, entries, read
from gcc_envs.errors import DataError, GCCError


def load_tasks(path: Path) -> tuple[SuiteTask, ...]:
    """The rows of the table at ``path``; errors name the file, the entry and the problem."""
    doc = read(path)
    rows = []
    for e in entries(path.name, doc, "task"):
        rows.append(row(e))
    if not rows:
        raise DataError(f"{path.name}: no [[task]] entries")
    return tuple(rows)


def row(e: Entry) -> SuiteTask:
    """One ``[[task]]`` entry as a :class:`SuiteTask` (its errors name the file and entry)."""
    setup = []
    for i, step in enumerate(e.get("setup", list, [])):
        if not isinstance(step, dict) or not isinstance(step.get("kind"), str):
            e.fail(f"setup step {i + 1} must be a table with a 'kind'")
        setup.append(SetupStep(step["kind"], {k: v for k, v in step.items() if k != "kind"}))
    expected = e.int("expected_steps", None, lo=1)
    try:
        return SuiteTask(
            key=e.get("key", str),
            name=e.get("name", str),
            max_steps=e.int("max_steps", lo=1),
            difficulty=e.choice("difficulty", DIFFICULTIES, ""),
            instruction=e.get("instruction", str),
            expected_steps=expected,
            setup=tuple(setup),
            checker=e.get("checker", str),
            checker_args=dict(e.get("checker_args", dict, {})),
            infeasible=e.get("infeasible", bool, False),
            script=e.get("script", str, None),
        )
    except GCCError as err:
        return e.fail(str(err))


def check_checkers(tasks: tuple[SuiteTask, ...], module: Any, file: str) -> None:
    """Every row's checker must exist in the suite's checkers module."""
    for t in tasks:
        if not callable(getattr(module, t.checker, None)):
            raise DataError(
                f"{file}: task {t.key!r}: no checker {t.checker!r} in {module.__name__}"
            )
