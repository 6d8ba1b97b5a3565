"""OSWorld's metrics over plain text, JSON and literal values, and the value rules others share.

Pure functions ``metric(result, expected, **options) -> float``; ``result`` is what a getter
read (a :class:`~gcc_envs.osworld.filedata.FileData` where OSWorld passes a file's path,
``None`` for a missing file, which scores 0). Semantics follow OSWorld's functions of the
same names (``general.py``, ``vscode.py``, ``utils._match_value_to_rule``); the code is this
project's.

>>> compare_text_file("a\\r\\nb\\n", "a\\nb\\n")
1.0
>>> match_value_to_rule("Pass,Fail", {"method": "str_set_eq", "ref": ["Fail", "Pass"]})
True
>>> check_direct_json_object("{'a': 1}", {"expected": {"a": 1}})
1.0
"""

from __future__ import annotations

import difflib
import functools
import json
import operator
import re
from collections.abc import Mapping
from typing import Any

from gcc_envs.osworld.filedata import file_bytes

Rule = Mapping[str, Any]


def score(ok: bool) -> float:
    return 1.0 if ok else 0.0


def file_text(value: object) -> str | None:
    """A file's text as Python's text mode reads it: UTF-8, ``\\r\\n`` and ``\\r`` as ``\\n``.

    Strict UTF-8 where the bytes are known (OSWorld's ``open()`` raises on bad bytes too).
    """
    data = file_bytes(value)
    if data is None:
        return None
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def read_lines_any_encoding(value: object) -> list[str] | None:
    """The file's lines, decoded as UTF-8 or else Latin-1 (OSWorld's ``_safe_read_file``:
    Latin-1 decodes any bytes, so its later encodings are never reached)."""
    data = file_bytes(value)
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n").splitlines()


# ---- rules shared with the spreadsheet checks --------------------------------------------


def match_value_to_rule(value: Any, rule: Rule) -> bool:
    """Whether ``value`` passes ``{"method": ..., "ref": ...}``.

    Methods: ``re[.FLAG...]`` (``re.search``), ``eq ne le lt ge gt``, ``approx:T`` (within T),
    ``spreadsheet_range`` (the value's cell ranges hold ``ref[0]`` and lie inside ``ref[1]``),
    ``range.XY`` (``X``, ``Y`` in ``t``/``e``: ``ref[0] <X value <Y ref[1]``),
    ``str_list_eq``/``str_set_eq`` (the value split at commas, quotes stripped).
    """
    method: str = rule["method"]
    ref = rule.get("ref")
    if method.startswith("re"):
        flags = functools.reduce(
            operator.or_, (getattr(re, f) for f in method.split(".")[1:]), re.RegexFlag(0)
        )
        return re.search(ref, value, flags) is not None
    if method in {"eq", "ne", "le", "lt", "ge", "gt"}:
        return bool(getattr(operator, method)(value, ref))
    if method.startswith("approx"):
        try:
            number = float(value)
        except (TypeError, ValueError):
            return False
        return abs(number - ref) <= float(method.split(":")[1])
    if method == "spreadsheet_range":
        from openpyxl.worksheet.cell_range import MultiCellRange

        inner, outer = MultiCellRange(ref[0]), MultiCellRange(ref[1])
        return all(r in value for r in inner) and all(r in outer for r in value)
    if method.startswith("range."):
        low = getattr(operator, "l" + method[6])
        high = getattr(operator, "l" + method[7])
        return bool(low(ref[0], value) and high(value, ref[1]))
    if method in {"str_list_eq", "str_set_eq"}:
        kind = list if method == "str_list_eq" else set
        return kind(value.strip("\"'").split(",")) == kind(ref)
    raise NotImplementedError(f"value rule method {method!r} is not supported")


# ---- text files ----------------------------------------------------------------------------


def compare_text_file(
    result: Any, expected: Any, ignore_blanks: bool = False, ignore_case: bool = False
) -> float:
    """The two files' texts are equal; ``ignore_blanks`` squeezes whitespace runs to one
    space (ends stripped), ``ignore_case`` lowers both."""
    actual, wanted = file_text(result), file_text(expected)
    if actual is None or wanted is None:
        return 0.0
    if ignore_blanks:
        actual, wanted = (
            re.sub(r"\s+", " ", re.sub(r"[\t\n]", " ", t).strip()) for t in (actual, wanted)
        )
    if ignore_case:
        actual, wanted = actual.lower(), wanted.lower()
    return score(actual == wanted)


