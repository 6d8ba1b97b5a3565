"""What ``compare_table``'s rules read of a sheet, as OSWorld's ``metrics/utils.py`` reads it.

Each ``load_*(book, sheet, ...)`` gives a plain value (dicts, lists) that two sheets compare
with ``==``; ``book`` is a :class:`gcc_envs.osworld.metrics_table.Book` (``.worksheet(name)``
gives openpyxl's sheet, ``.cells`` the stored values). A sheet that is not there reads as
``{}``. Cell styles, charts, pivot tables, row and column dimensions, auto-filters,
sparklines, data validations; stored cell values come from the sheet's XML
(:class:`RawCells`), as OSWorld reads them.

Conditional formatting (``style`` rule): a ``cellIs`` rule with constant operands styles the
cells its operator selects, with the rule's differential style; one whose operand refers to
cells is skipped, as OSWorld's formula evaluation cannot run it. Formula rules
(``expression``, ``containsText``, ...) raise :class:`NotImplementedError`: OSWorld evaluates
them with the ``formulas`` package, which this package does not have. Other rule types
(colour scales, data bars, top-10, ...) reuse the previous rule's condition of the sheet, or
select no cell when there is none, as OSWorld's loop does.
"""

from __future__ import annotations

import io
import itertools
import operator
import re
import zipfile
from collections.abc import Callable
from typing import Any

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
X14 = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"
XM = "http://schemas.microsoft.com/office/excel/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_NS = {"oo": MAIN, "x14": X14, "xm": XM}


class RawCells:
    """Cell values as stored in the file's XML: numbers as float, strings, error codes;
    ``None`` for booleans, empty cells and sheets or files that cannot be read."""

    def __init__(self, data: bytes, by_relationship: bool = False) -> None:
        self.data = data
        self.by_relationship = by_relationship
        self._shared: list[str] | None = None
        self._sheets: dict[str, dict[str, Any] | None] = {}

    def _zip(self) -> zipfile.ZipFile:
        return zipfile.ZipFile(io.BytesIO(self.data))

    def shared(self) -> list[str]:
        from lxml import etree

        if self._shared is None:
            try:
                with self._zip() as z:
                    root = etree.fromstring(z.read("xl/sharedStrings.xml"))
                self._shared = [
                    "".join(t.text for t in si.iter(f"{{{MAIN}}}t"))  # type: ignore[misc]
                    for si in root.iterfind("oo:si", _NS)
                ]
            except Exception:  # noqa: BLE001 - OSWorld reads an unreadable table as empty
                self._shared = []
        return self._shared

    def sheet(self, name: str) -> dict[str, Any] | None:
        """The sheet's ``<c>`` elements by coordinate (the first of each)."""
        from lxml import etree

        if name not in self._sheets:
            try:
                with self._zip() as z:
                    root = etree.fromstring(z.read(self._sheet_path(z, name)))
                cells: dict[str, Any] = {}
                for c in root.iterfind("oo:sheetData/oo:row/oo:c", _NS):
                    cells.setdefault(c.get("r"), c)
                self._sheets[name] = cells
            except Exception:  # noqa: BLE001 - OSWorld reads any unreadable sheet as no cells
                self._sheets[name] = None
        return self._sheets[name]

    def _sheet_path(self, z: zipfile.ZipFile, name: str) -> str:
        """OSWorld's ``xl/worksheets/sheet<sheetId>.xml``, or (``by_relationship``) the part
        the workbook's relationship names."""
        from lxml import etree

        book = etree.fromstring(z.read("xl/workbook.xml"))
        sheet = {s.get("name"): s for s in book.iterfind("oo:sheets/oo:sheet", _NS)}[name]
        if not self.by_relationship:
            return f"xl/worksheets/sheet{sheet.get('sheetId')}.xml"
        rels = etree.fromstring(z.read("xl/_rels/workbook.xml.rels"))
        target = {r.get("Id"): r.get("Target") for r in rels}[sheet.get(f"{{{_R}}}id")]
        return target.lstrip("/") if target.startswith("/") else f"xl/{target}"

    def value(self, sheet: str, coordinate: str) -> Any:
        cells = self.sheet(sheet)
        c = cells.get(coordinate) if cells is not None else None
        if c is None:
            return None
        kind = c.get("t")
        v = c.find("oo:v", _NS)
        text = v.text if v is not None else None
        if kind in (None, "n"):
            try:
                return float(text) if text is not None else None
            except ValueError:
                return None
        if kind == "s":
            return self.shared()[int(text)] if text is not None else None
        if kind in ("str", "e"):
            return text
        if kind == "inlineStr":
            t = c.find("oo:is/oo:t", _NS)
            return t.text if t is not None else None
        return None


