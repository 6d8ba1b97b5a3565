"""The three main screens: the morning newspaper, the customer talking, the haggle."""

from __future__ import annotations

import cv2
import numpy as np

from gcc_envs.games.dealers_life2.sim import art, shop
from gcc_envs.games.dealers_life2.sim import layout as L
from gcc_envs.games.dealers_life2.sim.data import GameData
from gcc_envs.games.dealers_life2.sim.draw import Canvas, money, wrap
from gcc_envs.games.dealers_life2.sim.layout import C, Rect
from gcc_envs.games.dealers_life2.sim.state import Customer, Item, ShopState

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
ROLE_CHIP = {
    "seller": (C.CHIP_SELLS, "SELLING TO YOU"),
    "pawner": (C.CHIP_PAWN, "WANTS A LOAN"),
    "buyer": (C.CHIP_BUYS, "BUYING FROM YOU"),
}


def newspaper(c: Canvas, s: ShopState, data: GameData) -> None:
    c.fill(L.PAPER, C.PAPER, (150, 140, 120))
    c.text("THE DAILY PAWN", 640, 140, 1.7, C.INK, True, "c")
    c.fill(Rect.px(290, 156, 990, 160), C.INK)
    c.text(f"{WEEKDAYS[(s.day - 1) % 7]}, day {s.day} of {s.days}", 300, 186, 0.6, C.SOFT)
    c.text("Price: 50 cents", 980, 186, 0.6, C.SOFT, anchor="r")
    head, second, hot, cold = s.news
    y = 236
    for line in (wrap(head, 1.05, 680, True) if c.legible(1.05) else [])[:2]:
        c.text(line, 640, y, 1.05, C.INK, True, "c")
        y += 42
    c.text(second, 640, y + 4, 0.75, C.SOFT, anchor="c", max_w=680)
    e = data.economy
    box = Rect.px(300, y + 26, 980, y + 126)
    c.fill(box, (232, 224, 204), (170, 160, 140))
    c.text("MARKET TODAY", 320, y + 56, 0.6, C.SOFT, True)
    hot_name, cold_name = data.categories[hot].name, data.categories[cold].name
    c.text(f"Hot: {hot_name}  (buyers pay {e.trend_hot:+.0%})", 320, y + 86, 0.7, (30, 110, 50))
    c.text(f"Slow: {cold_name}  (buyers pay {e.trend_cold:+.0%})", 320, y + 114, 0.7, (160, 50, 40))
    y += 160
    notices = s.notices or [f"Rent of {money(e.rent)} is due at closing."]
    for n in notices[:3]:
        c.text(n, 320, y, 0.62, C.TELL if "FAKE" in n else C.INK, max_w=660)
        y += 30
    c.text(f"Customers today: {s.today}", 320, min(y + 6, 592), 0.62, C.SOFT)
    if s.over:
        c.text("The week is over.", 640, 650, 0.9, C.INK, True, "c")
    else:
        c.button(L.OPEN_BTN, C.OPEN, "OPEN SHOP", 1.0)


def mood_meter(c: Canvas, r: Rect, cust: Customer) -> None:
    x0, y0, x1, y1 = r.x0 * L.REF_W, r.y0 * L.REF_H, r.x1 * L.REF_W, r.y1 * L.REF_H
    c.text("Mood", x0 - 6, y1 - 4, 0.6, C.WHITE, True, "r")
    c.fill(r, C.MOOD_BACK, C.SHADE, 1.5)
    frac = max(0.0, min(1.0, cust.mood / 100.0))
    if frac > 0:
        col = C.MOOD if cust.mood >= 30 else C.MOOD_LOW
        c.fill(Rect.px(int(x0), int(y0), int(x0 + (x1 - x0) * frac), int(y1)), col)
    fx, fy = c.pt(x1 + 22, (y0 + y1) / 2)
    art.mood_face(c.img, fx, fy, 15 * c.s, cust.mood)


