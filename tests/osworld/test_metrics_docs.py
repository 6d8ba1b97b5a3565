"""OSWorld's document metrics on files made here: a correct end state scores 1, a near miss 0.

Presentations and Writer documents come from python-pptx and python-docx, PDFs from a few
lines of PDF syntax; spreadsheets are ``test_metrics_table.py``'s. ``benchmarks/osworld_parity.py`` checks the same
metrics against OSWorld's own functions.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pptx")
pytest.importorskip("docx")
pytest.importorskip("pdfplumber")

from gcc_envs.osworld.filedata import FileData  # noqa: E402
from gcc_envs.osworld.metrics import METRICS  # noqa: E402
from gcc_envs.osworld.metrics_docs import DOC_METRICS  # noqa: E402


def test_every_document_metric_is_registered() -> None:
    names = {"compare_table", "compare_csv", "compare_pptx_files", "compare_docx_files",
             "compare_docx_tables", "compare_pdfs", "compare_line_spacing", "compare_docx_images", "compare_text_file", "diff_text_file",
             "check_json", "check_direct_json_object", "literal_match", "is_in_list"}  # fmt: skip
    assert names <= set(DOC_METRICS) and all(METRICS[n] is DOC_METRICS[n] for n in names)


# ---- compare_pptx_files ----------------------------------------------------------------------


def pptx(edit: Callable[[Any], None] | None = None) -> FileData:
    from pptx import Presentation
    from pptx.util import Inches, Pt

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    slide.shapes.title.text = "Numbers"
    slide.placeholders[1].text_frame.text = "Revenue grew"
    run = (
        slide.shapes.add_textbox(Inches(1), Inches(5), Inches(4), Inches(1))
        .text_frame.paragraphs[0]
        .add_run()
    )
    run.text, run.font.bold, run.font.size = "Bold claim", True, Pt(20)
    slide.notes_slide.notes_text_frame.text = "Say it slowly"
    if edit is not None:
        edit(prs)
    buf = io.BytesIO()
    prs.save(buf)
    return FileData(buf.getvalue(), "r.pptx")


def _box(prs: Any) -> Any:
    return prs.slides[0].shapes[2]


@pytest.mark.parametrize(
    ("edit", "options", "want"),
    [
        (None, {}, 1.0),
        (lambda prs: setattr(_box(prs), "left", _box(prs).left + 900), {}, 1.0),  # within 0.5 %
        (lambda prs: setattr(_box(prs), "left", _box(prs).left + 90000), {}, 0.0),
        (
            lambda prs: setattr(_box(prs), "left", _box(prs).left + 90000),
            {"examine_shape": False},
            1.0,
        ),
        (
            lambda prs: setattr(_box(prs).text_frame.paragraphs[0].runs[0], "text", "Bold claims"),
            {},
            0.0,
        ),
        (
            lambda prs: setattr(_box(prs).text_frame.paragraphs[0].runs[0].font, "bold", None),
            {},
            0.0,
        ),
        (lambda prs: setattr(prs.slides[0].notes_slide.notes_text_frame, "text", "Fast"), {}, 0.0),
        (
            lambda prs: setattr(prs.slides[0].notes_slide.notes_text_frame, "text", "Fast"),
            {"examine_note": False},
            1.0,
        ),
        (lambda prs: prs.slides.add_slide(prs.slide_layouts[6]), {}, 0.0),
        (None, {"_note": "a comment", "examine_run_count": False}, 1.0),
    ],
)
def test_compare_pptx_files(edit: Any, options: dict[str, Any], want: float) -> None:
    assert METRICS["compare_pptx_files"](pptx(edit), pptx(), **options) == want


def test_compare_pptx_files_refuses_an_unknown_option() -> None:
    with pytest.raises(TypeError, match="examine_sparkle"):
        METRICS["compare_pptx_files"](pptx(), pptx(), examine_sparkle=True)


# ---- Writer documents, PDFs ------------------------------------------------------------------


def docx(
    paragraphs: list[str], grid: list[list[str]] | None = None, name: str = "r.docx"
) -> FileData:
    import docx as python_docx

    d = python_docx.Document()
    for p in paragraphs:
        d.add_paragraph(p)
    if grid:
        t = d.add_table(rows=len(grid), cols=len(grid[0]))
        for i, row in enumerate(grid):
            for j, text in enumerate(row):
                t.cell(i, j).text = text
    buf = io.BytesIO()
    d.save(buf)
    return FileData(buf.getvalue(), name)


def odt(paragraphs: list[str], name: str = "r.odt") -> FileData:
    ns = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
    body = "".join(f"<text:p>{p[:3]}<text:span>{p[3:]}</text:span></text:p>" for p in paragraphs)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(
            "content.xml",
            f"<office:document-content {ns}><office:body><office:text>{body}</office:text></office:body></office:document-content>",
        )
    return FileData(buf.getvalue(), name)


TEXT = ["The quick brown fox", "jumps over the lazy dog."]


def test_compare_docx_files() -> None:
    docs = METRICS["compare_docx_files"]
    assert docs(docx(TEXT), docx(TEXT)) == 1.0
    assert docs(docx([TEXT[0] + "   ", TEXT[1]]), docx(TEXT)) == 1.0  # blanks squeezed
    assert docs(docx([TEXT[0] + "   ", TEXT[1]]), docx(TEXT), ignore_blanks=False) == 0.0
    assert docs(docx(["The quick brown cat", TEXT[1]]), docx(TEXT)) == 0.0
    assert 0.9 < docs(docx(["The quick brown cat", TEXT[1]]), docx(TEXT), content_only=True) < 1.0
    assert docs(odt(TEXT), odt(TEXT, "e.odt")) == 1.0
    assert docs(odt(TEXT[:1]), odt(TEXT, "e.odt")) == 0.0
    assert docs(odt(TEXT), docx(TEXT)) == 0.0  # kinds differ


def test_compare_docx_tables() -> None:
    tables = METRICS["compare_docx_tables"]
    grid = [["a", "b"], ["1", "2"]]
    assert tables(docx(TEXT, grid), docx(TEXT, [["a ", " b"], ["1", "2"]])) == 1.0
    assert tables(docx(TEXT, [["a", "b"], ["1", "3"]]), docx(TEXT, grid)) == 0.0
    assert tables(docx(TEXT), docx(TEXT, grid)) == 0.0


def test_compare_line_spacing() -> None:
    import docx as python_docx

    def spaced(spacing: float | None, last: str = TEXT[1]) -> FileData:
        d = python_docx.Document()
        d.add_paragraph(TEXT[0])
        d.add_paragraph(last).paragraph_format.line_spacing = spacing
        buf = io.BytesIO()
        d.save(buf)
        return FileData(buf.getvalue(), "r.docx")

    spacing = METRICS["compare_line_spacing"]
    assert spacing(spaced(2.0), spaced(2.0)) == 1.0
    assert spacing(spaced(1.5), spaced(2.0)) == 0.0
    assert spacing(spaced(2.0, "other text"), spaced(2.0)) == 0.0


def test_compare_docx_images_compares_pixels() -> None:
    import docx as python_docx
    from PIL import Image

    def with_image(fmt: str, colour: tuple[int, int, int]) -> FileData:
        d, img = python_docx.Document(), io.BytesIO()
        Image.new("RGB", (8, 8), colour).save(img, fmt)
        img.seek(0)
        d.add_picture(img)
        buf = io.BytesIO()
        d.save(buf)
        return FileData(buf.getvalue(), "r.docx")

    images = METRICS["compare_docx_images"]
    assert images(with_image("BMP", (255, 0, 0)), with_image("PNG", (255, 0, 0))) == 1.0
    assert images(with_image("PNG", (0, 0, 255)), with_image("PNG", (255, 0, 0))) == 0.0
    assert images(docx(TEXT), with_image("PNG", (255, 0, 0))) == 0.0


def pdf(lines: list[str], name: str = "r.pdf") -> FileData:
    """A one-page PDF of Helvetica text lines."""
    text = "".join(
        f"BT /F1 12 Tf 72 {720 - 16 * i} Td ({line}) Tj ET\n" for i, line in enumerate(lines)
    )
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(text)} >>\nstream\n{text}endstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = "%PDF-1.4\n", []
    for i, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{obj}\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n" + "".join(
        f"{o:010d} 00000 n \n" for o in offsets
    )
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return FileData(out.encode("latin-1"), name)


def test_compare_pdfs_scores_how_alike_the_texts_are() -> None:
    pdfs = METRICS["compare_pdfs"]
    assert pdfs(pdf(TEXT), pdf(TEXT, "e.pdf")) == 1.0
    near = pdfs(pdf(["The quick brown cat", TEXT[1]]), pdf(TEXT))
    assert 0.9 < near < 1.0
    assert pdfs(pdf(["Lorem ipsum"]), pdf(TEXT)) < 0.5
    assert pdfs(None, pdf(TEXT)) == 0.0
    assert pdfs([pdf(TEXT), FileData(b"junk", "x.pdf")], [pdf(TEXT), pdf(TEXT)]) == 0.5


# ---- text, JSON, values ------------------------------------------------------------------------


def test_compare_text_file_and_diff_text_file() -> None:
    text, diff = METRICS["compare_text_file"], METRICS["diff_text_file"]
    assert text(FileData(b"a\r\nb\r\n", "r"), FileData(b"a\nb\n", "e")) == 1.0
    assert text(FileData(b"a\nc\n", "r"), FileData(b"a\nb\n", "e")) == 0.0
    assert text(FileData(b"a  b\t\nc ", "r"), FileData(b"a b c", "e"), ignore_blanks=True) == 1.0
    assert text(FileData(b"", "r"), FileData(b"a", "e")) == 0.0
    assert diff(FileData(b"a\nb\nc\n", "r"), FileData(b"a\nb\nc\n", "e")) == 1.0
    assert diff(FileData(b"a\nx\nc\n", "r"), FileData(b"a\nb\nc\n", "e")) == pytest.approx(2 / 3)


def test_check_json_follows_key_paths_and_value_rules() -> None:
    check = METRICS["check_json"]
    f = FileData(json.dumps({"editor": {"fontSize": 14, "theme": "dark"}}).encode(), "s.json")
    rule = lambda ref: {"expect": [{"key": ["editor", "fontSize"], "method": "eq", "ref": ref}]}  # noqa: E731
    assert check(f, rule(14)) == 1.0
    assert check(f, rule(16)) == 0.0
    assert check(f, {"expect": [{"key": ["editor", "tabSize"], "method": "eq", "ref": 4}]}) == 0.0
    assert check(f, {"unexpect": [{"key": ["editor", "wrap"], "method": "eq", "ref": "on"}]}) == 1.0
    assert (
        check(f, {"unexpect": [{"key": ["editor", "theme"], "method": "re", "ref": "^da"}]}) == 0.0
    )
    assert check(FileData(b"{oops", "s.json"), rule(14)) == 0.0


def test_check_direct_json_object() -> None:
    check = METRICS["check_direct_json_object"]
    assert check("{'a': 'x', 'b': 2}", {"expected": {"a": "x"}}) == 1.0
    assert check({"a": 2}, {"expected": {"a": 1}}) == 0.0
    assert (
        check(
            {"city": "Paris"}, {"expected": {"city": ["Lyon", "Paris"]}, "expect_in_result": True}
        )
        == 1.0
    )
    assert (
        check({"name": "New York"}, {"expected": {"name": "Boston"}, "expect_in_result": True})
        == 0.0
    )
    assert check({"a": 1}, {"expected": {"a": "__EVALUATION_FAILED__"}}) == 0.0
    assert check(None, {"expected": {"a": 1}}) == 0.0


def test_literal_match_and_is_in_list() -> None:
    literal, in_list = METRICS["literal_match"], METRICS["is_in_list"]
    assert literal("ABC", "abc", ignore_case=True) == 1.0
    assert literal("ABC", "abc") == 0.0
    assert literal([1, "a"], ["1", "a"], type="list") == 1.0
    assert literal("1", ["1"], type="list") == 0.0
    assert in_list(["a", "b"], {"expected": "a"}) == 1.0
    assert in_list(["abc"], {"expected": "ab"}) == 0.0
