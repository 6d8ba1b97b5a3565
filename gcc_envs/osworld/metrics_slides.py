"""OSWorld's ``compare_pptx_files``: two presentations agree slide by slide, shape by shape.

Read with python-pptx, as OSWorld reads them. Per slide, in order: the background colour
(solid, or the master's when the slide inherits it), the notes' text, the number of shapes;
per pair of shapes: position and size (equal within ``approximately_tolerance``, relative,
0.005), a table's cells (paragraph and run counts, run colour, bold, italic, underline), a
text shape's text, paragraph count, and per paragraph its alignment (none counts as left),
text, level, run count, and per run its font name, size, bold, italic (none counts as
false), RGB colour (where both runs have one), underline, strike-through and the slide's
bullets (level, character and text of each non-empty paragraph). Last, all text shapes,
those inside groups too, must be as many and alike in text, paragraph count and alignment.

Options switch checks off (``examine_*=False``) or on; the off-by-default ones are OSWorld's
task-specific position checks (``examine_title_bottom_position`` ...). Keys starting with
``_`` are comments and ignored; ``examine_run_count`` and ``examine_shape_lenient_height``
(named by task files, unknown to OSWorld's ``desktop-env`` 1.0.2) are accepted and change
nothing, as there.

OSWorld quirks kept: reading a paragraph's level gives it a ``<a:pPr>``, so the bullets check
sees a paragraph without one as level "No Level" until the comparison has passed it, and as
level 0 after; an attribute python-pptx cannot read (a theme colour's RGB, a missing
position) raises, which the evaluator scores 0 with a note, where OSWorld fails too.
"""

from __future__ import annotations

import io
from typing import Any

from gcc_envs.osworld.filedata import file_bytes

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_ON = {
    "examine_number_of_slides", "examine_shape", "examine_text", "examine_indent",
    "examine_font_name", "examine_font_size", "examine_font_bold", "examine_font_italic",
    "examine_color_rgb", "examine_font_underline", "examine_strike_through",
    "examine_alignment", "examine_bullets", "examine_background_color", "examine_note",
}  # fmt: skip
_OFF = {
    "examine_title_bottom_position", "examine_table_bottom_position", "examine_right_position",
    "examine_top_position", "examine_shape_for_shift_size", "examine_image_size",
    "examine_modify_height",
}  # fmt: skip
_INERT = {"enable_debug", "examine_run_count", "examine_shape_lenient_height"}
PICTURE, TABLE, FREEFORM, FILL_SOLID, FILL_BACKGROUND = 13, 19, 5, 1, 5


class _Check:
    """One comparison's options, and the checks that need them."""

    def __init__(self, options: dict[str, Any]) -> None:
        unknown = set(options) - _ON - _OFF - _INERT - {"approximately_tolerance"}
        unknown = {k for k in unknown if not k.startswith("_")}
        if unknown:
            raise TypeError(f"compare_pptx_files: unknown options {sorted(unknown)}")
        self.on = {k: bool(options.get(k, True)) for k in _ON}
        self.on |= {k: bool(options.get(k, False)) for k in _OFF}
        self.tol = float(options.get("approximately_tolerance", 0.005))

    def __getattr__(self, name: str) -> bool:
        return self.on[f"examine_{name}"]

    def near(self, a: Any, b: Any) -> bool:
        if a == b:
            return True
        if a == 0 or b == 0:
            return False
        return abs(a - b) / max(abs(a), abs(b)) <= self.tol

    def moved(self, s1: Any, s2: Any) -> bool:
        """Position or size differ beyond the tolerance."""
        return not (
            self.near(s1.left, s2.left) and self.near(s1.top, s2.top)
            and self.near(s1.width, s2.width) and self.near(s1.height, s2.height)
        )  # fmt: skip


def _background(slide: Any) -> Any:
    fill = slide.background.fill
    if fill.type == FILL_SOLID:
        return fill.fore_color.rgb
    if fill.type == FILL_BACKGROUND:
        master = slide.slide_layout.slide_master.background.fill
        return master.fore_color.rgb if master.type == FILL_SOLID else None
    return None


def _text_shapes(shapes: Any) -> list[Any]:
    out = []
    for shape in shapes:
        if hasattr(shape, "text") and hasattr(shape, "text_frame"):
            out.append(shape)
        if hasattr(shape, "shapes"):
            out.extend(_text_shapes(shape.shapes))
    return out


