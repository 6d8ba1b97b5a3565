"""Every ``$name`` a desktop task's instruction (or checker argument) names is a value its
setup defines — a name no step defines reaches the agent as a literal ``$name`` (CapCut's
transition task once said ``Videos/$project``). Read from the task tables; nothing runs."""

from __future__ import annotations

import string
from typing import Any

import pytest
from spec_helpers import suites

from gcc_envs.core.spec import SuiteTask
from gcc_envs.core.templates import template_fields

#: Setup step kinds, beyond ``choose`` and ``http_server``, that set values, and which.
SETS: dict[str, tuple[str, ...]] = {"pictures": ("picture",)}
#: Values every episode has.
ALWAYS = {"home"}


def defined(task: SuiteTask) -> set[str]:
    """The values ``task``'s setup defines, in the order it runs them."""
    names = set(ALWAYS)
    for step in task.setup:
        if step.kind == "choose":
            options = step.args.get("options", [])
            name = step.args["name"]
            if options and all(isinstance(o, dict) for o in options):
                names |= {f"{name}_{k}" for o in options for k in o}
            else:
                names.add(name)
        elif step.kind == "http_server":
            names.add(step.args.get("name", "url"))
        names |= set(SETS.get(step.kind, ()))
    return names


def fields(value: Any) -> set[str]:
    """The ``$name`` fields of a string, or of the strings in a list or table."""
    if isinstance(value, str):
        return template_fields(string.Template(value))
    if isinstance(value, dict):
        return set().union(*map(fields, value.values()), set())
    if isinstance(value, list | tuple):
        return set().union(*map(fields, value), set())
    return set()


TASKS = [
    pytest.param(task, id=task.env_id(suite.title))
    for suite in suites()
    if suite.key != "osworld"  # task files, not a table: OSWorld writes no placeholders
    for task in suite.tasks
]


def test_the_tables_have_tasks_with_placeholders() -> None:
    assert sum(bool(fields(t.values[0].instruction)) for t in TASKS) >= 10


@pytest.mark.parametrize("task", TASKS)
def test_every_placeholder_is_a_value_setup_defines(task: SuiteTask) -> None:
    missing = (fields(task.instruction) | fields(dict(task.checker_args))) - defined(task)
    assert not missing, f"{sorted(missing)} named but never set by {[s.kind for s in task.setup]}"
