"""OSWorld's Thunderbird metrics: preferences (``prefs.js``), message filters
(``msgFilterRules.dat``) and mail folders (mbox files, ``.eml``), on the files' text; and
``run_sqlite3``, a task's SQL over a database file (Thunderbird's ``global-messages-db``).

Rules follow OSWorld's ``thunderbird.py``: a preference rule maps a key to ``{"method",
"ref"}`` (:func:`value_matches`); a filter rule lists filters' fields (``name``, ``enabled``,
``type``, ``action``, ``actionValue``, ``condition``) that some filter must (``expect``) or
no filter may (``unexpect``) have.

>>> prefs = 'user_pref("mail.identity.id1.auto_quote", false);\\n'
>>> check_thunderbird_prefs(prefs, {"expect": {"mail.identity.id1.auto_quote":
...                                            {"method": "eq", "ref": False}}})
1.0
>>> value_matches("Anonym\\nXYZ Lab", {"method": "re.S", "ref": "Anonym.XYZ"})
True
"""

from __future__ import annotations

import functools
import json
import operator
import os
import re
import sqlite3
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

from gcc_envs.osworld.filedata import file_bytes

Rule = Mapping[str, Any]
_PREF = re.compile(r'^user_pref\("(?P<key>(?:[^"]|\\")+)", (?P<val>.+)\);$')
_CONDITION = re.compile(
    r'\b(?:AND|OR) \((?:[\w ]+),(?:[\w \']+),(?:"(?:(?:[^"]|")+)"|(?:[^)]+))\)|\bALL\b'
)
_FILTER_LINE = re.compile(r'^(?P<key>\w+)="(?P<val>.*)"$')
#: The fields of a filter that rules may name (the lines of ``msgFilterRules.dat``).
FILTER_FIELDS = ("name", "enabled", "type", "action", "actionValue")


def _score(ok: bool) -> float:
    return 1.0 if ok else 0.0


def value_matches(value: Any, rule: Rule) -> bool:
    """Whether ``value`` passes ``{"method": ..., "ref": ...}``: ``eq ne lt le gt ge``
    (Python's comparison with ``ref``), ``re[.FLAG...]`` (``re.search(ref, value)``, flags by
    name: ``re.S``, ``re.I``...), ``approx:T`` (a number within ``T`` of ``ref``)."""
    method = str(rule["method"])
    ref = rule.get("ref")
    if method.startswith("re"):
        flags = functools.reduce(
            operator.or_, (getattr(re, f) for f in method.split(".")[1:]), re.RegexFlag(0)
        )
        return re.search(ref, value, flags) is not None
    if method in ("eq", "ne", "le", "lt", "ge", "gt"):
        return bool(getattr(operator, method)(value, ref))
    if method.startswith("approx:"):
        try:
            return abs(float(value) - ref) <= float(method.split(":")[1])
        except (TypeError, ValueError):
            return False
    raise ValueError(f"rule method {method!r} is not supported")


def prefs(text: str) -> dict[str, Any]:
    """The ``user_pref("key", value);`` lines of a ``prefs.js`` (values parsed as JSON; a line
    that does not parse is left out; a key set twice keeps its last value)."""
    out: dict[str, Any] = {}
    for line in text.splitlines():
        m = _PREF.match(line.strip())
        if m is None:
            continue
        try:
            out[m.group("key")] = json.loads(m.group("val"))
        except json.JSONDecodeError:
            continue
    return out


def check_thunderbird_prefs(text: str | None, rule: Mapping[str, Mapping[str, Rule]]) -> float:
    """Every ``expect`` preference is set and passes its rule; no ``unexpect`` one passes."""
    if text is None:
        return 0.0
    values = prefs(str(text))
    expect, unexpect = rule.get("expect", {}), rule.get("unexpect", {})
    found = all(k in values and value_matches(values[k], r) for k, r in expect.items())
    return _score(found and not any(
        k in values and k not in expect and value_matches(values[k], r)
        for k, r in unexpect.items()))  # fmt: skip