# ---- cell styles -----------------------------------------------------------------------------


def read_cell_style(name: str, cell: Any, diff: Any = None) -> Any:
    """One style property of a cell (or of a conditional format's differential style)."""
    from openpyxl.cell.cell import MergedCell

    has_value = cell.value is not None
    if name == "number_format":
        if not (has_value and cell.data_type == "n"):
            return None
        return cell.number_format if diff is None else diff.numFmt.formatCode
    fonts = {"font_name": "name", "font_family": "family", "font_bold": "bold",
             "font_italic": "italic", "font_underline": "underline", "font_size": "size"}  # fmt: skip
    if name in fonts or name == "font_color":
        if not has_value:
            return None
        font = (diff or cell).font
        return font.color.rgb if name == "font_color" else getattr(font, fonts[name])
    if name == "fill_type":
        try:
            return (diff or cell).fill.tagname
        except AttributeError:
            return None
    if name in ("bgcolor", "fgcolor"):
        try:
            return diff.fill.bgColor.rgb if diff is not None else cell.fill.fgColor.rgb
        except AttributeError:
            return None
    if name == "hyperlink":
        return (cell.hyperlink or "") if has_value else None
    if name == "merge":
        return isinstance(cell, MergedCell)
    raise NotImplementedError(f"compare_table: cell style {name!r} is not supported")


_CF_FORMULA_TYPES = {"expression", "containsText", "notContainsText", "endsWith", "beginsWith",
                     "containsErrors", "notContainsErrors"}  # fmt: skip
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")
_REFERENCE = re.compile(r"\$?[A-Za-z]{1,3}\$?\d+")
_ABSOLUTE = re.compile(r"\$([A-Z]{1,3})\$(\d+)(:\$[A-Z]{1,3}\$\d+)?")


class _Skip(Exception):
    """A conditional format's operand OSWorld cannot evaluate: the rule is skipped."""


def _constant(formula: str, book: Any, sheet: str) -> Any:
    """A ``cellIs`` operand's value: a number, text or truth value; an absolute cell's stored
    value where ``book.quirks`` is off (OSWorld fails on one: :func:`load_styles`)."""
    f = formula.strip()
    lone = [m for m in _ABSOLUTE.finditer(formula) if not m.group(3)]
    if lone and book.quirks:
        raise ValueError(
            f"compare_table: OSWorld's style rule fails on the absolute cell {lone[0].group(0)} "
            f"of the conditional format {formula!r} (quirks=False reads it)"
        )
    if lone and lone[0].group(0) == f:
        return book.cells.value(sheet, lone[0].group(1) + lone[0].group(2))
    if _NUMBER.match(f):
        number = float(f)
        return int(number) if number.is_integer() and re.fullmatch(r"\d+", f) else number
    if len(f) >= 2 and f[0] == f[-1] == '"':
        return f[1:-1].replace('""', '"')
    if f.upper() in ("TRUE", "FALSE"):
        return f.upper() == "TRUE"
    if _REFERENCE.search(re.sub(r'"[^"]*"', "", f)):
        raise _Skip(formula)
    raise NotImplementedError(
        f"compare_table: conditional format operand {formula!r} is not supported"
    )


def _cell_is(op: str, refs: list[Any]) -> Callable[[Any], bool]:
    simple = {"lessThanOrEqual": operator.le, "lessThan": operator.lt, "equal": operator.eq,
              "greaterThanOrEqual": operator.ge, "notEqual": operator.ne,
              "greaterThan": operator.gt}  # fmt: skip

    def active(v: Any) -> bool:
        try:
            if op in simple:
                return bool(simple[op](v, refs[0]))
            if op in ("between", "notBetween"):
                low, high = min(refs), max(refs)
                inside = low <= v <= high
                return bool(inside if op == "between" else not inside)
        except (TypeError, IndexError, ValueError):
            return False
        return False

    return active


