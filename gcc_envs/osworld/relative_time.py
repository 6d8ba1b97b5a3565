"""OSWorld's ``rule_relativeTime``: a rule whose expected dates are counted from today.

The task names days in words (``relativeTime``: ``from``, optionally ``to``) and writes the
expected values with placeholders (``"{DoW}, {Month} {Day0D}, {Year}"``); :func:`resolve`
puts the days in. The phrases and their arithmetic are OSWorld's (``getters/misc.py``):

* ``tomorrow``; ``this month`` (today); ``5th``/``10th``/``11th next month``;
* ``this Saturday`` / ``this Sunday``: the Saturday / Sunday of this week (Monday first);
* ``next Monday``: the coming Monday, a week on when today is Monday; ``next Friday``: the
  coming Friday (a week on on Fridays), or the Friday after ``next Monday`` when ``from`` is a
  ``next Monday``; ``next Saturday`` / ``next Sunday`` likewise (``next Sunday`` after a
  ``next Friday``/``Saturday`` is that weekend's);
* ``next week Friday``/``Saturday``/``Sunday``: that day of next week (Monday first);
  ``week after next ...``: one week later;
* ``first monday four months later`` / ``eight months later``: the first Monday of the month
  four / eight months on;
* ``... split`` (``next Monday split``, ``next Friday split``, ``week after next Monday
  split``, ``week after next Friday split``): the same day, written into ``puDay``,
  ``puMonth``, ``puYear`` (``from``) or ``doDay``, ``doMonth``, ``doYear`` (``to``) instead of
  ``from`` / ``to``.

With only ``from``, the day goes into ``expected["time"]`` (a string or a list of them).
"Today" is the desktop's clock in the rule's ``timezone`` (an IANA name), else in local time.
Placeholders: ``{DoW}`` (Mon), ``{Month}`` (Jan), ``{MonthFull}`` (January), ``{month}``
(january), ``{MonthD}`` (1), ``{Month0D}`` (01), ``{DayD}`` (5), ``{Day0D}`` (05), ``{Year}``;
each is replaced once, as OSWorld does.

>>> friday = date(2026, 11, 27)
>>> resolve({"relativeTime": {"from": "tomorrow"}, "expected": {"time": "{DoW}, {Month} {Day0D}"}}, friday)["expected"]
{'time': 'Sat, Nov 28'}
>>> day("next week Saturday", friday), day("first monday eight months later", friday)
(datetime.date(2026, 12, 5), datetime.date(2027, 7, 5))
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gcc_envs.errors import GCCError

#: ``from`` phrases that pair with ``next Friday`` as the Friday of their week.
MONDAYS = ("next Monday", "next Monday split", "week after next Monday split")
#: Phrases whose day is written into the split fields.
SPLIT_FROM = ("next Monday split", "week after next Monday split")
SPLIT_TO = ("next Friday split", "week after next Friday split")
_NTH_NEXT_MONTH = {"5th next month": 5, "10th next month": 10, "11th next month": 11}
_NEXT_WEEK = {"Friday": 4, "Saturday": 5, "Sunday": 6}
_MONTHS_LATER = {"first monday four months later": 4, "first monday eight months later": 8}
#: English names (not the locale's: OSWorld's tables are English).
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip


def today(timezone: str | None) -> date:
    """The desktop's date in ``timezone`` (an IANA name), or in local time."""
    if not timezone:
        return datetime.now().astimezone().date()
    try:
        return datetime.now(ZoneInfo(timezone)).date()
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise GCCError(f"rule_relativeTime: unknown timezone {timezone!r}") from e


def _next_friday(now: date) -> date:
    wd = now.weekday()
    return now + timedelta(days=4 - wd if wd < 4 else 7 if wd == 4 else 11 - wd)


def _next_saturday(now: date) -> date:
    wd = now.weekday()
    return now + timedelta(days=5 - wd if wd < 5 else 7 if wd == 5 else 6)


