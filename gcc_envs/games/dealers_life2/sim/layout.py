"""Where everything is on the screen, in window fractions, and the UI's exact colours.

Rectangles are given in pixels of the 1280x720 reference window and stored as fractions, so
the renderer draws at any size and a click is tested against the same rectangles. The button
colours are exact fills: the skills find buttons on the frame by these colours
(:mod:`gcc_envs.games.dealers_life2.vision`), never in the simulator's state.
"""

from __future__ import annotations

from dataclasses import dataclass

REF_W, REF_H = 1280, 720
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Rect:
    """A rectangle in window fractions: left, top, right, bottom."""

    x0: float
    y0: float
    x1: float
    y1: float

    @classmethod
    def px(cls, x0: int, y0: int, x1: int, y1: int) -> Rect:
        """From reference pixels (1280x720)."""
        return cls(x0 / REF_W, y0 / REF_H, x1 / REF_W, y1 / REF_H)

    def at(self, w: int, h: int) -> tuple[int, int, int, int]:
        """Pixel box (x0, y0, x1, y1) at a w x h frame (x1, y1 exclusive)."""
        return (round(self.x0 * w), round(self.y0 * h), round(self.x1 * w), round(self.y1 * h))

    def contains(self, u: float, v: float) -> bool:
        return self.x0 <= u < self.x1 and self.y0 <= v < self.y1

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)


# ---------------------------------------------------------------- colours (RGB)
class C:
    """The palette. Button fills are unique colours; nothing else on screen uses them."""

    OPEN: RGB = (230, 126, 34)
    STOCK: RGB = (22, 160, 133)
    ACCEPT: RGB = (39, 174, 96)
    REJECT: RGB = (192, 57, 43)
    OK: RGB = (41, 128, 185)
    CLOSE: RGB = (142, 68, 173)
    OPTION: RGB = (255, 224, 150)
    PRICE: RGB = (255, 255, 255)
    TRAITS: RGB = (241, 196, 15)
    ITEM: RGB = (93, 173, 226)
    # chips that say who sells to whom on the haggle screen
    CHIP_SELLS: RGB = (205, 97, 51)
    CHIP_BUYS: RGB = (33, 97, 140)
    CHIP_PAWN: RGB = (118, 68, 138)
    # page and dialog header bands
    HDR_ITEM: RGB = (120, 72, 40)
    HDR_TRAITS: RGB = (60, 110, 70)
    HDR_STOCK: RGB = (20, 110, 100)
    HDR_STATS: RGB = (30, 50, 90)
    HDR_DEAL: RGB = (30, 130, 76)
    HDR_SOLD: RGB = (176, 124, 18)
    HDR_WARN: RGB = (214, 40, 40)
    HDR_REPAID: RGB = (70, 100, 160)
    TELL: RGB = (200, 30, 30)
    MOOD: RGB = (46, 204, 113)
    MOOD_LOW: RGB = (231, 76, 60)
    MOOD_BACK: RGB = (70, 60, 55)
    # everything else
    BAR: RGB = (58, 40, 30)
    BANK: RGB = (24, 100, 56)
    PAPER: RGB = (243, 237, 222)
    CARD: RGB = (250, 246, 236)
    SPEECH: RGB = (252, 249, 240)
    INK: RGB = (35, 30, 28)
    SOFT: RGB = (110, 100, 92)
    WHITE: RGB = (250, 250, 250)
    WALL: RGB = (168, 132, 96)
    FLOOR: RGB = (96, 70, 50)
    COUNTER: RGB = (120, 82, 52)
    SHADE: RGB = (20, 16, 14)


# ---------------------------------------------------------------- top bar (every screen)
BAR = Rect.px(0, 0, 1280, 56)
BANK = Rect.px(1044, 8, 1270, 48)
STOCK_BTN = Rect.px(870, 10, 1030, 46)
TOAST = Rect.px(200, 62, 1080, 94)

# ---------------------------------------------------------------- newspaper
PAPER = Rect.px(250, 76, 1030, 700)
OPEN_BTN = Rect.px(500, 610, 780, 676)

# ---------------------------------------------------------------- customer screen
FIGURE = Rect.px(330, 100, 650, 560)
NAME_PLATE = Rect.px(680, 110, 1060, 150)
MOOD_BAR = Rect.px(740, 166, 1060, 190)
TRAITS_BTN = Rect.px(680, 206, 840, 242)
COUNTER_ITEM = Rect.px(820, 300, 1000, 440)
SPEECH = Rect.px(160, 452, 1120, 704)
OPTION_ROWS = (Rect.px(190, 540, 1090, 590), Rect.px(190, 602, 1090, 652))

# ---------------------------------------------------------------- haggle screen
H_FIGURE = Rect.px(40, 110, 400, 560)
H_MOOD_BAR = Rect.px(90, 576, 390, 600)
H_BUBBLE = Rect.px(430, 70, 1250, 180)
H_ITEM_PANEL = Rect.px(430, 196, 830, 520)
H_OFFER_PANEL = Rect.px(850, 196, 1250, 520)
CHIP = Rect.px(870, 210, 1230, 246)
ACCEPT_BTN = Rect.px(900, 396, 1030, 500)
REJECT_BTN = Rect.px(1070, 396, 1200, 500)
ITEM_BTN = Rect.px(430, 536, 620, 572)
H_TRAITS_BTN = Rect.px(640, 536, 830, 572)
HISTORY = Rect.px(430, 586, 830, 704)
PRICE_LABEL = Rect.px(850, 548, 1250, 580)
PRICE_BOX = Rect.px(900, 590, 1250, 690)

# ---------------------------------------------------------------- pages and dialogs
PAGE = Rect.px(230, 80, 1050, 700)
PAGE_HDR = Rect.px(230, 80, 1050, 150)
CLOSE_BTN = Rect.px(990, 92, 1040, 140)
DIALOG = Rect.px(420, 210, 860, 510)
DIALOG_HDR = Rect.px(420, 210, 860, 270)
OK_BTN = Rect.px(560, 432, 720, 490)
