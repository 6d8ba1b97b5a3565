"""``render(state, data, H, W)``: the screen as an RGB frame, drawn directly at any size.

A frame depends only on the state's ``version`` and the size, so the last frame is kept and
copied while nothing changes (a turn-based game mostly waits); backgrounds are drawn once per
size. Screens: :mod:`.screens` (newspaper, customer, haggle), pages and dialogs:
:mod:`.pages`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gcc_envs.games.dealers_life2.sim import layout as L
from gcc_envs.games.dealers_life2.sim import pages, screens
from gcc_envs.games.dealers_life2.sim.data import GameData
from gcc_envs.games.dealers_life2.sim.draw import Canvas, money
from gcc_envs.games.dealers_life2.sim.layout import C
from gcc_envs.games.dealers_life2.sim.state import ShopState


def weekday(day: int) -> str:
    return screens.WEEKDAYS[(day - 1) % 7]


def _background(h: int, w: int, kind: str) -> np.ndarray:
    """The shop interior (wall, shelves, counter) or the newspaper's table."""
    img = np.empty((h, w, 3), np.uint8)
    c = Canvas(img)
    if kind == "news":
        ramp = np.linspace(0.85, 1.0, h, dtype=np.float32)[:, None, None]
        img[:] = (np.array((120, 86, 60), np.float32) * ramp).astype(np.uint8)
        return img
    ramp = np.linspace(1.0, 0.82, h, dtype=np.float32)[:, None, None]
    img[:] = (np.array(C.WALL, np.float32) * ramp).astype(np.uint8)
    for y in (150, 270, 390):  # shelves with boxes on them
        c.fill(L.Rect.px(0, y, 1280, y + 12), (110, 76, 48))
        for i, x in enumerate(range(30, 1280, 150)):
            col = ((150, 120, 90), (130, 110, 120), (120, 130, 110))[(i + y // 120) % 3]
            c.fill(L.Rect.px(x, y - 50 + (i % 2) * 14, x + 70, y), col)
    c.fill(L.Rect.px(0, 440, 1280, 720), C.FLOOR)
    c.fill(L.Rect.px(0, 430, 1280, 470), C.COUNTER)
    c.fill(L.Rect.px(0, 430, 1280, 436), (150, 108, 72))
    return img


def _bar(c: Canvas, s: ShopState) -> None:
    c.fill(L.BAR, C.BAR)
    c.text(f"Day {s.day} of {s.days}  -  {weekday(s.day)}", 18, 37, 0.8, C.WHITE, True)
    c.text(f"Reputation {s.reputation}/100", 470, 37, 0.7, (240, 220, 170))
    c.fill(L.BANK, C.BANK, (10, 50, 25))
    c.text("BANK", 1056, 36, 0.5, (190, 230, 200))
    c.text(money(s.cash), 1258, 38, 0.9, C.WHITE, True, "r")
    if s.dialog is None and s.screen != "stats" and s.page in (None, "stock"):
        label = "Back" if s.page == "stock" else f"Stock ({len(s.stock)})"
        c.button(L.STOCK_BTN, C.STOCK, label, 0.65)


def _toast(c: Canvas, s: ShopState) -> None:
    if s.toast and s.screen == "customer" and s.dialog is None and s.page is None:
        c.fill(L.TOAST, (45, 35, 30))
        c.text(s.toast, 640, 84, 0.6, (255, 235, 200), anchor="c", max_w=860)


def render(
    s: ShopState, data: GameData, height: int, width: int, cache: dict[str, Any]
) -> np.ndarray:
    key = (s.version, height, width)
    last = cache.get("frame")
    if last is not None and last[0] == key:
        return last[1].copy()
    typing = s.screen == "haggle" and s.page is None and s.dialog is None
    base = cache.get("haggle")
    if typing and base is not None and base[0] == (s.base_version, height, width):
        img = base[1].copy()  # only the price box changed: redraw it alone
        screens.price_text(Canvas(img), s)
        cache["frame"] = (key, img)
        return img.copy()
    kind = "news" if s.screen in ("news", "stats") else "shop"
    bg_key = ("bg", height, width, kind)
    bg = cache.get(bg_key)
    if bg is None:
        bg = cache[bg_key] = _background(height, width, kind)
    cust = s.customer
    if s.screen in ("customer", "haggle") and cust is not None:
        # the background with the customer drawn in, kept for the few latest looks
        figs = cache.setdefault("figs", {})
        fk = (s.screen, cust.uid, round(cust.mood / 5), height, width)
        if fk not in figs:
            if len(figs) >= 8:
                figs.pop(next(iter(figs)))
            base = bg.copy()
            screens.figure(Canvas(base), s.screen, cust)
            figs[fk] = base
        img = figs[fk].copy()
    else:
        img = bg.copy()
    c = Canvas(img)
    if s.screen == "news":
        screens.newspaper(c, s, data)
    elif s.screen == "customer":
        screens.customer(c, s, data)
    elif s.screen == "haggle":
        screens.haggle(c, s, data)
    elif s.screen == "stats":
        pages.stats(c, s)
    _bar(c, s)
    _toast(c, s)
    if typing:
        cache["haggle"] = ((s.base_version, height, width), img.copy())
    if s.page is not None:
        c.dim()
        _bar(c, s)
        {"item": pages.item, "traits": pages.traits, "stock": pages.stock}[s.page](c, s, data)
    if s.dialog is not None:
        c.dim()
        pages.dialog(c, s.dialog)
    cache["frame"] = (key, img)
    return img.copy()
