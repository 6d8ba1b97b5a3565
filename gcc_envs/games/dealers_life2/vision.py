"""Reading Dealer's Life 2 screens from frames alone (the skills and the screen-reading trader).

Buttons are flat fills of colours nothing else on screen uses
(:class:`~gcc_envs.games.dealers_life2.sim.layout.C`), so a button is found by its colour at
any frame size, down to 72x128. Numbers (prices, the estimate, the bank) are read by cutting
the ink of a text line into glyphs and matching each against the font's glyphs drawn at the
frame's scale; that needs legible text (frames about 360 px tall or more).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from gcc_envs.games.dealers_life2.sim import layout as L
from gcc_envs.games.dealers_life2.sim.draw import FONT
from gcc_envs.games.dealers_life2.sim.layout import RGB, C, Rect

#: Each channel may differ this much from a button's fill.
TOL = 3
#: A button's fill must cover at least this share of its rectangle's expected area.
MIN_FILL = 0.25
#: How far around its place a button is looked for (window fractions).
MARGIN = 0.08


@dataclass(frozen=True)
class Blob:
    """A found region of one fill colour, in frame pixels."""

    x: int
    y: int
    w: int
    h: int
    area: int

    @property
    def centre(self) -> tuple[int, int]:
        return (self.x + self.w // 2, self.y + self.h // 2)


def find_fill(
    frame: np.ndarray, color: RGB, expect: Rect, region: Rect | None = None
) -> list[Blob]:
    """Regions of exactly ``color`` about the size of ``expect``, biggest first.

    The search covers ``region``, by default ``expect`` grown by :data:`MARGIN` of the frame
    on every side (a button that moved a little is still found; the whole frame need not be
    scanned for each button).
    """
    h, w = frame.shape[:2]
    if region is None:
        m = MARGIN
        region = Rect(expect.x0 - m, expect.y0 - m, expect.x1 + m, expect.y1 + m)
    x0, y0, x1, y1 = region.at(w, h)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    sub = frame[y0:y1, x0:x1]
    if sub.size == 0:
        return []
    lo = np.array([max(0, c - TOL) for c in color], np.uint8)
    hi = np.array([min(255, c + TOL) for c in color], np.uint8)
    mask = cv2.inRange(sub, lo, hi)
    ex0, ey0, ex1, ey1 = expect.at(w, h)
    need = max(2, int(MIN_FILL * max(1, (ex1 - ex0) * (ey1 - ey0))))
    if cv2.countNonZero(mask) < need:
        return []
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = [
        Blob(int(bx) + x0, int(by) + y0, int(bw), int(bh), int(a))
        for bx, by, bw, bh, a in stats[1:n]
        if a >= need
    ]
    return sorted(out, key=lambda b: -b.area)


def find_button(frame: np.ndarray, color: RGB, expect: Rect) -> tuple[int, int] | None:
    """Centre (frame px) of the biggest button of ``color``, or None."""
    got = find_fill(frame, color, expect)
    return got[0].centre if got else None


def first_option(frame: np.ndarray) -> tuple[int, int] | None:
    """Centre of the topmost dialogue option row, or None."""
    got = find_fill(frame, C.OPTION, L.OPTION_ROWS[0])
    return min(got, key=lambda b: b.y).centre if got else None


def _present(frame: np.ndarray, color: RGB, expect: Rect) -> bool:
    return bool(find_fill(frame, color, expect))


PAGES = {"item": C.HDR_ITEM, "traits": C.HDR_TRAITS, "stock": C.HDR_STOCK, "stats": C.HDR_STATS}
DIALOGS = {"deal": C.HDR_DEAL, "sold": C.HDR_SOLD, "warning": C.HDR_WARN, "repaid": C.HDR_REPAID}
ROLES = {"seller": C.CHIP_SELLS, "buyer": C.CHIP_BUYS, "pawner": C.CHIP_PAWN}


def screen_kind(frame: np.ndarray) -> str:
    """``"dialog:<kind>"``, ``"page:<page>"``, ``"news"``, ``"haggle"``, ``"customer"``, or
    ``"unknown"``, from the colours on the frame."""
    if _present(frame, C.OK, L.OK_BTN):
        for k, col in DIALOGS.items():
            if _present(frame, col, L.DIALOG_HDR):
                return f"dialog:{k}"
        return "dialog:unknown"
    if _present(frame, C.CLOSE, L.CLOSE_BTN):
        for k, col in PAGES.items():
            if _present(frame, col, L.PAGE_HDR):
                return f"page:{k}"
        return "page:unknown"
    if _present(frame, C.OPEN, L.OPEN_BTN):
        return "news"
    if _present(frame, C.ACCEPT, L.ACCEPT_BTN) and _present(frame, C.PRICE, L.PRICE_BOX):
        return "haggle"
    if _present(frame, C.OPTION, L.OPTION_ROWS[0]):
        return "customer"
    return "unknown"


def role(frame: np.ndarray) -> str | None:
    """Who the haggle is with, from the chip's colour: seller, buyer or pawner."""
    for k, col in ROLES.items():
        if _present(frame, col, L.CHIP):
            return k
    return None


