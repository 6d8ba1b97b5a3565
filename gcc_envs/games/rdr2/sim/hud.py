"""The gameplay HUD: objective line, key prompts, tutorial box, cores, crosshair, loot ring,
damage vignette, money and ammo. Sizes scale with ``min(H / 720, W / 1280)``.

Layout (native 1280x720): tutorial box top left, ammo and money top right, key prompts stacked
at the bottom right, the objective and subtitles at the bottom centre, health and stamina
cores just above the minimap (drawn by :mod:`minimap`).
"""

from __future__ import annotations

import math
import textwrap
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim import layers, text
from gcc_envs.games.rdr2.sim.minimap import MapBox
from gcc_envs.games.rdr2.sim.state import GUNS

WHITE = (255, 255, 255)
DAMAGE_RED = (170, 0, 0)
OBJECTIVE_PX = 26
PROMPT_PX = 22
TUTORIAL_PX = 20
SUBTITLE_PX = 22
#: Tutorial box width (native pixels) and its wrap width in characters.
TUTORIAL_W = 380
TUTORIAL_CHARS = 32


def scale(height: int, width: int) -> float:
    return min(height / 720.0, width / 1280.0)


@lru_cache(maxsize=1024)  # a frame asks for a few dozen sizes, the same every frame
def px(base: float, s: float) -> int:
    return max(1, round(base * s))


def prompt_lines(state: Any) -> list[str]:
    """The key prompt strings shown at the bottom right, top to bottom."""
    out = []
    for p in state.ui.prompts:
        t = p.text() if hasattr(p, "text") else f"[{p.key}] {p.label}"
        out.append(t)
    return out


def tutorial_lines(s: str) -> list[str]:
    """The wrapped lines of a tutorial box."""
    return list(_wrapped(s))


@lru_cache(maxsize=64)
def _wrapped(s: str) -> tuple[str, ...]:
    return tuple(textwrap.wrap(s, TUTORIAL_CHARS)) or ("",)


def draw_objective(frame: np.ndarray, s: float, objective: str, sub: str) -> None:
    """The objective line and, above it, the subtitle, bottom centre."""
    h, w = frame.shape[:2]
    y = h - px(48, s)
    if objective:
        size = text.fit_px(objective, px(OBJECTIVE_PX, s), w * 0.6)
        tw, th = text.size(objective, size)
        pad = px(10, s)
        layers.panel(
            frame,
            round(w / 2 - tw / 2 - 3 * pad),
            round(y - th - pad),
            round(w / 2 + tw / 2 + 3 * pad),
            round(y + pad),
            0.4,
        )
        text.draw(frame, objective, w / 2, y, size, WHITE, "mb")
        y -= size * 1.6
    if sub:
        size = text.fit_px(sub, px(SUBTITLE_PX, s), w * 0.7)
        tw, th = text.size(sub, size)
        pad = px(6, s)
        layers.panel(
            frame,
            round((w - tw) / 2 - pad),
            round(y - th - pad),
            round((w + tw) / 2 + pad),
            round(y + pad),
            0.3,
        )
        text.draw(frame, sub, w / 2, y, size, (236, 226, 200), "mb")


