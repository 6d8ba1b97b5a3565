"""Full-screen layers over the game view: weapon wheel, pause menu, shop, mission banners.

Their clickable geometry comes from :mod:`state` (wheel sectors, pause items, shop rows), so
what is drawn is where the simulator looks for the pointer.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim import layers, text
from gcc_envs.games.rdr2.sim.hud import px, scale
from gcc_envs.games.rdr2.sim.layers import panel
from gcc_envs.games.rdr2.sim.state import (
    PAUSE_ANIMATION_S,
    WEAPONS,
    WHEEL_INNER_PX,
    WHEEL_OUTER_PX,
    WHEEL_TOP_DEG,
    pause_item_rect,
    shop_row_rect,
)

WHITE = (255, 255, 255)
RED = (200, 24, 24)
GOLD = (236, 196, 92)
SECTOR = np.array([34, 30, 28], np.float32)
SECTOR_OWNED = np.array([58, 50, 44], np.float32)
SECTOR_HOVER = np.array([214, 206, 190], np.float32)


def dim(frame: np.ndarray, k: float, grey: float = 0.0) -> None:
    """Darken by ``k`` and pull colours ``grey`` of the way to their luminance, in place."""
    if grey > 0.0:
        a, b = (1.0 - grey) * k, grey * k
        lum = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
        frame[:] = cv2.addWeighted(frame, a, lum, b, 0.0)
    else:
        frame[:] = cv2.convertScaleAbs(frame, alpha=k)


def blurred(frame: np.ndarray, k: float = 1.0, grey: float = 0.0) -> np.ndarray:
    """A soft copy of ``frame`` (downsample by 8, back up), dimmed as :func:`dim` does it (on
    the small copy: the same colours, for a 64th of the work)."""
    h, w = frame.shape[:2]
    dw, dh = max(1, w // 8), max(1, h // 8)
    small = cv2.resize(frame, (dw, dh), interpolation=cv2.INTER_AREA)
    if k != 1.0 or grey:
        dim(small, k, grey)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


@lru_cache(maxsize=8)
def _wheel_grid(h: int, w: int) -> tuple[np.ndarray, np.ndarray, int, int, int, int]:
    """Sector index per pixel of the wheel's square (-1 outside the ring) and the square."""
    s = scale(h, w)
    r_out, r_in = WHEEL_OUTER_PX * s, WHEEL_INNER_PX * s
    cx, cy = w / 2.0, h / 2.0
    x0, x1 = max(0, int(cx - r_out) - 1), min(w, int(cx + r_out) + 2)
    y0, y1 = max(0, int(cy - r_out) - 1), min(h, int(cy + r_out) + 2)
    dx = np.arange(x0, x1, dtype=np.float32)[None, :] + 0.5 - cx
    dy = np.arange(y0, y1, dtype=np.float32)[:, None] + 0.5 - cy
    r = np.sqrt(dx**2 + dy**2)
    ang = np.degrees(np.arctan2(dy, dx)) % 360.0
    n = len(WEAPONS)
    sector = ((ang - WHEEL_TOP_DEG + 180.0 / n) % 360.0 // (360.0 / n)).astype(np.int32)
    ring = (r >= r_in) & (r <= r_out)
    gap = np.abs(((ang - WHEEL_TOP_DEG + 180.0 / n) % (360.0 / n)) - 0.0) < 0.6
    sector = np.where(ring & ~gap, sector, -1)
    edge = ring & ((r > r_out - max(1.5, 3 * s)) | (r < r_in + max(1.5, 3 * s)))
    sector.setflags(write=False)
    edge.setflags(write=False)
    return sector, edge, x0, y0, x1, y1


def sector_centre(i: int, h: int, w: int, frac: float = 0.62) -> tuple[float, float]:
    """Pixel position ``frac`` of the way out along sector ``i``'s middle."""
    s = scale(h, w)
    a = math.radians(WHEEL_TOP_DEG + 360.0 / len(WEAPONS) * i)
    r = (WHEEL_INNER_PX + frac * (WHEEL_OUTER_PX - WHEEL_INNER_PX)) * s
    return w / 2.0 + r * math.cos(a), h / 2.0 + r * math.sin(a)


def _icon(
    frame: np.ndarray, name: str, cx: float, cy: float, k: float, color: tuple[int, int, int]
) -> None:
    t = max(1, round(k * 0.12))

    def p(x: float, y: float) -> tuple[int, int]:
        return (round(cx + x * k), round(cy + y * k))

    if name == "revolver":
        cv2.rectangle(frame, p(-0.6, -0.2), p(0.5, 0.05), color, -1)
        cv2.line(frame, p(-0.45, 0.0), p(-0.7, 0.55), color, 2 * t, cv2.LINE_AA)
    elif name == "rifle":
        cv2.line(frame, p(-0.9, 0.1), p(0.9, -0.1), color, 2 * t, cv2.LINE_AA)
        cv2.line(frame, p(-0.9, 0.1), p(-0.6, 0.35), color, 2 * t, cv2.LINE_AA)
    elif name == "knife":
        cv2.line(frame, p(-0.6, 0.3), p(0.6, -0.3), color, 2 * t, cv2.LINE_AA)
        cv2.line(frame, p(-0.3, 0.0), p(-0.1, 0.35), color, t, cv2.LINE_AA)
    elif name == "lasso":
        cv2.ellipse(
            frame, p(0, -0.1), (round(0.55 * k), round(0.4 * k)), 0, 0, 360, color, t, cv2.LINE_AA
        )
        cv2.line(frame, p(0.2, 0.3), p(0.5, 0.7), color, t, cv2.LINE_AA)
    elif name == "fists":
        cv2.circle(frame, p(0, 0), round(0.45 * k), color, -1, cv2.LINE_AA)
    elif name == "bow":
        cv2.ellipse(
            frame, p(-0.2, 0), (round(0.5 * k), round(0.8 * k)), 0, -80, 80, color, t, cv2.LINE_AA
        )
        cv2.line(frame, p(-0.1, -0.8), p(-0.1, 0.8), color, max(1, t // 2), cv2.LINE_AA)


def draw_wheel(frame: np.ndarray, state: Any) -> None:
    """The weapon wheel over a slowed, dimmed view; the hovered sector is lit."""
    h, w = frame.shape[:2]
    s = scale(h, w)
    dim(frame, 0.55, 0.6)
    sector, edge, x0, y0, x1, y1 = _wheel_grid(h, w)
    wheel = state.ui.wheel
    owned = set(getattr(state.player, "weapons", WEAPONS))
    colors = np.empty((len(WEAPONS) + 1, 3), np.float32)
    for i, name in enumerate(WEAPONS):
        colors[i] = SECTOR_OWNED if name in owned else SECTOR
    if wheel.hovered is not None:
        colors[wheel.hovered] = SECTOR_HOVER
    colors[-1] = 0.0
    alpha = np.where(sector >= 0, 0.85, 0.0).astype(np.float32)[..., None]
    region = frame[y0:y1, x0:x1]
    region[:] = (region * (1.0 - alpha) + colors[sector] * alpha).astype(np.uint8)
    region[edge & (sector >= 0)] = (120, 30, 26)
    size = px(17, s)
    for i, name in enumerate(WEAPONS):
        hovered = wheel.hovered == i
        color = (24, 20, 18) if hovered else (WHITE if name in owned else (110, 104, 98))
        ix, iy = sector_centre(i, h, w, 0.5)
        _icon(frame, name, ix, iy - size * 0.6, 22 * s, color)
        text.draw(
            frame,
            name.title(),
            ix,
            iy + size * 0.9,
            size,
            color,
            "mm",
            bold=hovered,
            shadow=not hovered,
        )
    centre = WEAPONS[wheel.hovered] if wheel.hovered is not None else state.player.weapon
    text.draw(frame, centre.title(), w / 2, h / 2, px(22, s), WHITE, "mm", bold=True)
    if centre in ("revolver", "rifle") and centre in owned:
        ammo = f"{state.player.ammo_clip} | {state.player.ammo_reserve}"
        text.draw(frame, ammo, w / 2, h / 2 + px(26, s), px(16, s), (220, 210, 190), "mm")


def draw_pause(frame: np.ndarray, state: Any) -> np.ndarray:
    """The pause menu: blurred dark view, ``PAUSED`` and the menu list. Returns a new array."""
    return draw_pause_menu(pause_background(frame), state)


def pause_background(frame: np.ndarray) -> np.ndarray:
    """The blurred, darkened view behind the pause menu (a new array)."""
    return blurred(frame, 0.35, 0.5)


def draw_pause_menu(out: np.ndarray, state: Any) -> np.ndarray:
    """``PAUSED`` and the menu list drawn on ``out`` (a pause background), which is returned."""
    pause = state.ui.pause
    h, w = out.shape[:2]
    layers.lay(out, _pause_menu(h, w, pause.hovered, tuple(pause.items)))
    return out


@lru_cache(maxsize=32)
def _pause_menu(h: int, w: int, hovered: int | None, items: tuple[str, ...]) -> layers.Layer:
    """The pause menu's layer: all it shows is the size, the items and the one hovered."""
    s = scale(h, w)

    def draw(out: np.ndarray) -> None:
        text.draw(out, "PAUSED", w * 0.06, h * 0.12, px(56, s), WHITE, "lt", bold=True)
        cv2.line(
            out,
            (round(w * 0.06), round(h * 0.24)),
            (round(w * 0.30), round(h * 0.24)),
            RED,
            max(1, px(3, s)),
        )
        for i, item in enumerate(items):
            u0, v0, u1, v1 = pause_item_rect(i)
            bx0, by0, bx1, by1 = round(u0 * w), round(v0 * h), round(u1 * w), round(v1 * h)
            if hovered == i:
                layers.fill(out, bx0, by0, bx1, by1, (214, 206, 190))
                layers.fill(out, bx0, by0, bx0 + max(1, px(6, s)), by1, RED)
                color = (20, 18, 16)
            else:
                layers.panel(out, bx0, by0, bx1, by1, 0.4)
                color = WHITE
            text.draw(
                out,
                item,
                bx0 + px(18, s),
                (by0 + by1) / 2,
                px(26, s),
                color,
                "lm",
                bold=True,
                shadow=hovered != i,
            )
        text.draw(out, "[Esc] Resume", w * 0.06, h * 0.92, px(20, s), (220, 210, 190), "lm")

    return layers.bake(h, w, draw)


def pause_mix(state: Any) -> float:
    """How far the pause menu has faded in: 0 running, 1 paused, between while animating."""
    pause = state.ui.pause
    phase = pause.phase
    if phase == "running":  # (every frame)
        return 0.0
    t = max(0.0, min(1.0, pause.anim_left / PAUSE_ANIMATION_S))
    return {"paused": 1.0, "pausing": 1.0 - t, "resuming": t}.get(phase, 0.0)


def draw_shop(frame: np.ndarray, state: Any) -> None:
    shop = state.ui.shop
    h, w = frame.shape[:2]
    s = scale(h, w)
    u0, v0, u1, _ = shop_row_rect(0)
    panel(
        frame,
        round((u0 - 0.02) * w),
        round((v0 - 0.1) * h),
        round((u1 + 0.02) * w),
        round(min(0.97, v0 + 0.07 * len(shop.rows) + 0.06) * h),
        0.7,
    )
    text.draw(frame, "General Store", u0 * w, (v0 - 0.05) * h, px(30, s), WHITE, "lm", bold=True)
    for i, (item, price) in enumerate(shop.rows):
        a0, b0, a1, b1 = shop_row_rect(i)
        bx0, by0, bx1, by1 = round(a0 * w), round(b0 * h), round(a1 * w), round(b1 * h)
        color = WHITE
        if shop.hovered == i:
            frame[by0:by1, bx0:bx1] = (214, 206, 190)
            color = (20, 18, 16)
        cy = (by0 + by1) / 2
        text.draw(
            frame,
            item.replace("_", " ").title(),
            bx0 + px(12, s),
            cy,
            px(22, s),
            color,
            "lm",
            shadow=shop.hovered != i,
        )
        text.draw(
            frame,
            f"${price:.2f}",
            bx1 - px(12, s),
            cy,
            px(22, s),
            color,
            "rm",
            bold=True,
            shadow=shop.hovered != i,
        )


def draw_overlay(frame: np.ndarray, state: Any) -> None:
    """Mission failed / checkpoint / mission passed banners."""
    ov = state.ui.overlay
    if ov.kind == "none":
        return
    h, w = frame.shape[:2]
    s = scale(h, w)
    if ov.kind == "mission_failed":
        dim(frame, 0.45, 1.0)
        panel(frame, 0, round(h * 0.34), w, round(h * 0.57), 0.5)
        text.draw(frame, "MISSION FAILED", w / 2, h * 0.42, px(64, s), RED, "mm", bold=True)
        if ov.text:
            size = text.fit_px(ov.text, px(26, s), w * 0.8)
            text.draw(frame, ov.text, w / 2, h * 0.52, size, WHITE, "mm")
        return
    title = "MISSION PASSED" if ov.kind == "mission_passed" else "CHECKPOINT"
    y = h * (0.30 if ov.kind == "mission_passed" else 0.16)
    band = px(54 if ov.kind == "mission_passed" else 40, s)
    panel(frame, 0, round(y - band), w, round(y + band * (1.6 if ov.text else 1.0)), 0.55)
    text.draw(
        frame,
        title,
        w / 2,
        y,
        px(48 if ov.kind == "mission_passed" else 32, s),
        GOLD,
        "mm",
        bold=True,
    )
    if ov.text:
        text.draw(frame, ov.text, w / 2, y + band, px(22, s), WHITE, "mm")
