"""OSWorld's general metrics: pure functions ``metric(result, expected, **options) -> float``.

``result`` is what a getter read (text where OSWorld passes a file's path), ``expected`` the
task's rule; every metric returns 0.0 for a missing result. Semantics follow OSWorld's
metrics of the same names (facts from its evaluator; the code is this project's).

>>> check_include_exclude("Large text enabled (factor: 1.25)\\n", {"include": ["Large text"]})
1.0
>>> check_line_number("12:00:01 CPU\\n12:00:02 all 1.0\\nAverage: all\\n", {"expected": "2"})
1.0
>>> check_gnome_favorite_apps("['b.desktop', 'a.desktop']\\n", {"expected": ["a.desktop", "b.desktop"]})
1.0
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from typing import Any

from gcc_envs.osworld.metrics_apps import APP_METRICS
from gcc_envs.osworld.metrics_chrome import CHROME_METRICS
from gcc_envs.osworld.metrics_docs import DOC_METRICS
from gcc_envs.osworld.metrics_media import MEDIA_METRICS
from gcc_envs.osworld.metrics_misc import MISC_METRICS

Rule = Mapping[str, Any]
_TIME = re.compile(r"([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)")


def _score(ok: bool) -> float:
    return 1.0 if ok else 0.0


def exact_match(result: Any, rules: Rule) -> float:
    return _score(result is not None and result == rules["expected"])


def match_in_list(result: Any, rules: Rule) -> float:
    return _score(result is not None and result in rules["expected"])


def check_include_exclude(result: str | None, rules: Rule) -> float:
    if result is None:
        return 0.0
    return _score(
        all(s in result for s in rules.get("include", []))
        and not any(s in result for s in rules.get("exclude", []))
    )


def is_expected_url_pattern_match(result: Any, rules: Rule) -> float:
    url = result.get("url") if isinstance(result, Mapping) else result
    if not isinstance(url, str) or not url:
        return 0.0
    return _score(all(re.search(p, url) for p in rules["expected"]))


def file_contains(text: str | None, config: Rule) -> float:
    return _score(text is not None and all(s in text for s in config["expected"]))


def check_line_number(text: str | None, rule: Rule) -> float:
    """The file has exactly ``expected`` lines holding a time (``HH:MM:SS``), as ``sar`` prints."""
    if text is None:
        return 0.0
    count = sum(1 for line in text.splitlines() if _TIME.search(line))
    return _score(count == int(rule["expected"]))


def check_list(text: str | None, rules: Rule) -> float:
    """Every ``expect`` regex matches some line and no ``unexpect`` regex matches any."""
    if text is None:
        return 0.0
    lines = text.splitlines()
    expect = [re.compile(p) for p in rules.get("expect", [])]
    unexpect = [re.compile(p) for p in rules.get("unexpect", [])]
    found = all(any(r.search(ln) for ln in lines) for r in expect)
    return _score(found and not any(r.search(ln) for r in unexpect for ln in lines))


def is_utc_0(text: str | None) -> float:
    """``timedatectl status``'s fourth line (the time zone) ends with ``+0000)``."""
    lines = (text or "").split("\n")
    return _score(len(lines) > 3 and lines[3].endswith("+0000)"))


def check_gnome_favorite_apps(text: str | None, rule: Rule) -> float:
    """The favourites list (GVariant text ``['a.desktop', ...]``) holds exactly the expected."""
    if text is None:
        return 0.0
    value = text.strip()
    if value.startswith("@as "):
        value = value[4:]
    try:
        apps = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return 0.0
    if not isinstance(apps, list):
        return 0.0
    expected = list(rule["expected"])
    return _score(len(apps) == len(expected) and set(apps) == set(expected))


def is_expected_bookmarks(bookmarks: Any, rule: Rule) -> float:
    if not isinstance(bookmarks, Mapping) or "bookmark_bar" not in bookmarks:
        return 0.0
    children = bookmarks["bookmark_bar"].get("children", [])
    if rule["type"] == "bookmark_bar_folders_names":
        names = {c.get("name") for c in children if c.get("type") == "folder"}
        return _score(names == set(rule["names"]))
    if rule["type"] == "bookmark_bar_websites_urls":
        urls = {c.get("url") for c in children if c.get("type") == "url"}
        return _score(urls == set(rule["urls"]))
    raise ValueError(f"is_expected_bookmarks: rule type {rule['type']!r} is not supported")


def check_font_size(font_size: Any, rule: Rule) -> float:
    if not isinstance(font_size, Mapping):
        return 0.0
    size = font_size.get("default_font_size")
    if rule["type"] == "value":
        return _score(size == rule["value"])
    if rule["type"] == "range":
        return _score(isinstance(size, (int, float)) and rule["min"] < size < rule["max"])
    raise ValueError(f"check_font_size: rule type {rule['type']!r} is not supported")


def load_jsonc(text: str | None) -> Any:
    """JSON, or VS Code's JSON with comments and trailing commas; None if neither."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    out, i, in_str = [], 0, False
    while i < len(text):
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1 : i + 2])
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            out.append(c)
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        elif text.startswith("/*", i):
            i = text.find("*/", i)
            if i < 0:
                break
            i += 1
        else:
            out.append(c)
        i += 1
    try:
        return json.loads(re.sub(r",(\s*[}\]])", r"\1", "".join(out)))
    except json.JSONDecodeError:
        return None


def check_json_settings(text: str | None, expected: Rule) -> float:
    """Every expected key of VS Code's ``settings.json`` has the expected value."""
    data = load_jsonc(text)
    if not isinstance(data, dict):
        return 0.0
    return _score(all(k in data and data[k] == v for k, v in expected["expected"].items()))


def check_json_keybindings(text: str | None, expected: Rule) -> float:
    """VS Code's ``keybindings.json`` (a list) holds the expected binding exactly."""
    data = load_jsonc(text)
    return _score(isinstance(data, list) and expected["expected"] in data)


def compare_config(text: str | None, rules: Rule, containment_ok: bool = False) -> float:
    """The file equals ``expected``; with ``containment_ok``, its JSON holds every expected key."""
    if text is None:
        return 0.0
    if text == rules["expected"]:
        return 1.0
    if not containment_ok:
        return 0.0
    actual, wanted = load_jsonc(text), load_jsonc(rules["expected"])
    if isinstance(actual, dict) and isinstance(wanted, dict):
        return _score(all(k in actual and actual[k] == v for k, v in wanted.items()))
    return _score(rules["expected"].strip() in text)


METRICS = {
    "exact_match": exact_match, "match_in_list": match_in_list,
    "check_include_exclude": check_include_exclude,
    "is_expected_url_pattern_match": is_expected_url_pattern_match,
    "file_contains": file_contains, "check_line_number": check_line_number,
    "check_list": check_list, "is_utc_0": is_utc_0,
    "check_gnome_favorite_apps": check_gnome_favorite_apps,
    "is_expected_bookmarks": is_expected_bookmarks, "check_font_size": check_font_size,
    "check_json_settings": check_json_settings, "check_json_keybindings": check_json_keybindings,
    "compare_config": compare_config, **APP_METRICS, **CHROME_METRICS, **DOC_METRICS,
    **MEDIA_METRICS, **MISC_METRICS,
}  # fmt: skip