def load_styles(book: Any, sheet: str, props: list[str]) -> dict[str, list[Any]]:
    """Every cell's ``props`` by coordinate, conditional formats applied (module doc)."""
    from openpyxl.utils import get_column_letter

    ws = book.worksheet(sheet)
    if ws is None:
        return {}
    styles = {
        c.coordinate: [read_cell_style(p, c) for p in props] for col in ws.iter_cols() for c in col
    }
    active: Callable[[Any], bool] | None = None
    for fmt in ws.conditional_formatting:
        for rule in fmt.rules:
            if rule.type in _CF_FORMULA_TYPES:
                raise NotImplementedError(
                    f"compare_table: conditional format {rule.type!r} (formula {list(rule.formula)}) is not supported"
                )
            if rule.type == "cellIs":
                try:
                    active = _cell_is(
                        rule.operator, [_constant(f, book, sheet) for f in rule.formula]
                    )
                except _Skip:
                    continue
            hits, blanks = [], 0
            for rng in fmt.cells:
                for row, col in rng.cells:
                    value = book.cells.value(sheet, f"{get_column_letter(col)}{row}")
                    if value is None:
                        blanks += 1
                        if blanks > 50:
                            break
                        continue
                    if active is not None and active(value):
                        hits.append(ws.cell(row=row, column=col))
            for c in hits:
                styles[c.coordinate] = [read_cell_style(p, c, rule.dxf) for p in props]
    return styles


# ---- charts, pivot tables, dimensions, filters, sparklines, validations -------------------


def _title(holder: Any) -> Any:
    try:
        return holder.title.tx.rich.p[0].r[0].t
    except (AttributeError, IndexError, TypeError):
        return None


def _ref(data: Any) -> Any:
    for kind in ("numRef", "strRef"):
        holder = getattr(data, kind, None)
        if holder is not None and hasattr(holder, "f"):
            return holder.f
    return ""


def load_charts(book: Any, sheet: str, props: list[str]) -> dict[str, dict[str, Any]]:
    """The sheet's charts by their series' references (``values,categories;...``), each with
    the ``props`` asked: title, legend, anchor, width, height, type, direction, x/y/ztitle."""
    ws = book.worksheet(sheet)
    if ws is None:
        return {}
    charts: dict[str, dict[str, Any]] = {}
    for ch in ws._charts:
        key = ";".join(f"{_ref(s.val)},{_ref(s.cat)}" for s in ch.series)
        info: dict[str, Any] = {}
        if "title" in props:
            info["title"] = _title(ch)
        if "legend" in props:
            info["legend"] = ch.legend.position if ch.legend is not None else None
        if "anchor" in props:  # OSWorld reads the end row twice, the start row never
            a = ch.anchor
            info["anchor"] = [a.editAs, a._from.col, a.to.row, a.to.col, a.to.row]
        for p in ("width", "height"):
            if p in props:
                info[p] = getattr(ch, p)
        if "type" in props:
            info["type"] = ch.tagname
        if "direction" in props:
            info["direction"] = ch.barDir
        for p, axis in (("xtitle", "x_axis"), ("ytitle", "y_axis"), ("ztitle", "z_axis")):
            if p in props:
                info[p] = _title(getattr(ch, axis, None))
        charts[key] = info
    return charts


def load_pivots(book: Any, sheet: str, props: list[str]) -> dict[str, dict[str, Any]]:
    """The sheet's pivot tables by source (type, range trimmed to the fields with items,
    sheet), each with the ``props`` asked: name, show_*, location, selection/filter
    (``ordered``), col_fields, row_fields, data_fields (``data_fields_name``)."""
    from openpyxl.utils import coordinate_to_tuple

    ws = book.worksheet(sheet)
    if ws is None:
        return {}
    pivots: dict[str, dict[str, Any]] = {}
    for pvt in ws._pivots:
        raw = [[(i.h, i.x) for i in f.items if i.x is not None] for f in pvt.pivotFields]
        trimmed = list(itertools.dropwhile(lambda r: not r, raw))
        left = len(raw) - len(trimmed)
        selection = list(itertools.dropwhile(lambda r: not r, reversed(trimmed)))[::-1]
        right = len(trimmed) - len(selection)
        src = pvt.cache.cacheSource
        first, last = (coordinate_to_tuple(c) for c in src.worksheetSource.ref.split(":"))
        start, end = (first[0], first[1] + left), (last[0], last[1] - right)
        info: dict[str, Any] = {}
        if "name" in props:
            info["name"] = pvt.name
        for p, attr in (("show_total", "visualTotals"), ("show_empty_row", "showEmptyRow"),
                        ("show_empty_col", "showEmptyCol"), ("show_headers", "showHeaders"),
                        ("location", "location")):  # fmt: skip
            if p in props:
                info[p] = getattr(pvt, attr)
        if "filter" in props or "selection" in props:
            info["selection"] = selection if "ordered" in props else [set(r) for r in selection]
        if "filter" in props:
            info["filter_fields"] = {f.fld for f in pvt.pageFields}
        if "col_fields" in props:
            info["col_fields"] = [f.x - left for f in pvt.colFields]
        if "row_fields" in props:
            info["row_fields"] = [f.x - left for f in pvt.rowFields]
        if "data_fields" in props:
            named = "data_fields_name" in props
            info["data_fields"] = [
                f"{f.fld - left:d};{f.name if named else ''};{f.subtotal};{f.showDataAs}"
                for f in pvt.dataFields
            ]
        pivots[f"{src.type};{start}:{end};{src.worksheetSource.sheet}"] = info
    return pivots


