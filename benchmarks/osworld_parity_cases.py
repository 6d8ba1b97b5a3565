"""The inputs ``osworld_parity.py`` gives both implementations: per metric, a correct end
state, near misses and edge cases, made with openpyxl, python-pptx, python-docx and
matplotlib (PDFs); and random sheet pairs for ``sheet_data``. A :class:`File` may ask to be
saved again by LibreOffice (``lo=True``; a ``.pdf`` is made from its ``.pptx`` bytes), as the
files OSWorld's tasks compare are. The case tables are one case a line (``fmt: off``).
"""

from __future__ import annotations

import datetime as dt
import io
import json
import random
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

NO_EXPECTED = object()
Edit = Callable[[Any], None]


@dataclass
class File:
    """A file to compare: its name, bytes, files beside it (a workbook's CSV exports)."""

    name: str
    data: bytes
    beside: list[File] = field(default_factory=list)
    lo: bool = False


@dataclass
class Case:
    metric: str
    name: str
    result: Any
    expected: Any = NO_EXPECTED
    options: dict[str, Any] = field(default_factory=dict)


# ---- spreadsheets -----------------------------------------------------------------------------

BASE_ROWS = [
    ["Name", "Qty", "Price", "When"],
    ["apple", 1, 2.5, dt.datetime(2024, 1, 2)],
    ["pear", 2, 3.25, dt.datetime(2024, 1, 3)],
    ["plum", 3, 4.0, dt.datetime(2024, 1, 4)],
]


def xlsx(edit: Edit | None = None, rows: list[list[Any]] | None = None) -> bytes:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    for row in BASE_ROWS if rows is None else rows:
        ws.append(row)
    if edit is not None:
        edit(wb)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def book(
    edit: Edit | None = None, rows: Any = None, lo: bool = False, name: str = "r.xlsx"
) -> File:
    return File(name, xlsx(edit, rows), lo=lo)


def put(coord: str, value: Any) -> Edit:
    def edit(wb: Any) -> None:
        wb.active[coord] = value

    return edit


def style(coord: str, **attrs: Any) -> Edit:
    def edit(wb: Any) -> None:
        for name, value in attrs.items():
            setattr(wb.active[coord], name, value)

    return edit


def text_qty() -> list[list[Any]]:
    return [BASE_ROWS[0]] + [[r[0], str(r[1]), *r[2:]] for r in BASE_ROWS[1:]]


def rules(*rs: dict[str, Any]) -> dict[str, Any]:
    return {"rules": list(rs)}


def pair(kind: str, **kw: Any) -> dict[str, Any]:
    return rules({"type": kind, "sheet_idx0": 0, "sheet_idx1": "EI0", **kw})


def cell(props: dict[str, Any], coord: str = "A2", sheet: Any = 0) -> dict[str, Any]:
    return rules({"type": "check_cell", "sheet_idx": sheet, "coordinate": coord, "props": props})


def fuzzy(*subs: dict[str, Any]) -> dict[str, Any]:
    return rules(
        {
            "type": "sheet_fuzzy",
            "sheet_idx0": "RNSheet1",
            "sheet_idx1": "ENSheet1",
            "rules": list(subs),
        }
    )


def with_csv(stem: str, text: str) -> File:
    return File(f"{stem}.xlsx", xlsx(), [File(f"{stem}-Sheet1.csv", text.encode())])


def cond(op: str, formula: list[str]) -> Edit:
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.styles import PatternFill

    fill = PatternFill(bgColor="FFFF0000", fill_type="solid")
    return lambda wb: wb.active.conditional_formatting.add(
        "C2:C4", CellIsRule(operator=op, formula=formula, fill=fill)
    )


def validation(formula: str) -> Edit:
    from openpyxl.worksheet.datavalidation import DataValidation

    def edit(wb: Any) -> None:
        v = DataValidation(type="list", formula1=formula)
        v.add("D2:D29")
        wb.active.add_data_validation(v)

    return edit


def chart(kind: str, title: str | None = None) -> Edit:
    from openpyxl import chart as charts

    def edit(wb: Any) -> None:
        ch = getattr(charts, kind)()
        ch.add_data(
            charts.Reference(wb.active, min_col=2, min_row=1, max_row=4), titles_from_data=True
        )
        ch.set_categories(charts.Reference(wb.active, min_col=1, min_row=2, max_row=4))
        if title:
            ch.title = title
        wb.active.add_chart(ch, "F2")

    return edit


def pivot(row_field: int = 1, subtotal: str = "sum") -> Edit:
    from openpyxl.pivot.cache import (
        CacheDefinition,
        CacheField,
        CacheSource,
        SharedItems,
        WorksheetSource,
    )
    from openpyxl.pivot.record import RecordList
    from openpyxl.pivot.table import (
        DataField,
        FieldItem,
        Location,
        PivotField,
        RowColField,
        TableDefinition,
    )

    def edit(wb: Any) -> None:
        source = CacheSource(
            type="worksheet", worksheetSource=WorksheetSource(ref="A1:D4", sheet="Sheet1")
        )
        cache = CacheDefinition(
            cacheSource=source,
            cacheFields=[CacheField(name=n, sharedItems=SharedItems()) for n in BASE_ROWS[0]],
        )
        cache.records = RecordList()
        fields = [PivotField(showAll=False) for _ in BASE_ROWS[0]]
        items = [FieldItem(x=0), FieldItem(x=1), FieldItem(x=2), FieldItem(t="default")]
        fields[row_field] = PivotField(axis="axisRow", showAll=False, items=items)
        fields[2] = PivotField(dataField=True, showAll=False)
        location = Location(ref="A1:B5", firstHeaderRow=1, firstDataRow=1, firstDataCol=1)
        table = TableDefinition(
            name="Pivot1",
            cacheId=1,
            dataCaption="Values",
            location=location,
            pivotFields=fields,
            rowFields=[RowColField(x=row_field)],
            dataFields=[DataField(name="Sum", fld=2, subtotal=subtotal)],
        )
        table.cache = cache
        wb.create_sheet("Sheet2")._pivots.append(table)

    return edit


