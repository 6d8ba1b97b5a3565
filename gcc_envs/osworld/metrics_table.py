"""OSWorld's spreadsheet metrics: ``compare_table`` (a list of rules over two workbooks) and
``compare_csv``.

``compare_table(result, expected, rules=[...])`` runs the rules in order and scores 1 only when
every rule holds (OSWorld stops at the first that fails). A rule names sheets by
``sheet_idx0``/``sheet_idx1`` (or ``sheet_idx``): an int is the result's n-th sheet,
``"RI<n>"``/``"RN<name>"`` the result's by index or name, ``"EI<n>"``/``"EN<name>"`` the
expected workbook's. Rule types, as OSWorld's ``table.py`` defines them:

* ``sheet_name``: both workbooks have the same worksheet names in the same order.
* ``sheet_data``: the sheets read as pandas' ``read_excel`` reads them (cached values, the
  first row as the header) are equal after rounding floats to ``precision`` (4) digits;
  like pandas, a column's type counts (1 and 1.00001 differ: an int column is not a float
  one). :func:`read_frame` reproduces that reading with openpyxl.
* ``sheet_print``: the sheets' CSV exports (``<book>-<sheet>.csv``, made by LibreOffice in the
  task's postconfig; passed as further files of a list ``result``/``expected``, found by
  name) have the same lines, stripped, trailing blank lines dropped (``ignore_case``).
* ``sheet_fuzzy``: per cell of each sub-rule's ``range``s, the cells' stored values as text,
  after ``normalization``/``trim_leadings``/``trim_trailings``/``ignore_chars``/``ignore_case``,
  pass ``exact_match``, ``includes``, ``included_by`` or ``fuzzy_match`` (``threshold``, 85).
* ``check_cell``: one cell's ``value`` and style properties pass value rules
  (:func:`~gcc_envs.osworld.metrics_text.match_value_to_rule`).
* ``style``, ``chart``, ``pivot_table``, ``row_props``, ``col_props``, ``filter``,
  ``sparkline``: the two sheets' properties (see :mod:`gcc_envs.osworld.metrics_table_parts`)
  are equal; ``freeze``: equal frozen panes; ``zoom``: the zoom passes a value rule;
  ``data_validation``: every validation of the sheet matches one of ``dv_props``.

Other rule types raise :class:`NotImplementedError` naming the type (the evaluator scores
that slot 0 with a note). A result that is not a workbook scores 0.

OSWorld quirks kept: a missing first sheet scores 0 while a missing second raises; booleans'
stored values read as ``None``; a chart's ``anchor`` holds its end row twice. Two are faults,
kept by default and corrected by ``quirks=False``:

* a cell's stored value is read from ``xl/worksheets/sheet<sheetId>.xml``, the sheet's id
  taken for its file name (a workbook whose sheets were deleted or moved reads the wrong
  file); corrected: the file the workbook's relationship names;
* a conditional format whose formula holds an absolute cell (``$B$2``, not in a range) makes
  the ``style`` rule fail (OSWorld reads it as a range with no end: ``ValueError``), whatever
  the files; corrected: a ``cellIs`` operand that is one absolute cell compares with that
  cell's stored value.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from gcc_envs.osworld import metrics_table_parts as parts
from gcc_envs.osworld.filedata import FileData, file_bytes
from gcc_envs.osworld.metrics_table_frame import Frame, read_frame
from gcc_envs.osworld.metrics_text import match_value_to_rule, read_lines_any_encoding

Rule = Mapping[str, Any]


class Book:
    """One workbook as the rules read it: its bytes, its openpyxl views, its companions."""

    def __init__(self, value: Any, quirks: bool = True) -> None:
        files = list(value) if isinstance(value, (list, tuple)) else [value]
        self.file = files[0]
        self.data = file_bytes(self.file)
        if self.data is None:
            raise ValueError("no workbook")
        self.name = self.file.name if isinstance(self.file, FileData) else "workbook.xlsx"
        self.companions = {f.name: f for f in files[1:] if isinstance(f, FileData)}
        self._xl: Any = None
        self._values: Any = None
        self.quirks = quirks
        self.cells = parts.RawCells(self.data, by_relationship=not quirks)
        self.sheet_names = [ws.title for ws in self.values.worksheets]

    @property
    def xl(self) -> Any:
        """The workbook as ``openpyxl.load_workbook`` opens it (formulas, styles, charts)."""
        if self._xl is None:
            import openpyxl

            self._xl = openpyxl.load_workbook(io.BytesIO(self.data))
        return self._xl

    @property
    def values(self) -> Any:
        """The workbook as pandas opens it: read-only, cached values."""
        if self._values is None:
            import openpyxl

            self._values = openpyxl.load_workbook(
                io.BytesIO(self.data), read_only=True, data_only=True, keep_links=False
            )
        return self._values

    def worksheet(self, name: str) -> Any:
        try:
            return self.xl[name]
        except KeyError:
            return None

    def csv_lines(self, sheet: str) -> list[str] | None:
        """The sheet's CSV export's lines, stripped, trailing blanks dropped (reversed, as
        OSWorld leaves them: both sides alike)."""
        stem = self.name.rsplit(".", 1)[0] if "." in self.name else self.name
        lines = read_lines_any_encoding(self.companions.get(f"{stem}-{sheet}.csv"))
        if lines is None:
            return None
        out = [ln.strip() for ln in reversed(lines)]
        while out and not out[0]:
            out.pop(0)
        return out


# ---- compare_table ---------------------------------------------------------------------------


def _parse_idx(idx: int | str, result: Book, expected: Book | None) -> tuple[Book | None, str]:
    """OSWorld's sheet index: the book it names and the sheet's name (``""`` when none)."""

    def nth(book: Book | None, n: int) -> str:
        try:
            return book.sheet_names[n] if book is not None else ""
        except IndexError:
            return ""

    if isinstance(idx, int):
        return result, nth(result, idx) if idx < len(result.sheet_names) else ""
    for prefix, book in (("RI", result), ("EI", expected)):
        if idx.startswith(prefix):
            try:
                return book, nth(book, int(idx[2:]))
            except ValueError:
                return book, ""
    for prefix, book in (("RN", result), ("EN", expected)):
        if idx.startswith(prefix):
            return book, idx[2:]
    raise ValueError(f"compare_table: sheet index {idx!r} is not an int, RI/RN/EI/EN<...>")


def _frame(book: Book | None, name: str) -> Frame | None:
    if book is None or name not in book.sheet_names:
        return None
    return read_frame(book.values[name])


def _fuzzy(r: Rule, result: Book, expected: Book | None) -> bool:
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.cell_range import MultiCellRange
    from rapidfuzz import fuzz

    (b1, s1), (b2, s2) = (_parse_idx(r[k], result, expected) for k in ("sheet_idx0", "sheet_idx1"))
    ok = True
    for sub in r["rules"]:
        kind = sub["type"]
        if kind not in {"includes", "included_by", "fuzzy_match", "exact_match"}:
            raise NotImplementedError(f"compare_table: sheet_fuzzy type {kind!r} is not supported")
        for rng in MultiCellRange(sub["range"]):
            for row, col in rng.cells:
                coord = f"{get_column_letter(col)}{row}"
                v1 = str(b1.cells.value(s1, coord) if b1 else None)
                v2 = str(b2.cells.value(s2, coord) if b2 else None)
                for old, new in sub.get("normalization", []):
                    v1, v2 = v1.replace(old, new), v2.replace(old, new)
                if "trim_leadings" in sub:
                    v1, v2 = v1.lstrip(sub["trim_leadings"]), v2.lstrip(sub["trim_leadings"])
                if "trim_trailings" in sub:
                    v1, v2 = v1.rstrip(sub["trim_trailings"]), v2.rstrip(sub["trim_trailings"])
                if "ignore_chars" in sub:
                    drop = set(sub["ignore_chars"])
                    v1 = "".join(c for c in v1 if c not in drop)
                    v2 = "".join(c for c in v2 if c not in drop)
                if sub.get("ignore_case", False):
                    v1, v2 = v1.lower(), v2.lower()
                if kind == "includes":
                    ok = ok and v2 in v1
                elif kind == "included_by":
                    ok = ok and v1 in v2
                elif kind == "fuzzy_match":
                    ok = ok and fuzz.ratio(v1, v2) >= sub.get("threshold", 85.0)
                else:
                    ok = ok and v1 == v2
    return ok


def _check_cell(r: Rule, result: Book, expected: Book | None) -> bool | None:
    book, name = _parse_idx(r["sheet_idx"], result, expected)
    ws = book.worksheet(name) if book is not None else None
    if ws is None:
        return None
    cell = ws[r["coordinate"]]
    ok = True
    for prop, rule in r["props"].items():
        if prop == "value":
            try:
                value = book.cells.value(name, r["coordinate"])
            except (IndexError, ValueError, TypeError):  # OSWorld reads such a value as None
                value = None
        else:
            try:
                value = parts.read_cell_style(prop, cell)
            except (AttributeError, TypeError, IndexError, KeyError):
                value = None
        try:
            ok = ok and match_value_to_rule(value, rule)
        except (TypeError, ValueError, AttributeError):  # OSWorld scores the rule 0
            return None
    return ok


def _pair(r: Rule, result: Book, expected: Book | None, load: Any, **kw: Any) -> bool:
    """Whether the two sheets' ``load(book, sheet, ...)`` readings are equal."""
    (b1, s1), (b2, s2) = (_parse_idx(r[k], result, expected) for k in ("sheet_idx0", "sheet_idx1"))
    return load(b1, s1, **kw) == load(b2, s2, **kw)


