"""The typed schema of a ``results.jsonl`` record, and the classes an episode ends in.

One record per episode (:func:`agents.bench.records.make_record`). Every record names its
episode (``key``, ``run``, ``env_id``, ``policy``, ``seed``) and says how it ended
(``status``: ``ok`` or ``error``); an ``ok`` record also carries the outcome (``success``,
``steps``, ``return``, ``progress``). :func:`problem` checks a decoded line against the schema
and says what is wrong, so a record with a wrong-typed field is skipped with a warning that
names the line instead of crashing a report.

An episode ends in one of :data:`CLASSES` (:func:`episode_class`): ``ok`` (it ran; success or
not), ``crashed`` (the env or the policy raised while it ran, or its worker died twice),
``refused`` (it could not start: the env or the policy could not be made, the reset raised,
or the task's setup failed) or ``unsupported`` (the env said it cannot score the task here).
Every class counts in a success rate's denominator.

>>> problem({"key": "k", "run": "r", "env_id": "E", "policy": "random", "seed": 0,
...          "status": "ok", "success": True, "steps": "ten", "return": 0.0, "progress": 1})
"'steps' is 'ten' (str), expected an integer"
>>> episode_class({"status": "error", "error_class": "refused"})
'refused'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: What an episode can end in (the report counts each, all in the denominator).
CLASSES = ("ok", "crashed", "refused", "unsupported")
#: The classes of a record whose ``status`` is ``error``.
ERROR_CLASSES = ("crashed", "refused")

_INT, _NUM, _STR, _BOOL, _DICT = "an integer", "a number", "a string", "true or false", "an object"


def _is(value: Any, kind: str) -> bool:
    if kind == _INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == _NUM:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == _STR:
        return isinstance(value, str)
    if kind == _BOOL:
        return isinstance(value, bool)
    return isinstance(value, dict)


#: Every record: field → (kind, required).
FIELDS: dict[str, tuple[str, bool]] = {
    "key": (_STR, True),
    "run": (_STR, True),
    "env_id": (_STR, True),
    "policy": (_STR, True),
    "seed": (_INT, True),
    "status": (_STR, True),
    "attempts": (_INT, False),
    "digest": (_STR, False),
    "session": (_STR, False),
    "config": (_DICT, False),
    "policy_info": (_DICT, False),
    "metrics": (_DICT, False),
    "finished_at": (_NUM, False),
}
#: An ``ok`` record besides.
OK_FIELDS: dict[str, tuple[str, bool]] = {
    "success": (_BOOL, True),
    "steps": (_INT, True),
    "return": (_NUM, True),
    "progress": (_NUM, True),
}
#: Fields that may be null or a string.
TEXT_OR_NULL = ("task", "error", "error_class", "unsupported", "setup_error", "failure")


def problem(rec: Any) -> str | None:
    """What is wrong with a decoded line as a record (None: a valid record)."""
    if not isinstance(rec, dict):
        return f"a JSON {type(rec).__name__}, not a record object"
    fields = dict(FIELDS)
    if rec.get("status") == "ok":
        fields.update(OK_FIELDS)
    for name, (kind, required) in fields.items():
        if name not in rec:
            if required:
                return f"no {name!r} field"
            continue
        if not _is(rec[name], kind):
            return f"{name!r} is {rec[name]!r:.40} ({type(rec[name]).__name__}), expected {kind}"
    if rec["status"] not in ("ok", "error"):
        return f"'status' is {rec['status']!r}, expected 'ok' or 'error'"
    for name in TEXT_OR_NULL:
        if rec.get(name) is not None and not isinstance(rec[name], str):
            return f"{name!r} is {type(rec[name]).__name__}, expected a string or null"
    if rec.get("error_class") not in (None, *ERROR_CLASSES):
        return f"'error_class' is {rec['error_class']!r}, expected one of {ERROR_CLASSES}"
    for name in ("metrics",):
        if any(not _is(v, _NUM) for v in rec.get(name, {}).values()):
            return f"{name!r} holds a value that is not a number"
    return None


def suite_name(rec: Mapping[str, Any]) -> str | None:
    """The name of the suite a record was run from (None if it does not say)."""
    suite = (rec.get("config") or {}).get("suite")
    name = suite.get("name") if isinstance(suite, dict) else None
    return name if isinstance(name, str) else None


def episode_class(rec: Mapping[str, Any]) -> str:
    """The class (:data:`CLASSES`) a valid record's episode ended in."""
    if rec.get("status") != "ok":
        cls = rec.get("error_class")
        return cls if cls in ERROR_CLASSES else "crashed"  # records before classes: crashed
    if rec.get("unsupported"):
        return "unsupported"
    if rec.get("setup_error"):
        return "refused"
    return "ok"