def figure(c: Canvas, screen: str, cust: Customer) -> None:
    """The customer behind the counter (mood drawn in steps of 5: the renderer caches it)."""
    r = L.FIGURE if screen == "customer" else L.H_FIGURE
    art.customer(c.img, c.box(r), cust.look, 5 * round(cust.mood / 5))


def _icon(c: Canvas, r: Rect, it: Item, data: GameData) -> None:
    art.item_icon(c.img, c.box(r), it.category, data.items[it.kind].color)


def customer(c: Canvas, s: ShopState, data: GameData) -> None:
    cust = s.customer
    if cust is None:
        return
    c.fill(L.NAME_PLATE, (60, 44, 34))
    c.text(cust.name, 696, 140, 0.85, C.WHITE, True, max_w=350)
    mood_meter(c, L.MOOD_BAR, cust)
    if cust.role != "redeem":
        c.button(L.TRAITS_BTN, C.TRAITS, "Traits", 0.65, C.INK)
    c.fill(L.COUNTER_ITEM, (200, 180, 150), (90, 60, 40))
    _icon(c, L.COUNTER_ITEM, cust.item, data)
    c.fill(L.SPEECH, C.SPEECH, (90, 70, 50), 3)
    y = 490
    for line in (wrap(f'"{cust.said}"', 0.85, 880) if c.legible(0.85) else [])[:2]:
        c.text(line, 190, y, 0.85, C.INK)
        y += 34
    for i, (opt, r) in enumerate(zip(shop.options(s), L.OPTION_ROWS)):
        c.fill(r, C.OPTION, (150, 110, 40))
        c.text(f"{i + 1}.  {opt}", 210, (r.y1 * L.REF_H) - 15, 0.75, C.INK, max_w=860)


def item_lines(it: Item, data: GameData) -> list[tuple[str, str]]:
    """(label, value) rows that describe an item (item page and haggle panel)."""
    est = (
        "no estimate"
        if it.estimate is None
        else f"{money(it.estimate[0])} - {money(it.estimate[1])}"
    )
    return [
        ("Category", data.categories[it.category].name),
        ("Rarity", it.rarity),
        ("Condition", it.condition),
        ("Estimate", est),
    ]


def tell_mark(c: Canvas, x: float, y: float) -> None:
    """A red warning triangle (the mark of a fake's tell) with its base at reference (x, y)."""
    pts = np.array([c.pt(x, y), c.pt(x + 22, y), c.pt(x + 11, y - 20)], np.int32)
    cv2.fillPoly(c.img, [pts], C.TELL)
    c.text("!", x + 11, y - 3, 0.45, C.WHITE, True, "c")