def _rule(r: Rule, result: Book, expected: Book | None) -> bool | None:
    """One rule's verdict; None where OSWorld scores the whole table 0 at once."""
    kind = r["type"]
    if kind == "sheet_name":
        return result.sheet_names == (expected.sheet_names if expected else None)
    if kind == "sheet_data":
        f1 = _frame(*_parse_idx(r["sheet_idx0"], result, expected))
        if f1 is None:
            return None
        f2 = _frame(*_parse_idx(r["sheet_idx1"], result, expected))
        if f2 is None:
            raise LookupError(f"compare_table: sheet {r['sheet_idx1']!r} not found")
        return f1.equals(f2, r.get("precision", 4))
    if kind == "sheet_print":
        (b1, s1), (b2, s2) = (
            _parse_idx(r[k], result, expected) for k in ("sheet_idx0", "sheet_idx1")
        )
        lines1 = b1.csv_lines(s1) if b1 else None
        if lines1 is None:
            return None
        lines2 = b2.csv_lines(s2) if b2 else None
        if lines2 is None:
            return False
        if r.get("ignore_case", False):
            lines1, lines2 = [ln.lower() for ln in lines1], [ln.lower() for ln in lines2]
        return lines1 == lines2
    if kind == "sheet_fuzzy":
        return _fuzzy(r, result, expected)
    if kind == "check_cell":
        return _check_cell(r, result, expected)
    if kind in {"freeze", "zoom", "data_validation"}:
        book, name = _parse_idx(
            r["sheet_idx0" if kind == "freeze" else "sheet_idx"], result, expected
        )
        ws = book.worksheet(name) if book else None
        if ws is None:
            return None
        if kind == "freeze":
            b2, s2 = _parse_idx(r["sheet_idx1"], result, expected)
            return ws.freeze_panes == b2.worksheet(s2).freeze_panes
        if kind == "zoom":
            return match_value_to_rule(ws.sheet_view.zoomScale or 100.0, r)
        return parts.validations_match(ws, r["dv_props"])
    loaders = {
        "style": (parts.load_styles, {"props": r.get("props", [])}),
        "chart": (parts.load_charts, {"props": r.get("chart_props", [])}),
        "pivot_table": (parts.load_pivots, {"props": r.get("pivot_props", [])}),
        "row_props": (parts.load_dimensions, {"obj": "row", "props": r.get("props", [])}),
        "col_props": (parts.load_dimensions, {"obj": "column", "props": r.get("props", [])}),
        "filter": (parts.load_filters, {}),
        "sparkline": (parts.load_sparklines, {}),
    }
    if kind in loaders:
        load, kw = loaders[kind]
        return _pair(r, result, expected, load, **kw)
    raise NotImplementedError(f"compare_table: rule type {kind!r} is not supported")