#: Where the haggle screen's item panel puts a tell's mark: the left edge of the lines under
#: the item's rows (the panel's picture, top right, may be red too: a guitar).
TELL_COLUMN = Rect.px(436, 290, 480, 520)


def shows_tell(frame: np.ndarray, region: Rect = TELL_COLUMN) -> bool:
    """Whether the red warning mark of a fake's tell shows in ``region``."""
    return bool(find_fill(frame, C.TELL, Rect.px(0, 0, 14, 10), region))


def mood(frame: np.ndarray, bar: Rect = L.H_MOOD_BAR) -> float | None:
    """The mood meter's fill, 0..100, or None when no meter shows."""
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = bar.at(w, h)
    row = frame[(y0 + y1) // 2, x0 + 2 : x1 - 2]
    if row.size == 0:
        return None
    good = np.all(np.abs(row.astype(int) - C.MOOD) <= TOL, axis=1)
    low = np.all(np.abs(row.astype(int) - C.MOOD_LOW) <= TOL, axis=1)
    back = np.all(np.abs(row.astype(int) - C.MOOD_BACK) <= TOL, axis=1)
    filled = int(good.sum() + low.sum())
    if filled + int(back.sum()) < 0.5 * len(row):
        return None
    return 100.0 * filled / len(row)


# ---------------------------------------------------------------- numbers
GLYPHS = "0123456789$,-"


def _scale(frame: np.ndarray) -> float:
    h, w = frame.shape[:2]
    return min(h / L.REF_H, w / L.REF_W)


def _thick(s: float, bold: bool) -> int:
    return max(1, int(round((2.0 if bold else 1.0) * max(s, 0.5))))


@lru_cache(maxsize=64)
def _templates(scale_milli: int, thick: int) -> tuple[tuple[str, np.ndarray], ...]:
    """Each glyph drawn at this scale and stroke, cropped to its ink, normalised to 16x24."""
    sc = scale_milli / 1000.0
    out = []
    for g in GLYPHS[:11]:  # digits and "$"; "," and "-" are told apart by size and height
        img = np.zeros((int(60 * sc) + 20, int(40 * sc) + 20), np.uint8)
        cv2.putText(img, g, (6, int(40 * sc) + 6), FONT, sc, 255, thick, cv2.LINE_AA)
        ys, xs = np.nonzero(img > 127)
        out.append((g, _norm(img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1] > 127)))
    return tuple(out)


def _norm(crop: np.ndarray) -> np.ndarray:
    return cv2.resize(crop.astype(np.float32), (16, 24), interpolation=cv2.INTER_AREA)


def read_text_line(
    frame: np.ndarray, rect: Rect, size: float, bold: bool, light: bool = False
) -> str | None:
    """The digits, ``$``, ``,`` and ``-`` written in ``rect`` at font ``size`` (dark ink, or
    ``light`` ink on a dark fill); None when nothing is written there or a mark is not one of
    those glyphs (a word, such as "no estimate")."""
    s = _scale(frame)
    sc = size * s
    if sc < 0.3:
        return None
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = rect.at(w, h)
    grey = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_RGB2GRAY)
    ink = grey > 170 if light else grey < 110
    cols = ink.any(axis=0)
    rows = np.nonzero(ink.any(axis=1))[0]
    if rows.size == 0:
        return None
    top, bottom = int(rows.min()), int(rows.max())
    temps = _templates(int(round(sc * 1000)), _thick(s, bold))
    text, x, n = "", 0, len(cols)
    while x < n:
        if not cols[x]:
            x += 1
            continue
        end = x
        while end < n and cols[end]:
            end += 1
        part = ink[:, x:end]
        ys = np.nonzero(part.any(axis=1))[0]
        if ys.max() - ys.min() + 1 < 0.45 * (bottom - top + 1):  # a comma or a dash
            mid = (ys.min() + ys.max()) / 2
            text += "," if mid > top + 0.7 * (bottom - top) else "-"
        else:
            v = _norm(part[ys.min() : ys.max() + 1])
            score, best = max((1.0 - float(np.abs(v - tmp).mean()), g) for g, tmp in temps)
            if score < 0.7:
                return None
            text += best
        x = end
    return text or None


def parse_money(text: str | None) -> list[int]:
    """Dollar amounts in ``text`` (``"$205-$310"`` → ``[205, 310]``)."""
    if not text:
        return []
    out = []
    for part in text.replace(",", "").split("-"):
        digits = part.strip().lstrip("$")
        if digits.isdigit():
            out.append(int(digits))
    return out