def draw_prompts(
    frame: np.ndarray, s: float, lines: tuple[str, ...]
) -> list[tuple[int, int, int, int]]:
    """Prompts right-aligned, bottom up; returns their boxes (the first is the top one)."""
    h, w = frame.shape[:2]
    size = px(PROMPT_PX, s)
    step = round(size * 2.0)
    x1 = w - px(28, s)
    y = h - px(36, s) - step * (len(lines) - 1)
    boxes = []
    for line in lines:
        tw, th = text.size(line, size, True)
        pad = px(8, s)
        layers.panel(frame, x1 - tw - 2 * pad, y - th - pad, x1 + pad // 2, y + pad, 0.55)
        boxes.append(text.draw(frame, line, x1 - pad // 2, y, size, WHITE, "rb", bold=True))
        y += step
    return boxes


def draw_tutorial(frame: np.ndarray, s: float, tutorial: str) -> None:
    """The tutorial box, top left."""
    if not tutorial:
        return
    size = px(TUTORIAL_PX, s)
    lines = tutorial_lines(tutorial)
    x0, y0 = px(26, s), px(30, s)
    pad = px(14, s)
    line_h = round(size * 1.4)
    layers.panel(frame, x0, y0, x0 + px(TUTORIAL_W, s), y0 + 2 * pad + line_h * len(lines), 0.65)
    layers.fill(
        frame, x0, y0, x0 + max(1, px(4, s)), y0 + 2 * pad + line_h * len(lines), (196, 30, 30)
    )
    for i, line in enumerate(lines):
        text.draw(frame, line, x0 + pad + px(4, s), y0 + pad + i * line_h, size, WHITE, "lt")


#: The cores' colours: health, then stamina.
CORE_COLORS = ((220, 40, 36), (240, 240, 240))


def draw_cores(frame: np.ndarray, state: Any, b: MapBox, s: float) -> None:
    """Health and stamina cores: rings above the minimap's right shoulder, each filled as far
    as it is full (a layer kept by what it shows)."""
    p = state.player
    r = max(3, px(14, s))
    fills = (p.health / max(p.max_health, 1e-6), 0.35 if getattr(p, "running", False) else 1.0)
    inner = tuple(max(1, round((r - 2) * math.sqrt(max(0.0, min(1.0, f))))) for f in fills)
    h, w = frame.shape[:2]
    layers.lay(frame, cores_layer(h, w, b.cx - b.r + r, b.cy - b.r - px(6, s) - r, r, s, inner))


@lru_cache(maxsize=64)
def cores_layer(
    h: int, w: int, x: int, y: int, r: int, s: float, inner: tuple[int, ...]
) -> layers.Layer:
    """The cores of radius ``r``, the first centred at (x, y), filled to radii ``inner``."""

    def draw(frame: np.ndarray) -> None:
        for i, (fill, color) in enumerate(zip(inner, CORE_COLORS, strict=True)):
            cx = x + i * (2 * r + px(8, s))
            rings = ((r, (20, 20, 20), -1), (fill, color, -1), (r, (200, 200, 200), px(2, s)))
            for radius, c, thickness in rings:
                cv2.circle(frame, (cx, y), radius, c, thickness, cv2.LINE_AA)

    return layers.bake(h, w, draw)


def draw_top_right(
    frame: np.ndarray, s: float, ammo: str | None, weapon: str, money: str | None
) -> None:
    """Ammo (``clip | reserve``) and the gun's name, then the money, top right."""
    x = frame.shape[1] - px(28, s)
    y = px(26, s)
    size = px(20, s)
    if ammo is not None:
        box = text.draw(frame, ammo, x, y, size, WHITE, "rt", True)
        text.draw(frame, weapon, box[0] - px(12, s), y, size, (220, 210, 190), "rt")
        y = box[3] + px(10, s)
    if money is not None:
        text.draw(frame, money, x, y, size, (236, 222, 170), "rt", True)


def text_inputs(state: Any) -> tuple[str | None, str, str | None, str, str, str, tuple[str, ...]]:
    """All the HUD's text layer shows: ammo, gun, money, tutorial, objective, subtitle and
    prompt lines."""
    p, ui = state.player, state.ui
    guns = p.weapon in GUNS
    shopping = ui.shop.open or getattr(state.mission, "name", "") == "mission3"
    tut = ui.tutorial
    return (
        f"{p.ammo_clip} | {p.ammo_reserve}" if guns else None,
        p.weapon.title() if guns else "",
        f"${p.money:.2f}" if shopping else None,
        tut.text if tut is not None and tut.text else "",
        ui.objective,
        getattr(ui, "subtitle", ""),
        tuple(prompt_lines(state)),
    )


def draw_text(
    frame: np.ndarray,
    ammo: str | None,
    weapon: str,
    money: str | None,
    tutorial: str,
    objective: str,
    subtitle: str,
    prompts: tuple[str, ...],
) -> None:
    """The HUD's panels and text (top right, tutorial, objective, prompts) drawn on ``frame``."""
    s = scale(*frame.shape[:2])
    draw_top_right(frame, s, ammo, weapon, money)
    draw_tutorial(frame, s, tutorial)
    draw_objective(frame, s, objective, subtitle)
    draw_prompts(frame, s, prompts)


@lru_cache(maxsize=64)
def text_layer(h: int, w: int, *shown: Any) -> layers.Layer:
    """:func:`draw_text` as a layer, kept by what it shows (:func:`text_inputs`)."""
    return layers.bake(h, w, lambda f: draw_text(f, *shown))


def draw_crosshair(frame: np.ndarray, state: Any, s: float) -> None:
    h, w = frame.shape[:2]
    cx, cy = w // 2, h // 2
    if state.player.aiming:
        r = max(2, px(3, s))
        cv2.circle(frame, (cx, cy), r + 1, (0, 0, 0), -1, cv2.LINE_AA)
        cv2.circle(frame, (cx, cy), r, WHITE, -1, cv2.LINE_AA)
        cv2.circle(frame, (cx, cy), px(16, s), (230, 230, 230), max(1, px(1.5, s)), cv2.LINE_AA)
    hit = getattr(state.ui, "hit_marker", 0.0)
    if hit > 0.05:
        k, g = px(14, s), px(5, s)
        c = (255, 255, 255)
        for sx, sy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            cv2.line(
                frame,
                (cx + sx * g, cy + sy * g),
                (cx + sx * k, cy + sy * k),
                c,
                max(1, px(2, s)),
                cv2.LINE_AA,
            )


def draw_loot_ring(frame: np.ndarray, state: Any, s: float) -> None:
    frac = getattr(state.ui, "loot_progress", None)
    if frac is None:
        return
    h, w = frame.shape[:2]
    cx, cy, r = w // 2, round(h * 0.62), px(26, s)
    cv2.circle(frame, (cx, cy), r, (30, 30, 30), max(2, px(6, s)), cv2.LINE_AA)
    end = -90 + 360.0 * max(0.0, min(1.0, frac))
    cv2.ellipse(frame, (cx, cy), (r, r), 0, -90, end, WHITE, max(2, px(6, s)), cv2.LINE_AA)
    text.draw(frame, "R", cx, cy, px(20, s), WHITE, "mm", bold=True)


@lru_cache(maxsize=8)
def _vignette(h: int, w: int) -> np.ndarray:
    """(H, W) float32 weight: 0 in the middle, 1 in the corners."""
    y = (np.arange(h, dtype=np.float32) + 0.5) / h * 2.0 - 1.0
    x = (np.arange(w, dtype=np.float32) + 0.5) / w * 2.0 - 1.0
    r = np.sqrt(x[None, :] ** 2 + y[:, None] ** 2) / math.sqrt(2.0)
    v = np.clip((r - 0.35) / 0.65, 0.0, 1.0) ** 1.5
    v.setflags(write=False)
    return v


def draw_damage(frame: np.ndarray, state: Any) -> None:
    """Red vignette: the damage flash, and a steady one while health is low."""
    a = float(getattr(state.ui, "damage_flash", 0.0))
    health = state.player.health / max(state.player.max_health, 1e-6)
    a = min(1.0, max(a, 0.5 * max(0.0, 0.35 - health) / 0.35))
    if a <= 0.01:
        return
    h, w = frame.shape[:2]
    wgt = _vignette(h, w) * np.float32(a)
    red = np.empty_like(frame)
    red[:] = DAMAGE_RED
    frame[:] = cv2.blendLinear(frame, red, 1.0 - wgt, wgt)


def draw(frame: np.ndarray, state: Any, b: MapBox) -> None:
    """Everything of the HUD except the minimap (already drawn at ``b``)."""
    h, w = frame.shape[:2]
    s = scale(h, w)
    draw_damage(frame, state)
    draw_crosshair(frame, state, s)
    draw_cores(frame, state, b, s)
    layers.lay(frame, text_layer(h, w, *text_inputs(state)))
    draw_loot_ring(frame, state, s)
