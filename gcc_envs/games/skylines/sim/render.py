"""Rendering: ``render(state, height, width, cache) -> (H, W, 3) uint8 RGB``, a fresh array.

The frame is composed from three cached layers — the map with its info view (rebuilt when
``state.version`` or the view changes), the info bar (when a figure on it changes) and the
panel with the toolbar (when the menu, the tool or the preview's status changes) — and then
the live parts: the placement preview, the tooltip and the game's message. ``cache`` is a dict
owned by the caller; it only holds things derived from the state, so the function stays pure.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gcc_envs.games.skylines.sim import art, hud, layout, networks, ui, views
from gcc_envs.games.skylines.sim.state import CityState


def _unpowered_services(state: CityState) -> list:  # type: ignore[type-arg]
    if not state.services:
        return []
    pw = networks.power(state)
    tools = state.data.tools
    return [
        s for s in state.services.values() if tools[s.tool].consumes_mw and not pw.powered[s.y, s.x]
    ]


#: Drawn bars kept per layer (toggling a menu or the pause back and forth hits the cache).
KEEP = 16


def _memo(cache: dict[str, Any], name: str, key: Any, draw: Any) -> np.ndarray:  # noqa: ANN401
    store: dict[Any, np.ndarray] = cache.setdefault(name, {})
    got = store.get(key)
    if got is None:
        if len(store) >= KEEP:
            del store[next(iter(store))]
        got = store[key] = draw()
    return got


def render(state: CityState, height: int, width: int, cache: dict[str, Any]) -> np.ndarray:
    H, W = int(height), int(width)
    _, ys = layout.edges(W, H)
    y_map0, y_map1 = int(ys[0]), int(ys[-1])
    view = views.active_view(state)

    key = (H, W, state.version)
    layers: dict[str | None, tuple[Any, np.ndarray]] = cache.setdefault("map", {})
    base = layers.get(None)
    if base is None or base[0] != key:
        layers.clear()
        img = np.zeros((H, W, 3), np.uint8)
        art.draw_map(img, state, W, H, _unpowered_services(state) if state.week == 0 else ())
        art.signs(img, state, W, H)
        base = layers[None] = (key, img)
    got = layers.get(view)
    if got is None:
        img = base[1].copy()
        views.draw_view(img, state, view, W, H)  # type: ignore[arg-type]
        art.signs(img, state, W, H)
        got = layers[view] = (key, img)
    frame = got[1].copy()

    tkey = (
        H,
        W,
        round(state.budget),
        round(state.income - state.expenses),
        state.population,
        state.week,
        state.running,
        state.speed,
        tuple(round(d, 2) for d in state.demand),
        state.ui.view,
    )

    def top() -> np.ndarray:
        canvas = np.zeros((H, W, 3), np.uint8)
        hud.top_bar(canvas, state)
        return canvas[:y_map0].copy()

    frame[:y_map0] = _memo(cache, "top", tkey, top)

    pv = ui.preview(state)
    pkey = (
        H,
        W,
        state.ui.menu,
        state.ui.tool,
        state.running,
        None if pv is None else (pv.tool, pv.ok, pv.error, pv.info),
    )

    def bottom() -> np.ndarray:
        canvas = np.zeros((H, W, 3), np.uint8)
        hud.panel(canvas, state, pv)
        hud.toolbar(canvas, state)
        return canvas[y_map1:].copy()

    frame[y_map1:] = _memo(cache, "bottom", pkey, bottom)

    hud.draw_preview(frame, state, pv)
    hud.notices(frame, state)
    hud.toast(frame, state)
    return frame
