"""Parity cases for OSWorld's last metrics (``gcc_envs.osworld.metrics_misc``): Writer and
Impress checks, PDFs, EPUBs, accessibility trees, a spreadsheet column, the clipboard and
program files; made with python-docx, python-pptx, openpyxl and Pillow (PDFs). Presentations
whose slide-number colour is read are saved again by LibreOffice (``lo=True``), as the task's
file is. One case a line (``fmt: off``).

Left out where this package differs from OSWorld on purpose (the metrics' docstrings say why):
a slide number in ``C00000`` or ``0000FF`` (OSWorld reads its channels a hex digit off), an
EPUB with its pages in a folder, an accessibility rule with ``text`` but no ``exact``.

The test suite of ``check_python_file_by_test_suite`` finds the agent's files beside it (in
the sandbox) or, for OSWorld, in the case's ``result/*`` folders, where the parity script
puts them.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from typing import Any

from osworld_parity_cases import Case, File

Edit = Callable[[Any], None]
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"


# ---- files -----------------------------------------------------------------------------------


def word(paragraphs: list[str], edit: Edit | None = None, name: str = "r.docx") -> File:
    import docx

    d = docx.Document()
    for text in paragraphs:
        d.add_paragraph(text)
    if edit is not None:
        edit(d)
    buf = io.BytesIO()
    d.save(buf)
    return File(name, buf.getvalue())


def xcu(path: str, prop: str, *values: str) -> File:
    items = "".join(f'<item oor:path="{path}"><prop oor:name="{prop}" oor:op="fuse">'
                    f"<value>{v}</value></prop></item>" for v in values)  # fmt: skip
    text = ('<?xml version="1.0" encoding="UTF-8"?><oor:items xmlns:oor="http://openoffice.org/2001/registry" '
            f'xmlns:xs="http://www.w3.org/2001/XMLSchema">{items}</oor:items>')  # fmt: skip
    return File("registrymodifications.xcu", text.encode())


def breaks(n: int, kind: str = "page") -> Edit:
    def edit(d: Any) -> None:
        from docx.enum.text import WD_BREAK

        for _ in range(n):
            d.paragraphs[0].add_run().add_break(WD_BREAK.PAGE if kind == "page" else WD_BREAK.LINE)

    return edit


def footer(text: str, sections: int = 1, second: str | None = None) -> Edit:
    def edit(d: Any) -> None:
        d.sections[0].footer.paragraphs[0].text = text
        for _ in range(sections - 1):
            s = d.add_section()
            if second is not None:
                s.footer.is_linked_to_previous = False
                s.footer.paragraphs[0].text = second

    return edit


def align(value: str | None, index: int = 0) -> Edit:
    def edit(d: Any) -> None:
        from docx.enum.text import WD_PARAGRAPH_ALIGNMENT

        if value is not None:
            d.paragraphs[index].paragraph_format.alignment = getattr(WD_PARAGRAPH_ALIGNMENT, value)

    return edit


def tabbed(
    inches: float | None, kind: str = "RIGHT", first: str = "one two three", extra: bool = False
) -> File:
    from docx.enum.text import WD_TAB_ALIGNMENT
    from docx.shared import Inches

    def edit(d: Any) -> None:
        for p in d.paragraphs:
            if inches is not None:
                p.paragraph_format.tab_stops.add_tab_stop(
                    Inches(inches), getattr(WD_TAB_ALIGNMENT, kind)
                )
            if extra:
                p.paragraph_format.tab_stops.add_tab_stop(Inches(1), WD_TAB_ALIGNMENT.LEFT)

    return word([f"{first}\tthe rest here", "", f"{first}\tmore words"], edit)


def table_words(colours: list[tuple[str, Any]], text: str = "Words") -> File:
    def edit(d: Any) -> None:
        from docx.shared import RGBColor

        t = d.add_table(rows=1, cols=len(colours))
        for cell, (w, rgb) in zip(t.rows[0].cells, colours):
            run = cell.paragraphs[0].add_run(w)
            if rgb is not None:
                run.font.color.rgb = RGBColor(*rgb)

    return word([text], edit)


def struck(flags: list[Any], text: str = "Keep this.") -> File:
    def edit(d: Any) -> None:
        p = d.add_paragraph()
        for i, flag in enumerate(flags):
            p.add_run(f"w{i} ").font.strike = flag

    return word([text], edit)


def odt(highlight: str | None, text: str = "Call the candidate", styled: bool = True) -> File:
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
          'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"')  # fmt: skip
    bg = f' fo:background-color="{highlight}"' if highlight else ""
    ref = ' text:style-name="T1"' if styled else ""
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns} office:version="1.2">'
               f'<office:automatic-styles><style:style style:name="T1" style:family="text">'
               f"<style:text-properties{bg}/></style:style></office:automatic-styles>"
               f"<office:body><office:text><text:p>{text} <text:span{ref}>"
               "today</text:span></text:p></office:text></office:body></office:document-content>")  # fmt: skip
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')  # fmt: skip
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
        z.writestr("META-INF/manifest.xml", manifest)
    return File("r.odt", buf.getvalue())


def deck(edit: Edit | None = None, slides: int = 2, lo: bool = False) -> File:
    from pptx import Presentation

    prs = Presentation()
    for i in range(slides):
        prs.slides.add_slide(prs.slide_layouts[1]).shapes.title.text = f"Slide {i}"
    if edit is not None:
        edit(prs)
    buf = io.BytesIO()
    prs.save(buf)
    return File("r.pptx", buf.getvalue(), lo=lo)


def transition(kind: str, index: int = 0) -> Edit:
    def edit(prs: Any) -> None:
        from lxml import etree

        t = etree.SubElement(prs.slides[index]._element, f"{{{P}}}transition")
        etree.SubElement(t, f"{{{P}}}{kind}")

    return edit


def backgrounds(*colours: Any, master: Any = None) -> Edit:
    def edit(prs: Any) -> None:
        from pptx.dml.color import RGBColor

        if master is not None:
            fill = prs.slide_masters[0].background.fill
            fill.solid()
            fill.fore_color.rgb = RGBColor(*master)
        for slide, rgb in zip(prs.slides, colours):
            if rgb == "theme":
                from pptx.enum.dml import MSO_THEME_COLOR

                slide.background.fill.solid()
                slide.background.fill.fore_color.theme_color = MSO_THEME_COLOR.ACCENT_1
            elif rgb is not None:
                slide.background.fill.solid()
                slide.background.fill.fore_color.rgb = RGBColor(*rgb)

    return edit


def number_colour(hex_rgb: str | None) -> Edit:
    """The master's slide-number placeholder in ``hex_rgb``: its list style's and its field's
    run colour (LibreOffice keeps the list style's)."""

    def edit(prs: Any) -> None:
        from lxml import etree

        shape = next(s for s in prs.slide_masters[0].shapes if s.name.startswith("Slide Number"))
        if hex_rgb is None:
            return
        for rpr in [*shape._element.iter(f"{{{A}}}defRPr"), *shape._element.iter(f"{{{A}}}rPr")]:
            for old in rpr.findall(f"{{{A}}}solidFill"):
                rpr.remove(old)
            fill = etree.SubElement(rpr, f"{{{A}}}solidFill")
            etree.SubElement(fill, f"{{{A}}}srgbClr", val=hex_rgb)

    return edit


def pictures(*pages: Any, name: str = "r.pdf") -> File:
    from PIL import Image

    images = [Image.new("RGB", (60, 40), p) if isinstance(p, tuple) else p for p in pages]
    buf = io.BytesIO()
    images[0].save(buf, "PDF", save_all=True, append_images=images[1:])
    return File(name, buf.getvalue())


def raw_picture_pdf(image: Any, name: str = "r.pdf") -> File:
    """A one-page PDF drawing ``image`` (RGB or L) as Flate-compressed raw samples."""
    import zlib

    data = zlib.compress(image.tobytes())
    space = "/DeviceRGB" if image.mode == "RGB" else "/DeviceGray"
    w, h = image.size
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w} {h}] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>".encode(),
               None, None]  # fmt: skip
    draw = f"q {w} 0 0 {h} 0 0 cm /Im0 Do Q".encode()
    objects[3] = b"<< /Length %d >>\nstream\n" % len(draw) + draw + b"\nendstream"
    objects[4] = (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace {space} "
                  f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode() + data + b"\nendstream"  # fmt: skip
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return File(name, bytes(out))


def raw_text_pdf(name: str = "r.pdf") -> File:
    """A one-page PDF without pictures."""
    from osworld_parity_cases import pdf

    return File(name, pdf([["No pictures here"]]))


def noise(seed: int, size: int = 96) -> Any:
    import numpy as np
    from PIL import Image

    small = np.random.default_rng(seed).integers(0, 256, (size // 2, size // 2, 3), dtype=np.uint8)
    return Image.fromarray(small).resize((size, size))


TREE = ('<desktop-frame xmlns:attr="{attr}" xmlns:st="{st}"><application name="Thunderbird">'
        '<page-tab-list attr:id="tabmail-tabs"><page-tab name="{tab}" st:selected="true">{text}</page-tab>'
        '</page-tab-list><push-button name="Password">Sign in</push-button></application></desktop-frame>')  # fmt: skip


def tree(tab: str = "About Profiles", text: str = "Profiles") -> str:
    base = "https://accessibility.ubuntu.example.org/ns/"
    return TREE.format(attr=base + "attributes", st=base + "state", tab=tab, text=text)


def epub(chapter: str, identifier: str = "id-1", nav: str = "One", extra: bool = False) -> File:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("mimetype", "application/epub+zip")
        z.writestr("content.opf", f'<?xml version="1.0"?>\n<package>\n<dc:identifier>{identifier}</dc:identifier>\n'
                                  "<dc:title>Pass Through</dc:title>\n</package>\n")  # fmt: skip
        z.writestr(
            "toc.ncx",
            f'<?xml version="1.0"?>\n<ncx>\n<navPoint id="n1">\n<text>{nav}</text>\n</navPoint>\n</ncx>\n',
        )
        z.writestr(
            "ch1.html",
            f'<?xml version="1.0" encoding="utf-8"?>\n<html><body><h1>One</h1>\n<p>{chapter}</p>\n<p>End.</p></body></html>',
        )
        if extra:
            z.writestr("ch2.html", "<html><body><p>Two</p></body></html>")
    return File("r.epub", buf.getvalue())


def cities(values: list[Any]) -> File:
    import openpyxl

    wb = openpyxl.Workbook()
    for i, v in enumerate(values, start=2):
        wb.active.cell(row=i, column=3, value=v)
    buf = io.BytesIO()
    wb.save(buf)
    return File("r.xlsx", buf.getvalue())


def txt(text: str, name: str = "r.txt") -> File:
    return File(name, text.encode())


SUITE = """import glob, os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = sorted(glob.glob(os.path.join(here, "..", "result", "*")))
sys.modules.pop("game", None)
sys.modules.pop("rules", None)
import game
def test():
    return {returns}
"""


def suite(returns: str = "game.add(2, 3) == 5") -> File:
    return File("test_suite.py", SUITE.format(returns=returns).encode())


def game(body: str = "return a + b", rules: bool = False) -> list[File]:
    files = [
        File(
            "game.py",
            f"{'import rules' + chr(10) if rules else ''}def add(a, b):\n    {body}\n".encode(),
        )
    ]
    if rules:
        files.append(File("rules.py", b"LIMIT = 10\n"))
    return files


# ---- cases -----------------------------------------------------------------------------------

LINES = ["06:00:01, T1, S1, 1", "06:00:05, T2, S1, 2", "06:01:00, T1, S2, 1", "06:02:00, T3, S3, 1"]
REFS = [
    "Smith, J. (2020). A study of things. Journal, 1(2), 3-4.",
    "Doe, A. (2019). Book title. Press.",
]
PLACES = [
    "深圳市福田区益田路5055号",
    "福田区莲科路18号",
    "深圳市福田区正义街1号",
    "福田区水围村龙景楼一楼",
]
CITY_RULE = {"expected": [f"City{i}" for i in range(20)] + [["Montreal", "Montréal"]]}
CITIES = [f"City{i}, Country" for i in range(20)] + ["Montréal"]


def writer_cases() -> list[Case]:
    from docx.shared import RGBColor  # noqa: F401 - python-docx is needed

    font, pb, pn, fl = (
        "find_default_font",
        "contains_page_break",
        "has_page_numbers_in_footers",
        "is_first_line_centered",
    )
    tabs, col, strike, hl = (
        "check_tabstops",
        "evaluate_colored_words_in_tables",
        "evaluate_strike_through_last_paragraph",
        "check_highlighted_words",
    )
    tr, ref, fz = "compare_unique_train_records", "compare_references", "fuzzy_place_math"
    df = "/org.openoffice.Office.Writer/DefaultFont"
    tnr = {"font_name": "Times New Roman"}
    opts = {"word_number_split_by_tabstop": 3, "index": 0}
    red, blue = (255, 0, 0), (0, 0, 255)
    gold_words = table_words([("apple", None), ("big", None)])
    trains = [word([LINES[0], LINES[1], LINES[3]], name="gold.docx"), word(LINES, name="orig.docx")]
    refs_gold = word(["Essay", "References", *REFS], name="e.docx")
    ropts = {"content_only": True, "reference_base_result": 0.6}
    # fmt: off
    return [
        Case(font, "Times New Roman", xcu(df, "Standard", "Times New Roman"), tnr),
        Case(font, "another font", xcu(df, "Standard", "Liberation Serif"), tnr),
        Case(font, "another property", xcu(df, "Heading", "Times New Roman"), tnr),
        Case(font, "set twice, last wins", xcu(df, "Standard", "Arial", "Times New Roman"), tnr),
        Case(font, "set twice, first wins not", xcu(df, "Standard", "Times New Roman", "Arial"), tnr),
        Case(font, "not XML", File("registrymodifications.xcu", b"<oor:items"), tnr),
        Case(pb, "two of two", word(["a"], breaks(2)), {"page_break_count": 2}),
        Case(pb, "one of two", word(["a"], breaks(1)), {"page_break_count": 2}),
        Case(pb, "one, no count", word(["a"], breaks(1)), {}),
        Case(pb, "none", word(["a"]), {}),
        Case(pb, "line breaks only", word(["a"], breaks(2, "line")), {"page_break_count": 2}),
        Case(pn, "Page 1", word(["a"], footer("Page 1"))),
        Case(pn, "no digit", word(["a"], footer("Page"))),
        Case(pn, "no footer", word(["a"])),
        Case(pn, "two sections, linked footer", word(["a"], footer("3", sections=2))),
        Case(pn, "two sections, second without number", word(["a"], footer("3", sections=2, second="Draft"))),
        Case(fl, "centred", word(["Title", "body"], align("CENTER"))),
        Case(fl, "right", word(["Title", "body"], align("RIGHT"))),
        Case(fl, "none", word(["Title", "body"])),
        Case(fl, "second centred", word(["Title", "body"], align("CENTER", 1))),
        Case(fl, "justified", word(["Title", "body"], align("JUSTIFY"))),
        Case(tabs, "same", tabbed(6.0), tabbed(6.0), opts),
        Case(tabs, "a little off", tabbed(5.9), tabbed(6.0), opts),
        Case(tabs, "centre tab", tabbed(6.0, "CENTER"), tabbed(6.0), opts),
        Case(tabs, "two words before the tab", tabbed(6.0, first="one two"), tabbed(6.0), opts),
        Case(tabs, "no tab stop", tabbed(None), tabbed(6.0), opts),
        Case(tabs, "an extra left stop", tabbed(6.0, extra=True), tabbed(6.0), opts),
        Case(tabs, "far off, no word rule", tabbed(1.0), tabbed(6.0)),
        Case(col, "right colours", table_words([("apple", red), ("big", blue)]), gold_words),
        Case(col, "near red", table_words([("apple", (250, 5, 5)), ("big", blue)]), gold_words),
        Case(col, "vowel blue", table_words([("apple", blue), ("big", blue)]), gold_words),
        Case(col, "LibreOffice's Blue", table_words([("apple", red), ("big", (42, 96, 153))]), gold_words),
        Case(col, "uncoloured word", table_words([("apple", red), ("big", None)]), gold_words),
        Case(col, "capital vowel", table_words([("Apple", red), ("big", blue)]), table_words([("Apple", None), ("big", None)])),
        Case(col, "text differs", table_words([("apple", red), ("big", blue)], "Other"), gold_words),
        Case(strike, "all struck", struck([True, True]), struck([False, False])),
        Case(strike, "one not struck", struck([True, False]), struck([False, False])),
        Case(strike, "strike None", struck([True, None]), struck([False, False])),
        Case(strike, "text differs", struck([True, True, True]), struck([False, False])),
        Case(strike, "first paragraph differs", struck([True, True], "Keep that."), struck([False, False])),
        Case(hl, "no highlight", odt(None), odt(None)),
        Case(hl, "yellow", odt("#ffff00"), odt(None)),
        Case(hl, "transparent", odt("transparent"), odt(None)),
        Case(hl, "yellow style unused", odt("#ffff00", styled=False), odt(None)),
        Case(hl, "upper-case yellow", odt("#FFFF00"), odt(None)),
        Case(hl, "text differs", odt(None, "Call them"), odt(None)),
        Case(tr, "unique", word([LINES[0], LINES[1], LINES[3]]), trains),
        Case(tr, "another line of T1", word([LINES[2], LINES[1], LINES[3]]), trains),
        Case(tr, "duplicate", word(LINES), trains),
        Case(tr, "one missing", word([LINES[0], LINES[1]]), trains),
        Case(tr, "made-up line", word([LINES[0], LINES[1], "06:09:00, T3, S9, 1"]), trains),
        Case(tr, "blank lines between", word([LINES[0], "", LINES[1], " ", LINES[3]]), trains),
        Case(ref, "same", word(["Essay", "References", *REFS]), refs_gold, ropts),
        Case(ref, "a letter off", word(["Essay", "References", REFS[0], REFS[1].replace("Press", "Pres")]), refs_gold, ropts),
        Case(ref, "one missing", word(["Essay", "References", REFS[0]]), refs_gold, ropts),
        Case(ref, "no heading", word(["Essay", *REFS]), refs_gold, ropts),
        Case(ref, "neither has a heading", word(["Essay", *REFS]), word(["Essay"], name="e.docx"), ropts),
        Case(ref, "rewritten", word(["Essay", "References", "Completely different text here.", REFS[1]]), refs_gold, ropts),
        Case(ref, "default base", word(["Essay", "References", REFS[0], REFS[1].replace("Press", "Pres")]), refs_gold),
        Case(fz, "three exact", word(PLACES[:3]), {"expected": PLACES}),
        Case(fz, "five addresses", word(PLACES + PLACES[:1]), {"expected": PLACES}),
        Case(fz, "two", word(PLACES[:2]), {"expected": PLACES}),
        Case(fz, "three near", word(["深圳市福田区益田路5055", "福田区莲科路1号", "正义街1号"]), {"expected": PLACES}),
        Case(fz, "three on one line", word([" ".join(PLACES[:3])]), {"expected": PLACES}),
    ]
    # fmt: on


def impress_cases() -> list[Case]:
    pc, tc, fill, num = (
        "check_presenter_console_disable",
        "check_transition",
        "evaluate_presentation_fill_to_rgb_distance",
        "check_page_number_colors",
    )
    start = "/org.openoffice.Office.Impress/Misc/Start"
    dissolve = {"slide_idx": 0, "transition_type": "dissolve"}
    blue = {"rgb": [0, 0, 255], "original_rgb": [255, 255, 255]}
    # fmt: off
    return [
        Case(pc, "false", xcu(start, "EnablePresenterScreen", "false")),
        Case(pc, "true", xcu(start, "EnablePresenterScreen", "true")),
        Case(pc, "False", xcu(start, "EnablePresenterScreen", "False")),
        Case(pc, "another setting", xcu(start, "StartWithTemplate", "false")),
        Case(pc, "another path", xcu("/org.openoffice.Office.Impress/Misc", "EnablePresenterScreen", "false")),
        Case(tc, "dissolve", deck(transition("dissolve")), dissolve),
        Case(tc, "fade", deck(transition("fade")), dissolve),
        Case(tc, "dissolve on slide 2", deck(transition("dissolve", 1)), dissolve),
        Case(tc, "none", deck(), dissolve),
        Case(tc, "slide 5 of 2", deck(transition("dissolve")), {"slide_idx": 4, "transition_type": "dissolve"}),
        Case(tc, "dissolve, saved by LibreOffice", deck(transition("dissolve"), lo=True), dissolve),
        Case(fill, "both blue", deck(backgrounds((0, 0, 255), (0, 0, 255))), blue),
        Case(fill, "near blue", deck(backgrounds((0, 0, 255), (10, 10, 240))), blue),
        Case(fill, "one still white", deck(backgrounds((0, 0, 255), (255, 255, 255))), blue),
        Case(fill, "one inherits nothing", deck(backgrounds((0, 0, 255), None)), blue),
        Case(fill, "master blue", deck(backgrounds(None, None, master=(0, 0, 255))), blue),
        Case(fill, "red", deck(backgrounds((255, 0, 0), (255, 0, 0))), blue),
        Case(fill, "theme colour", deck(backgrounds("theme", (0, 0, 255))), blue),
        Case(fill, "no original", deck(backgrounds((255, 255, 255), (0, 0, 255))), {"rgb": [0, 0, 255]}),
        Case(fill, "blue, saved by LibreOffice", deck(backgrounds((0, 0, 255), (0, 0, 255)), lo=True), blue),
        Case(num, "red", deck(number_colour("FF0000"), lo=True), {"color": "red"}),
        Case(num, "grey", deck(number_colour("8B8B8B"), lo=True), {"color": "red"}),
        Case(num, "uncoloured", deck(number_colour(None), lo=True), {"color": "red"}),
        Case(num, "blue wanted, red", deck(number_colour("FF0000"), lo=True), {"color": "blue"}),
        Case(num, "red, as made", deck(number_colour("FF0000")), {"color": "red"}),
        Case(num, "black wanted, red", deck(number_colour("FF0000"), lo=True), {"color": "black"}),
    ]
    # fmt: on


def misc_cases() -> list[Case]:
    pp, pi, at, ep, cc, cb = ("check_pdf_pages", "compare_pdf_images", "check_accessibility_tree",
                              "compare_epub", "compare_conference_city_in_order", "is_in_vm_clickboard")  # fmt: skip
    white, black = (255, 255, 255), (0, 0, 0)
    css = [
        {
            "selectors": [
                'application[name=Thunderbird] page-tab-list[attr|id="tabmail-tabs"]>page-tab[name="About Profiles"]'
            ]
        }
    ]
    fuzzy = [
        {
            "xpath": "//application[@name='Thunderbird']//*[contains(@name, 'Profiles')]",
            "text": "Profiles",
            "exact": False,
        }
    ]
    exact = [{"xpath": "//*[@name='Password']", "text": "Sign in", "exact": True}]
    both = [
        {"xpath": "//*[contains(@name, 'About')]"},
        {"xpath": "//*[contains(@name, 'password') or contains(@name, 'Password')]"},
    ]
    a, b = noise(1), noise(2)
    gold_book = epub("It was a dark night.")
    secret = {"expected": "/home/user/Data3/List3/secret.docx"}
    # fmt: off
    return [
        Case(pp, "one page", pictures(white), {"relation": "eq", "ref_value": 1}),
        Case(pp, "two pages", pictures(white, black), {"relation": "eq", "ref_value": 1}),
        Case(pp, "two > one", pictures(white, black), {"relation": "gt", "ref_value": 1}),
        Case(pp, "one <= 1", pictures(white), {"relation": "le", "ref_value": 1}),
        Case(pp, "three != 3", pictures(white, black, white), {"relation": "ne", "ref_value": 3}),
        Case(pi, "same picture", pictures(a), pictures(a, name="e.pdf")),
        Case(pi, "same picture, larger", pictures(a.resize((150, 150))), pictures(a, name="e.pdf")),
        Case(pi, "another picture", pictures(b), pictures(a, name="e.pdf")),
        Case(pi, "a picture more", pictures(a, a), pictures(a, name="e.pdf")),
        Case(pi, "two of two, one differs", pictures(a, b), pictures(a, a, name="e.pdf")),
        Case(pi, "no pictures", raw_text_pdf(), raw_text_pdf("e.pdf")),
        Case(pi, "raw RGB samples vs JPEG", raw_picture_pdf(a), pictures(a, name="e.pdf")),
        Case(pi, "raw grey samples", raw_picture_pdf(a.convert("L")), raw_picture_pdf(a.convert("L"), "e.pdf")),
        Case(pi, "raw grey vs another", raw_picture_pdf(a.convert("L")), raw_picture_pdf(b.convert("L"), "e.pdf")),
        Case(pi, "grey JPEG vs colour", pictures(a.convert("L")), pictures(a, name="e.pdf")),
        Case(at, "tab open", tree(), css),
        Case(at, "another tab", tree("Inbox"), css),
        Case(at, "fuzzy text", tree(text="Profile"), fuzzy),
        Case(at, "exact text", tree(), exact),
        Case(at, "exact text differs", tree(), [{**exact[0], "text": "Sign out"}]),
        Case(at, "two rules", tree(), both),
        Case(at, "two rules, one fails", tree("Inbox"), both),
        Case(ep, "same but the identifier", epub("It was a dark night.", "id-2"), gold_book),
        Case(ep, "a chapter differs", epub("Something else entirely."), gold_book),
        Case(ep, "the table of contents differs", epub("It was a dark night.", nav="Chapter One"), gold_book),
        Case(ep, "a chapter more", epub("It was a dark night.", extra=True), gold_book),
        Case(ep, "not a zip", File("r.epub", b"plain text"), gold_book),
        Case(cc, "all there", cities(CITIES), CITY_RULE),
        Case(cc, "last wrong", cities(CITIES[:20] + ["Toronto"]), CITY_RULE),
        Case(cc, "last empty", cities(CITIES[:20]), CITY_RULE),
        Case(cc, "reversed", cities(CITIES[::-1]), CITY_RULE),
        Case(cc, "a number", cities([*CITIES[:5], 7, *CITIES[6:]]), CITY_RULE),
        Case(cc, "rule too short", cities(CITIES), {"expected": CITY_RULE["expected"][:10]}),
        Case(cb, "the path", secret, "/home/user/Data3/List3/secret.docx\n"),
        Case(cb, "another path", secret, "/home/user/Data3/secret.docx"),
        Case(cb, "empty clipboard", secret, ""),
        Case(cb, "all of a list", {"expected": ["a", "b"]}, "a and b"),
        Case(cb, "one of a list missing", {"expected": ["a", "c"]}, "a and b"),
    ]
    # fmt: on


def code_cases() -> list[Case]:
    rf, pt, ts = (
        "compare_result_files",
        "compare_python_pure_text",
        "check_python_file_by_test_suite",
    )
    gold_py = txt("import torch\n# data\nx = 1\nif x:\n    y = 2\n", "gold.py")
    # fmt: off
    return [
        Case(rf, "same number", txt("25.5\n"), txt("25.5", "gold.txt")),
        Case(rf, "number in a sentence", txt("The median is 25.50"), txt("25.50", "gold.txt")),
        Case(rf, "near number", txt("25.50001"), txt("25.5", "gold.txt")),
        Case(rf, "other number", txt("25.6"), txt("25.50", "gold.txt")),
        Case(rf, "same text", txt("done\n"), txt("done", "gold.txt")),
        Case(rf, "other text", txt("done!"), txt("done", "gold.txt")),
        Case(pt, "same after normalising", txt("#!/usr/bin/env python\nimport torch\n\n# data\nx = 1  \nif x:\n\ty = 2\n", "r.py"), gold_py),
        Case(pt, "comment lost", txt("import torch\nx = 1\nif x:\n    y = 2\n", "r.py"), gold_py),
        Case(pt, "markdown kept", txt('"""Markdown"""\nimport torch\n# data\nx = 1\nif x:\n    y = 2\n', "r.py"), gold_py),
        Case(pt, "coding line", txt("# -*- coding: utf-8 -*-\nimport torch\n# data\nx = 1\nif x:\n    y = 2\n", "r.py"), gold_py),
        Case(pt, "indent differs", txt("import torch\n# data\nx = 1\nif x:\n  y = 2\n", "r.py"), gold_py),
        Case(ts, "fixed", game(), suite()),
        Case(ts, "still buggy", game("return a - b"), suite()),
        Case(ts, "crashes", game("raise RuntimeError('boom')"), suite()),
        Case(ts, "two files", game(rules=True), suite("game.add(2, 3) == 5 and game.rules.LIMIT == 10")),
        Case(ts, "a number", game(), suite("0.5")),
        Case(ts, "a string", game(), suite("'yes'")),
    ]
    # fmt: on


def more_cases() -> list[Case]:
    return writer_cases() + impress_cases() + misc_cases() + code_cases()


#: OSWorld's module of each metric these cases compare.
MORE_MODULES = {
    "find_default_font": "docs", "contains_page_break": "docs", "has_page_numbers_in_footers": "docs",
    "is_first_line_centered": "docs", "check_tabstops": "docs", "evaluate_colored_words_in_tables": "docs",
    "evaluate_strike_through_last_paragraph": "docs", "check_highlighted_words": "docs",
    "compare_unique_train_records": "docs", "compare_references": "docs", "fuzzy_place_math": "general",
    "check_presenter_console_disable": "slides", "check_transition": "slides",
    "evaluate_presentation_fill_to_rgb_distance": "slides", "check_page_number_colors": "slides",
    "check_pdf_pages": "pdf", "compare_pdf_images": "chrome", "check_accessibility_tree": "general",
    "compare_epub": "others", "compare_conference_city_in_order": "table", "is_in_vm_clickboard": "basic_os",
    "compare_result_files": "vscode", "compare_python_pure_text": "general",
    "check_python_file_by_test_suite": "vscode",
}  # fmt: skip
