"""A sheet as pandas reads it, with openpyxl: what ``compare_table``'s ``sheet_data`` compares.

OSWorld reads both sheets with ``pandas.read_excel(book, sheet)`` (openpyxl, read-only,
cached values; the first row the header) and compares ``df.round(4).equals(...)``. This
module reproduces that reading and that comparison without pandas: the grid from A1 to the
last cell that holds a value; blank header cells named ``Unnamed: i`` and repeats ``x.1``;
each column typed as pandas types it (integers, floats, booleans, dates, durations or
objects), where text that reads as a number is one, the texts pandas takes for missing
(``NA``, ``null``, ``""``...) are missing, ``True``/``false`` texts are booleans, an int
column with a blank is a float one; and equal only when labels, row count, column types and
values (floats rounded) agree. ``benchmarks/osworld_parity.py`` checks it on random sheets.

>>> Frame(["n"], 2, [_column([1, 2])]).equals(Frame(["n"], 2, [_column(["1", "2"])]))
True
>>> _column([1, ""])[0], _column(["a", "NA"])[1]
('float', ['a', nan])
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import defaultdict
from typing import Any

import numpy as np

#: Strings pandas reads as missing (``pandas._libs.parsers.STR_NA_VALUES``, pandas 2.2).
NA_STRINGS = frozenset({
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
})  # fmt: skip
_TRUE, _FALSE = {"True", "TRUE", "true"}, {"False", "FALSE", "false"}
_INT_TEXT = re.compile(r"[ \t\n\v\f\r]*[+-]?\d+[ \t\n\v\f\r]*\Z")
_FLOAT_TEXT = re.compile(
    r"[ \t\n\v\f\r]*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)[ \t\n\v\f\r]*\Z",
    re.IGNORECASE,
)
_INT64 = (-(2**63), 2**63 - 1)


def _cell(value: Any, data_type: str) -> Any:
    """pandas' openpyxl cell conversion: empty is ``""``, an error NaN, an integral float int."""
    if value is None:
        return ""
    if data_type == "e":
        return math.nan
    if data_type == "n" and not isinstance(value, bool):
        return int(value) if float(value).is_integer() else float(value)
    return value


def _labels(header: list[Any]) -> list[Any]:
    """pandas' column names: blanks become ``Unnamed: i``, repeats get ``.1``, ``.2``..."""
    cols = [f"Unnamed: {i}" if c == "" else c for i, c in enumerate(header)]
    unnamed = [i for i, c in enumerate(header) if c == ""]
    counts: defaultdict[Any, int] = defaultdict(int)
    for i in [i for i in range(len(cols)) if i not in unnamed] + unnamed:
        col = old = cols[i]
        cur = counts[col]
        while cur > 0:
            counts[old] = cur + 1
            col = f"{old}.{cur}"
            cur = cur + 1 if col in cols else counts[col]
        cols[i] = col
        counts[col] = cur + 1
    return cols


def _is_na(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _numeric(values: list[Any]) -> tuple[str, list[Any]] | None:
    """pandas' numeric reading of a column, or None where a value is not a number."""
    out: list[Any] = []
    seen_float = seen_int = seen_bool = seen_null = False
    for v in values:
        if isinstance(v, str) and v in NA_STRINGS or _is_na(v):
            out.append(math.nan)
            seen_null = True
        elif isinstance(v, bool):
            out.append(v)
            seen_bool = True
        elif isinstance(v, int):
            out.append(v)
            seen_int = True
            seen_float |= not _INT64[0] <= v <= _INT64[1]
        elif isinstance(v, float):
            out.append(v)
            seen_float = True
        elif isinstance(v, str) and _INT_TEXT.match(v):
            n = int(v)
            if not _INT64[0] <= n <= _INT64[1]:
                return None
            out.append(n)
            seen_int = True
        elif isinstance(v, str) and _FLOAT_TEXT.match(v):
            x = float(v)
            if math.isinf(x) and "inf" not in v.lower():
                return None
            out.append(x)
            seen_float = True
        else:
            return None
    if not out:
        return None
    if seen_float or seen_null:
        return "float", [float(v) for v in out]
    if seen_int:
        return "int", [int(v) for v in out]
    return ("bool", out) if seen_bool else None


def _column(values: list[Any]) -> tuple[str, list[Any]]:
    """A column's pandas type (int, float, bool, datetime, timedelta, object) and values."""
    numeric = _numeric(values)
    if numeric is not None:
        return numeric
    vals = [math.nan if isinstance(v, str) and v in NA_STRINGS else v for v in values]
    if vals and all(isinstance(v, bool) or v in _TRUE or v in _FALSE or _is_na(v) for v in vals):
        vals = [v if isinstance(v, bool) or _is_na(v) else v in _TRUE for v in vals]
        return ("object" if any(map(_is_na, vals)) else "bool"), vals
    present = [v for v in vals if not _is_na(v)]
    for kind, cls in (("datetime", dt.datetime), ("timedelta", dt.timedelta)):
        if present and all(type(v) is cls for v in present):
            return kind, [None if _is_na(v) else v for v in vals]
    return "object", vals


class Frame:
    """A sheet as ``pandas.read_excel(book, sheet)`` reads it: column labels and typed columns."""

    def __init__(self, labels: list[Any], rows: int, columns: list[tuple[str, list[Any]]]):
        self.labels, self.rows, self.columns = labels, rows, columns

    def equals(self, other: Frame, precision: int = 4) -> bool:
        """``DataFrame.round(precision).equals``: labels, row count, column types, values."""
        if self.rows != other.rows or len(self.labels) != len(other.labels):
            return False
        if not all(_same(a, b) for a, b in zip(self.labels, other.labels)):
            return False
        for (kind, a), (kind2, b) in zip(self.columns, other.columns):
            if kind != kind2:
                return False
            if kind == "float":
                a, b = (np.round(np.array(x, dtype=float), precision) for x in (a, b))
                if not bool(np.all((a == b) | (np.isnan(a) & np.isnan(b)))):
                    return False
            elif not all(_same(x, y) for x, y in zip(a, b)):
                return False
        return True


def _same(a: Any, b: Any) -> bool:
    if _is_na(a) or _is_na(b):
        return _is_na(a) and _is_na(b)
    return bool(a == b)


def read_frame(ws: Any) -> Frame:
    """A read-only, cached-values worksheet as pandas reads it (header row 0, no index)."""
    ws.reset_dimensions()
    data = []
    for row in ws.rows:
        values = [_cell(c.value, c.data_type) for c in row]
        while values and values[-1] == "":
            values.pop()
        data.append(values)
    while data and not data[-1]:
        data.pop()
    if not data:
        return Frame([], 0, [])
    width = max(len(r) for r in data)
    data = [r + [""] * (width - len(r)) for r in data]
    body = data[1:]
    columns = [_column([r[j] for r in body]) if body else ("object", []) for j in range(width)]
    return Frame(_labels(data[0]), len(body), columns)
