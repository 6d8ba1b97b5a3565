"""OSWorld's Writer checks: one property of a ``.docx`` or ``.odt`` (and Writer's default font
in LibreOffice's ``registrymodifications.xcu``), in :data:`WRITER_METRICS`.

Semantics follow OSWorld's functions of the same names (``docs.py``); the code is this
project's. Documents are read with python-docx (``.docx``) or lxml (``.odt``); a missing file
scores 0, one that cannot be read raises (the evaluator scores that 0 with a note, where
OSWorld logs and scores 0). What python-docx reads is direct formatting: a paragraph centred
by its style is not "centred", a strike-through from a character style is not "struck", as in
OSWorld. Checks that first ask the document to read as the expected one do so with
:func:`~.metrics_docs.compare_docx_files` and its defaults.

>>> xcu = ('<oor:items xmlns:oor="http://openoffice.org/2001/registry">'
...        '<item oor:path="/org.openoffice.Office.Writer/DefaultFont">'
...        '<prop oor:name="Standard"><value>Liberation Serif</value></prop></item></oor:items>')
>>> find_default_font(xcu, {"font_name": "Liberation Serif"})
1.0
>>> round(ciede2000((255, 0, 0), (250, 10, 5)), 2)
0.94
"""

from __future__ import annotations

import io
import math
import zipfile
from collections.abc import Mapping
from typing import Any

from gcc_envs.osworld.filedata import file_bytes
from gcc_envs.osworld.metrics_docs import compare_docx_files
from gcc_envs.osworld.metrics_text import score

Rule = Mapping[str, Any]
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_OOR = "{http://openoffice.org/2001/registry}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_FO = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
#: The highlight OSWorld's ``check_highlighted_words`` looks for (LibreOffice's yellow).
YELLOW = "#ffff00"


def _document(value: Any) -> Any:
    """The python-docx ``Document`` of a getter's value; None for a missing file."""
    import docx

    data = file_bytes(value)
    return None if data is None else docx.Document(io.BytesIO(data))


