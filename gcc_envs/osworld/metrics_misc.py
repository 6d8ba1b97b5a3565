"""OSWorld's last few metrics (PDF pages and pictures, accessibility trees, EPUBs, a
spreadsheet column, the clipboard), and :data:`MISC_METRICS`: these with the Writer
(:mod:`.metrics_writer`), Impress (:mod:`.metrics_impress`) and program-file
(:mod:`.metrics_code`) checks.

Semantics follow OSWorld's functions of the same names (``pdf.py``, ``chrome.py``,
``general.py``, ``others.py``, ``table.py``, ``basic_os.py``); the code is this project's.
Where they differ:

* PDFs are read with pdfplumber (OSWorld: pypdf and PyMuPDF). ``compare_pdf_images`` decodes
  the pictures itself (JPEG and JPEG 2000 as stored; raw samples in grey, RGB, CMYK, ICC or
  indexed colour, 1 to 8 bits); another kind raises. Its perceptual hash is imagehash's
  ``phash`` (32×32 grey, Lanczos; the 8×8 lowest DCT-II frequencies above their median),
  written here on numpy.
* ``check_accessibility_tree`` reads the tree in the namespaces it declares: OSWorld's current
  ones, or the ``uri:deskat:`` ones this package's getter writes (the rule's ``attr|id`` means
  the same in both). A rule with ``text`` and no ``exact`` matches exactly, as OSWorld's
  docstring says (its code raises there).
* ``compare_epub`` reads the ``.html`` files wherever they are in the archive; OSWorld's
  fails on one inside a folder (it writes it to a folder it has not made) and scores 0.

>>> is_in_vm_clickboard({"expected": "/home/user/a.docx"}, "/home/user/a.docx\\n")
1.0
>>> import numpy as np
>>> from PIL import Image
>>> x = np.linspace(0, 255, 64)
>>> wave = Image.fromarray((np.outer(np.sin(x / 40), np.cos(x / 30)) * 120 + 128).astype(np.uint8))
>>> brighter = wave.point(lambda v: min(255, v + 3))
>>> hamming(phash(wave), phash(brighter)), hamming(phash(wave), phash(wave.transpose(0)))
(0, 34)
"""

from __future__ import annotations

import io
import operator
import zipfile
from collections.abc import Mapping
from typing import Any

import numpy as np
from PIL import Image

from gcc_envs.errors import GCCError
from gcc_envs.osworld.filedata import file_bytes
from gcc_envs.osworld.metrics_code import CODE_METRICS
from gcc_envs.osworld.metrics_impress import IMPRESS_METRICS
from gcc_envs.osworld.metrics_text import diff_text_file, score
from gcc_envs.osworld.metrics_writer import WRITER_METRICS, parse_xml

Rule = Mapping[str, Any]
RELATIONS = ("eq", "ne", "lt", "le", "gt", "ge")
#: Pictures whose hashes differ in at most this many bits are the same (OSWorld's 5).
HASH_THRESHOLD = 5


def check_pdf_pages(result: Any, rules: Rule) -> float:
    """The PDF's page count stands in ``relation`` (``eq``, ``lt``, ...) to ``ref_value``."""
    import pdfplumber

    relation = rules["relation"]
    if relation not in RELATIONS:
        raise ValueError(f"check_pdf_pages: relation {relation!r} is not one of {RELATIONS}")
    data = file_bytes(result)
    if data is None:
        return 0.0
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        pages = len(pdf.pages)
    return score(getattr(operator, relation)(pages, rules["ref_value"]))


# ---- pictures in PDFs -----------------------------------------------------------------


def _components(space: Any) -> tuple[int, Any]:
    """Samples per pixel of a PDF colour space, and its palette ``(base components, bytes)``
    when it is indexed."""
    from pdfminer.pdftypes import resolve1

    space = resolve1(space)
    if isinstance(space, list) and space:
        kind = getattr(resolve1(space[0]), "name", None)
        if kind == "ICCBased":
            return int(resolve1(space[1]).get("N", 3)), None
        if kind == "Indexed":
            base, _ = _components(space[1])
            lookup = resolve1(space[3])
            table = lookup.get_data() if hasattr(lookup, "get_data") else bytes(lookup)
            return 1, (base, table)
        if kind in ("CalRGB", "CalGray", "Lab"):
            return (1 if kind == "CalGray" else 3), None
        space = space[0]
    name = getattr(space, "name", space)
    if name in ("DeviceGray", "G", "CalGray"):
        return 1, None
    if name in ("DeviceRGB", "RGB", "CalRGB"):
        return 3, None
    if name in ("DeviceCMYK", "CMYK"):
        return 4, None
    raise GCCError(f"compare_pdf_images: colour space {name!r} is not supported")