def _first_monday(now: date, months: int) -> date:
    month0 = now.month - 1 + months
    first = date(now.year + month0 // 12, month0 % 12 + 1, 1)
    return first + timedelta(days=(7 - first.weekday()) % 7)


def day(phrase: str, now: date, start: tuple[str, date] | None = None) -> date:
    """The day ``phrase`` names, counted from ``now``; ``start``: the range's ``from`` phrase
    and day, for the phrases of a ``to`` that pair with it."""
    wd = now.weekday()
    next_monday = now + timedelta(days=7 - wd)
    if phrase == "tomorrow":
        return now + timedelta(days=1)
    if phrase == "this month":
        return now
    if phrase in _NTH_NEXT_MONTH:
        year, month = (now.year + 1, 1) if now.month == 12 else (now.year, now.month + 1)
        return date(year, month, _NTH_NEXT_MONTH[phrase])
    if phrase == "this Saturday":
        return now + timedelta(days=5 - wd)
    if phrase == "this Sunday":
        return now + timedelta(days=6 - wd)
    if phrase in ("next Monday", "next Monday split"):
        return next_monday
    if phrase == "week after next Monday split":
        return next_monday + timedelta(days=7)
    if phrase in ("next Friday", *SPLIT_TO):
        if start is not None and start[0] in MONDAYS:
            return start[1] + timedelta(days=4)
        return _next_friday(now)
    if phrase == "next Saturday":
        return _next_saturday(now)
    if phrase == "next Sunday":
        if start is not None and start[0] in ("next Friday", "next Saturday"):
            return start[1] + timedelta(days=6 - start[1].weekday())
        return now + timedelta(days=6 - wd if wd < 6 else 7)
    for name, offset in _NEXT_WEEK.items():
        if phrase == f"next week {name}":
            return next_monday + timedelta(days=offset)
        if phrase == f"week after next {name}":
            return next_monday + timedelta(days=offset + 7)
    if phrase in _MONTHS_LATER:
        return _first_monday(now, _MONTHS_LATER[phrase])
    raise GCCError(f"rule_relativeTime: {phrase!r} is not a relative day OSWorld knows")


def fill(template: str, when: date) -> str:
    """``template`` with each date placeholder replaced once (OSWorld's order)."""
    for key, value in (
        ("{DoW}", DAYS[when.weekday()]),
        ("{Month}", MONTHS[when.month - 1][:3]),
        ("{DayD}", str(when.day)),
        ("{Year}", str(when.year)),
        ("{Month0D}", f"{when.month:02d}"),
        ("{month}", MONTHS[when.month - 1].lower()),
        ("{MonthFull}", MONTHS[when.month - 1]),
        ("{Day0D}", f"{when.day:02d}"),
        ("{MonthD}", str(when.month)),
    ):
        template = template.replace(key, value, 1)
    return template


def _fill_any(value: Any, when: date) -> Any:
    if isinstance(value, list):
        return [fill(v, when) for v in value]
    if not isinstance(value, str):
        raise GCCError(f"rule_relativeTime: an expected date must be text, got {value!r}")
    return fill(value, when)


def resolve(rules: Mapping[str, Any], now: date) -> dict[str, Any]:
    """A copy of ``rules`` with its expected dates filled in for today ``now``."""
    relative = rules.get("relativeTime")
    expected = rules.get("expected")
    if not isinstance(relative, Mapping) or not isinstance(relative.get("from"), str):
        raise GCCError("rule_relativeTime: rules.relativeTime needs a 'from' phrase")
    if not isinstance(expected, Mapping):
        raise GCCError("rule_relativeTime: rules.expected must be an object")
    out = copy.deepcopy(dict(rules))
    filled = out["expected"]
    start = relative["from"]
    first = day(start, now)

    def put(keys: tuple[str, ...], when: date) -> None:
        for key in keys:
            if key not in filled:
                raise GCCError(f"rule_relativeTime: rules.expected has no {key!r}")
            filled[key] = _fill_any(filled[key], when)

    if "to" not in relative:
        put(("time",), first)
        return out
    put(("puDay", "puMonth", "puYear") if start in SPLIT_FROM else ("from",), first)
    end = relative["to"]
    if not isinstance(end, str):
        raise GCCError("rule_relativeTime: rules.relativeTime.to must be a phrase")
    put(
        ("doDay", "doMonth", "doYear") if end in SPLIT_TO else ("to",),
        day(end, now, (start, first)),
    )
    return out
