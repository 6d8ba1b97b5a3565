"""Pages over a screen (item description, customer traits, stock), the day's stats, dialogs."""

from __future__ import annotations

from gcc_envs.games.dealers_life2.sim import art
from gcc_envs.games.dealers_life2.sim import layout as L
from gcc_envs.games.dealers_life2.sim.data import GameData
from gcc_envs.games.dealers_life2.sim.draw import Canvas, money, wrap
from gcc_envs.games.dealers_life2.sim.layout import RGB, C, Rect
from gcc_envs.games.dealers_life2.sim.screens import item_lines, tell_mark
from gcc_envs.games.dealers_life2.sim.state import Dialog, ShopState


def _page(c: Canvas, title: str, header: RGB) -> None:
    c.fill(L.PAGE, C.CARD, (80, 60, 40), 3)
    c.fill(L.PAGE_HDR, header)
    c.text(title, 256, 128, 1.0, C.WHITE, True, max_w=700)
    c.button(L.CLOSE_BTN, C.CLOSE, "X", 0.9)


def item(c: Canvas, s: ShopState, data: GameData) -> None:
    cust = s.customer
    if cust is None:
        return
    it = cust.item
    _page(c, it.name, C.HDR_ITEM)
    c.fill(Rect.px(262, 176, 522, 436), (236, 226, 206), (150, 120, 90))
    art.item_icon(c.img, c.box(Rect.px(272, 186, 512, 426)), it.category, data.items[it.kind].color)
    rar = data.rarity(it.rarity)
    y = 210
    for k, v in item_lines(it, data):
        c.text(f"{k}:", 560, y, 0.7, C.SOFT)
        c.text(v, 720, y, 0.8, rar.color if k == "Rarity" else C.INK, k in ("Rarity", "Estimate"),
               max_w=300)  # fmt: skip
        y += 44
    if cust.buys:
        c.text("You paid:", 560, y, 0.7, C.SOFT)
        c.text(f"{money(it.paid or 0)} on day {it.day_in}" if it.day_in else money(it.paid or 0),
               720, y, 0.8, C.INK, True)  # fmt: skip
        y += 44
    c.text("Notes", 262, 482, 0.7, C.INK, True)
    y = 520
    for n in it.notes:
        c.text(f"- {n}", 280, y, 0.7, C.INK, max_w=720)
        y += 36
    if it.tell is not None:
        tell_mark(c, 270, y + 2)
        c.text(it.tell, 304, y, 0.7, C.TELL, True, max_w=700)
    c.text("Close this page to start haggling.", 640, 680, 0.6, C.SOFT, anchor="c")


def traits(c: Canvas, s: ShopState, data: GameData) -> None:
    cust = s.customer
    if cust is None:
        return
    _page(c, f"Traits: {cust.name}", C.HDR_TRAITS)
    art.customer(c.img, c.box(Rect.px(262, 176, 492, 480)), cust.look, cust.mood)
    trait = next(t for t in data.traits if t.id == cust.trait)
    temper = next(t for t in data.tempers if t.id == cust.temper)
    y = 210
    for name, about in ((trait.name, trait.about), (temper.name, temper.about)):
        c.text(name, 530, y, 0.9, C.INK, True)
        for line in (wrap(about, 0.7, 470) if c.legible(0.7) else [])[:2]:
            y += 34
            c.text(line, 530, y, 0.7, C.SOFT)
        y += 56
    c.text(f"Mood: {int(round(cust.mood))}/100", 530, y, 0.8, C.INK, True)
    c.text("Patience: " + ("low" if cust.patience <= 2 else "some" if cust.patience <= 4 else "high"),
           530, y + 40, 0.8, C.INK, True)  # fmt: skip
    c.text(
        "Insulting offers sour the mood; at zero the customer walks out.", 262, 560, 0.62, C.SOFT
    )