def _unescape(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\")


def filters(text: str) -> list[dict[str, Any]]:
    """The filters of a ``msgFilterRules.dat``: each starts at its ``name=`` line and counts
    once its ``condition=`` line is read (conditions split into ``AND (field,op,value)``,
    ``OR (...)`` or ``ALL``); a field given twice keeps its last value."""
    out: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for line in text.splitlines():
        m = _FILTER_LINE.match(line.strip())
        if m is None:
            continue
        key, value = m.group("key"), _unescape(m.group("val"))
        if key == "name":
            current = {"name": value}
        elif key in FILTER_FIELDS:
            current[key] = value
        elif key == "condition":
            current["condition"] = _CONDITION.findall(value)
            out.append(current)
    return out


def _record_matches(pattern: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    return all(k in item and item[k] == v for k, v in pattern.items())


def check_thunderbird_filter(text: str | None, rules: Mapping[str, Sequence[Rule]]) -> float:
    """Each ``expect`` pattern matches some filter; no ``unexpect`` pattern matches any."""
    if text is None:
        return 0.0
    found = filters(str(text))
    expect, unexpect = rules.get("expect", []), rules.get("unexpect", [])
    return _score(
        all(any(_record_matches(r, f) for f in found) for r in expect)
        and not any(_record_matches(r, f) for r in unexpect for f in found)
    )


_SEPARATOR = re.compile(r"^From - ", re.MULTILINE | re.IGNORECASE)
_DELETED = re.compile(r"X-Mozilla-Status: 000[89]")


def folder_messages(
    text: str,
    *,
    ignore_status: bool = False,
    ignore_keys: bool = False,
    remove_deleted: bool = True,
    remove_duplicate: bool = True,
) -> list[str]:
    """A folder's messages, normalised and sorted: split at mbox ``From - `` lines (an
    ``.eml`` is one message); deleted ones (``X-Mozilla-Status: 0008``/``0009``) and
    duplicates left out unless told; ``X-Mozilla-Status`` and ``X-Mozilla-Keys`` headers
    removed when told to ignore them."""
    messages = []
    for mail in _SEPARATOR.split(text.strip()):
        if not mail.strip():
            continue
        if remove_deleted and _DELETED.search(mail):
            continue
        if ignore_status:
            mail = re.sub(r"X-Mozilla-Status\d?:[\s\d]+", "", mail)
        if ignore_keys:
            mail = re.sub(r"(X-Mozilla-Keys:[^\n]*?)\n(MIME-Version)", r"\2", mail)
        messages.append("FROM - " + mail.strip())
    return sorted(set(messages) if remove_duplicate else messages)


def check_thunderbird_folder(result: Any, expected: Any, **options: bool) -> float:
    """Each folder file holds the same messages as its expected one (lists pair up);
    options: ``ignore_status``, ``ignore_keys`` (default off), ``remove_deleted``,
    ``remove_duplicate`` (default on)."""
    if not isinstance(expected, (list, tuple)):
        result, expected = [result], [expected]
    if not isinstance(result, (list, tuple)):
        return 0.0
    for pred, gold in zip(result, expected):
        if pred is None or gold is None:
            return 0.0
        if folder_messages(str(pred), **options) != folder_messages(str(gold), **options):
            return 0.0
    return 1.0


def run_sqlite3(result: Any, rules: Rule) -> float:
    """The first column of the first row the task's ``sql`` gives on the database file (read
    only, from a private copy), as a number (``NULL`` → 0)."""
    data = file_bytes(result)
    if data is None:
        return 0.0
    with tempfile.TemporaryDirectory(prefix="gcc-sqlite-") as folder:
        path = os.path.join(folder, "db.sqlite")
        with open(path, "wb") as f:
            f.write(data)
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = connection.execute(rules["sql"]).fetchone()
        finally:
            connection.close()
    return float(row[0] or 0) if row else 0.0


MAIL_METRICS = {
    "check_thunderbird_prefs": check_thunderbird_prefs,
    "check_thunderbird_filter": check_thunderbird_filter,
    "check_thunderbird_folder": check_thunderbird_folder,
    "run_sqlite3": run_sqlite3,
}