def _bullets(slide: Any) -> list[tuple[Any, str, str]] | None:
    """(level, bullet character, text) of the slide's non-empty paragraphs, as its XML is now;
    None where a text element is empty (OSWorld's reading fails there and skips the check)."""
    out = []
    for p in slide._element.iter(f"{_A}p"):
        ppr = p.find(f"{_A}pPr")
        if ppr is None:
            level, char = "No Level", "No Bullet"
        else:
            bu = ppr.find(f"{_A}buChar")
            level = "0" if ppr.get("lvl") is None else ppr.get("lvl")
            char = bu.get("char") if bu is not None else "No Bullet"
        texts = [t.text for t in p.iter(f"{_A}t")]
        if None in texts:
            return None
        if "".join(texts).strip():
            out.append((level, char, "".join(texts)))
    return out


def _falsy_pair(a: Any, b: Any) -> bool:
    return (a is None or a is False) and (b is None or b is False)


def _underline_differs(u1: Any, u2: Any) -> bool:
    if u1 == u2:
        return False
    if u1 is not None and u2 is not None:
        return True
    return (u1 is None and u2 is True) or (u1 is True and u2 is None)


def _color_differs(f1: Any, f2: Any) -> bool:
    if hasattr(f1.color, "rgb") and hasattr(f2.color, "rgb"):
        return f1.color.rgb != f2.color.rgb
    return False


def _table_same(t1: Any, t2: Any, ck: _Check) -> bool:
    if len(t1.rows) != len(t2.rows) or len(t1.columns) != len(t2.columns):
        return False
    for i in range(len(t1.rows)):
        for j in range(len(t1.columns)):
            ps1, ps2 = t1.cell(i, j).text_frame.paragraphs, t2.cell(i, j).text_frame.paragraphs
            if len(ps1) != len(ps2):
                return False
            for p1, p2 in zip(ps1, ps2):
                if len(p1.runs) != len(p2.runs):
                    return False
                for r1, r2 in zip(p1.runs, p2.runs):
                    f1, f2 = r1.font, r2.font
                    if _color_differs(f1, f2) and ck.color_rgb:
                        return False
                    if f1.bold != f2.bold and not _falsy_pair(f1.bold, f2.bold):
                        return False
                    if f1.italic != f2.italic and not _falsy_pair(f1.italic, f2.italic):
                        return False
                    if _underline_differs(f1.underline, f2.underline):
                        return False
    return True


def _runs_same(p1: Any, p2: Any, slides: tuple[Any, Any], ck: _Check) -> bool:
    for r1, r2 in zip(p1.runs, p2.runs):
        f1, f2 = r1.font, r2.font
        if f1.name != f2.name and ck.font_name:
            return False
        if f1.size != f2.size and ck.font_size:
            return False
        if f1.bold != f2.bold and ck.font_bold and not _falsy_pair(f1.bold, f2.bold):
            return False
        if f1.italic != f2.italic and ck.font_italic and not _falsy_pair(f1.italic, f2.italic):
            return False
        if _color_differs(f1, f2) and ck.color_rgb:
            return False
        if f1.underline != f2.underline and ck.font_underline:
            if _underline_differs(f1.underline, f2.underline):
                return False
        strike1 = f1._element.attrib.get("strike", "noStrike")
        if strike1 != f2._element.attrib.get("strike", "noStrike") and ck.strike_through:
            return False
        if ck.bullets:
            b1, b2 = _bullets(slides[0]), _bullets(slides[1])
            if b1 is not None and b2 is not None and b1 != b2:
                return False
    return True


def _align(p: Any) -> Any:
    from pptx.enum.text import PP_ALIGN

    return PP_ALIGN.LEFT if p.alignment is None else p.alignment


def _text_same(s1: Any, s2: Any, slides: tuple[Any, Any], ck: _Check) -> bool:
    if s1.text.strip() != s2.text.strip() and ck.text:
        return False
    ps1, ps2 = s1.text_frame.paragraphs, s2.text_frame.paragraphs
    if len(ps1) != len(ps2):
        return False
    for p1, p2 in zip(ps1, ps2):
        if ck.alignment and _align(p1) != _align(p2):
            return False
        if p1.text != p2.text and ck.text:
            return False
        if p1.level != p2.level and ck.indent:
            return False
        if len(p1.runs) != len(p2.runs):
            return False
        if not _runs_same(p1, p2, slides, ck):
            return False
    return True