def compare_table(
    result: Any, expected: Any = None, rules: Sequence[Rule] | None = None, quirks: bool = True
) -> float:
    """1 when every rule holds between the result workbook and the expected one (module doc);
    ``quirks=False`` corrects the OSWorld faults the module doc lists."""
    import openpyxl  # noqa: F401 - a missing library is an error, not a score of 0

    if rules is None:
        raise TypeError("compare_table needs rules=[...]")
    if result is None:
        return 0.0
    try:
        book = Book(result, quirks)
    except Exception:  # noqa: BLE001 - OSWorld scores a result it cannot open 0
        return 0.0
    gold = Book(expected, quirks) if expected is not None else None
    for r in rules:
        if not _rule(r, book, gold):
            return 0.0
    return 1.0


def compare_csv(
    result: Any, expected: Any, strict: bool = True, ignore_case: bool = False
) -> float:
    """The CSV file's lines equal one expected file's (a list of files: any of them);
    ``strict=False`` strips each line, ``ignore_case`` lowers them."""
    lines = read_lines_any_encoding(result)
    if lines is None:
        return 0.0

    def norm(ls: list[str]) -> list[str]:
        ls = ls if strict else [ln.strip() for ln in ls]
        return [ln.lower() for ln in ls] if ignore_case else ls

    for candidate in expected if isinstance(expected, (list, tuple)) else [expected]:
        wanted = read_lines_any_encoding(candidate)
        if wanted is not None and norm(lines) == norm(wanted):
            return 1.0
    return 0.0


TABLE_METRICS = {"compare_table": compare_table, "compare_csv": compare_csv}