def _picture(stream: Any) -> Image.Image:
    """A PDF image XObject as a Pillow image (its samples decoded, its mask left out)."""
    from pdfminer.pdftypes import resolve1

    filters = [getattr(f, "name", f) for f, _ in stream.get_filters()]
    data = stream.get_data()
    if filters and filters[-1] in ("DCTDecode", "DCT", "JPXDecode"):
        return Image.open(io.BytesIO(data))
    if filters and filters[-1] == "JBIG2Decode":
        raise GCCError("compare_pdf_images: JBIG2 pictures are not supported")
    width, height = int(resolve1(stream["Width"])), int(resolve1(stream["Height"]))
    if resolve1(stream.get("ImageMask")):
        n, palette, bits = 1, None, 1
    else:
        n, palette = _components(stream.get("ColorSpace", "DeviceGray"))
        bits = int(resolve1(stream.get("BitsPerComponent", 8)))
    if bits not in (1, 2, 4, 8):
        raise GCCError(f"compare_pdf_images: {bits}-bit samples are not supported")
    row = (width * n * bits + 7) // 8
    raw = np.frombuffer(data[: row * height].ljust(row * height, b"\0"), np.uint8)
    raw = raw.reshape(height, row)
    if bits == 8:
        samples = raw[:, : width * n]
    else:
        weights = 1 << np.arange(bits - 1, -1, -1)
        bit_rows = np.unpackbits(raw, axis=1)[:, : width * n * bits]
        samples = bit_rows.reshape(height, width * n, bits) @ weights
    samples = samples.reshape(height, width, n)
    if palette is not None:
        base, table = palette
        lut = np.frombuffer(table.ljust(256 * base, b"\0")[: 256 * base], np.uint8)
        pixels, n = lut.reshape(256, base)[samples[..., 0]], base
    else:
        pixels = (samples * (255 // ((1 << bits) - 1))).astype(np.uint8)
    mode = {1: "L", 3: "RGB", 4: "CMYK"}.get(n)
    if mode is None:
        raise GCCError(f"compare_pdf_images: {n} colour components are not supported")
    return Image.frombytes(mode, (width, height), np.ascontiguousarray(pixels).tobytes())


def pdf_pictures(data: bytes) -> list[Image.Image]:
    """The pictures a PDF's pages draw, page by page."""
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [_picture(im["stream"]) for page in pdf.pages for im in page.images]


def phash(image: Image.Image) -> np.ndarray:
    """imagehash's perceptual hash: 64 bits, whether each of the 8×8 lowest frequencies of the
    DCT-II of the 32×32 grey (Lanczos) picture lies above their median."""
    pixels = np.asarray(image.convert("L").resize((32, 32), Image.Resampling.LANCZOS), float)
    k = np.arange(32)
    basis = 2 * np.cos(np.pi * np.outer(k, 2 * k + 1) / 64)
    low = (basis @ pixels @ basis.T)[:8, :8]
    return (low > np.median(low)).ravel()


def hamming(a: np.ndarray, b: np.ndarray) -> int:
    return int(np.count_nonzero(a != b))


def compare_pdf_images(result: Any, expected: Any) -> float:
    """The PDFs draw as many pictures, and the share of them (in order) whose perceptual
    hashes (:func:`phash`) differ in at most 5 bits; two PDFs without pictures: 1."""
    data1, data2 = file_bytes(result), file_bytes(expected)
    if data1 is None or data2 is None:
        return 0.0
    pictures1, pictures2 = pdf_pictures(data1), pdf_pictures(data2)
    if len(pictures1) != len(pictures2):
        return 0.0
    if not pictures1:
        return 1.0
    same = sum(hamming(phash(a), phash(b)) <= HASH_THRESHOLD for a, b in zip(pictures1, pictures2))
    return same / len(pictures1)


# ---- accessibility tree ------------------------------------------------------------------


#: OSWorld's accessibility namespaces: prefix → the last part of the URI.
_A11Y_PARTS = {"st": "state", "attr": "attributes", "cp": "component", "doc": "document",
               "docattr": "document/attributes", "txt": "text", "val": "value",
               "act": "action", "role": "role"}  # fmt: skip


def _a11y_namespaces(osname: str, declared: Mapping[Any, str]) -> dict[str, str]:
    """The rule prefixes' URIs: OSWorld's for ``osname``, or the ``uri:deskat:`` ones where
    the tree declares those."""
    from gcc_envs.osworld.atspi_dump import NAMESPACES

    if osname not in ("ubuntu", "windows", "macos"):
        raise ValueError(f"check_accessibility_tree: osname {osname!r} is not ubuntu/windows/macos")
    if any(uri.startswith("uri:deskat:") for uri in declared.values()):
        return dict(NAMESPACES["deskat"])
    base = f"https://accessibility.{osname}.example.org/ns/"
    return {prefix: base + part for prefix, part in _A11Y_PARTS.items()}


def check_accessibility_tree(result: Any, rules: Any, osname: str = "ubuntu") -> float:
    """Every rule finds an element of the tree (OSWorld's XML of the desktop's AT-SPI tree)
    with its ``xpath`` or, else, its CSS ``selectors`` (joined by ", "). A rule with ``text``
    scores its best element: text equal (``exact``, default) or ``fuzz.ratio``/100; the
    verdict is the product over rules (0 as soon as one finds nothing)."""
    from rapidfuzz import fuzz

    data = file_bytes(result)
    if data is None:
        return 0.0
    root = parse_xml(data)
    ns = _a11y_namespaces(osname, root.nsmap)
    total = 1.0
    for rule in rules:
        if "xpath" in rule:
            found = root.xpath(rule["xpath"], namespaces=ns)
        elif "selectors" in rule:
            from lxml.cssselect import CSSSelector  # needs the cssselect package

            found = CSSSelector(", ".join(rule["selectors"]), namespaces=ns)(root)
        else:
            raise ValueError("check_accessibility_tree: a rule needs 'xpath' or 'selectors'")
        if not found:
            return 0.0
        if "text" not in rule:
            continue
        best = 0.0
        for element in found:
            text = element.text or None
            if rule.get("exact", True):
                best = max(best, score(text == rule["text"]))
            elif text is not None:
                best = max(best, fuzz.ratio(rule["text"], text) / 100.0)
        total *= best
    return total


# ---- EPUB, spreadsheet column, clipboard, result file ---------------------------------------


def epub_parts(data: bytes) -> list[list[str]]:
    """The lines of an EPUB's compared parts, in the order of their names: ``toc.ncx``
    without ``navPoint`` lines and ``content.opf`` without ``dc:identifier`` lines (each
    at the top of the archive), and each ``.html`` file with its line breaks removed,
    pretty-printed by lxml. Nothing for a file that is not a zip."""
    import lxml.html

    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return []
    parts: dict[str, list[str]] = {}
    with z:
        names = z.namelist()
        for name, drop in (("toc.ncx", "navPoint"), ("content.opf", "dc:identifier")):
            if name in names:
                lines = z.read(name).decode().splitlines()
                parts[name] = [ln for ln in lines if drop not in ln]
        for name in names:
            if name.endswith(".html"):
                text = z.read(name).decode().replace("\n", "").replace("\r", "")
                tree = lxml.html.fromstring(text.encode())
                pretty = lxml.html.tostring(tree, pretty_print=True, encoding="unicode")
                parts[name] = pretty.splitlines()
    return [parts[k] for k in sorted(parts)]


def compare_epub(result: Any, expected: Any) -> float:
    """The mean over the result's parts (:func:`epub_parts`) of how alike each is to the
    expected part at its place (``diff_text_file``'s line ratio; parts past the shorter list
    add 0)."""
    data1, data2 = file_bytes(result), file_bytes(expected)
    if data1 is None or data2 is None:
        return 0.0
    parts1, parts2 = epub_parts(data1), epub_parts(data2)
    if not parts1:
        return 0.0
    total = sum(diff_text_file("\n".join(a), "\n".join(b)) for a, b in zip(parts1, parts2))
    return total / len(parts1)


def compare_conference_city_in_order(result: Any, rules: Rule) -> float:
    """Cells C2:C22 of the workbook's active sheet hold, in order, the ``expected`` cities
    (a name, or a list of names any of which will do) as part of their text."""
    import openpyxl

    data = file_bytes(result)
    if data is None:
        return 0.0
    expected = rules["expected"]
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    cells = [c.value for row in sheet["C2:C22"] for c in row]
    if len(expected) < len(cells):
        return 0.0
    for value, wanted in zip(cells, expected):
        if isinstance(wanted, str):
            wanted = [wanted]
        elif not isinstance(wanted, list):
            raise TypeError(f"compare_conference_city_in_order: {wanted!r} is not a name or a list")
        if not isinstance(value, str) or not any(w in value for w in wanted):
            return 0.0
    return 1.0


def is_in_vm_clickboard(rules: Rule, clipboard: Any) -> float:
    """The clipboard's text (``xsel``'s output) holds ``expected`` (a list: each of them)."""
    if clipboard is None:
        return 0.0
    wanted = rules["expected"]
    text = str(clipboard)
    return score(all(w in text for w in wanted) if isinstance(wanted, list) else wanted in text)


MISC_METRICS = {
    "check_pdf_pages": check_pdf_pages, "compare_pdf_images": compare_pdf_images,
    "check_accessibility_tree": check_accessibility_tree, "compare_epub": compare_epub,
    "compare_conference_city_in_order": compare_conference_city_in_order,
    "is_in_vm_clickboard": is_in_vm_clickboard,
    **WRITER_METRICS, **IMPRESS_METRICS, **CODE_METRICS,
}  # fmt: skip