def with_sparkline(data: bytes, source: str = "Sheet1!B2:C2") -> bytes:
    """The workbook with a sparkline in E2 (openpyxl cannot write one): the sheet's XML."""
    ext = ('<extLst><ext uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}" '
           'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
           '<x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
           f"<x14:sparklineGroup><x14:sparklines><x14:sparkline><xm:f>{source}</xm:f>"
           "<xm:sqref>E2</xm:sqref></x14:sparkline></x14:sparklines></x14:sparklineGroup>"
           "</x14:sparklineGroups></ext></extLst></worksheet>")  # fmt: skip
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            body = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                body = body.replace(b"</worksheet>", ext.encode())
            dst.writestr(item, body)
    return out.getvalue()


def chart_legend(position: str) -> Edit:
    def edit(wb: Any) -> None:
        chart("BarChart", "Sales")(wb)
        wb.active._charts[0].legend.position = position
        wb.active._charts[0].x_axis.title = "Fruit"

    return edit


def autofilter(values: list[str]) -> Edit:
    def edit(wb: Any) -> None:
        wb.active.auto_filter.ref = "A1:D4"
        wb.active.auto_filter.add_filter_column(0, values)

    return edit


def sheet_attr(path: str, value: Any) -> Edit:
    """Set ``wb.active.<path>`` (dotted, ``row_dimensions[3]`` style indices allowed)."""

    def edit(wb: Any) -> None:
        obj = wb.active
        *parents, last = path.split(".")
        for p in parents:
            name, _, index = p.partition("[")
            obj = getattr(obj, name)
            if index:
                key = index.rstrip("]")
                obj = obj[int(key) if key.isdigit() else key]
        setattr(obj, last, value)

    return edit


