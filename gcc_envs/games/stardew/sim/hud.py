"""The HUD and menus drawn over the world at the frame's resolution.

Clock box (top right), energy bar (bottom right), toolbar (bottom centre), message box, and
the open menu (sleep dialogue, shop, inventory). Positions come from ``layout`` (normalised),
sizes scale with ``min(H / 720, W / 1280)``. Each element is painted into a patch cached by
what it shows, so a steady HUD costs a few array copies per frame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from gcc_envs.games.stardew.sim import art_things, layout, weather
from gcc_envs.games.stardew.sim.data import GameData
from gcc_envs.games.stardew.sim.layout import Rect
from gcc_envs.games.stardew.sim.sprites import blit, prepare
from gcc_envs.games.stardew.sim.state import INVENTORY, TOOLBAR, Slot, WorldState

FONT = cv2.FONT_HERSHEY_SIMPLEX
BOLD = cv2.FONT_HERSHEY_DUPLEX
PANEL = (248, 210, 146)
PANEL_DARK = (222, 168, 104)
BORDER = (104, 52, 24)
BORDER_LIGHT = (200, 118, 56)
TEXT = (70, 28, 12)
SLOT = (252, 234, 190)
HOVER = (255, 246, 204)
RED = (220, 36, 28)
#: HUD patches a simulator keeps (the least recently used go first), and the bytes they may
#: take: small frames keep thousands, 720p a few hundred.
MAX_PATCHES = 4096
MAX_PATCH_BYTES = 32 * 2**20

Painter = Callable[[np.ndarray, float], None]


def _scale(frame: np.ndarray) -> float:
    return min(frame.shape[0] / 720.0, frame.shape[1] / 1280.0)


def _thick(s: float, base: float = 2.0) -> int:
    return max(1, round(base * s))


def text(
    img: np.ndarray,
    s: str,
    x: float,
    y: float,
    scale: float,
    color: tuple[int, ...] = TEXT,
    thick: int = 1,
    align: str = "left",
    font: int = FONT,
) -> None:
    """Draw ``s`` with its baseline at y; ``align`` says where x is (left/center/right)."""
    if scale <= 0.02:
        return
    (w, _), _ = cv2.getTextSize(s, font, scale, thick)
    if align == "center":
        x -= w / 2
    elif align == "right":
        x -= w
    cv2.putText(img, s, (round(x), round(y)), font, scale, color, thick, cv2.LINE_AA)


def fit(s: str, scale: float, width: float, thick: int = 1, font: int = FONT) -> float:
    """Largest font scale <= ``scale`` at which ``s`` fits in ``width`` pixels."""
    (w, _), _ = cv2.getTextSize(s, font, scale, thick)
    return scale if w <= width else scale * width / max(w, 1)


def panel(
    img: np.ndarray, x0: int, y0: int, x1: int, y1: int, s: float, fill: tuple[int, ...] = PANEL
) -> None:
    b = max(1, round(4 * s))
    img[y0:y1, x0:x1] = BORDER
    img[y0 + b : y1 - b, x0 + b : x1 - b] = BORDER_LIGHT
    img[y0 + 2 * b : y1 - 2 * b, x0 + 2 * b : x1 - 2 * b] = fill


def _patch(
    frame: np.ndarray, cache: dict[str, Any], name: str, key: Any, rect: Rect, paint: Painter
) -> None:
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = rect.px(w, h)
    if x1 <= x0 or y1 <= y0:
        return
    patches: dict[Any, np.ndarray] = cache.setdefault("hud", {})
    full = (name, key, w, h)
    img = patches.pop(full, None)
    if img is None:
        img = np.empty((y1 - y0, x1 - x0, 3), np.uint8)
        paint(img, _scale(frame))
        size = cache.get("hud_bytes", 0) + img.nbytes
        while patches and (size > MAX_PATCH_BYTES or len(patches) >= MAX_PATCHES):
            size -= patches.pop(next(iter(patches))).nbytes  # the least recently used
        cache["hud_bytes"] = size
    patches[full] = img  # most recently used last
    frame[y0:y1, x0:x1] = img


def _icon(
    cache: dict[str, Any], data: GameData, item: str, size: int
) -> tuple[np.ndarray, np.ndarray]:
    icons: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = cache.setdefault("icons", {})
    got = icons.get((item, size))
    if got is None:
        it = data.items[item]
        got = icons[(item, size)] = prepare(art_things.ICON_PAINTERS[it.icon](it.color), size, size)
    return got


def _slot(
    img: np.ndarray,
    cache: dict[str, Any],
    data: GameData,
    slot: Slot | None,
    box: tuple[int, int, int, int],
    s: float,
    label: str = "",
    selected: bool = False,
    water: float | None = None,
    hover: bool = False,
) -> None:
    x0, y0, x1, y1 = box
    b = max(1, round(2 * s))
    img[y0:y1, x0:x1] = PANEL_DARK
    img[y0 + b : y1 - b, x0 + b : x1 - b] = HOVER if hover else SLOT
    w, h = x1 - x0, y1 - y0
    if slot is not None:
        size = max(1, round(min(w, h) * 0.78))
        blit(
            img, _icon(cache, data, slot.item, size), x0 + (w - size) // 2, y0 + (h - size) // 2 + b
        )
        if slot.count > 1:
            fs = 0.62 * s
            for col, t in (((40, 24, 12), _thick(s, 4)), ((255, 255, 255), _thick(s, 1.5))):
                text(img, str(slot.count), x1 - 2 * b, y1 - 2 * b, fs, col, t, "right", BOLD)
    if water is not None:
        gh = max(1, round(4 * s))
        img[y1 - gh - b : y1 - b, x0 + b : x1 - b] = (60, 60, 70)
        img[y1 - gh - b : y1 - b, x0 + b : x0 + b + round((w - 2 * b) * water)] = (70, 140, 240)
    if label:
        text(img, label, x0 + 3 * b, y0 + 9 * b, 0.38 * s, TEXT, _thick(s, 1.2))
    if selected:
        t = max(2, round(4 * s))
        cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), RED, t)


def _rel(r: Rect, base: Rect, w: int, h: int, fw: int, fh: int) -> tuple[int, int, int, int]:
    """Pixel box of rect ``r`` inside the patch of ``base`` (frame size fw x fh)."""
    bx, by, _, _ = base.px(fw, fh)
    x0, y0, x1, y1 = r.px(fw, fh)
    return x0 - bx, y0 - by, x1 - bx, y1 - by


def draw(frame: np.ndarray, state: WorldState, data: GameData, cache: dict[str, Any]) -> None:
    fh, fw = frame.shape[:2]
    menu = state.menu
    if menu in ("shop", "inventory"):
        cv2.convertScaleAbs(frame, frame, 0.55)
    _clock(frame, state, cache)
    _energy(frame, state, cache)
    if menu is None or menu == "shop":
        _toolbar(frame, state, data, cache, fw, fh)
    if menu == "sleep":
        _sleep(frame, state, cache)
    elif menu == "shop":
        _shop(frame, state, data, cache, fw, fh)
    elif menu == "inventory":
        _inventory(frame, state, data, cache, fw, fh)
    msg = state.message
    if msg is not None and state.tick < msg.until and menu != "sleep":
        _message(frame, msg.text, cache)
    if menu is not None:
        _cursor(frame, state.pointer)


def _clock(frame: np.ndarray, state: WorldState, cache: dict[str, Any]) -> None:
    rain = state.raining()
    key = (state.date_text, state.time_text, state.money, rain)

    def paint(img: np.ndarray, s: float) -> None:
        h, w = img.shape[:2]
        panel(img, 0, 0, w, h, s)
        t = _thick(s, 2)
        text(img, state.date_text, w * 0.56, h * 0.30, 0.8 * s, TEXT, t, "center", BOLD)
        weather.draw_icon(img, w * 0.16, h * 0.22, h * 0.08, rain)
        text(img, state.time_text, w / 2, h * 0.57, 0.8 * s, TEXT, t, "center", BOLD)
        m = max(1, round(8 * s))
        img[round(h * 0.66) : h - m, m : w - m] = PANEL_DARK
        img[round(h * 0.66) + 2 : h - m - 2, m + 2 : w - m - 2] = SLOT
        money = f"{state.money}g"
        text(
            img,
            money,
            w - 2.2 * m,
            h * 0.9,
            fit(money, 0.75 * s, w * 0.8, t, BOLD),
            (150, 40, 20),
            t,
            "right",
            BOLD,
        )

    _patch(frame, cache, "clock", key, layout.CLOCK_BOX, paint)


def _energy(frame: np.ndarray, state: WorldState, cache: dict[str, Any]) -> None:
    p = state.player
    key = (p.energy, p.max_energy)

    def paint(img: np.ndarray, s: float) -> None:
        h, w = img.shape[:2]
        panel(img, 0, 0, w, h, s)
        b = max(1, round(4 * s))
        top = round(h * 0.13)
        text(img, "E", w / 2, top * 0.85, 0.6 * s, TEXT, _thick(s, 2), "center", BOLD)
        x0, x1, y0, y1 = 2 * b, w - 2 * b, top, h - 2 * b
        img[y0:y1, x0:x1] = (60, 36, 30)
        frac = max(0.0, min(1.0, p.energy / max(p.max_energy, 1)))
        col = (64, 200, 60) if frac > 0.5 else (236, 200, 40) if frac > 0.2 else (220, 50, 30)
        img[y1 - round((y1 - y0) * frac) : y1, x0:x1] = col

    _patch(frame, cache, "energy", key, layout.ENERGY_BAR, paint)


def _toolbar(
    frame: np.ndarray, state: WorldState, data: GameData, cache: dict[str, Any], fw: int, fh: int
) -> None:
    p = state.player
    top = state.menu is None and layout.toolbar_on_top(state)
    panel_rect = layout.toolbar_panel(top)
    slots = tuple(None if s is None else (s.item, s.count) for s in state.inventory[:TOOLBAR])
    key = (slots, state.selected, round(10 * p.water / max(p.water_max, 1)), top)
    labels = [str(i + 1) for i in range(9)] + ["0", "-", "="]

    def paint(img: np.ndarray, s: float) -> None:
        h, w = img.shape[:2]
        panel(img, 0, 0, w, h, s)
        for i in range(TOOLBAR):
            slot = state.inventory[i]
            water = None
            if slot is not None and data.items[slot.item].tool == "can":
                water = p.water / max(p.water_max, 1)
            slots_r = layout.TOOLBAR_SLOTS_TOP if top else layout.TOOLBAR_SLOTS
            box = _rel(slots_r[i], panel_rect, w, h, fw, fh)
            _slot(img, cache, data, slot, box, s, labels[i], i == state.selected, water)

    _patch(frame, cache, "toolbar", key, panel_rect, paint)


def _message(frame: np.ndarray, msg: str, cache: dict[str, Any]) -> None:
    def paint(img: np.ndarray, s: float) -> None:
        h, w = img.shape[:2]
        panel(img, 0, 0, w, h, s)
        t = _thick(s, 1.6)
        scale = fit(msg, 0.7 * s, w * 0.92, t)
        text(img, msg, w / 2, h * 0.62, scale, TEXT, t, "center")

    _patch(frame, cache, "message", msg, layout.MESSAGE_BOX, paint)


def _sleep(frame: np.ndarray, state: WorldState, cache: dict[str, Any]) -> None:
    fh, fw = frame.shape[:2]

    def paint(img: np.ndarray, s: float) -> None:
        h, w = img.shape[:2]
        panel(img, 0, 0, w, h, s)
        t = _thick(s, 2)
        text(img, "Go to sleep for the night?", w * 0.05, h * 0.26, 0.95 * s, TEXT, t, "left", BOLD)
        for i, (label, r) in enumerate(zip(("Yes", "No"), layout.DIALOGUE_OPTIONS, strict=True)):
            x0, y0, x1, y1 = _rel(r, layout.DIALOGUE_BOX, w, h, fw, fh)
            chosen = i == state.menu_choice
            img[y0:y1, x0:x1] = HOVER if chosen else SLOT
            if chosen:
                cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), BORDER_LIGHT, _thick(s, 3))
                text(img, ">", x0 + 14 * s, (y0 + y1) / 2 + 10 * s, 0.9 * s, RED, t, "left", BOLD)
            text(img, label, x0 + 50 * s, (y0 + y1) / 2 + 11 * s, 0.9 * s, TEXT, t, "left")

    _patch(frame, cache, "sleep", state.menu_choice, layout.DIALOGUE_BOX, paint)


def _close_button(img: np.ndarray, box: tuple[int, int, int, int], s: float) -> None:
    x0, y0, x1, y1 = box
    img[y0:y1, x0:x1] = (150, 30, 24)
    b = max(1, round(2 * s))
    img[y0 + b : y1 - b, x0 + b : x1 - b] = RED
    m = (x1 - x0) // 4
    for a, c in (((x0 + m, y0 + m), (x1 - m, y1 - m)), ((x1 - m, y0 + m), (x0 + m, y1 - m))):
        cv2.line(img, a, c, (255, 255, 255), _thick(s, 3), cv2.LINE_AA)


def _shop(
    frame: np.ndarray, state: WorldState, data: GameData, cache: dict[str, Any], fw: int, fh: int
) -> None:
    stock = state.shop
    rows = layout.SHOP_ROWS[: len(stock)]
    hover = layout.hit(rows, *state.pointer)

    def paint(img: np.ndarray, s: float) -> None:
        h, w = img.shape[:2]
        panel(img, 0, 0, w, h, s)
        t = _thick(s, 2)
        text(img, data.shop_title, w * 0.03, h * 0.1, 1.0 * s, TEXT, t, "left", BOLD)
        text(
            img,
            f"Money: {state.money}g",
            w * 0.9,
            h * 0.1,
            0.8 * s,
            (150, 40, 20),
            t,
            "right",
            BOLD,
        )
        for i, (item_id, price) in enumerate(stock):
            item = data.items[item_id]
            x0, y0, x1, y1 = _rel(rows[i], layout.SHOP_PANEL, w, h, fw, fh)
            img[y0:y1, x0:x1] = PANEL_DARK
            b = max(1, round(2 * s))
            img[y0 + b : y1 - b, x0 + b : x1 - b] = HOVER if i == hover else SLOT
            size = max(1, round((y1 - y0) * 0.8))
            blit(
                img,
                _icon(cache, data, item_id, size),
                x0 + round(10 * s),
                y0 + (y1 - y0 - size) // 2,
            )
            mid = (y0 + y1) / 2 + 10 * s
            text(img, item.name, x0 + size + 24 * s, mid, 0.8 * s, TEXT, t)
            text(img, f"{price}g", x1 - 20 * s, mid, 0.8 * s, TEXT, t, "right", BOLD)
        _close_button(img, _rel(layout.SHOP_CLOSE, layout.SHOP_PANEL, w, h, fw, fh), s)

    _patch(frame, cache, "shop", (state.money, hover, stock), layout.SHOP_PANEL, paint)


def _inventory(
    frame: np.ndarray, state: WorldState, data: GameData, cache: dict[str, Any], fw: int, fh: int
) -> None:
    boxes = layout.INVENTORY_SLOTS
    hover = layout.hit(boxes, *state.pointer)
    contents = tuple(None if s is None else (s.item, s.count) for s in state.inventory)

    def paint(img: np.ndarray, s: float) -> None:
        h, w = img.shape[:2]
        panel(img, 0, 0, w, h, s)
        t = _thick(s, 2)
        text(img, "Inventory", w * 0.04, h * 0.11, 1.0 * s, TEXT, t, "left", BOLD)
        for i in range(INVENTORY):
            box = _rel(boxes[i], layout.INVENTORY_PANEL, w, h, fw, fh)
            _slot(
                img,
                cache,
                data,
                state.inventory[i],
                box,
                s,
                "",
                i == state.selected,
                hover=i == hover,
            )
        shown = hover if hover >= 0 else state.selected
        slot = state.inventory[shown]
        if slot is not None:
            name = data.items[slot.item].name
            label = name if slot.count == 1 else f"{name} x{slot.count}"
            text(img, label, w * 0.04, h * 0.78, 0.85 * s, TEXT, t, "left", BOLD)
        text(img, f"Money: {state.money}g", w * 0.04, h * 0.9, 0.8 * s, (150, 40, 20), t)
        text(
            img,
            f"Energy: {state.player.energy}/{state.player.max_energy}",
            w * 0.96,
            h * 0.9,
            0.7 * s,
            TEXT,
            _thick(s, 1.5),
            "right",
        )
        _close_button(img, _rel(layout.INVENTORY_CLOSE, layout.INVENTORY_PANEL, w, h, fw, fh), s)

    key = (contents, state.selected, hover, state.money, state.player.energy)
    _patch(frame, cache, "inventory", key, layout.INVENTORY_PANEL, paint)


def _cursor(frame: np.ndarray, pointer: tuple[float, float]) -> None:
    h, w = frame.shape[:2]
    s = _scale(frame)
    x, y = pointer[0] * w, pointer[1] * h
    k = 22 * s
    pts = np.array([[x, y], [x, y + k], [x + 0.3 * k, y + 0.75 * k], [x + 0.7 * k, y + 0.7 * k]])
    pts = np.round(pts).astype(np.int32)
    cv2.fillConvexPoly(frame, pts, (255, 255, 255), cv2.LINE_AA)
    cv2.polylines(frame, [pts], True, (40, 20, 10), _thick(s, 2), cv2.LINE_AA)