def haggle(c: Canvas, s: ShopState, data: GameData) -> None:
    cust = s.customer
    if cust is None:
        return
    it = cust.item
    mood_meter(c, L.H_MOOD_BAR, cust)
    c.fill(L.H_BUBBLE, C.SPEECH, (90, 70, 50), 3)
    c.text(cust.name, 450, 102, 0.65, C.SOFT, True)
    y = 136
    for line in (wrap(f'"{cust.said}"', 0.82, 780) if c.legible(0.82) else [])[:2]:
        c.text(line, 450, y, 0.82, C.INK)
        y += 32
    # the item
    c.fill(L.H_ITEM_PANEL, C.CARD, (120, 90, 60))
    c.text(it.name, 446, 228, 0.75, C.INK, True, max_w=370)
    rows = item_lines(it, data)
    for i, (k, v) in enumerate(rows):
        yy = 266 + i * 32
        c.text(f"{k}:", 446, yy, 0.62, C.SOFT)
        c.text(v, 580, yy, 0.66, C.INK, max_w=240)
    yy = 266 + len(rows) * 32
    if cust.buys:
        c.text("You paid:", 446, yy, 0.62, C.SOFT)
        c.text(money(it.paid or 0), 580, yy, 0.66, C.INK, True)
        yy += 32
    if it.tell is not None:
        tell_mark(c, 446, yy + 2)
        c.text(it.tell, 476, yy, 0.52, C.TELL, max_w=345)
    elif it.notes:
        c.text(it.notes[0], 446, yy, 0.52, C.SOFT, max_w=370)
    _icon(c, Rect.px(700, 204, 820, 300), it, data)
    # the customer's offer
    c.fill(L.H_OFFER_PANEL, C.CARD, (120, 90, 60))
    chip_col, chip_text = ROLE_CHIP.get(cust.role, ROLE_CHIP["seller"])
    c.fill(L.CHIP, chip_col)
    c.text_in(L.CHIP, chip_text, 0.7, C.WHITE)
    label = "Their final offer:" if cust.final else ("They offer:" if cust.buys else "They ask:")
    c.text(label, 870, 290, 0.7, C.SOFT)
    c.text(money(cust.offer), 1050, 362, 1.6, C.INK, True, "c")
    c.button(L.ACCEPT_BTN, C.ACCEPT, "", 0.8)
    c.button(L.REJECT_BTN, C.REJECT, "", 0.8)
    _check(c, L.ACCEPT_BTN)
    _cross(c, L.REJECT_BTN)
    c.text("accept", 965, 514, 0.5, C.SOFT, anchor="c")
    c.text("reject", 1135, 514, 0.5, C.SOFT, anchor="c")
    c.button(L.ITEM_BTN, C.ITEM, "Item details", 0.6, C.INK)
    c.button(L.H_TRAITS_BTN, C.TRAITS, "Traits", 0.6, C.INK)
    # offers so far
    c.fill(L.HISTORY, (70, 52, 40))
    c.text("Offers so far", 446, 610, 0.55, (230, 210, 180), True)
    hist = cust.history[-6:]
    for i, (who, p) in enumerate(hist):
        col, row = i % 3, i // 3
        c.text(f"{'You' if who == 'you' else 'Them'}: {money(p)}", 446 + col * 128,
               644 + row * 30, 0.55, C.WHITE if who == "you" else (255, 214, 140))  # fmt: skip
    price_panel(c)
    price_text(c, s)


def price_panel(c: Canvas) -> None:
    c.fill(Rect.px(850, 540, 1260, 704), (70, 52, 40))
    c.text("Your price - type digits, press Enter:", 862, 572, 0.55, (230, 210, 180))


def price_text(c: Canvas, s: ShopState) -> None:
    """The price box and what is typed in it (redrawn alone while the player types)."""
    c.fill(L.PRICE_BOX, C.PRICE, C.SHADE, 3)
    c.text("$", 918, 660, 1.3, C.SOFT, True)
    c.text(f"{int(s.price_text):,}" if s.price_text else "", 1230, 662, 1.3, C.INK, True, "r")
    if s.price_text == "":
        c.text("_", 1232, 662, 1.3, C.SOFT, True, "r")


def _check(c: Canvas, r: Rect) -> None:
    x0, y0, x1, y1 = c.box(r)
    w, h = x1 - x0, y1 - y0
    t = max(2, int(round(9 * c.s)))
    pts = [
        (x0 + w * 0.25, y0 + h * 0.52),
        (x0 + w * 0.43, y0 + h * 0.72),
        (x0 + w * 0.76, y0 + h * 0.3),
    ]
    for a, b in zip(pts, pts[1:]):
        cv2.line(c.img, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), C.WHITE, t, cv2.LINE_AA)


def _cross(c: Canvas, r: Rect) -> None:
    x0, y0, x1, y1 = c.box(r)
    w, h = x1 - x0, y1 - y0
    t = max(2, int(round(9 * c.s)))
    for a, b in (((0.3, 0.28), (0.7, 0.72)), ((0.7, 0.28), (0.3, 0.72))):
        cv2.line(c.img, (int(x0 + w * a[0]), int(y0 + h * a[1])),
                 (int(x0 + w * b[0]), int(y0 + h * b[1])), C.WHITE, t, cv2.LINE_AA)  # fmt: skip