def table_cases() -> list[Case]:
    from openpyxl.styles import Font, PatternFill

    base, gold = book(), book(name="e.xlsx")
    data = pair("sheet_data")
    red = style("A2", fill=PatternFill("solid", fgColor="FFFF0000"))
    c = "compare_table"
    # fmt: off
    return [
        Case(c, "data: same", base, gold, data),
        Case(c, "data: same, saved by LibreOffice", book(lo=True), gold, data),
        Case(c, "data: a value differs", book(put("B3", 5)), base, data),
        Case(c, "data: 1 vs 1.00001 (int vs float column)", book(put("B2", 1.00001)), base, data),
        Case(c, "data: 2.5 vs 2.50001 (rounded equal)", book(put("C2", 2.50001)), base, data),
        Case(c, "data: header differs", book(put("B1", "Quantity")), base, data),
        Case(c, "data: numbers stored as text", book(rows=text_qty()), base, data),
        Case(c, "data: 'NA' text vs empty cell", book(put("A3", "NA")), book(put("A3", None)), data),
        Case(c, "data: booleans vs TRUE/FALSE text", book(rows=[["f"], [True], [False]]), book(rows=[["f"], ["TRUE"], ["FALSE"]]), data),
        Case(c, "data: styled empty cell far away", book(style("Z50", font=Font(bold=True))), base, data),
        Case(c, "data: extra row", book(lambda wb: wb.active.append(["fig", 4, 1.0, dt.datetime(2024, 1, 5)])), base, data),
        Case(c, "data: date vs text date", book(put("D2", "2024-01-02")), base, data),
        Case(c, "data: duplicate and blank headers", book(rows=[["a", "a", None, "a.1"], [1, 2, 3, 4]]), book(rows=[["a", "a", None, "a.1"], [1, 2, 3, 4]]), data),
        Case(c, "data: empty sheets", book(rows=[]), book(rows=[]), data),
        Case(c, "data: missing sheet by name", base, base, rules({"type": "sheet_data", "sheet_idx0": "RNNope", "sheet_idx1": "EI0"})),
        Case(c, "data: error value vs empty", book(put("C3", "#DIV/0!")), book(put("C3", None)), data),
        Case(c, "data: error values alike", book(put("C3", "#N/A")), book(put("C3", "#DIV/0!")), data),
        Case(c, "data: float noise (0.1+0.2 vs 0.3)", book(put("C2", 0.1 + 0.2)), book(put("C2", 0.3)), data),
        Case(c, "data: formula without a cached value", book(put("B2", "=1+0")), base, data),
        Case(c, "data: empty column in the middle", book(rows=[["a", None, "c"], [1, None, 3]]), book(rows=[["a", None, "c"], [1, None, 3]]), data),
        Case(c, "data: ints with a blank", book(put("B3", None)), book(put("B3", None)), data),
        Case(c, "data: 0.5 vs '50%' text", book(put("C2", "50%")), book(put("C2", 0.5)), data),
        Case(c, "data: trailing space in text", book(put("A2", "apple ")), base, data),
        Case(c, "data: header '1' text vs number 1", book(put("B1", "1")), book(put("B1", 1)), data),
        Case(c, "data: times", book(put("D2", dt.time(10, 30))), book(put("D2", dt.time(10, 30))), data),
        Case(c, "data: booleans with a blank", book(rows=[["f"], [True], [None], [False]]), book(rows=[["f"], [True], [None], [False]]), data),
        Case(c, "data: RI0 vs ENSheet1", base, base, rules({"type": "sheet_data", "sheet_idx0": "RI0", "sheet_idx1": "ENSheet1"})),
        Case(c, "data: sheet index out of range", base, base, rules({"type": "sheet_data", "sheet_idx0": 3, "sheet_idx1": "EI0"})),
        Case(c, "data: second sheet", book(lambda wb: wb.create_sheet("S2").append(["x", 1])), book(lambda wb: wb.create_sheet("S2").append(["x", 1])), rules({"type": "sheet_data", "sheet_idx0": 1, "sheet_idx1": "EI1"})),
        Case(c, "data: precision 2", book(put("C2", 2.501)), base, pair("sheet_data", precision=2)),
        Case(c, "not a workbook", File("r.xlsx", b"plain text"), base, data),
        Case(c, "sheet_name: same", base, base, rules({"type": "sheet_name"})),
        Case(c, "sheet_name: renamed", book(sheet_attr("title", "Data")), base, rules({"type": "sheet_name"})),
        Case(c, "cell: text eq", base, options=cell({"value": {"method": "eq", "ref": "apple"}})),
        Case(c, "cell: text ne", base, options=cell({"value": {"method": "eq", "ref": "pear"}})),
        Case(c, "cell: number approx", base, options=cell({"value": {"method": "approx:0.01", "ref": 2.501}}, "C2")),
        Case(c, "cell: number eq float", base, options=cell({"value": {"method": "eq", "ref": 2}}, "B3")),
        Case(c, "cell: regex", base, options=cell({"value": {"method": "re.I", "ref": "^APP"}})),
        Case(c, "cell: regex on a number (TypeError)", base, options=cell({"value": {"method": "re", "ref": "1"}}, "B2")),
        Case(c, "cell: boolean cell reads None", book(put("A2", True)), options=cell({"value": {"method": "eq", "ref": True}})),
        Case(c, "cell: bold and green font", book(style("A2", font=Font(bold=True, color="FF00FF00"))), options=cell({"font_bold": {"method": "eq", "ref": True}, "font_color": {"method": "eq", "ref": "FF00FF00"}})),
        Case(c, "cell: not bold", base, options=cell({"font_bold": {"method": "eq", "ref": True}})),
        Case(c, "cell: red fill", book(red), options=cell({"bgcolor": {"method": "eq", "ref": "FFFF0000"}})),
        Case(c, "cell: merged", book(lambda wb: wb.active.merge_cells("A2:B2")), options=cell({"merge": {"method": "eq", "ref": True}}, "B2")),
        Case(c, "cell: font size and name", book(style("A2", font=Font(name="Arial", size=14))), options=cell({"font_size": {"method": "eq", "ref": 14}, "font_name": {"method": "eq", "ref": "Arial"}})),
        Case(c, "cell: fill type", book(red), options=cell({"fill_type": {"method": "eq", "ref": "patternFill"}})),
        Case(c, "cell: by sheet name, in range", base, options=cell({"value": {"method": "range.te", "ref": [2, 3]}}, "B4", "RNSheet1")),
        Case(c, "cell: empty cell", base, options=cell({"value": {"method": "eq", "ref": ""}}, "H9")),
        Case(c, "cell: number format", book(style("C2", number_format="0.00%")), options=cell({"number_format": {"method": "eq", "ref": "0.00%"}}, "C2")),
        Case(c, "fuzzy: exact same", base, base, fuzzy({"range": ["A1:D4"], "type": "exact_match"})),
        Case(c, "fuzzy: exact differs", book(put("A3", "Pear")), base, fuzzy({"range": ["A1:A4"], "type": "exact_match"})),
        Case(c, "fuzzy: ignore_case", book(put("A3", "PEAR")), base, fuzzy({"range": ["A1:A4"], "type": "exact_match", "ignore_case": True})),
        Case(c, "fuzzy: includes", book(put("A3", "a pear tree")), base, fuzzy({"range": ["A3"], "type": "includes"})),
        Case(c, "fuzzy: included_by", book(put("A3", "ear")), base, fuzzy({"range": ["A3"], "type": "included_by"})),
        Case(c, "fuzzy: fuzzy normalised", book(put("A2", "12 Main Rd")), book(put("A2", "12 Main Road")), fuzzy({"range": ["A2"], "type": "fuzzy_match", "threshold": 85, "normalization": [["Rd", "Road"]]})),
        Case(c, "fuzzy: fuzzy below threshold", book(put("A2", "banana")), base, fuzzy({"range": ["A2"], "type": "fuzzy_match", "threshold": 85})),
        Case(c, "fuzzy: trims and ignored chars", book(put("A2", "+ (852) 1234-5678")), book(put("A2", "85212345678")), fuzzy({"range": ["A2"], "type": "includes", "trim_leadings": "+ ", "ignore_chars": " ()-"})),
        Case(c, "print: same CSV", with_csv("r", "Name,Qty\napple,1\n\n\n"), with_csv("gold", "Name,Qty\napple,1\n"), pair("sheet_print")),
        Case(c, "print: a line differs", with_csv("r", "Name,Qty\nApple,1\n"), with_csv("gold", "Name,Qty\napple,1\n"), pair("sheet_print")),
        Case(c, "print: ignore_case", with_csv("r", "Name,Qty\nApple,1\n"), with_csv("gold", "Name,Qty\napple,1\n"), pair("sheet_print", ignore_case=True)),
        Case(c, "print: spaces around lines", with_csv("r", "Name,Qty\n  apple,1 \n"), with_csv("gold", "Name,Qty\napple,1\n"), pair("sheet_print")),
        Case(c, "print: result CSV missing", File("r.xlsx", xlsx()), with_csv("gold", "Name,Qty\n"), pair("sheet_print")),
        Case(c, "style: same font colour", book(style("C4", font=Font(color="FF00FF00"))), book(style("C4", font=Font(color="FF00FF00"))), pair("style", props=["font_color"])),
        Case(c, "style: font colour differs", book(style("C4", font=Font(color="FF00FF00"))), book(style("C4", font=Font(color="FFFF0000"))), pair("style", props=["font_color"])),
        Case(c, "style: bgcolor same", book(red), book(red), pair("style", props=["bgcolor"])),
        Case(c, "style: conditional format vs none", book(cond("greaterThan", ["3"])), base, pair("style", props=["bgcolor"])),
        Case(c, "style: conditional formats alike", book(cond("between", ["3", "5"])), book(cond("greaterThan", ["3"])), pair("style", props=["bgcolor"])),
        Case(c, "style: conditional format on an absolute cell", book(cond("greaterThan", ["$B$2"])), base, pair("style", props=["bgcolor"])),
        Case(c, "style: conditional format on a relative cell", book(cond("greaterThan", ["B2"])), base, pair("style", props=["bgcolor"])),
        Case(c, "style: bigger sheet", book(style("J10", font=Font(bold=True))), base, pair("style", props=["font_bold"])),
        Case(c, "freeze: same", book(sheet_attr("freeze_panes", "A2")), book(sheet_attr("freeze_panes", "A2")), pair("freeze")),
        Case(c, "freeze: differs", book(sheet_attr("freeze_panes", "B2")), book(sheet_attr("freeze_panes", "A2")), pair("freeze")),
        Case(c, "zoom: 80 < 260", book(sheet_attr("sheet_view.zoomScale", 80)), options=rules({"type": "zoom", "sheet_idx": 0, "method": "lt", "ref": 260})),
        Case(c, "zoom: 300 not < 260", book(sheet_attr("sheet_view.zoomScale", 300)), options=rules({"type": "zoom", "sheet_idx": 0, "method": "lt", "ref": 260})),
        Case(c, "validation: list of three", book(validation('"Pass,Fail,Held"')), options=DV_RULE),
        Case(c, "validation: wrong list", book(validation('"Pass,Fail"')), options=DV_RULE),
        Case(c, "validation: none", base, options=DV_RULE),
        Case(c, "rows: same hidden row", book(sheet_attr("row_dimensions[3].hidden", True)), book(sheet_attr("row_dimensions[3].hidden", True)), pair("row_props", props=["hidden"])),
        Case(c, "rows: other hidden row", book(sheet_attr("row_dimensions[4].hidden", True)), book(sheet_attr("row_dimensions[3].hidden", True)), pair("row_props", props=["hidden"])),
        Case(c, "cols: widths", book(sheet_attr("column_dimensions[A].width", 30)), base, pair("col_props", props=["width"])),
        Case(c, "chart: same line chart", book(chart("LineChart", "Sales")), book(chart("LineChart", "Sales")), pair("chart", chart_props=["type", "title"])),
        Case(c, "chart: bar vs line", book(chart("BarChart")), book(chart("LineChart")), pair("chart", chart_props=["type"])),
        Case(c, "chart: title differs", book(chart("LineChart", "Sales")), book(chart("LineChart", "Cost")), pair("chart", chart_props=["type", "title"])),
        Case(c, "chart: none", base, book(chart("LineChart")), pair("chart", chart_props=["type"])),
        Case(c, "pivot: same", book(pivot()), book(pivot()), rules({**PIVOT, "pivot_props": ["col_fields", "filter", "row_fields", "data_fields"]})),
        Case(c, "pivot: other row field", book(pivot(row_field=0)), book(pivot()), rules({**PIVOT, "pivot_props": ["col_fields", "filter", "row_fields", "data_fields"]})),
        Case(c, "pivot: average vs sum", book(pivot(subtotal="average")), book(pivot()), rules({**PIVOT, "pivot_props": ["data_fields"]})),
        Case(c, "pivot: none", book(lambda wb: wb.create_sheet("Sheet2")), book(pivot()), rules({**PIVOT, "pivot_props": ["row_fields"]})),
        Case(c, "chart: every property alike", book(chart_legend("r")), book(chart_legend("r")), pair("chart", chart_props=ALL_CHART_PROPS)),
        Case(c, "chart: legend moved", book(chart_legend("b")), book(chart_legend("r")), pair("chart", chart_props=ALL_CHART_PROPS)),
        Case(c, "chart: anchor of a one-cell anchored chart", book(chart_legend("r")), book(chart_legend("r")), pair("chart", chart_props=["anchor"])),
        Case(c, "sparkline: same", File("r.xlsx", with_sparkline(xlsx())), File("e.xlsx", with_sparkline(xlsx())), pair("sparkline")),
        Case(c, "sparkline: other source", File("r.xlsx", with_sparkline(xlsx(), "Sheet1!B3:C3")), File("e.xlsx", with_sparkline(xlsx())), pair("sparkline")),
        Case(c, "sparkline: none", base, File("e.xlsx", with_sparkline(xlsx())), pair("sparkline")),
        Case(c, "filter: same", book(autofilter(["apple"])), book(autofilter(["apple"])), pair("filter")),
        Case(c, "filter: differs", book(autofilter(["pear"])), book(autofilter(["apple"])), pair("filter")),
        Case("compare_csv", "same", File("r.csv", b"a,b\n1,2\n"), File("e.csv", b"a,b\n1,2\n")),
        Case("compare_csv", "a value differs", File("r.csv", b"a,b\n1,3\n"), File("e.csv", b"a,b\n1,2\n")),
        Case("compare_csv", "CRLF vs LF", File("r.csv", b"a,b\r\n1,2\r\n"), File("e.csv", b"a,b\n1,2\n")),
        Case("compare_csv", "trailing spaces, strict", File("r.csv", b"a,b \n1,2\n"), File("e.csv", b"a,b\n1,2\n")),
        Case("compare_csv", "trailing spaces, not strict", File("r.csv", b"a,b \n1,2\n"), File("e.csv", b"a,b\n1,2\n"), {"strict": False}),
        Case("compare_csv", "ignore_case", File("r.csv", b"A,B\n1,2\n"), File("e.csv", b"a,b\n1,2\n"), {"ignore_case": True}),
        Case("compare_csv", "Latin-1 file", File("r.csv", "é,b\n".encode("latin-1")), File("e.csv", "é,b\n".encode())),
        Case("compare_csv", "trailing newline missing", File("r.csv", b"a,b\n1,2"), File("e.csv", b"a,b\n1,2\n")),
    ]
    # fmt: on