def load_dimensions(book: Any, sheet: str, obj: str, props: list[str]) -> dict[Any, dict[str, Any]]:
    """The sheet's row (``obj="row"``) or column dimensions that the file sets, with ``props``
    (rows: hidden, collapsed, height; columns: width, auto_size, hidden, min, max...)."""
    ws = book.worksheet(sheet)
    if ws is None:
        return {}
    dims = getattr(ws, f"{obj}_dimensions")
    return {k: {p: getattr(d, p) for p in set(props)} for k, d in dims.items()}


def load_filters(book: Any, sheet: str) -> dict[str, Any]:
    """The sheet's auto-filter: range, filter columns, sort state."""
    ws = book.worksheet(sheet)
    if ws is None:
        return {}
    af = ws.auto_filter
    columns = []
    for fc in af.filterColumn:
        col: dict[str, Any] = {"col_id": fc.colId, "hidden_button": fc.hiddenButton,
                               "show_button": fc.showButton}  # fmt: skip
        if fc.filters is not None:
            col["filters_blank"] = fc.filters.blank
            col["filters"] = set(fc.filters.filter)
        if fc.customFilters is not None:
            col["custom_filters_op"] = fc.customFilters._and
            col["custom_filters"] = {(f.operator, f.val) for f in fc.customFilters.customFilter}
        columns.append(col)
    out: dict[str, Any] = {
        "ref": af.ref,
        "filter_column": sorted(columns, key=lambda d: d["col_id"]),
    }
    ss = af.sortState
    if ss is not None:
        out["sort_state"] = {
            "sort": ss.columnSort, "case": ss.caseSensitive, "method": ss.sortMethod,
            "ref": ss.ref,
            "condition": [{"descending": c.descending, "key": c.sortBy, "ref": c.ref,
                           "custom_list": c.customList, "dxf_id": c.dxfId, "icon": c.iconSet,
                           "iconid": c.iconId} for c in ss.sortCondition],
        }  # fmt: skip
    return out


def load_sparklines(book: Any, sheet: str) -> dict[str, str]:
    """The sheet's sparklines: target cells (``xm:sqref``) to data range (``xm:f``)."""
    from lxml import etree

    try:
        with zipfile.ZipFile(io.BytesIO(book.data)) as z:
            wb = etree.fromstring(z.read("xl/workbook.xml"))
            ids = {s.get("name"): s.get("sheetId") for s in wb.iterfind("oo:sheets/oo:sheet", _NS)}
            root = etree.fromstring(z.read(f"xl/worksheets/sheet{ids[sheet]}.xml"))
    except zipfile.BadZipFile:
        return {}
    out = {}
    for sp in root.iter(f"{{{X14}}}sparkline"):
        out[sp.find("xm:sqref", _NS).text] = sp.find("xm:f", _NS).text
    return out


def validations_match(ws: Any, dv_props: list[dict[str, Any]]) -> bool:
    """There are at least as many validations as ``dv_props`` and each validation passes all
    the attribute rules of one of them (attributes: ranges, type, formula1, operator...)."""
    from gcc_envs.osworld.metrics_text import match_value_to_rule

    validations = ws.data_validations.dataValidation
    if len(validations) < len(dv_props):
        return False
    return all(
        any(
            all(match_value_to_rule(getattr(dv, a), rule) for a, rule in p.items())
            for p in dv_props
        )
        for dv in validations
    )