def stock(c: Canvas, s: ShopState, data: GameData) -> None:
    _page(c, f"Stock: {len(s.stock)} items on the shelf", C.HDR_STOCK)
    if not s.stock:
        c.text("The shelf is empty.", 640, 400, 0.9, C.SOFT, anchor="c")
    for i, it in enumerate(s.stock[:12]):
        col, row = i % 3, i // 3
        x, y = 250 + col * 262, 166 + row * 124
        r = Rect.px(x, y, x + 250, y + 114)
        c.fill(r, (240, 232, 214), (150, 120, 90))
        art.item_icon(c.img, c.box(Rect.px(x + 4, y + 8, x + 64, y + 68)), it.category,
                      data.items[it.kind].color)  # fmt: skip
        c.text(it.name, x + 70, y + 28, 0.52, C.INK, True, max_w=176)
        c.text(f"{it.rarity}, {it.condition}", x + 70, y + 56, 0.5, C.SOFT, max_w=176)
        c.text(f"Paid {money(it.paid or 0)}", x + 70, y + 84, 0.55, C.INK, max_w=176)
    if len(s.stock) > 12:
        c.text(f"... and {len(s.stock) - 12} more", 640, 690, 0.6, C.SOFT, anchor="c")
    c.text(f"Shelf at cost: {money(s.stock_cost)}   Loans out: {money(s.loans)}", 640, 680 if len(s.stock) <= 12 else 664,
           0.6, C.SOFT, anchor="c")  # fmt: skip


def stats(c: Canvas, s: ShopState) -> None:
    log = s.days_log[-1]
    _page(c, f"Day {log.day} closed", C.HDR_STATS)
    rows = [
        ("Customers", f"{log.customers}"),
        ("Deals closed", f"{log.deals}"),
        ("Items bought", f"{log.bought} for {money(log.spent)}"),
        ("Items sold", f"{log.sold} for {money(log.earned)}"),
        ("Loans made / repaid", f"{money(log.lent)} / {money(log.repaid)}"),
        ("Rent", money(-log.rent)),
        ("Bank", f"{money(log.cash_start)} -> {money(log.cash_end)}"),
        ("Profit today", money(log.worth_end - log.worth_start)),
    ]
    y = 200
    for k, v in rows:
        c.text(k, 270, y, 0.75, C.SOFT)
        c.text(v, 1010, y, 0.8, C.INK, True, "r")
        y += 42
    profit = s.profit
    pct = 100.0 * profit / s.start_worth if s.start_worth else 0.0
    c.fill(Rect.px(262, y - 20, 1018, y + 58), (232, 224, 204))
    c.text("Total so far", 270, y + 12, 0.7, C.INK, True)
    c.text(f"{money(profit)} ({pct:+.1f}%)", 1010, y + 12, 0.85, (30, 110, 50) if profit >= 0 else C.TELL,
           True, "r")  # fmt: skip
    c.text(
        f"Deals closed: {s.deals_closed}   Reputation: {s.reputation}/100",
        270,
        y + 46,
        0.65,
        C.SOFT,
    )
    for n in s.notices[:1]:
        c.text(n, 640, 650, 0.6, C.TELL if "FAKE" in n else C.INK, anchor="c", max_w=760)
    last = "The last day is over." if s.over else "Close this page to start the next day."
    c.text(last, 640, 684, 0.65, C.INK, s.over, "c")


HEADERS = {"deal": C.HDR_DEAL, "sold": C.HDR_SOLD, "warning": C.HDR_WARN, "repaid": C.HDR_REPAID}


def dialog(c: Canvas, d: Dialog) -> None:
    c.fill(L.DIALOG, C.CARD, (60, 45, 35), 3)
    c.fill(L.DIALOG_HDR, HEADERS[d.kind])
    c.text_in(L.DIALOG_HDR, d.title, 1.05, C.WHITE)
    y = 312
    for line in d.lines[:3]:
        c.text(line, 640, y, 0.66, C.INK, anchor="c", max_w=410)
        y += 36
    c.button(L.OK_BTN, C.OK, "OK", 0.9)