DV_RULE = rules({"type": "data_validation", "sheet_idx": 0, "dv_props": [{
    "ranges": {"method": "spreadsheet_range", "ref": ["D2:D29", "D1:D1048576"]},
    "type": {"method": "eq", "ref": "list"},
    "formula1": {"method": "str_set_eq", "ref": ["Pass", "Fail", "Held"]}}]})  # fmt: skip
ALL_CHART_PROPS = [
    "title",
    "legend",
    "anchor",
    "width",
    "height",
    "type",
    "direction",
    "xtitle",
    "ytitle",
    "ztitle",
]
PIVOT = {"type": "pivot_table", "sheet_idx0": "RNSheet2", "sheet_idx1": "ENSheet2"}

#: What a random sheet's cells hold: the kinds pandas' type inference tells apart.
POOL: list[Any] = [
    None, 0, 1, 2, -3, 7, 1.5, 2.25, 1e-5, 1.00001, 0.1 + 0.2, 0.3, "a", "b", "1", "2.5", " 3 ",
    "NA", "N/A", "null", "", "TRUE", "False", "yes", True, False, "#N/A", "#DIV/0!",
    dt.datetime(2024, 5, 6), dt.datetime(2024, 5, 6, 12, 30), dt.time(8, 15), "2024-05-06",
    "inf", "1e3", "0x10",
]  # fmt: skip


