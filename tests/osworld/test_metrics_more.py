"""OSWorld's last metrics (Writer, Impress, PDFs, EPUBs, accessibility trees, program files)
on files made here: a correct end state scores 1, a near miss 0.

``benchmarks/osworld_parity.py`` checks the same metrics against OSWorld's own functions.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("docx")
pytest.importorskip("pptx")
pytest.importorskip("pdfplumber")
pytest.importorskip("openpyxl")

from gcc_envs.osworld.filedata import FileData  # noqa: E402
from gcc_envs.osworld.metrics import METRICS  # noqa: E402
from gcc_envs.osworld.metrics_misc import MISC_METRICS  # noqa: E402
from gcc_envs.sandbox import bwrap_missing  # noqa: E402

Edit = Callable[[Any], None]


def test_every_new_metric_is_registered() -> None:
    assert len(MISC_METRICS) == 24
    assert all(METRICS[name] is fn for name, fn in MISC_METRICS.items())


# ---- Writer ----------------------------------------------------------------------------------


def docx(paragraphs: list[str], edit: Edit | None = None, name: str = "r.docx") -> FileData:
    import docx as python_docx

    d = python_docx.Document()
    for text in paragraphs:
        d.add_paragraph(text)
    if edit is not None:
        edit(d)
    buf = io.BytesIO()
    d.save(buf)
    return FileData(buf.getvalue(), name)


def xcu(path: str, prop: str, value: str) -> FileData:
    text = ('<?xml version="1.0"?><oor:items xmlns:oor="http://openoffice.org/2001/registry">'
            f'<item oor:path="{path}"><prop oor:name="{prop}" oor:op="fuse">'
            f"<value>{value}</value></prop></item></oor:items>")  # fmt: skip
    return FileData(text.encode(), "registrymodifications.xcu")


def test_find_default_font_reads_writers_standard_font() -> None:
    f = METRICS["find_default_font"]
    path = "/org.openoffice.Office.Writer/DefaultFont"
    rule = {"font_name": "Times New Roman"}
    assert f(xcu(path, "Standard", "Times New Roman"), rule) == 1.0
    assert f(xcu(path, "Standard", "Liberation Serif"), rule) == 0.0
    assert f(xcu(path, "Heading", "Times New Roman"), rule) == 0.0
    assert f(None, rule) == 0.0


def page_breaks(n: int) -> Edit:
    def edit(d: Any) -> None:
        from docx.enum.text import WD_BREAK

        for _ in range(n):
            d.paragraphs[0].add_run().add_break(WD_BREAK.PAGE)

    return edit


def test_contains_page_break_counts_page_breaks() -> None:
    f = METRICS["contains_page_break"]
    assert f(docx(["a"], page_breaks(2)), {"page_break_count": 2}) == 1.0
    assert f(docx(["a"], page_breaks(1)), {"page_break_count": 2}) == 0.0
    assert f(docx(["a"], page_breaks(1)), {}) == 1.0
    assert f(docx(["a"]), {}) == 0.0


def footer(text: str) -> Edit:
    def edit(d: Any) -> None:
        d.sections[0].footer.paragraphs[0].text = text

    return edit


def test_has_page_numbers_in_footers_wants_a_digit_in_each_footer() -> None:
    f = METRICS["has_page_numbers_in_footers"]
    assert f(docx(["a"], footer("Page 1"))) == 1.0
    assert f(docx(["a"], footer("Page"))) == 0.0
    assert f(docx(["a"])) == 0.0


def align_first(value: Any) -> Edit:
    def edit(d: Any) -> None:
        d.paragraphs[0].paragraph_format.alignment = value

    return edit


def test_is_first_line_centered_reads_the_first_paragraphs_alignment() -> None:
    from docx.enum.text import WD_PARAGRAPH_ALIGNMENT as A

    f = METRICS["is_first_line_centered"]
    assert f(docx(["Title", "body"], align_first(A.CENTER))) == 1.0
    assert f(docx(["Title", "body"], align_first(A.RIGHT))) == 0.0
    assert f(docx(["Title", "body"])) == 0.0


def tabbed(position_in: float, alignment: str = "RIGHT", words: int = 3) -> FileData:
    from docx.enum.text import WD_TAB_ALIGNMENT
    from docx.shared import Inches

    first = " ".join(["word"] * words)

    def edit(d: Any) -> None:
        for p in d.paragraphs:
            p.paragraph_format.tab_stops.add_tab_stop(
                Inches(position_in), getattr(WD_TAB_ALIGNMENT, alignment)
            )

    return docx([f"{first}\trest of it", f"{first}\tmore"], edit)


def test_check_tabstops_scores_tab_positions_and_words_before_the_tab() -> None:
    f = METRICS["check_tabstops"]
    opts = {"word_number_split_by_tabstop": 3, "index": 0}
    gold = tabbed(6.0)
    assert f(tabbed(6.0), gold, **opts) == 1.0
    assert 0.9 < f(tabbed(5.9), gold, **opts) < 1.0
    assert f(tabbed(6.0, "CENTER"), gold, **opts) == 0.0
    assert f(tabbed(6.0, words=2), gold, **opts) == 0.0


def coloured_table(colours: dict[str, tuple[int, int, int]]) -> FileData:
    from docx.shared import RGBColor

    def edit(d: Any) -> None:
        t = d.add_table(rows=1, cols=len(colours))
        for cell, (word, rgb) in zip(t.rows[0].cells, colours.items()):
            cell.paragraphs[0].add_run(word).font.color.rgb = RGBColor(*rgb)

    return docx(["Words"], edit)


def test_colored_words_in_tables_wants_vowels_red_and_the_rest_blue() -> None:
    f = METRICS["evaluate_colored_words_in_tables"]
    red, blue = (255, 0, 0), (0, 0, 255)
    gold = coloured_table({"apple": red, "big": blue})
    assert f(coloured_table({"apple": red, "big": blue}), gold) == 1.0
    assert f(coloured_table({"apple": (250, 5, 5), "big": blue}), gold) == 1.0
    assert f(coloured_table({"apple": blue, "big": blue}), gold) == 0.0
    assert f(coloured_table({"apple": red, "big": (42, 96, 153)}), gold) == 0.0


def struck(last: list[bool]) -> FileData:
    def edit(d: Any) -> None:
        p = d.add_paragraph()
        for i, strike in enumerate(last):
            p.add_run(f"w{i} ").font.strike = strike

    return docx(["Keep this."], edit)


def test_strike_through_last_paragraph_wants_every_run_struck() -> None:
    f = METRICS["evaluate_strike_through_last_paragraph"]
    gold = struck([False, False])
    assert f(struck([True, True]), gold) == 1.0
    assert f(struck([True, False]), gold) == 0.0
    assert f(struck([True, True, True]), gold) == 0.0  # the text differs


def odt(highlight: str | None, text: str = "Call the candidate") -> FileData:
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
          'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"')  # fmt: skip
    bg = f' fo:background-color="{highlight}"' if highlight else ""
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns}>'
               f'<office:automatic-styles><style:style style:name="T1" style:family="text">'
               f"<style:text-properties{bg}/></style:style></office:automatic-styles>"
               f'<office:body><office:text><text:p>{text} <text:span text:style-name="T1">'
               "today</text:span></text:p></office:text></office:body></office:document-content>")  # fmt: skip
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
    return FileData(buf.getvalue(), "r.odt")


def test_check_highlighted_words_wants_no_yellow_span() -> None:
    f = METRICS["check_highlighted_words"]
    gold = odt(None)
    assert f(odt(None), gold) == 1.0
    assert f(odt("transparent"), gold) == 1.0
    assert f(odt("#ffff00"), gold) == 0.0
    assert f(odt(None, "Call them"), gold) == 0.0


LINES = ["06:00:01, T1, S1, 1", "06:00:05, T2, S1, 2", "06:01:00, T1, S2, 1", "06:02:00, T3, S3, 1"]


def test_compare_unique_train_records_wants_each_train_once() -> None:
    f = METRICS["compare_unique_train_records"]
    expected = [docx([LINES[0], LINES[1], LINES[3]]), docx(LINES)]
    assert f(docx([LINES[0], LINES[1], LINES[3]]), expected) == 1.0
    assert f(docx([LINES[2], LINES[1], LINES[3]]), expected) == 1.0  # another of T1's lines
    assert f(docx(LINES), expected) == 0.0  # T1 twice
    assert f(docx([LINES[0], LINES[1]]), expected) == 0.0  # T3 missing
    assert f(docx([LINES[0], LINES[1], "06:09:00, T3, S9, 1"]), expected) == 0.0  # made up


REFS = ["Smith, J. (2020). A study. Journal, 1(2), 3-4.", "Doe, A. (2019). Book title. Press."]


def test_compare_references_scales_the_references_likeness() -> None:
    f = METRICS["compare_references"]
    gold = docx(["Essay", "References", *REFS], name="e.docx")
    opts = {"content_only": True, "reference_base_result": 0.6}
    assert f(docx(["Essay", "References", *REFS]), gold, **opts) == 1.0
    near = f(docx(["Essay", "References", REFS[0], REFS[1].replace("Press", "Pres")]), gold, **opts)
    assert 0.9 < near < 1.0
    assert f(docx(["Essay", "References", REFS[0]]), gold, **opts) == 0.0
    assert f(docx(["Essay", *REFS]), gold, **opts) == 0.0


def test_fuzzy_place_math_wants_three_words_near_the_answers() -> None:
    f = METRICS["fuzzy_place_math"]
    rule = {"expected": ["深圳市福田区益田路5055号", "福田区莲科路18号", "深圳市福田区正义街1号"]}
    assert (
        f(docx(["深圳市福田区益田路5055号", "福田区莲科路18号", "深圳市福田区正义街1号"]), rule)
        == 1.0
    )
    assert f(docx(["深圳市福田区益田路5055号", "福田区莲科路18号"]), rule) == 0.0
    assert 0.5 < f(docx(["深圳市福田区益田路5055号", "福田区莲科路1号", "正义街1号"]), rule) < 1.0


# ---- Impress ---------------------------------------------------------------------------------


def pptx(edit: Edit | None = None, slides: int = 2) -> FileData:
    from pptx import Presentation

    prs = Presentation()
    for i in range(slides):
        prs.slides.add_slide(prs.slide_layouts[1]).shapes.title.text = f"Slide {i}"
    if edit is not None:
        edit(prs)
    buf = io.BytesIO()
    prs.save(buf)
    return FileData(buf.getvalue(), "r.pptx")


def test_check_presenter_console_disable_wants_the_setting_false() -> None:
    f = METRICS["check_presenter_console_disable"]
    path = "/org.openoffice.Office.Impress/Misc/Start"
    assert f(xcu(path, "EnablePresenterScreen", "false")) == 1.0
    assert f(xcu(path, "EnablePresenterScreen", "true")) == 0.0
    assert f(xcu(path, "StartWithTemplate", "false")) == 0.0


def transition(kind: str, index: int = 0) -> Edit:
    def edit(prs: Any) -> None:
        from lxml import etree

        p = "http://schemas.openxmlformats.org/presentationml/2006/main"
        t = etree.SubElement(prs.slides[index]._element, f"{{{p}}}transition")
        etree.SubElement(t, f"{{{p}}}{kind}")

    return edit


def test_check_transition_finds_the_slides_transition_kind() -> None:
    f = METRICS["check_transition"]
    rule = {"slide_idx": 0, "transition_type": "dissolve"}
    assert f(pptx(transition("dissolve")), rule) == 1.0
    assert f(pptx(transition("fade")), rule) == 0.0
    assert f(pptx(transition("dissolve", 1)), rule) == 0.0
    assert f(pptx(), rule) == 0.0


def backgrounds(*colours: tuple[int, int, int] | None) -> Edit:
    def edit(prs: Any) -> None:
        from pptx.dml.color import RGBColor

        for slide, rgb in zip(prs.slides, colours):
            if rgb is not None:
                slide.background.fill.solid()
                slide.background.fill.fore_color.rgb = RGBColor(*rgb)

    return edit


def test_fill_to_rgb_distance_averages_each_slides_distance() -> None:
    f = METRICS["evaluate_presentation_fill_to_rgb_distance"]
    rule = {"rgb": [0, 0, 255], "original_rgb": [255, 255, 255]}
    assert f(pptx(backgrounds((0, 0, 255), (0, 0, 255))), rule) == 1.0
    assert 0.97 < f(pptx(backgrounds((0, 0, 255), (10, 10, 240))), rule) < 1.0
    assert f(pptx(backgrounds((0, 0, 255), (255, 255, 255))), rule) == 0.5
    assert f(pptx(backgrounds((0, 0, 255), None)), rule) == 0.5  # the master has no colour


def number_colour(hex_rgb: str) -> Edit:
    def edit(prs: Any) -> None:
        from lxml import etree

        a = "http://schemas.openxmlformats.org/drawingml/2006/main"
        shape = next(s for s in prs.slide_masters[0].shapes if s.name.startswith("Slide Number"))
        rpr = shape._element.find(f".//{{{a}}}fld/{{{a}}}rPr")
        fill = etree.SubElement(rpr, f"{{{a}}}solidFill")
        etree.SubElement(fill, f"{{{a}}}srgbClr", val=hex_rgb)

    return edit


def test_check_page_number_colors_reads_the_masters_slide_number() -> None:
    f = METRICS["check_page_number_colors"]
    assert f(pptx(number_colour("FF0000")), {"color": "red"}) == 1.0
    assert f(pptx(number_colour("C00000")), {"color": "red"}) == 1.0
    assert f(pptx(number_colour("8B8B8B")), {"color": "red"}) == 0.0
    assert f(pptx(), {"color": "red"}) == 0.0
    with pytest.raises(ValueError, match="purple"):
        f(pptx(), {"color": "purple"})


# ---- PDFs, EPUBs, trees, cells, clipboard ------------------------------------------------------


def pdf(*pages: Any) -> FileData:
    from PIL import Image

    images = [Image.new("RGB", (60, 40), p) if isinstance(p, tuple) else p for p in pages]
    buf = io.BytesIO()
    images[0].save(buf, "PDF", save_all=True, append_images=images[1:])
    return FileData(buf.getvalue(), "r.pdf")


def test_check_pdf_pages_compares_the_page_count() -> None:
    f = METRICS["check_pdf_pages"]
    one, two = pdf((255, 255, 255)), pdf((255, 255, 255), (0, 0, 0))
    assert f(one, {"relation": "eq", "ref_value": 1}) == 1.0
    assert f(two, {"relation": "eq", "ref_value": 1}) == 0.0
    assert f(two, {"relation": "gt", "ref_value": 1}) == 1.0


def test_compare_pdf_images_compares_the_pictures_hashes() -> None:
    import numpy as np
    from PIL import Image

    f = METRICS["compare_pdf_images"]
    noise = np.random.default_rng(1).integers(0, 256, (48, 48), dtype=np.uint8)
    wave = Image.fromarray(noise).resize((96, 96))
    other = wave.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    gold = pdf(wave.convert("RGB"))
    assert f(pdf(wave.convert("RGB")), gold) == 1.0
    assert f(pdf(wave.convert("RGB").resize((150, 150))), gold) == 1.0
    assert f(pdf(other.convert("RGB")), gold) == 0.0
    assert f(pdf(wave.convert("RGB"), wave.convert("RGB")), gold) == 0.0


TREE = ('<desktop-frame xmlns:attr="{attr}" xmlns:st="{st}">'
        '<application name="Thunderbird"><page-tab-list attr:id="tabmail-tabs">'
        '<page-tab name="{tab}" st:selected="true">{text}</page-tab></page-tab-list>'
        "</application></desktop-frame>")  # fmt: skip


def tree(tab: str, text: str, fmt: str = "osworld") -> str:
    from gcc_envs.osworld.atspi_dump import NAMESPACES

    return TREE.format(tab=tab, text=text, **NAMESPACES[fmt])


def test_check_accessibility_tree_matches_selectors_and_xpaths() -> None:
    pytest.importorskip("cssselect")
    f = METRICS["check_accessibility_tree"]
    css = [{"selectors": ['application[name=Thunderbird] page-tab-list[attr|id="tabmail-tabs"]'
                          '>page-tab[name="About Profiles"]']}]  # fmt: skip
    xpath = [{"xpath": "//application[@name='Thunderbird']//*[contains(@name, 'Profiles')]",
              "text": "Profiles", "exact": False}]  # fmt: skip
    for fmt in ("osworld", "deskat"):
        good = tree("About Profiles", "Profiles", fmt)
        assert f(good, css) == 1.0 and f(good, xpath) == 1.0
        assert f(tree("Inbox", "", fmt), css) == 0.0
    assert 0.5 < f(tree("About Profiles", "Profile"), xpath) < 1.0
    assert f(tree("About Profiles", "x"), [{**xpath[0], "exact": True}]) == 0.0


def epub(chapter: str, identifier: str = "id-1", folder: str = "") -> FileData:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("mimetype", "application/epub+zip")
        z.writestr("content.opf", f"<package>\n<dc:identifier>{identifier}</dc:identifier>\n"
                                  "<dc:title>Pass Through</dc:title>\n</package>\n")  # fmt: skip
        z.writestr("toc.ncx", '<ncx>\n<navPoint id="n1">\n<text>One</text>\n</ncx>\n')
        z.writestr(f"{folder}ch1.html", f"<html><body><h1>One</h1>\n<p>{chapter}</p></body></html>")
    return FileData(buf.getvalue(), "r.epub")


def test_compare_epub_compares_the_books_parts() -> None:
    f = METRICS["compare_epub"]
    gold = epub("It was a dark night.")
    assert f(epub("It was a dark night.", identifier="other"), gold) == 1.0
    assert (
        f(
            epub("It was a dark night.", folder="OEBPS/"),
            epub("It was a dark night.", folder="OEBPS/"),
        )
        == 1.0
    )
    assert f(epub("Something else entirely."), gold) < 1.0
    assert f(FileData(b"not a zip", "r.epub"), gold) == 0.0


def cities(values: list[Any]) -> FileData:
    import openpyxl

    wb = openpyxl.Workbook()
    for i, v in enumerate(values, start=2):
        wb.active.cell(row=i, column=3, value=v)
    buf = io.BytesIO()
    wb.save(buf)
    return FileData(buf.getvalue(), "r.xlsx")


def test_compare_conference_city_in_order_checks_c2_to_c22() -> None:
    f = METRICS["compare_conference_city_in_order"]
    wanted = [f"City{i}" for i in range(20)] + [["Montreal", "Montréal"]]
    rule = {"expected": wanted}
    good = [f"City{i}, Country" for i in range(20)] + ["Montréal"]
    assert f(cities(good), rule) == 1.0
    assert f(cities(good[:20] + ["Toronto"]), rule) == 0.0
    assert f(cities(good[:20]), rule) == 0.0  # C22 empty
    assert f(cities(good[::-1]), rule) == 0.0


def test_is_in_vm_clickboard_looks_for_the_text_in_the_clipboard() -> None:
    f = METRICS["is_in_vm_clickboard"]
    rule = {"expected": "/home/user/Data3/List3/secret.docx"}
    assert f(rule, "/home/user/Data3/List3/secret.docx") == 1.0
    assert f(rule, "/home/user/Data3/secret.docx") == 0.0
    assert (
        f({"expected": ["a", "b"]}, "a and b") == 1.0 and f({"expected": ["a", "c"]}, "a b") == 0.0
    )
    assert f(rule, None) == 0.0


# ---- program files ---------------------------------------------------------------------------


def test_compare_result_files_compares_numbers_or_text() -> None:
    f = METRICS["compare_result_files"]
    assert f(FileData(b"25.5\n", "result.txt"), FileData(b"25.50", "gold.txt")) == 1.0
    assert f(FileData(b"Median: 25.50", "result.txt"), FileData(b"25.50", "gold.txt")) == 1.0
    assert f(FileData(b"25.6", "result.txt"), FileData(b"25.50", "gold.txt")) == 0.0
    assert f(FileData(b"done", "result.txt"), FileData(b"done\n", "gold.txt")) == 1.0


def test_compare_python_pure_text_sets_blank_lines_and_shebang_aside() -> None:
    f = METRICS["compare_python_pure_text"]
    gold = FileData(b"import torch\n# data\nx = 1\nif x:\n    y = 2\n", "gold.py")
    assert (
        f(
            FileData(
                b"#!/usr/bin/env python\nimport torch\n\n# data\nx = 1  \nif x:\n\ty = 2\n", "r.py"
            ),
            gold,
        )
        == 1.0
    )
    assert (
        f(FileData(b"import torch\nx = 1\nif x:\n    y = 2\n", "r.py"), gold) == 0.0
    )  # a comment lost
    assert (
        f(
            FileData(b'"""Markdown"""\nimport torch\n# data\nx = 1\nif x:\n    y = 2\n', "r.py"),
            gold,
        )
        == 0.0
    )


SUITE = b"""
import game
def test():
    return game.add(2, 3) == 5
"""


@pytest.mark.skipif(bwrap_missing() is not None, reason=str(bwrap_missing()))
def test_check_python_file_by_test_suite_runs_the_suite_in_a_sandbox(tmp_path: Path) -> None:
    f = METRICS["check_python_file_by_test_suite"]
    suite = FileData(SUITE, "test_suite.py")
    fixed = FileData(b"def add(a, b):\n    return a + b\n", "game.py")
    buggy = FileData(b"def add(a, b):\n    return a - b\n", "game.py")
    outside = tmp_path / "written"
    escape = f"open({str(outside)!r}, 'w').write('x')\ndef add(a, b):\n    return a + b\n"
    assert f([fixed, None], suite) == 1.0
    assert f([buggy], suite) == 0.0
    assert f([], suite) == 0.0  # nothing to import
    assert f([FileData(escape.encode(), "game.py")], suite) == 0.0  # the host's /tmp is not there
    assert not outside.exists()
