"""OSWorld's spreadsheet metrics on workbooks made here with openpyxl: ``compare_table``'s
rules and ``compare_csv``; a correct end state scores 1, a near miss 0.

``benchmarks/osworld_parity.py`` checks the same metrics against OSWorld's own functions.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("openpyxl")

from gcc_envs.osworld.filedata import FileData  # noqa: E402
from gcc_envs.osworld.metrics import METRICS  # noqa: E402

ROWS = [
    ["Name", "Qty", "Price", "When"],
    ["apple", 1, 2.5, dt.datetime(2024, 1, 2)],
    ["pear", 2, 3.25, dt.datetime(2024, 1, 3)],
]
DATA = [{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}]


def xlsx(
    edit: Callable[[Any], None] | None = None, rows: list[list[Any]] = ROWS, name: str = "r.xlsx"
) -> FileData:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    for row in rows:
        ws.append(row)
    if edit is not None:
        edit(wb)
    buf = io.BytesIO()
    wb.save(buf)
    return FileData(buf.getvalue(), name)


def cell(coord: str, value: Any) -> Callable[[Any], None]:
    return lambda wb: wb.active.__setitem__(coord, value)


def table(result: Any, expected: Any, *rules: dict[str, Any], **kw: Any) -> float:
    return METRICS["compare_table"](result, expected, rules=list(rules), **kw)


# ---- compare_table ---------------------------------------------------------------------------


def test_sheet_data_equal_workbooks_score_one_and_a_changed_value_zero() -> None:
    assert table(xlsx(), xlsx(name="e.xlsx"), *DATA) == 1.0
    assert table(xlsx(cell("B3", 5)), xlsx(), *DATA) == 0.0


def test_sheet_data_reads_like_pandas() -> None:
    as_text = xlsx(rows=[["n"], ["1"], ["2"]])
    assert table(as_text, xlsx(rows=[["n"], [1], [2]]), *DATA) == 1.0  # numeric text is numbers
    assert table(xlsx(cell("A2", "NA")), xlsx(cell("A2", None)), *DATA) == 1.0  # both missing
    assert table(xlsx(cell("C2", 2.50001)), xlsx(), *DATA) == 1.0  # rounded to 4 digits
    assert (
        table(xlsx(cell("B2", 1.00001)), xlsx(), *DATA) == 0.0
    )  # a float column is not an int one
    assert table(xlsx(cell("B1", "1")), xlsx(cell("B1", 1)), *DATA) == 0.0  # header '1' is not 1


def test_sheet_data_a_missing_result_or_first_sheet_scores_zero() -> None:
    assert table(None, xlsx(), *DATA) == 0.0
    assert table(FileData(b"not a zip", "r.xlsx"), xlsx(), *DATA) == 0.0
    assert table(xlsx(), xlsx(), {**DATA[0], "sheet_idx0": "RNNope"}) == 0.0


def test_sheet_name_compares_the_names_in_order() -> None:
    assert table(xlsx(), xlsx(), {"type": "sheet_name"}) == 1.0
    renamed = xlsx(lambda wb: setattr(wb.active, "title", "Data"))
    assert table(renamed, xlsx(), {"type": "sheet_name"}) == 0.0


def test_check_cell_reads_stored_values_and_styles() -> None:
    from openpyxl.styles import Font

    bold = xlsx(lambda wb: setattr(wb.active["A2"], "font", Font(bold=True)))
    rule = {"type": "check_cell", "sheet_idx": 0, "coordinate": "A2",
            "props": {"value": {"method": "eq", "ref": "apple"}, "font_bold": {"method": "eq", "ref": True}}}  # fmt: skip
    assert table(bold, None, rule) == 1.0
    assert table(xlsx(), None, rule) == 0.0
    price = {"type": "check_cell", "sheet_idx": "RNSheet1", "coordinate": "C3",
             "props": {"value": {"method": "approx:0.01", "ref": 3.255}}}  # fmt: skip
    assert table(xlsx(), None, price) == 1.0
    assert table(xlsx(cell("C3", 3.3)), None, price) == 0.0


def test_sheet_fuzzy_normalises_before_matching() -> None:
    rule = {"type": "sheet_fuzzy", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1", "rules": [
        {"range": ["A2"], "type": "fuzzy_match", "threshold": 85, "normalization": [["Rd", "Road"]]},
        {"range": ["B2"], "type": "includes", "trim_leadings": "+ ", "ignore_chars": " ()-"}]}  # fmt: skip
    made = xlsx(lambda wb: (cell("A2", "12 Main Rd")(wb), cell("B2", "+ (852) 1234-5678")(wb)))
    gold = xlsx(lambda wb: (cell("A2", "12 Main Road")(wb), cell("B2", "85212345678")(wb)))
    assert table(made, gold, rule) == 1.0
    assert table(xlsx(cell("A2", "7 Side St")), gold, rule) == 0.0


def test_sheet_print_compares_the_csv_exports_found_by_name() -> None:
    def with_csv(stem: str, text: str) -> list[FileData]:
        return [xlsx(name=f"{stem}.xlsx"), FileData(text.encode(), f"{stem}-Sheet1.csv")]

    rule = {"type": "sheet_print", "sheet_idx0": 0, "sheet_idx1": "EI0"}
    gold = with_csv("gold", "Name,Qty\npear,2\n")
    assert table(with_csv("r", "Name,Qty\npear,2\n\n\n"), gold, rule) == 1.0
    assert table(with_csv("r", "Name,Qty\nPear,2\n"), gold, rule) == 0.0
    assert table(with_csv("r", "Name,Qty\nPear,2\n"), gold, {**rule, "ignore_case": True}) == 1.0
    assert table(xlsx(), gold, rule) == 0.0  # no export beside the result


def test_style_compares_cell_styles_with_conditional_formats() -> None:
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.styles import PatternFill

    def red(wb: Any) -> None:
        wb.active["C3"].fill = PatternFill("solid", fgColor="FFFF0000")

    def cf(formula: str) -> Callable[[Any], None]:
        fill = PatternFill(bgColor="FFFF0000", fill_type="solid")
        return lambda wb: wb.active.conditional_formatting.add(
            "C2:C3", CellIsRule(operator="greaterThan", formula=[formula], fill=fill)
        )

    rule = {"type": "style", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["bgcolor"]}
    assert table(xlsx(red), xlsx(red), rule) == 1.0
    assert table(xlsx(), xlsx(red), rule) == 0.0
    assert table(xlsx(cf("3")), xlsx(cf("3")), rule) == 1.0
    assert table(xlsx(cf("3")), xlsx(), rule) == 0.0  # 3.25 > 3 is painted


def test_style_keeps_osworlds_failure_on_an_absolute_cell_unless_quirks_are_off() -> None:
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.styles import PatternFill

    def cf(wb: Any) -> None:
        fill = PatternFill(bgColor="FFFF0000", fill_type="solid")
        wb.active.conditional_formatting.add(
            "C2:C3", CellIsRule(operator="greaterThan", formula=["$B$3"], fill=fill)
        )

    rule = {"type": "style", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["bgcolor"]}
    with pytest.raises(ValueError, match=r"\$B\$3"):
        table(xlsx(cf), xlsx(cf), rule)
    assert table(xlsx(cf), xlsx(cf), rule, quirks=False) == 1.0
    assert table(xlsx(cf), xlsx(), rule, quirks=False) == 0.0  # 2.5 and 3.25 > B3 (2)


def test_sheet_properties_rules() -> None:
    from openpyxl.worksheet.datavalidation import DataValidation

    def freeze(cell_: str) -> Callable[[Any], None]:
        return lambda wb: setattr(wb.active, "freeze_panes", cell_)

    def hide(wb: Any) -> None:
        wb.active.row_dimensions[3].hidden = True

    def validation(formula: str) -> Callable[[Any], None]:
        def edit(wb: Any) -> None:
            v = DataValidation(type="list", formula1=formula)
            v.add("D2:D29")
            wb.active.add_data_validation(v)

        return edit

    pair = lambda kind, **kw: {"type": kind, "sheet_idx0": 0, "sheet_idx1": "EI0", **kw}  # noqa: E731
    assert table(xlsx(freeze("A2")), xlsx(freeze("A2")), pair("freeze")) == 1.0
    assert table(xlsx(freeze("B2")), xlsx(freeze("A2")), pair("freeze")) == 0.0
    zoom = {"type": "zoom", "sheet_idx": 0, "method": "lt", "ref": 260}
    assert table(xlsx(lambda wb: setattr(wb.active.sheet_view, "zoomScale", 80)), None, zoom) == 1.0
    assert (
        table(xlsx(lambda wb: setattr(wb.active.sheet_view, "zoomScale", 300)), None, zoom) == 0.0
    )
    assert table(xlsx(hide), xlsx(hide), pair("row_props", props=["hidden"])) == 1.0
    assert table(xlsx(), xlsx(hide), pair("row_props", props=["hidden"])) == 0.0
    dv = {"type": "data_validation", "sheet_idx": 0, "dv_props": [{
        "ranges": {"method": "spreadsheet_range", "ref": ["D2:D29", "D1:D1048576"]},
        "type": {"method": "eq", "ref": "list"},
        "formula1": {"method": "str_set_eq", "ref": ["Pass", "Fail", "Held"]}}]}  # fmt: skip
    assert table(xlsx(validation('"Pass,Fail,Held"')), None, dv) == 1.0
    assert table(xlsx(validation('"Pass,Fail"')), None, dv) == 0.0


def test_chart_and_pivot_rules_compare_what_they_are_asked() -> None:
    from openpyxl.chart import BarChart, LineChart, Reference
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

    def chart(kind: Any) -> Callable[[Any], None]:
        def edit(wb: Any) -> None:
            ch = kind()
            ch.add_data(
                Reference(wb.active, min_col=2, min_row=1, max_row=3), titles_from_data=True
            )
            wb.active.add_chart(ch, "F2")

        return edit

    def pivot(subtotal: str) -> Callable[[Any], None]:
        def edit(wb: Any) -> None:
            src = CacheSource(
                type="worksheet", worksheetSource=WorksheetSource(ref="A1:D3", sheet="Sheet1")
            )
            cache = CacheDefinition(
                cacheSource=src,
                cacheFields=[CacheField(name=n, sharedItems=SharedItems()) for n in ROWS[0]],
            )
            cache.records = RecordList()
            fields = [PivotField(showAll=False) for _ in ROWS[0]]
            fields[0] = PivotField(
                axis="axisRow",
                showAll=False,
                items=[FieldItem(x=0), FieldItem(x=1), FieldItem(t="default")],
            )
            fields[2] = PivotField(dataField=True, showAll=False)
            pt = TableDefinition(
                name="P",
                cacheId=1,
                dataCaption="Values",
                location=Location(ref="A1:B4", firstHeaderRow=1, firstDataRow=1, firstDataCol=1),
                pivotFields=fields,
                rowFields=[RowColField(x=0)],
                dataFields=[DataField(name="Sum", fld=2, subtotal=subtotal)],
            )
            pt.cache = cache
            wb.create_sheet("Sheet2")._pivots.append(pt)

        return edit

    charts = {"type": "chart", "sheet_idx0": 0, "sheet_idx1": "EI0", "chart_props": ["type"]}
    assert table(xlsx(chart(LineChart)), xlsx(chart(LineChart)), charts) == 1.0
    assert table(xlsx(chart(BarChart)), xlsx(chart(LineChart)), charts) == 0.0
    pivots = {"type": "pivot_table", "sheet_idx0": "RNSheet2", "sheet_idx1": "ENSheet2",
              "pivot_props": ["col_fields", "filter", "row_fields", "data_fields"]}  # fmt: skip
    assert table(xlsx(pivot("sum")), xlsx(pivot("sum")), pivots) == 1.0
    assert table(xlsx(pivot("average")), xlsx(pivot("sum")), pivots) == 0.0


def test_an_unknown_rule_type_raises_naming_it() -> None:
    with pytest.raises(NotImplementedError, match="'conditional_magic'"):
        table(xlsx(), xlsx(), {"type": "conditional_magic", "sheet_idx0": 0, "sheet_idx1": "EI0"})


def test_compare_csv_matches_any_expected_file() -> None:
    csv = METRICS["compare_csv"]
    gold = FileData(b"a,b\n1,2\n", "e.csv")
    assert csv(FileData(b"a,b\r\n1,2\r\n", "r.csv"), gold) == 1.0
    assert csv(FileData(b"a,b\n1,3\n", "r.csv"), gold) == 0.0
    assert csv(FileData(b"a,b \n1,2\n", "r.csv"), gold) == 0.0
    assert csv(FileData(b"a,b \n1,2\n", "r.csv"), gold, strict=False) == 1.0
    assert csv(FileData(b"x\n", "r.csv"), [gold, FileData(b"x\n", "e2.csv")]) == 1.0


def test_sparkline_rule_compares_targets_and_sources() -> None:
    def with_sparkline(source: str) -> FileData:
        ext = ('<extLst><ext uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}" '
               'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
               '<x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
               f"<x14:sparklineGroup><x14:sparklines><x14:sparkline><xm:f>{source}</xm:f>"
               "<xm:sqref>E2</xm:sqref></x14:sparkline></x14:sparklines></x14:sparklineGroup>"
               "</x14:sparklineGroups></ext></extLst></worksheet>")  # fmt: skip
        return _patched(xlsx(), "xl/worksheets/sheet1.xml", b"</worksheet>", ext.encode())

    rule = {"type": "sparkline", "sheet_idx0": 0, "sheet_idx1": "EI0"}
    assert table(with_sparkline("Sheet1!B2:C2"), with_sparkline("Sheet1!B2:C2"), rule) == 1.0
    assert table(with_sparkline("Sheet1!B3:C3"), with_sparkline("Sheet1!B2:C2"), rule) == 0.0


def _patched(f: FileData, part: str, old: bytes, new: bytes) -> FileData:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(f.data)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            body = src.read(item.filename)
            dst.writestr(item, body.replace(old, new) if item.filename == part else body)
    return FileData(out.getvalue(), f.name)


def test_stored_values_follow_the_sheet_id_unless_quirks_are_off() -> None:
    # The sheet's id no longer names its file (as after sheets are deleted in Excel).
    moved = _patched(xlsx(), "xl/workbook.xml", b'sheetId="1"', b'sheetId="7"')
    rule = {"type": "check_cell", "sheet_idx": 0, "coordinate": "A2",
            "props": {"value": {"method": "eq", "ref": "apple"}}}  # fmt: skip
    assert table(moved, None, rule) == 0.0  # OSWorld reads xl/worksheets/sheet7.xml: none
    assert table(moved, None, rule, quirks=False) == 1.0