def random_sheet_cases(n: int, seed: int = 0) -> list[Case]:
    """``n`` random pairs of sheets for ``sheet_data``: a sheet against itself, against a
    copy with one cell changed, or against another random sheet of the same shape."""
    rng = random.Random(seed)
    cases = []
    for i in range(n):
        width, height = rng.randint(1, 4), rng.randint(1, 5)
        kinds = [rng.sample(POOL, 3) for _ in range(width)]  # a few kinds per column
        rows = [[rng.choice(POOL) for _ in range(width)]]
        rows += [[rng.choice(kinds[j]) for j in range(width)] for _ in range(height)]
        other = [list(r) for r in rows]
        how = rng.choice(["same", "one cell", "one cell", "other"])
        if how == "one cell":
            other[rng.randrange(len(other))][rng.randrange(width)] = rng.choice(POOL)
        elif how == "other":
            other = [[rng.choice(kinds[j]) for j in range(width)] for _ in rows]
        result, expected = File("r.xlsx", xlsx(rows=rows)), File("e.xlsx", xlsx(rows=other))
        cases.append(
            Case("compare_table", f"random {i}: {how}", result, expected, pair("sheet_data"))
        )
    return cases


# ---- slides -----------------------------------------------------------------------------------


def pptx(edit: Edit | None = None) -> bytes:
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.util import Inches, Pt

    prs = Presentation()
    s1 = prs.slides.add_slide(prs.slide_layouts[0])
    s1.shapes.title.text = "Quarterly report"
    s1.placeholders[1].text = "Second quarter"
    s2 = prs.slides.add_slide(prs.slide_layouts[1])
    s2.shapes.title.text = "Numbers"
    body = s2.placeholders[1].text_frame
    body.text = "Revenue grew"
    p = body.add_paragraph()
    p.text, p.level = "Costs fell", 1
    box = s2.shapes.add_textbox(Inches(1), Inches(5), Inches(4), Inches(1))
    run = box.text_frame.paragraphs[0].add_run()
    run.text, run.font.bold, run.font.size = "Bold claim", True, Pt(20)
    s2.shapes.add_shape(MSO_SHAPE.RECTANGLE, Inches(6), Inches(5), Inches(2), Inches(1))
    table = s2.shapes.add_table(2, 2, Inches(1), Inches(6.2), Inches(4), Inches(1)).table
    for i, text in enumerate(["Q1", "Q2", "10", "12"]):
        table.cell(i // 2, i % 2).text = text
    s2.notes_slide.notes_text_frame.text = "Say it slowly"
    if edit is not None:
        edit(prs)
    buf = io.BytesIO()
    prs.save(buf)
    return buf.getvalue()


def deck(edit: Edit | None = None, lo: bool = False, name: str = "r.pptx") -> File:
    return File(name, pptx(edit), lo=lo)


def box(prs: Any) -> Any:
    return prs.slides[1].shapes[2]


def font(attr: str, value: Any) -> Edit:
    return lambda prs: setattr(box(prs).text_frame.paragraphs[0].runs[0].font, attr, value)


def slide_edit(path: str, value: Any) -> Edit:
    """Set an attribute of the second slide: ``box.left``, ``notes``, ``body1.level``..."""

    def edit(prs: Any) -> None:
        s = prs.slides[1]
        targets = {"box": box(prs), "notes": s.notes_slide.notes_text_frame,
                   "body1": s.placeholders[1].text_frame.paragraphs[1],
                   "para": box(prs).text_frame.paragraphs[0], "rect": s.shapes[3],
                   "run": box(prs).text_frame.paragraphs[0].runs[0]}  # fmt: skip
        name, attr = path.split(".")
        setattr(
            targets[name], attr, value(getattr(targets[name], attr)) if callable(value) else value
        )

    return edit


def background(prs: Any) -> None:
    from pptx.dml.color import RGBColor

    fill = prs.slides[0].background.fill
    fill.solid()
    fill.fore_color.rgb = RGBColor(0x20, 0x40, 0x60)


def bullet(prs: Any) -> None:
    from lxml import etree

    ppr = prs.slides[1].placeholders[1].text_frame.paragraphs[0]._p.get_or_add_pPr()
    etree.SubElement(ppr, "{http://schemas.openxmlformats.org/drawingml/2006/main}buChar", char="-")


def table_colour(prs: Any) -> None:
    from pptx.dml.color import RGBColor

    run = prs.slides[1].shapes[4].table.cell(0, 0).text_frame.paragraphs[0].runs[0]
    run.font.color.rgb = RGBColor(255, 0, 0)


def group(prs: Any) -> None:
    from pptx.util import Inches

    g = prs.slides[1].shapes.add_group_shape()
    g.shapes.add_textbox(Inches(0), Inches(0), Inches(1), Inches(1)).text_frame.text = "grouped"


def slide_cases() -> list[Case]:
    from pptx.dml.color import RGBColor
    from pptx.enum.text import PP_ALIGN
    from pptx.util import Emu, Pt

    same = deck(name="e.pptx")
    c = "compare_pptx_files"
    # fmt: off
    return [
        Case(c, "same", deck(), same),
        Case(c, "same, saved by LibreOffice", deck(lo=True), deck(lo=True, name="e.pptx")),
        Case(c, "saved by LibreOffice vs as made", deck(lo=True), same),
        Case(c, "saved by LibreOffice vs as made, shapes and fonts off", deck(lo=True), same, {"examine_shape": False, "examine_font_name": False, "examine_font_size": False, "examine_bullets": False}),
        Case(c, "text changed, both saved by LibreOffice", deck(slide_edit("run.text", "Bold claims"), lo=True), deck(lo=True, name="e.pptx")),
        Case(c, "text changed", deck(slide_edit("run.text", "Bold claims")), same),
        Case(c, "moved 0.1 %", deck(slide_edit("box.left", lambda x: Emu(x + 900))), same),
        Case(c, "moved 10 %", deck(slide_edit("box.left", lambda x: Emu(x + 90000))), same),
        Case(c, "moved 10 %, examine_shape off", deck(slide_edit("box.left", lambda x: Emu(x + 90000))), same, {"examine_shape": False}),
        Case(c, "bold None vs False", deck(font("bold", False)), deck(font("bold", None))),
        Case(c, "bold True vs None", deck(), deck(font("bold", None))),
        Case(c, "font size", deck(font("size", Pt(24))), same),
        Case(c, "font size, examine_font_size off", deck(font("size", Pt(24))), same, {"examine_font_size": False}),
        Case(c, "italic", deck(font("italic", True)), same),
        Case(c, "underline", deck(font("underline", True)), same),
        Case(c, "colour", deck(lambda prs: setattr(box(prs).text_frame.paragraphs[0].runs[0].font.color, "rgb", RGBColor(1, 2, 3))), same),
        Case(c, "font name", deck(font("name", "Arial")), same),
        Case(c, "strike-through", deck(lambda prs: box(prs).text_frame.paragraphs[0].runs[0].font._rPr.set("strike", "sngStrike")), same),
        Case(c, "notes differ", deck(slide_edit("notes.text", "Fast")), same),
        Case(c, "notes differ, examine_note off", deck(slide_edit("notes.text", "Fast")), same, {"examine_note": False}),
        Case(c, "one slide more", deck(lambda prs: prs.slides.add_slide(prs.slide_layouts[6])), same),
        Case(c, "alignment centre", deck(slide_edit("para.alignment", PP_ALIGN.CENTER)), same),
        Case(c, "alignment left vs none", deck(slide_edit("para.alignment", PP_ALIGN.LEFT)), same),
        Case(c, "level differs", deck(slide_edit("body1.level", 2)), same),
        Case(c, "level differs, examine_indent off", deck(slide_edit("body1.level", 2)), same, {"examine_indent": False}),
        Case(c, "background colour", deck(background), same),
        Case(c, "bullet character", deck(bullet), same),
        Case(c, "table cell colour", deck(table_colour), same),
        Case(c, "table cell text", deck(lambda prs: setattr(prs.slides[1].shapes[4].table.cell(1, 1), "text", "13")), same),
        Case(c, "a group more", deck(group), same),
        Case(c, "run count", deck(lambda prs: box(prs).text_frame.paragraphs[0].add_run()), same),
        Case(c, "task comments and unknown-to-1.0.2 options", deck(), same, {"_note": "x", "examine_run_count": False, "examine_shape_lenient_height": True}),
        Case(c, "height changed, modify_height", deck(slide_edit("rect.height", Emu(2000000))), same, {"examine_shape": False, "examine_modify_height": True}),
    ]
    # fmt: on


# ---- Writer documents, PDFs ---------------------------------------------------------------

TEXT = [
    "The quick brown fox",
    "jumps over the lazy dog.",
    "",
    "Pack my box with five dozen liquor jugs.",
]
SIX = [*TEXT[:3], "Pack my box with six dozen liquor jugs."]


def docx(paragraphs: list[str], tables: list[list[list[str]]] | None = None) -> bytes:
    import docx as python_docx

    d = python_docx.Document()
    for p in paragraphs:
        d.add_paragraph(p)
    for rows in tables or []:
        t = d.add_table(rows=len(rows), cols=len(rows[0]))
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                t.cell(i, j).text = text
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def odt(paragraphs: list[str]) -> bytes:
    """A minimal ODT: each paragraph's words after the first in a span, then a ``text:s``."""
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')  # fmt: skip
    body = "".join(
        f"<text:p>{p.split(' ', 1)[0]}<text:span> {p.split(' ', 1)[1] if ' ' in p else ''}"
        "</text:span><text:s/></text:p>"
        for p in paragraphs
    )
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns} office:version="1.2">'
               f"<office:body><office:text>{body}</office:text></office:body></office:document-content>")  # fmt: skip
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')  # fmt: skip
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
        z.writestr("META-INF/manifest.xml", manifest)
    return buf.getvalue()


