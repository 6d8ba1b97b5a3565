"""OSWorld's Impress checks: a presentation's transitions, backgrounds and slide-number colour,
and the presenter console setting, in :data:`IMPRESS_METRICS`.

Semantics follow OSWorld's functions of the same names (``slides.py``); the code is this
project's. Presentations are read with python-pptx (slides in presentation order; OSWorld
opens ``ppt/slides/slide{n}.xml``, the same slide in the files LibreOffice and python-pptx
write). ``check_page_number_colors`` reads the colour of the first slide master's slide-number
field, where OSWorld takes the second-to-last solid RGB colour of ``slideMaster1.xml`` — in
the masters LibreOffice saves, that same field's colour (the last is the empty paragraph's
after it). OSWorld splits that ``RRGGBB`` value as if it were ``#RRGGBB``, one hex digit off
(``FF0000`` passes as red there, ``C00000`` does not); here each channel is its two digits. A
colour name it does not know raises, where OSWorld passes anything.

>>> xcu = ('<oor:items xmlns:oor="http://openoffice.org/2001/registry">'
...        '<item oor:path="/org.openoffice.Office.Impress/Misc/Start">'
...        '<prop oor:name="EnablePresenterScreen"><value>false</value></prop></item></oor:items>')
>>> check_presenter_console_disable(xcu)
1.0
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from typing import Any

from gcc_envs.osworld.filedata import file_bytes
from gcc_envs.osworld.metrics_text import score
from gcc_envs.osworld.metrics_writer import xcu_values

Rule = Mapping[str, Any]
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
FILL_SOLID, FILL_BACKGROUND = 1, 5
#: How far apart the channels must be for a colour to count as each name (OSWorld's 50).
COLOUR_MARGIN = 50


def _presentation(value: Any) -> Any:
    from pptx import Presentation

    data = file_bytes(value)
    return None if data is None else Presentation(io.BytesIO(data))


def check_presenter_console_disable(result: Any) -> float:
    """LibreOffice's ``/org.openoffice.Office.Impress/Misc/Start`` ``EnablePresenterScreen``
    is ``false`` (the first such setting in the file)."""
    data = file_bytes(result)
    if not data:
        return 0.0
    values = xcu_values(data, "/org.openoffice.Office.Impress/Misc/Start", "EnablePresenterScreen")
    return score(bool(values) and (values[0] or "").lower() == "false")


def check_transition(result: Any, rules: Rule) -> float:
    """Slide ``slide_idx`` (from 0) has a transition (its first ``p:transition``) holding a
    ``p:<transition_type>`` element (``dissolve``, ``fade``, ...)."""
    prs = _presentation(result)
    index = int(rules["slide_idx"])
    if prs is None or not 0 <= index < len(prs.slides):
        return 0.0
    transition = next(prs.slides[index]._element.iter(f"{_P}transition"), None)
    if transition is None:
        return 0.0
    return score(next(transition.iter(f"{_P}{rules['transition_type']}"), None) is not None)


def _solid_rgb(fill: Any) -> tuple[int, int, int] | None:
    try:
        return tuple(fill.fore_color.rgb)  # type: ignore[return-value]
    except AttributeError:  # a theme colour or none: python-pptx has no RGB for it
        return None


def evaluate_presentation_fill_to_rgb_distance(result: Any, rules: Rule) -> float:
    """1 less the mean over slides of each background's distance to ``rgb`` (Euclidean over
    0-255 channels, divided by the largest possible). A slide's background is its own solid
    fill, or the master's when it inherits; a slide without a solid RGB background, or still
    of ``original_rgb``, is at distance 1."""
    prs = _presentation(result)
    if prs is None:
        return 0.0
    target, original = tuple(rules["rgb"]), rules.get("original_rgb")
    original = tuple(original) if original is not None else None

    def distance(slide: Any) -> float:
        fill = slide.background.fill
        if fill.type == FILL_BACKGROUND:
            fill = slide.slide_layout.slide_master.background.fill
        if fill.type != FILL_SOLID:
            return 1.0
        rgb = _solid_rgb(fill)
        if rgb is None or rgb == original:
            return 1.0
        return math.dist(rgb, target) / math.dist((0, 0, 0), (255, 255, 255))

    slides = list(prs.slides)
    if not slides:
        return 0.0
    return 1.0 - sum(distance(s) for s in slides) / len(slides)


#: Whether ``(r, g, b)`` counts as each colour name ``check_page_number_colors`` knows.
COLOUR_TESTS = {
    "red": lambda r, g, b, m=COLOUR_MARGIN: r > g + m and r > b + m,
    "green": lambda r, g, b, m=COLOUR_MARGIN: g > r + m and g > b + m,
    "blue": lambda r, g, b, m=COLOUR_MARGIN: b > g + m and b > r + m,
    "black": lambda r, g, b, m=COLOUR_MARGIN: r < m and g < m and b < m,
}


def check_page_number_colors(result: Any, rules: Rule) -> float:
    """The first slide master's slide-number field (in its ``sldNum`` placeholder) has a solid
    RGB colour that is ``color`` (red, green, blue or black: that channel over the others by
    more than 50; black: all under 50)."""
    test = COLOUR_TESTS.get(rules["color"])
    if test is None:
        raise ValueError(f"check_page_number_colors: colour {rules['color']!r} is not one of "
                         f"{sorted(COLOUR_TESTS)}")  # fmt: skip
    prs = _presentation(result)
    if prs is None:
        return 0.0
    colour = None
    for shape in prs.slide_masters[0].shapes:
        ph = shape._element.find(f"{_P}nvSpPr/{_P}nvPr/{_P}ph")
        if ph is None or ph.get("type") != "sldNum":
            continue
        found = shape._element.find(f".//{_A}fld/{_A}rPr/{_A}solidFill/{_A}srgbClr")
        if found is not None:
            colour = found.get("val")
            break
    if colour is None or len(colour) != 6:
        return 0.0
    return score(test(*(int(colour[i : i + 2], 16) for i in (0, 2, 4))))


IMPRESS_METRICS = {
    "check_presenter_console_disable": check_presenter_console_disable,
    "check_transition": check_transition,
    "evaluate_presentation_fill_to_rgb_distance": evaluate_presentation_fill_to_rgb_distance,
    "check_page_number_colors": check_page_number_colors,
}