def parse_xml(data: bytes) -> Any:
    """An XML document's root, read by lxml without entities, DTDs or the network."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.fromstring(data, parser)


def xcu_values(data: bytes, path: str, prop: str) -> list[str | None]:
    """The ``value`` texts of ``prop`` in each ``item`` at ``path`` of a LibreOffice
    ``registrymodifications.xcu``, in file order."""
    root = parse_xml(data)
    out = []
    for item in root.iter("item"):
        if item.get(f"{_OOR}path") != path:
            continue
        for p in item.iter("prop"):
            if p.get(f"{_OOR}name") == prop:
                out.extend(v.text for v in p.findall("value"))
    return out


# ---- settings and whole-document properties ------------------------------------------------


def find_default_font(result: Any, rules: Rule) -> float:
    """Writer's default font (``/org.openoffice.Office.Writer/DefaultFont``, ``Standard``,
    the last value written) is ``font_name``."""
    data = file_bytes(result)
    if not data:
        return 0.0
    values = xcu_values(data, "/org.openoffice.Office.Writer/DefaultFont", "Standard")
    return score(bool(values) and values[-1] == rules["font_name"])


def contains_page_break(result: Any, rules: Rule) -> float:
    """The body's paragraphs hold page breaks (``<w:br w:type="page"/>`` in their runs):
    exactly ``page_break_count`` of them when the rule gives it, else at least one."""
    doc = _document(result)
    if doc is None:
        return 0.0
    count = sum(
        1
        for p in doc.paragraphs
        for r in p.runs
        for br in r._element.iter(f"{_W}br")
        if br.get(f"{_W}type") == "page"
    )
    wanted = rules.get("page_break_count") if isinstance(rules, Mapping) else None
    if wanted is not None and count != wanted:
        return 0.0
    return score(count > 0)


def has_page_numbers_in_footers(result: Any) -> float:
    """Every section's footer has a digit in its first paragraph (a page number field's
    shown value)."""
    doc = _document(result)
    if doc is None:
        return 0.0
    for section in doc.sections:
        paragraphs = section.footer.paragraphs
        if not any(c.isdigit() for c in (paragraphs[0].text if paragraphs else "")):
            return 0.0
    return 1.0


def is_first_line_centered(result: Any) -> float:
    """The first paragraph is centred (direct formatting)."""
    from docx.enum.text import WD_PARAGRAPH_ALIGNMENT

    doc = _document(result)
    if doc is None:
        return 0.0
    return score(doc.paragraphs[0].paragraph_format.alignment == WD_PARAGRAPH_ALIGNMENT.CENTER)


def check_tabstops(result: Any, expected: Any, **options: Any) -> float:
    """The non-empty paragraphs have the expected ones' tab stops: as many (leaving out
    cleared ones and a left stop at 0), of the same alignments; the score is 1 less the mean
    over paragraphs of the summed position differences over the first section's text width.

    ``word_number_split_by_tabstop``: each result paragraph's ``index``-th tab-separated
    part (default 0) has exactly that many words.
    """
    from docx.enum.text import WD_TAB_ALIGNMENT

    unknown = set(options) - {"word_number_split_by_tabstop", "index"}
    if unknown:
        raise TypeError(f"check_tabstops: unknown options {sorted(unknown)}")
    doc1, doc2 = _document(result), _document(expected)
    if doc1 is None or doc2 is None:
        return 0.0
    paras1 = [p for p in doc1.paragraphs if p.text.strip()]
    paras2 = [p for p in doc2.paragraphs if p.text.strip()]
    if len(paras1) != len(paras2):
        return 0.0
    number = options.get("word_number_split_by_tabstop")
    if number is not None:
        index = options.get("index", 0)
        for p in paras1:
            if len(p.text.split("\t")[index].split()) != number:
                return 0.0

    def kept(p: Any) -> list[Any]:
        return [
            t
            for t in p.paragraph_format.tab_stops
            if t.alignment != WD_TAB_ALIGNMENT.CLEAR
            and not (t.alignment == WD_TAB_ALIGNMENT.LEFT and t.position == 0)
        ]

    section = doc2.sections[0]
    width = section.page_width - section.left_margin - section.right_margin
    lost = 0.0
    for p1, p2 in zip(paras1, paras2):
        tabs1, tabs2 = kept(p1), kept(p2)
        if len(tabs1) != len(tabs2):
            return 0.0
        if any(t1.alignment != t2.alignment for t1, t2 in zip(tabs1, tabs2)):
            return 0.0
        lost += sum(abs(t1.position - t2.position) for t1, t2 in zip(tabs1, tabs2)) / width
    return 1.0 - lost / len(paras1)


# ---- character formatting ------------------------------------------------------------------


def _lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65, 2°) of an sRGB colour given as 0-255 values."""

    def linear(c: float) -> float:
        c /= 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    xyz = (
        (0.412453 * r + 0.357580 * g + 0.180423 * b) / 0.95047,
        0.212671 * r + 0.715160 * g + 0.072169 * b,
        (0.019334 * r + 0.119193 * g + 0.950227 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(rgb1: tuple[int, int, int], rgb2: tuple[int, int, int]) -> float:
    """The CIEDE2000 colour difference of two sRGB colours (``kL = kC = kH = 1``)."""
    (l1, a1, b1), (l2, a2, b2) = _lab(rgb1), _lab(rgb2)
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.atan2(b1, a1) % (2 * math.pi) if c1 else 0.0
    h2 = math.atan2(b2, a2) % (2 * math.pi) if c2 else 0.0
    dh = h2 - h1
    if c1 * c2 == 0:
        dh = 0.0
    elif dh > math.pi:
        dh -= 2 * math.pi
    elif dh < -math.pi:
        dh += 2 * math.pi
    d_l, d_c, d_h = l2 - l1, c2 - c1, 2 * math.sqrt(c1 * c2) * math.sin(dh / 2)
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    h_mean = h1 + h2
    if c1 * c2 != 0:
        h_mean = (h1 + h2) / 2 if abs(h1 - h2) <= math.pi else (h1 + h2 + 2 * math.pi) / 2
        h_mean %= 2 * math.pi
    t = (1 - 0.17 * math.cos(h_mean - math.radians(30)) + 0.24 * math.cos(2 * h_mean)
         + 0.32 * math.cos(3 * h_mean + math.radians(6))
         - 0.20 * math.cos(4 * h_mean - math.radians(63)))  # fmt: skip
    theta = math.radians(30) * math.exp(-(((math.degrees(h_mean) - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_mean**7 / (c_mean**7 + 25.0**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = -math.sin(2 * theta) * r_c
    return math.sqrt(
        (d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h)
    )


def evaluate_colored_words_in_tables(result: Any, expected: Any, threshold: float = 3.5) -> float:
    """The document reads as the expected one, and in its tables each run with text is red
    when its first letter is a vowel (``aeiou``) and blue otherwise: its colour within
    ``threshold`` (CIEDE2000) of ``#FF0000`` or ``#0000FF``. A run without a colour of its
    own fails (OSWorld's colour arithmetic raises on it)."""
    if not compare_docx_files(result, expected):
        return 0.0
    doc = _document(result)
    for table in doc.tables:
        for row in table.rows:
            for cell in row.cells:
                for paragraph in cell.paragraphs:
                    for run in paragraph.runs:
                        if not run.text:
                            continue
                        colour = run.font.color.rgb
                        target = (255, 0, 0) if run.text[0].lower() in "aeiou" else (0, 0, 255)
                        if colour is None or ciede2000(tuple(colour), target) > threshold:
                            return 0.0
    return 1.0


def evaluate_strike_through_last_paragraph(result: Any, expected: Any) -> float:
    """The document reads as the expected one and every run of its last paragraph is struck
    through."""
    if not compare_docx_files(result, expected):
        return 0.0
    return score(all(run.font.strike for run in _document(result).paragraphs[-1].runs))


def check_highlighted_words(result: Any, expected: Any) -> float:
    """The ``.odt`` reads as the expected one and no span (in the body, headers or footers)
    has an automatic style with a yellow (``#ffff00``) background."""
    if not _name(result).endswith(".odt") or not compare_docx_files(result, expected):
        return 0.0
    with zipfile.ZipFile(io.BytesIO(file_bytes(result))) as z:  # type: ignore[arg-type]
        names = set(z.namelist())
        roots = [parse_xml(z.read(p)) for p in ("content.xml", "styles.xml") if p in names]
    yellow, spans = set(), set()
    for root in roots:
        for styles in root.iter(f"{_OFFICE}automatic-styles"):
            for style in styles:
                if any(c.get(f"{_FO}background-color") == YELLOW for c in style):
                    yellow.add(style.get(f"{_STYLE}name"))
        spans.update(s.get(f"{_TEXT}style-name") for s in root.iter(f"{_TEXT}span"))
    return score(not ((spans - {None}) & yellow))


# ---- lines and references ------------------------------------------------------------------


def _lines_and_ids(value: Any) -> tuple[list[str], list[str]]:
    lines = [p.text.strip() for p in _document(value).paragraphs if p.text.strip()]
    return lines, [ln.split(",")[1].strip() for ln in lines if len(ln.split(",")) == 4]


def compare_unique_train_records(result: Any, expected: Any) -> float:
    """``expected`` is ``[gold, original]``. The result's non-empty lines all come from the
    original, their train ids (second of four comma-separated fields) are unique and are the
    gold's, and there are as many lines as the gold has."""
    if file_bytes(result) is None or not isinstance(expected, (list, tuple)) or len(expected) < 2:
        return 0.0
    gold, original = expected[0], expected[1]
    if file_bytes(gold) is None or file_bytes(original) is None:
        return 0.0
    lines, ids = _lines_and_ids(result)
    gold_lines, gold_ids = _lines_and_ids(gold)
    original_lines, _ = _lines_and_ids(original)
    return score(
        set(lines) <= set(original_lines)
        and len(ids) == len(set(ids))
        and set(ids) == set(gold_ids)
        and len(lines) == len(gold_lines)
    )


def compare_references(
    result: Any,
    expected: Any,
    reference_indicator: str = "References",
    reference_base_result: float = 0.5,
    content_only: bool = False,
) -> float:
    """How alike the references are: the non-empty paragraphs after the first paragraph
    that is exactly ``reference_indicator``, paired in order (as many in both, else 0); their
    mean ``fuzz.ratio``/100 ``m`` scores ``(m - base) / (1 - base)`` when ``m`` is at least
    ``base + 0.01`` (``base``: ``reference_base_result``), else 0. Neither document having
    the heading scores 1; one having it, 0. Both must be ``.docx``. ``content_only`` (task
    files give it) changes nothing, as in OSWorld.
    """
    from rapidfuzz import fuzz

    del content_only
    data1, data2 = file_bytes(result), file_bytes(expected)
    if data1 is None or data2 is None:
        return 0.0
    if not (_name(result).endswith(".docx") and _name(expected).endswith(".docx")):
        return 0.0
    paras1 = [p.text for p in _document(result).paragraphs]
    paras2 = [p.text for p in _document(expected).paragraphs]
    has1, has2 = reference_indicator in paras1, reference_indicator in paras2
    if not has1 and not has2:
        return 1.0
    if not has1 or not has2:
        return 0.0
    refs1 = [p for p in paras1[paras1.index(reference_indicator) + 1 :] if p.strip()]
    refs2 = [p for p in paras2[paras2.index(reference_indicator) + 1 :] if p.strip()]
    if len(refs1) != len(refs2) or not refs1:
        return 0.0
    mean = sum(fuzz.ratio(a, b) / 100.0 for a, b in zip(refs1, refs2)) / len(refs1)
    if mean < reference_base_result + 0.01:
        return 0.0
    return (mean - reference_base_result) / (1 - reference_base_result)


def fuzzy_place_math(result: Any, rules: Rule) -> float:
    """The document holds exactly three words (whitespace-separated, over all paragraphs);
    the score is the mean over them of the best ``fuzz.ratio``/100 to any ``expected``
    answer. (OSWorld's count: its one task asks for five addresses.)"""
    from rapidfuzz import fuzz

    doc = _document(result)
    if doc is None:
        return 0.0
    words = [w for p in doc.paragraphs for w in p.text.split()]
    if len(words) != 3:
        return 0.0
    answers = rules["expected"]
    return sum(max((fuzz.ratio(w, a) / 100.0 for a in answers), default=0.0) for w in words) / 3


def _name(value: Any) -> str:
    return str(getattr(value, "name", "") or "")


#: Writer's metrics by OSWorld's names.
WRITER_METRICS = {
    "find_default_font": find_default_font, "contains_page_break": contains_page_break,
    "has_page_numbers_in_footers": has_page_numbers_in_footers,
    "is_first_line_centered": is_first_line_centered, "check_tabstops": check_tabstops,
    "evaluate_colored_words_in_tables": evaluate_colored_words_in_tables,
    "evaluate_strike_through_last_paragraph": evaluate_strike_through_last_paragraph,
    "check_highlighted_words": check_highlighted_words,
    "compare_unique_train_records": compare_unique_train_records,
    "compare_references": compare_references, "fuzzy_place_math": fuzzy_place_math,
}  # fmt: skip