def pdf(pages: list[list[str]]) -> bytes:
    """A PDF of pages of text lines, drawn with matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure

    buf = io.BytesIO()
    with PdfPages(buf) as out:
        for page in pages:
            fig = Figure(figsize=(8.27, 11.69))
            for i, line in enumerate(page):
                fig.text(0.1, 0.9 - i * 0.05, line, fontsize=12)
            out.savefig(fig)
    return buf.getvalue()


def deck_of(pages: list[list[str]]) -> bytes:
    """A presentation with a slide of text lines per page (LibreOffice makes it a PDF)."""
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    for lines in pages:
        slide = prs.slides.add_slide(prs.slide_layouts[6])
        frame = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(8), Inches(5)).text_frame
        frame.text = lines[0]
        for line in lines[1:]:
            frame.add_paragraph().text = line
    buf = io.BytesIO()
    prs.save(buf)
    return buf.getvalue()


def doc(paras: list[str], name: str = "r.docx", tables: Any = None, lo: bool = False) -> File:
    return File(name, docx(paras, tables), lo=lo)


def spaced(spacing: Any, text: list[str] = TEXT) -> File:
    """A Word file whose second paragraph has ``spacing`` (a multiple, or a length)."""
    import docx as python_docx

    d = python_docx.Document()
    for i, line in enumerate(text):
        p = d.add_paragraph(line)
        if i == 1 and spacing is not None:
            p.paragraph_format.line_spacing = spacing
    buf = io.BytesIO()
    d.save(buf)
    return File("r.docx", buf.getvalue())


def with_images(*images: tuple[str, tuple[int, int, int]]) -> File:
    """A Word file with a 8x8 picture per (format, colour)."""
    import docx as python_docx
    from PIL import Image

    d = python_docx.Document()
    d.add_paragraph("Pictures")
    for fmt, colour in images:
        buf = io.BytesIO()
        Image.new("RGB", (8, 8), colour).save(buf, fmt)
        buf.seek(0)
        d.add_picture(buf)
    out = io.BytesIO()
    d.save(out)
    return File("r.docx", out.getvalue())


def doc_cases() -> list[Case]:
    from docx.shared import Pt

    c, t, p = "compare_docx_files", "compare_docx_tables", "compare_pdfs"
    gold, grid = doc(TEXT, "e.docx"), [["a", "b"], ["1", "2"]]
    two = [TEXT, ["Page two", "ends here"]]
    # fmt: off
    return [
        Case(c, "same", doc(TEXT), gold),
        Case(c, "same, saved by LibreOffice", doc(TEXT, lo=True), gold),
        Case(c, "a word differs", doc(SIX), gold),
        Case(c, "whitespace differs", doc([TEXT[0] + "  ", *TEXT[1:]]), gold),
        Case(c, "whitespace differs, ignore_blanks off", doc([TEXT[0] + "  ", *TEXT[1:]]), gold, {"ignore_blanks": False}),
        Case(c, "case differs, ignore_case", doc([x.upper() for x in TEXT]), gold, {"ignore_case": True}),
        Case(c, "order differs, ignore_order", doc(TEXT[::-1]), gold, {"ignore_order": True, "ignore_blanks": False}),
        Case(c, "order differs", doc(TEXT[::-1]), gold),
        Case(c, "content_only, near", doc(SIX), gold, {"content_only": True}),
        Case(c, "fuzzy per paragraph", doc(SIX), gold, {"ignore_blanks": False, "fuzzy_match": True}),
        Case(c, "empty lines dropped", doc([x for x in TEXT if x]), gold, {"ignore_blanks": False, "delete_empty_lines": True}),
        Case(c, "odt same", File("r.odt", odt(TEXT)), File("e.odt", odt(TEXT))),
        Case(c, "odt differs", File("r.odt", odt(TEXT[:2])), File("e.odt", odt(TEXT)), {"ignore_blanks": False}),
        Case(c, "docx vs odt", File("r.odt", odt(TEXT)), gold),
        Case("compare_line_spacing", "same, default spacing", spaced(None), spaced(None)),
        Case("compare_line_spacing", "both double", spaced(2.0), spaced(2.0)),
        Case("compare_line_spacing", "1.5 vs default", spaced(1.5), spaced(None)),
        Case("compare_line_spacing", "18 pt vs 1.5", spaced(Pt(18)), spaced(1.5)),
        Case("compare_line_spacing", "same spacing, text differs", spaced(2.0, SIX), spaced(2.0)),
        Case("compare_docx_images", "same picture", with_images(("PNG", (255, 0, 0))), with_images(("PNG", (255, 0, 0)))),
        Case("compare_docx_images", "same pixels, PNG vs BMP", with_images(("BMP", (255, 0, 0))), with_images(("PNG", (255, 0, 0)))),
        Case("compare_docx_images", "other colour", with_images(("PNG", (0, 0, 255))), with_images(("PNG", (255, 0, 0)))),
        Case("compare_docx_images", "a picture more", with_images(("PNG", (255, 0, 0)), ("PNG", (0, 255, 0))), with_images(("PNG", (255, 0, 0)))),
        Case("compare_docx_images", "no pictures", with_images(), with_images()),
        Case(t, "same tables", doc(TEXT, tables=[grid]), doc(TEXT, "e.docx", [grid])),
        Case(t, "a cell differs", doc(TEXT, tables=[[["a", "b"], ["1", "3"]]]), doc(TEXT, "e.docx", [grid])),
        Case(t, "spaces around a cell", doc(TEXT, tables=[[["a ", " b"], ["1", "2"]]]), doc(TEXT, "e.docx", [grid])),
        Case(t, "a table more", doc(TEXT, tables=[grid, grid]), doc(TEXT, "e.docx", [grid])),
        Case(t, "a column more", doc(TEXT, tables=[[["a", "b", "c"], ["1", "2", "3"]]]), doc(TEXT, "e.docx", [grid])),
        Case(t, "no tables", doc(TEXT), doc(TEXT, "e.docx")),
        Case(p, "same", File("r.pdf", pdf(two)), File("e.pdf", pdf(two))),
        Case(p, "a word differs", File("r.pdf", pdf([SIX, two[1]])), File("e.pdf", pdf(two))),
        Case(p, "a page missing", File("r.pdf", pdf(two[:1])), File("e.pdf", pdf(two))),
        Case(p, "other text", File("r.pdf", pdf([["Lorem ipsum dolor sit amet"]])), File("e.pdf", pdf(two))),
        Case(p, "same, from LibreOffice", File("r.pdf", deck_of(two), lo=True), File("e.pdf", deck_of(two), lo=True)),
        Case(p, "a word differs, from LibreOffice", File("r.pdf", deck_of([SIX, two[1]]), lo=True), File("e.pdf", deck_of(two), lo=True)),
        Case(p, "a page missing, from LibreOffice", File("r.pdf", deck_of(two[:1]), lo=True), File("e.pdf", deck_of(two), lo=True)),
        Case(p, "not a PDF", File("r.pdf", b"nothing"), File("e.pdf", pdf(two))),
    ]
    # fmt: on


# ---- text, JSON, values -------------------------------------------------------------------------


def txt(text: str, name: str = "r.txt") -> File:
    return File(name, text.encode())


SETTINGS = File(
    "r.json", json.dumps({"editor": {"fontSize": 14, "theme": "dark"}, "files": ["a.py"]}).encode()
)


def expect(key: list[Any], method: str, ref: Any) -> dict[str, Any]:
    return {"expect": [{"key": key, "method": method, "ref": ref}]}


def unexpect(key: list[Any], method: str, ref: Any) -> dict[str, Any]:
    return {"unexpect": [{"key": key, "method": method, "ref": ref}]}


def text_cases() -> list[Case]:
    t, d, cj, dj, lm, il = ("compare_text_file", "diff_text_file", "check_json",
                            "check_direct_json_object", "literal_match", "is_in_list")  # fmt: skip
    # fmt: off
    return [
        Case(t, "same", txt("a\nb\n"), txt("a\nb\n", "e.txt")),
        Case(t, "differs", txt("a\nc\n"), txt("a\nb\n", "e.txt")),
        Case(t, "CRLF vs LF", txt("a\r\nb\r\n"), txt("a\nb\n", "e.txt")),
        Case(t, "blanks, ignore_blanks", txt("a  b\t\nc \n"), txt("a b c", "e.txt"), {"ignore_blanks": True}),
        Case(t, "case, ignore_case", txt("A B"), txt("a b", "e.txt"), {"ignore_case": True}),
        Case(t, "empty result", txt(""), txt("a", "e.txt")),
        Case(d, "same", txt("a\nb\nc\n"), txt("a\nb\nc\n", "e.txt")),
        Case(d, "one line of three differs", txt("a\nx\nc\n"), txt("a\nb\nc\n", "e.txt")),
        Case(d, "empty vs lines", txt(""), txt("a\nb\n", "e.txt")),
        Case(d, "CRLF", txt("a\r\nb\r\n"), txt("a\nb\n", "e.txt")),
        Case(d, "reordered", txt("c\nb\na\n"), txt("a\nb\nc\n", "e.txt")),
        Case(cj, "value equal", SETTINGS, expect(["editor", "fontSize"], "eq", 14)),
        Case(cj, "value differs", SETTINGS, expect(["editor", "fontSize"], "eq", 16)),
        Case(cj, "key missing", SETTINGS, expect(["editor", "tabSize"], "eq", 4)),
        Case(cj, "unexpect passes on a missing key", SETTINGS, unexpect(["editor", "wordWrap"], "eq", "on")),
        Case(cj, "unexpect fails", SETTINGS, unexpect(["editor", "theme"], "eq", "dark")),
        Case(cj, "regex on a value", SETTINGS, expect(["editor", "theme"], "re", "^da")),
        Case(cj, "not JSON", txt("{oops"), expect(["a"], "eq", 1)),
        Case(cj, "YAML", File("r.yaml", b"a:\n  b: 3\n"), expect(["a", "b"], "eq", 3), {"is_yaml": True}),
        Case(cj, "list index out of range", SETTINGS, expect(["files", 5], "eq", "x")),
        Case(dj, "dict equal", {"a": 1, "b": "x"}, {"expected": {"a": 1}}),
        Case(dj, "dict differs", {"a": 2}, {"expected": {"a": 1}}),
        Case(dj, "text with single quotes", "{'a': 'x', 'b': 2}", {"expected": {"a": "x"}}),
        Case(dj, "key missing", {"b": 1}, {"expected": {"a": 1}}),
        Case(dj, "in result: list", {"city": "Paris"}, {"expected": {"city": ["Paris", "Lyon"]}, "expect_in_result": True}),
        Case(dj, "in result: substring", {"name": "New York City"}, {"expected": {"name": "York"}, "expect_in_result": True}),
        Case(dj, "in result: missing key", {"x": 1}, {"expected": {"name": "York"}, "expect_in_result": True}),
        Case(dj, "ignore_list_order key", {"a": [2, 1]}, {"expected": {"a": [1, 2], "ignore_list_order": True}}),
        Case(dj, "evaluation failed marker", {"a": 1}, {"expected": {"a": "__EVALUATION_FAILED__"}}),
        Case(dj, "no result", None, {"expected": {"a": 1}}),
        Case(lm, "equal", "abc", "abc"),
        Case(lm, "case differs", "ABC", "abc"),
        Case(lm, "case differs, ignore_case", "ABC", "abc", {"ignore_case": True}),
        Case(lm, "lists", [1, "a"], ["1", "a"], {"type": "list"}),
        Case(lm, "list vs str", "1", ["1"], {"type": "list"}),
        Case(lm, "None vs 'None'", None, "None"),
        Case(il, "in list", ["a", "b"], {"expected": "a"}),
        Case(il, "not in list", ["a", "b"], {"expected": "c"}),
        Case(il, "substring", "/home/user/ext/abc", {"expected": "abc"}),
        Case(il, "empty list", [], {"expected": "a"}),
        Case(il, "prefix only", ["abc"], {"expected": "ab"}),
    ]
    # fmt: on


def all_cases(random_sheets: int = 0, seed: int = 0) -> list[Case]:
    from osworld_parity_cases_more import more_cases  # the last metrics' cases

    return (
        table_cases()
        + random_sheet_cases(random_sheets, seed)
        + slide_cases()
        + doc_cases()
        + text_cases()
        + more_cases()
    )