def diff_text_file(result: Any, expected: Any) -> float:
    """How alike the files' lines are: ``difflib.SequenceMatcher(a, b).ratio()``, in [0, 1]."""
    actual, wanted = file_text(result), file_text(expected)
    if actual is None or wanted is None:
        return 0.0
    return difflib.SequenceMatcher(a=actual.splitlines(), b=wanted.splitlines()).ratio()


# ---- JSON and literal values ------------------------------------------------------------


def _walk(data: Any, keys: list[Any]) -> tuple[bool, Any]:
    for k in keys:
        try:
            data = data[k]
        except (KeyError, TypeError):  # an IndexError propagates, as in OSWorld
            return False, None
    return True, data


def check_json(result: Any, rules: Rule, is_yaml: bool = False) -> float:
    """The JSON (or YAML) file's value at each ``expect`` key path passes its rule, and at
    no ``unexpect`` key path does (a missing path reads as ``None`` there)."""
    text = file_text(result)
    if text is None:
        return 0.0
    if is_yaml:
        try:
            import yaml
        except ImportError as e:  # not one of this package's dependencies
            raise NotImplementedError("check_json with is_yaml needs PyYAML installed") from e
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            return 0.0
        if data is None:
            return 0.0
    else:
        try:
            data = json.loads(text)
        except ValueError:
            return 0.0
    ok = True
    for rule in rules.get("expect", []):
        found, value = _walk(data, rule["key"])
        if not found:
            return 0.0
        ok = ok and match_value_to_rule(value, rule)
    for rule in rules.get("unexpect", []):
        ok = ok and not match_value_to_rule(_walk(data, rule["key"])[1], rule)
    return score(ok)


def _direct_in_result(result: Mapping[str, Any], expected: Mapping[str, Any]) -> float:
    for key, want in expected.items():
        got = result.get(key)
        if isinstance(want, list):
            if not any(
                (isinstance(got, list) and w in got) or (isinstance(got, str) and w == got)
                for w in want
            ):
                return 0.0
        elif isinstance(want, str):
            if want not in got:
                return 0.0
        else:
            return 0.0
    return 1.0


def check_direct_json_object(result: Any, rules: Rule) -> float:
    """A JSON object (text has its single quotes read as double) holds the expected values.

    Every key of ``rules["expected"]`` must equal the result's; with ``expect_in_result``, a
    list names the values allowed (one in the result's list, or equal to its string) and a
    string must occur in the result's string. OSWorld's quirk is kept: a key
    ``ignore_list_order`` inside ``expected`` compares sorted values, itself included (so
    such a rule always scores 0).
    """
    if isinstance(result, str):
        result = json.loads(result.strip().replace("'", '"'))
    if result is None:
        return 0.0
    expected = rules.get("expected", {})
    if expected and any(v == "__EVALUATION_FAILED__" for v in expected.values()):
        return 0.0
    try:
        if rules.get("expect_in_result", False):
            return _direct_in_result(result, expected)
        for key in expected:
            if expected.get("ignore_list_order", False):
                if sorted(expected[key]) != sorted(result.get(key)):
                    return 0.0
            elif expected[key] != result.get(key):
                return 0.0
        return 1.0
    except (TypeError, AttributeError):  # OSWorld scores a result of the wrong shape 0
        return 0.0


def literal_match(
    result: Any, expected: Any, type: str = "str", ignore_case: bool = False
) -> float:  # noqa: A002 - OSWorld's option name
    """``str(result) == str(expected)``; ``type="list"``: equal lists of the items' ``str``."""

    def norm(x: Any) -> str:
        return str(x).lower() if ignore_case else str(x)

    if type == "str":
        return score(norm(result) == norm(expected))
    if type == "list":
        if not isinstance(result, (list, tuple)) or not isinstance(expected, (list, tuple)):
            return 0.0
        return score(
            len(result) == len(expected) and list(map(norm, result)) == list(map(norm, expected))
        )
    raise NotImplementedError(f"literal_match: type {type!r} is not supported (str, list)")


def is_in_list(result: Any, rules: Rule) -> float:
    """``rules["expected"]`` is in ``result`` (an item of a list, a substring of a string)."""
    if result is None:
        return 0.0
    return score(rules["expected"] in result)


TEXT_METRICS = {
    "compare_text_file": compare_text_file, "diff_text_file": diff_text_file,
    "check_json": check_json, "check_direct_json_object": check_direct_json_object,
    "literal_match": literal_match, "is_in_list": is_in_list,
}  # fmt: skip