def _position_checks(s1: Any, s2: Any, n: int, ck: _Check) -> bool:
    """OSWorld's task-specific position checks (off by default) and the shape check."""
    texts = hasattr(s1, "text") and hasattr(s2, "text")
    if ck.title_bottom_position:
        if texts and s1.text == s2.text:
            if s1.text == "Product Comparison" and (s1.top <= s2.top or s1.top < 3600000):
                return False
        elif ck.moved(s1, s2):
            return False
    if ck.table_bottom_position:
        if n == 3 and s1.shape_type == TABLE and s2.shape_type == TABLE:
            if s1.top <= s2.top or s1.top < 3600000:
                return False
        elif ck.moved(s1, s2):
            return False
    if ck.right_position and n == 2 and not hasattr(s1, "text") and not hasattr(s2, "text"):
        if s1.left <= s2.left or s1.left < 4320000:
            return False
    if ck.top_position and n == 2 and s1.shape_type == PICTURE and s2.shape_type == PICTURE:
        if s1.top >= s2.top or s1.top > 1980000:
            return False
    if ck.shape_for_shift_size and ck.moved(s1, s2):
        if not (texts and s1.text == s2.text == "Elaborate on what you want to discuss."):
            return False
    if ck.moved(s1, s2) and ck.shape:
        return False
    if ck.image_size:
        if s1.shape_type == PICTURE and s2.shape_type == PICTURE:
            if not (ck.near(s1.width, s2.width) and ck.near(s1.height, s2.height)):
                return False
        elif ck.moved(s1, s2):
            return False
    if ck.modify_height:
        untexted = not hasattr(s1, "text") and not hasattr(s2, "text")
        if untexted or (s1.shape_type == FREEFORM and s2.shape_type == FREEFORM):
            if not ck.near(s1.height, s2.height):
                return False
        elif ck.moved(s1, s2):
            return False
    return True


def _slide_same(sl1: Any, sl2: Any, n: int, ck: _Check) -> bool:
    if _background(sl1) != _background(sl2) and ck.background_color:
        return False
    notes1 = sl1.notes_slide.notes_text_frame.text.strip()
    if notes1 != sl2.notes_slide.notes_text_frame.text.strip() and ck.note:
        return False
    texts1, texts2 = _text_shapes(sl1.shapes), _text_shapes(sl2.shapes)
    if len(sl1.shapes) != len(sl2.shapes):
        return False
    for s1, s2 in zip(sl1.shapes, sl2.shapes):
        if not _position_checks(s1, s2, n, ck):
            return False
        if s1.shape_type == TABLE and not _table_same(s1.table, s2.table, ck):
            return False
        if hasattr(s1, "text") and hasattr(s2, "text"):
            if not _text_same(s1, s2, (sl1, sl2), ck):
                return False
    if len(texts1) != len(texts2):
        return False
    if ck.alignment:
        for t1, t2 in zip(texts1, texts2):
            if t1.text.strip() != t2.text.strip() and ck.text:
                return False
            ps1, ps2 = t1.text_frame.paragraphs, t2.text_frame.paragraphs
            if len(ps1) != len(ps2):
                return False
            if any(_align(p1) != _align(p2) for p1, p2 in zip(ps1, ps2)):
                return False
    return True


def compare_pptx_files(result: Any, expected: Any, **options: Any) -> float:
    """1 when the result presentation agrees with the expected one (module doc)."""
    from pptx import Presentation

    ck = _Check(options)
    data1, data2 = file_bytes(result), file_bytes(expected)
    if data1 is None or data2 is None:
        return 0.0
    prs1, prs2 = Presentation(io.BytesIO(data1)), Presentation(io.BytesIO(data2))
    if len(prs1.slides) != len(prs2.slides) and ck.number_of_slides:
        return 0.0
    for n, (sl1, sl2) in enumerate(zip(prs1.slides, prs2.slides), start=1):
        if not _slide_same(sl1, sl2, n, ck):
            return 0.0
    return 1.0


SLIDE_METRICS = {"compare_pptx_files": compare_pptx_files}
