"""OSWorld's document metrics: Writer files (``.docx``, ``.odt``) and PDFs; and the registry
of every document metric (:data:`DOC_METRICS`: these, spreadsheets, slides, text and JSON).

Semantics follow OSWorld's functions of the same names (``docs.py``, ``chrome.py``); the code
is this project's: ``compare_docx_files``, ``compare_docx_tables``, ``compare_line_spacing``,
``compare_docx_images`` and ``compare_pdfs``. Paragraphs are python-docx's body paragraphs (``.docx``) or every
``text:p`` of ``content.xml`` then ``styles.xml`` with its own and its spans' direct text
(``.odt``, as odfpy gives them to OSWorld). A PDF's text is pdfplumber's, pages joined by a
newline, where OSWorld uses PyMuPDF: scores of near texts differ by a little
(``benchmarks/osworld_parity.py`` measures how much).

>>> import io, docx
>>> d = docx.Document(); _ = d.add_paragraph("Hello  world"); buf = io.BytesIO(); d.save(buf)
>>> from gcc_envs.osworld.filedata import FileData
>>> a = FileData(buf.getvalue(), "a.docx")
>>> compare_docx_files(a, a), compare_docx_tables(a, a)
(1.0, 1.0)
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Sequence
from typing import Any

from gcc_envs.osworld.filedata import FileData, file_bytes
from gcc_envs.osworld.metrics_slides import SLIDE_METRICS
from gcc_envs.osworld.metrics_table import TABLE_METRICS
from gcc_envs.osworld.metrics_text import TEXT_METRICS, score

_TEXT_NS = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"


def _name(value: Any) -> str:
    return value.name if isinstance(value, FileData) else ""


def docx_paragraphs(data: bytes) -> list[str]:
    """The text of each body paragraph of a ``.docx`` (python-docx's ``Paragraph.text``)."""
    import docx

    return [p.text for p in docx.Document(io.BytesIO(data)).paragraphs]


def odt_paragraphs(data: bytes) -> list[str]:
    """Each ``text:p`` of an ``.odt`` (content, then styles): its text and its spans' own
    text, nothing of other elements (spaces ``text:s``, tabs, links, nested spans)."""
    from lxml import etree

    out = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = set(z.namelist())
        for part in ("content.xml", "styles.xml"):
            if part not in names:
                continue
            root = etree.fromstring(z.read(part))
            for p in root.iter(f"{{{_TEXT_NS}}}p"):
                bits = [p.text or ""]
                for child in p:
                    if child.tag == f"{{{_TEXT_NS}}}span":
                        bits.append(child.text or "")
                        bits.extend(gc.tail or "" for gc in child)
                    bits.append(child.tail or "")
                out.append("".join(bits))
    return out


def _squeeze(paragraphs: list[str]) -> str:
    return re.sub(r"\s+", " ", "\n".join(paragraphs)).strip()


def compare_docx_files(
    result: Any,
    expected: Any,
    ignore_blanks: bool = True,
    ignore_case: bool = False,
    ignore_order: bool = False,
    content_only: bool = False,
    fuzzy_match: bool = False,
    delete_empty_lines: bool = False,
) -> float:
    """The two documents' paragraphs agree (both ``.docx`` or both ``.odt``, else 0).

    ``ignore_blanks`` (default): the texts, whitespace runs squeezed to one space, are equal
    (with ``fuzzy_match``: their ``fuzz.ratio``/100); otherwise paragraph by paragraph (or
    their average ratio). ``content_only``: the squeezed texts' ratio/100. ``ignore_order``
    sorts the paragraphs, ``delete_empty_lines`` drops blank ones, ``ignore_case`` lowers.
    """
    import docx  # noqa: F401 - a missing library is an error, not a score of 0
    from rapidfuzz import fuzz

    data1, data2 = file_bytes(result), file_bytes(expected)
    if data1 is None or data2 is None:
        return 0.0
    name1, name2 = _name(result), _name(expected)
    if name1.endswith(".docx") and name2.endswith(".docx"):
        read = docx_paragraphs
    elif name1.endswith(".odt") and name2.endswith(".odt"):
        read = odt_paragraphs
    else:
        return 0.0
    try:
        paras1, paras2 = read(data1), read(data2)
    except Exception:  # noqa: BLE001 - OSWorld scores a document it cannot open 0
        return 0.0
    if ignore_order:
        paras1, paras2 = sorted(paras1), sorted(paras2)
    if delete_empty_lines:
        paras1, paras2 = [p for p in paras1 if p.strip()], [p for p in paras2 if p.strip()]
    if content_only or ignore_blanks:
        text1, text2 = _squeeze(paras1), _squeeze(paras2)
        if ignore_case:
            text1, text2 = text1.lower(), text2.lower()
        if content_only or fuzzy_match:
            return fuzz.ratio(text1, text2) / 100.0
        return score(text1 == text2)
    if len(paras1) != len(paras2):
        return 0.0
    if ignore_case:
        paras1, paras2 = [p.lower() for p in paras1], [p.lower() for p in paras2]
    if fuzzy_match:
        if not paras1:
            return 1.0
        return sum(fuzz.ratio(a, b) / 100.0 for a, b in zip(paras1, paras2)) / len(paras1)
    return score(paras1 == paras2)


def compare_docx_tables(result: Any, expected: Any) -> float:
    """The documents have as many tables, of the same shape, with the same cell texts
    (stripped)."""
    import docx

    data1, data2 = file_bytes(result), file_bytes(expected)
    if data1 is None or data2 is None:
        return 0.0
    try:
        tables1 = docx.Document(io.BytesIO(data1)).tables
        tables2 = docx.Document(io.BytesIO(data2)).tables
    except Exception:  # noqa: BLE001 - OSWorld scores a document it cannot open 0
        return 0.0
    if len(tables1) != len(tables2):
        return 0.0
    for t1, t2 in zip(tables1, tables2):
        if len(t1.rows) != len(t2.rows) or len(t1.columns) != len(t2.columns):
            return 0.0
        for i in range(len(t1.rows)):
            for j in range(len(t1.columns)):
                if t1.cell(i, j).text.strip() != t2.cell(i, j).text.strip():
                    return 0.0
    return 1.0


def compare_line_spacing(result: Any, expected: Any) -> float:
    """The documents agree as :func:`compare_docx_files` sees them, and each paragraph has
    the same line spacing (python-docx's ``paragraph_format.line_spacing``)."""
    import docx

    if not compare_docx_files(result, expected):
        return 0.0
    paras1 = docx.Document(io.BytesIO(file_bytes(result))).paragraphs  # type: ignore[arg-type]
    paras2 = docx.Document(io.BytesIO(file_bytes(expected))).paragraphs  # type: ignore[arg-type]
    if len(paras1) != len(paras2):
        return 0.0
    return score(
        all(
            a.paragraph_format.line_spacing == b.paragraph_format.line_spacing
            for a, b in zip(paras1, paras2)
        )
    )


def compare_docx_images(result: Any, expected: Any) -> float:
    """The documents hold as many images, in the order of their relationships, with the same
    pixels (decoded by Pillow)."""
    import docx
    from PIL import Image

    data1, data2 = file_bytes(result), file_bytes(expected)
    if data1 is None or data2 is None:
        return 0.0
    try:
        docs = docx.Document(io.BytesIO(data1)), docx.Document(io.BytesIO(data2))
    except Exception:  # noqa: BLE001 - OSWorld scores a document it cannot open 0
        return 0.0
    images1, images2 = (
        [r.target_part.blob for r in d.part.rels.values() if "image" in r.reltype] for d in docs
    )
    if len(images1) != len(images2):
        return 0.0
    return score(
        all(
            Image.open(io.BytesIO(a)).tobytes() == Image.open(io.BytesIO(b)).tobytes()
            for a, b in zip(images1, images2)
        )
    )


def pdf_text(data: bytes) -> str:
    """A PDF's text: each page's lines, pages joined by a newline, the whole stripped."""
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return "\n".join(page.extract_text() for page in pdf.pages).strip()


def compare_pdfs(result: Any, expected: Any) -> float:
    """How alike the PDFs' texts are: ``fuzz.ratio``/100, in [0, 1]; lists of PDFs pair up
    and average (a pair that cannot be read adds 0)."""
    import pdfplumber  # noqa: F401 - a missing library is an error, not a score of 0
    from rapidfuzz import fuzz

    pairs: Sequence[tuple[Any, Any]]
    if isinstance(expected, (list, tuple)):
        if not isinstance(result, (list, tuple)):
            raise TypeError("compare_pdfs: a list of expected PDFs needs a list of results")
        pairs = list(zip(result, expected))
    else:
        pairs = [(result, expected)]
    total = 0.0
    for a, b in pairs:
        data1, data2 = file_bytes(a), file_bytes(b)
        if data1 is None or data2 is None:
            continue
        try:
            total += fuzz.ratio(pdf_text(data1), pdf_text(data2)) / 100.0
        except Exception:  # noqa: BLE001 - OSWorld adds 0 for a pair it cannot read
            continue
    n = len(expected) if isinstance(expected, (list, tuple)) else 1
    return total / n


DOC_METRICS = {
    "compare_docx_files": compare_docx_files, "compare_docx_tables": compare_docx_tables,
    "compare_pdfs": compare_pdfs, "compare_line_spacing": compare_line_spacing,
    "compare_docx_images": compare_docx_images,
    **TABLE_METRICS, **SLIDE_METRICS, **TEXT_METRICS,
}  # fmt: skip
