"""Rendering: ``render(state, data, height, width, cache) -> (H, W, 3) uint8 RGB``.

The world is drawn directly at the requested size: tiles are composited at an integer tile
size ``tp`` (the camera shows about 20 x 11.25 tiles at 16:9, see ``layout.camera``), gathered
from an atlas in one vectorised step, cropped to the camera, then characters and the HUD go on
top at the final resolution. ``cache`` is a dict owned by the caller (the simulator); it only
ever holds things derived from ``data`` and ``state``, so the function stays pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gcc_envs.games.stardew.sim import hud, weather
from gcc_envs.games.stardew.sim.data import GameData
from gcc_envs.games.stardew.sim.layout import camera
from gcc_envs.games.stardew.sim.sprites import (
    Tables,
    TileSet,
    blit,
    build_tables,
    location_keys,
)
from gcc_envs.games.stardew.sim.state import WorldState

#: Tile sizes whose atlases are kept at once (more sizes evict the oldest).
MAX_TILE_SIZES = 4


def _tables(cache: dict[str, Any], data: GameData) -> Tables:
    t = cache.get("tables")
    if t is None or cache.get("tables_for") is not data:
        cache.clear()
        t = cache["tables"] = build_tables(data)
        cache["tables_for"] = data
    return t


def _tileset(cache: dict[str, Any], data: GameData, tables: Tables, tp: int) -> TileSet:
    sets: dict[int, TileSet] = cache.setdefault("tilesets", {})
    ts = sets.get(tp)
    if ts is None:
        if len(sets) >= MAX_TILE_SIZES:
            del sets[next(iter(sets))]
        ts = sets[tp] = TileSet(data, tables, tp)
    return ts


def _keys(cache: dict[str, Any], state: WorldState, tables: Tables) -> np.ndarray:
    loc = state.locations[state.location]
    layers: dict[str, tuple[int, int, np.ndarray]] = cache.setdefault("layers", {})
    got = layers.get(loc.name)
    if got is None or got[0] != id(loc) or got[1] != loc.version:
        layout = state.layout.get(loc.name, 0)
        got = (id(loc), loc.version, location_keys(state.data, tables, loc, layout))
        layers[loc.name] = got
    return got[2]


@dataclass
class _MapCanvas:
    """A whole location drawn at one tile size, patched in place when cells change."""

    loc_id: int
    keys: np.ndarray
    img: np.ndarray


def _canvas(cache: dict[str, Any], state: WorldState, tables: Tables, ts: TileSet) -> np.ndarray:
    loc = state.locations[state.location]
    keys = _keys(cache, state, tables)
    canvases: dict[int, _MapCanvas] = cache.setdefault("canvases", {})
    tp = ts.tp
    cv = canvases.get(tp)
    if cv is None or cv.loc_id != id(loc):
        h, w = keys.shape
        slots = ts.slots(keys)  # may grow (replace) the atlas: look it up after
        img = ts.atlas[slots].transpose(0, 2, 1, 3, 4).reshape(h * tp, w * tp, 3)
        if cv is None and len(canvases) >= MAX_TILE_SIZES:
            del canvases[next(iter(canvases))]
        cv = canvases[tp] = _MapCanvas(id(loc), keys, img)
    elif cv.keys is not keys:
        ys, xs = np.nonzero(cv.keys != keys)
        if len(ys):
            slots = ts.slots(keys[ys, xs])
            for y, x, slot in zip(ys.tolist(), xs.tolist(), slots.tolist(), strict=True):
                cv.img[y * tp : (y + 1) * tp, x * tp : (x + 1) * tp] = ts.atlas[slot]
        cv.keys = keys
    return cv.img


def world_layer(
    state: WorldState, data: GameData, height: int, width: int, cache: dict[str, Any]
) -> tuple[np.ndarray, int, int, int]:
    """The tiles under the camera as a fresh (H, W, 3) array; also (tp, x0, y0)."""
    tables = _tables(cache, data)
    tp, x0, y0 = camera(state, height, width)
    ts = _tileset(cache, data, tables, tp)
    img = _canvas(cache, state, tables, ts)
    ih, iw = img.shape[:2]
    if x0 >= 0 and y0 >= 0 and x0 + width <= iw and y0 + height <= ih:
        return img[y0 : y0 + height, x0 : x0 + width].copy(), tp, x0, y0
    frame = np.zeros((height, width, 3), np.uint8)  # the void around small maps is black
    sx0, sy0 = max(x0, 0), max(y0, 0)
    sx1, sy1 = min(x0 + width, iw), min(y0 + height, ih)
    if sx0 < sx1 and sy0 < sy1:
        frame[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0] = img[sy0:sy1, sx0:sx1]
    return frame, tp, x0, y0


def _draw_actors(frame: np.ndarray, state: WorldState, ts: TileSet, x0: int, y0: int) -> None:
    tp = ts.tp
    p = state.player
    actors: list[tuple[float, float, tuple[Any, ...]]] = []
    for npc in state.map().npcs:
        actors.append((npc.x + 0.5, npc.y + 0.5, ("npc", npc)))
    step = int(p.walked * 3.0) % 2 if p.moving else 0
    actors.append((p.x, p.y, ("player", p.facing, step)))
    actors.sort(key=lambda a: a[1])
    for x, y, key in actors:
        sprite = ts.blit_sprite(key, 1.0, 2.0)
        blit(frame, sprite, round((x - 0.5) * tp) - x0, round((y + 0.3) * tp) - 2 * tp - y0)
    swing = state.swing
    if swing is not None and state.tick < swing.until:
        icon = ts.blit_sprite(("icon", swing.item), 0.8, 0.8)
        dx = (swing.x + 0.5) * tp - p.x * tp
        dy = (swing.y + 0.5) * tp - p.y * tp
        cx = p.x * tp + dx * 0.7 - x0
        cy = (p.y - 0.6) * tp + dy * 0.7 - y0
        blit(frame, icon, round(cx - 0.4 * tp), round(cy - 0.4 * tp))


def render(
    state: WorldState, data: GameData, height: int, width: int, cache: dict[str, Any]
) -> np.ndarray:
    """The game screen at (height, width): world, characters and HUD. A fresh array."""
    if height < 1 or width < 1:
        raise ValueError(f"render size must be positive, got {height}x{width}")
    frame, tp, x0, y0 = world_layer(state, data, height, width, cache)
    _draw_actors(frame, state, cache["tilesets"][tp], x0, y0)
    if state.raining() and state.map().outdoor:
        weather.draw_rain(frame, state.tick)
    hud.draw(frame, state, data, cache)
    return frame
