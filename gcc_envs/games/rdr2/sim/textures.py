"""Procedural wall and ground textures, and fog-shaded atlases built from them.

Each painter is a pure function of a fixed seed that returns a (T, T, 3) RGB array (walls that
can be seen through, like fences, also an alpha mask). The renderer never blends fog per
pixel: :func:`wall_atlas` and :func:`ground_atlas` bake every texture at ``FOG_LEVELS`` fog
strengths (and walls once more darkened for north/south faces), so one gather per pixel gives
the final colour. Atlases are built on first use and cached by (snow, fog colour).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim.pixels import pack
from gcc_envs.games.rdr2.sim.state import BLOCKS, GROUNDS

#: Texels per side of a wall texture and of a ground texture.
WALL_T = 64
GROUND_T = 32
#: Number of baked fog strengths (0 = clear, last = fully fogged).
FOG_LEVELS = 24
#: Brightness of north/south faces relative to east/west ones.
SIDE_SHADE = 0.78
#: Pseudo block id for a terrain ledge (a raised ``level`` cell without a wall).
LEDGE = 100

Texture = tuple[np.ndarray, np.ndarray]  # rgb (T, T, 3) uint8, alpha (T, T) bool


@dataclass(frozen=True)
class WallKind:
    """How one wall block looks: its height, its texture's world height, see-through or not."""

    height_m: float
    tex_m: float
    low: bool


#: Wall kinds by block id. ``low`` walls are drawn in a second pass so what lies behind
#: them (over their top or through their gaps) stays visible.
WALL_KINDS: dict[int, WallKind] = {
    BLOCKS["rock"]: WallKind(7.0, 7.0, False),
    BLOCKS["log_wall"]: WallKind(3.4, 2.0, False),
    BLOCKS["plank_wall"]: WallKind(3.6, 2.0, False),
    BLOCKS["door"]: WallKind(3.6, 3.6, False),
    BLOCKS["fence"]: WallKind(1.3, 1.3, True),
    BLOCKS["tree"]: WallKind(10.0, 2.0, False),
    BLOCKS["barn_wall"]: WallKind(5.5, 5.5, False),
    BLOCKS["store_wall"]: WallKind(4.2, 2.0, False),
    BLOCKS["tent"]: WallKind(2.6, 2.6, False),
    BLOCKS["counter"]: WallKind(1.1, 1.1, True),
    BLOCKS["window_wall"]: WallKind(3.6, 3.6, False),
    LEDGE: WallKind(1.0, 1.0, True),
}


def _grid(t: int) -> tuple[np.ndarray, np.ndarray]:
    v, u = np.mgrid[0:t, 0:t].astype(np.float32) / t
    return u, v


def _noise(t: int, seed: int, scale: int = 8) -> np.ndarray:
    """Smooth value noise in [0, 1]: coarse random grid, bilinearly upsampled, tiling."""
    rng = np.random.default_rng(seed)
    coarse = rng.random((scale, scale)).astype(np.float32)
    pos = np.arange(t, dtype=np.float32) * scale / t
    i0 = pos.astype(np.int32)
    f = pos - i0
    i1 = (i0 + 1) % scale
    rows = coarse[i0] * (1 - f)[:, None] + coarse[i1] * f[:, None]
    return rows[:, i0] * (1 - f)[None, :] + rows[:, i1] * f[None, :]


def _fine(t: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).random((t, t)).astype(np.float32)


def _rgb(base: tuple[int, int, int], shade: np.ndarray) -> np.ndarray:
    out = np.asarray(base, np.float32)[None, None, :] * shade[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _opaque(rgb: np.ndarray) -> Texture:
    return rgb, np.ones(rgb.shape[:2], bool)


def _boards(t: int, seed: int, n: int, vertical: bool, base: tuple[int, int, int]) -> np.ndarray:
    u, v = _grid(t)
    across, along = (u, v) if vertical else (v, u)
    board = np.floor(across * n)
    rng = np.random.default_rng(seed)
    tone = rng.uniform(0.8, 1.1, n).astype(np.float32)[board.astype(np.int32)]
    grain = 0.9 + 0.15 * np.sin(along * 40.0 + across * 7.0 + board * 3.0)
    seam = np.where((across * n) % 1.0 < 0.08, 0.45, 1.0)
    shade = tone * grain * seam * (0.9 + 0.2 * _fine(t, seed + 1))
    return _rgb(base, shade)


def _planks(t: int, snow: bool) -> Texture:
    return _opaque(_boards(t, 11, 6, False, (138, 96, 60)))


def _logs(t: int, snow: bool) -> Texture:
    u, v = _grid(t)
    n = 5
    phase = (v * n) % 1.0
    round_ = 0.55 + 0.5 * np.sin(phase * np.pi)
    bark = 0.85 + 0.25 * _noise(t, 21, 16)
    rgb = _rgb((112, 74, 44), round_ * bark)
    end = (u > 0.93) & (phase > 0.15) & (phase < 0.85)  # log ends at the corner
    rgb[end] = (176, 140, 96)
    return _opaque(rgb)


def _barn(t: int, snow: bool) -> Texture:
    rgb = _boards(t, 31, 5, True, (150, 48, 36))
    u, v = _grid(t)
    trim = (v < 0.04) | ((v > 0.44) & (v < 0.47))  # white bands under the eaves and mid-wall
    rgb[trim] = (214, 206, 190)
    return _opaque(rgb)


def _store(t: int, snow: bool) -> Texture:
    return _opaque(_boards(t, 41, 7, False, (196, 176, 136)))


def _door(t: int, snow: bool) -> Texture:
    """A wall 3.6 m tall with a door in its lower 2.3 m."""
    u, v = _grid(t)
    rgb = _boards(t, 51, 6, False, (138, 96, 60))
    door = (u > 0.22) & (u < 0.78) & (v > 0.36)
    panel = _boards(t, 52, 4, True, (92, 58, 32))
    rgb[door] = panel[door]
    frame = door & ((u < 0.26) | (u > 0.74) | (v < 0.40))
    rgb[frame] = (60, 38, 22)
    knob = (np.abs(u - 0.68) < 0.03) & (np.abs(v - 0.70) < 0.025)
    rgb[knob] = (220, 190, 90)
    return _opaque(rgb)


def _window(t: int, snow: bool) -> Texture:
    u, v = _grid(t)
    rgb = _boards(t, 61, 6, False, (138, 96, 60))
    win = (u > 0.28) & (u < 0.72) & (v > 0.30) & (v < 0.62)
    rgb[win] = _rgb((120, 150, 170), 0.7 + 0.4 * v)[win]
    bars = win & ((np.abs(u - 0.5) < 0.02) | (np.abs(v - 0.46) < 0.02))
    edge = (u > 0.25) & (u < 0.75) & (v > 0.27) & (v < 0.65) & ~win
    rgb[bars | edge] = (74, 48, 28)
    return _opaque(rgb)


def _rock_face(t: int, snow: bool, aspect: float) -> np.ndarray:
    """Rock ``aspect`` times taller than wide, squeezed into a square (stretched back on screen)."""
    n = round(t * aspect)
    u, v = _grid(n)
    shade = 0.55 + 0.35 * _noise(n, 71, 6) + 0.2 * _noise(n, 72, 16) + 0.08 * _fine(n, 73)
    seams = _noise(n, 74, 24) < 0.12  # dark fissures between blocks of stone
    shade = np.where(seams, shade * 0.65, shade)
    rgb = _rgb((128, 124, 118), shade)
    if snow:
        cap = v < 0.06 + 0.06 * _noise(n, 75, 8)
        ledges = (np.abs(((v * 5.0) % 1.0) - 0.1) < 0.03) & (_noise(n, 76, 12) > 0.55)
        rgb[cap | ledges] = (234, 238, 246)
    return cv2.resize(rgb[:, :t], (t, t), interpolation=cv2.INTER_AREA)


def _rock(t: int, snow: bool) -> Texture:
    return _opaque(_rock_face(t, snow, WALL_KINDS[BLOCKS["rock"]].height_m / 2.0))


def _tree(t: int, snow: bool) -> Texture:
    u, v = _grid(t)
    layers = (v * 4) % 1.0
    needles = 0.45 + 0.45 * _noise(t, 81, 16) + 0.25 * _fine(t, 82)
    shade = needles * (0.6 + 0.5 * layers)
    rgb = _rgb((46, 84, 52), shade)
    if snow:
        cap = (layers < 0.22) & (_noise(t, 83, 16) > 0.35)
        rgb[cap] = (226, 232, 240)
    return _opaque(rgb)


def _tent(t: int, snow: bool) -> Texture:
    u, v = _grid(t)
    shade = 0.85 + 0.15 * _noise(t, 91, 8) - 0.1 * (np.abs(u - 0.5) < 0.02)
    rgb = _rgb((204, 190, 158), shade)
    flap = (np.abs(u - 0.5) < 0.18 * v) & (v > 0.35)
    rgb[flap] = (70, 56, 40)
    return _opaque(rgb)


def _fence(t: int, snow: bool) -> Texture:
    u, v = _grid(t)
    rail = (np.abs(v - 0.25) < 0.07) | (np.abs(v - 0.6) < 0.07)
    post = (u < 0.1) | (u > 0.9)
    alpha = rail | post
    rgb = _boards(t, 101, 3, False, (120, 86, 54))
    if snow:
        rgb[(np.abs(v - 0.19) < 0.02) & rail] = (230, 236, 244)
    return rgb, alpha


def _counter(t: int, snow: bool) -> Texture:
    u, v = _grid(t)
    rgb = _boards(t, 111, 4, True, (98, 62, 36))
    rgb[v < 0.1] = (70, 42, 24)
    return _opaque(rgb)


def _ledge(t: int, snow: bool) -> Texture:
    rgb = _rock_face(t, False, 1.0)
    a = np.ones((t, t), bool)
    if snow:
        u, v = _grid(t)
        cap = v < 0.3 + 0.2 * _noise(t, 121, 8)
        rgb[cap] = (232, 238, 246)
    return rgb, a


WALL_PAINTERS: dict[int, Callable[[int, bool], Texture]] = {
    BLOCKS["rock"]: _rock,
    BLOCKS["log_wall"]: _logs,
    BLOCKS["plank_wall"]: _planks,
    BLOCKS["door"]: _door,
    BLOCKS["fence"]: _fence,
    BLOCKS["tree"]: _tree,
    BLOCKS["barn_wall"]: _barn,
    BLOCKS["store_wall"]: _store,
    BLOCKS["tent"]: _tent,
    BLOCKS["counter"]: _counter,
    BLOCKS["window_wall"]: _window,
    LEDGE: _ledge,
}


def _ground(kind: str, t: int) -> np.ndarray:
    u, v = _grid(t)
    if kind == "grass":
        shade = 0.7 + 0.3 * _noise(t, 201, 8) + 0.2 * _fine(t, 202)
        return _rgb((86, 116, 58), shade)
    if kind == "dirt":
        return _rgb((122, 96, 66), 0.8 + 0.2 * _noise(t, 211, 8) + 0.1 * _fine(t, 212))
    if kind == "road":
        shade = 0.82 + 0.12 * _noise(t, 221, 4) + 0.1 * _fine(t, 222)
        return _rgb((156, 130, 96), shade)
    if kind == "snow":
        return _rgb((232, 236, 244), 0.92 + 0.06 * _noise(t, 231, 8) + 0.04 * _fine(t, 232))
    if kind == "floor":
        return _boards(t, 241, 4, False, (126, 88, 54))
    if kind == "water":
        return _rgb((52, 88, 118), 0.85 + 0.2 * np.sin(u * 12.0 + 4.0 * _noise(t, 251, 4)))
    if kind == "ice":
        return _rgb((184, 210, 226), 0.9 + 0.1 * _noise(t, 261, 8))
    raise KeyError(f"no texture for ground type {kind!r}")


def _fog_ramp(rgb: np.ndarray, fog: tuple[int, int, int], light: float) -> np.ndarray:
    """(FOG_LEVELS, ...) copies of ``rgb`` dimmed by ``light``, blended towards ``fog``."""
    f = np.linspace(0.0, 1.0, FOG_LEVELS, dtype=np.float32) ** 1.2
    shape = (FOG_LEVELS,) + (1,) * rgb.ndim
    f = f.reshape(shape)
    out = rgb[None].astype(np.float32) * (light * (1.0 - f)) + np.asarray(fog, np.float32) * f
    return out.astype(np.uint8)


def _fog_ramp_packed(rgb: np.ndarray, fog: tuple[int, int, int], light: float) -> np.ndarray:
    """``pack(_fog_ramp(rgb, fog, light).reshape(-1, 3))`` for uint8 ``rgb``, by table lookup:
    each fog level's blend of every byte value 0..255 (the same float operations, so the same
    bytes), applied with OpenCV's LUT (a palette changes every quarter hour of game time)."""
    table = np.empty((FOG_LEVELS, 1, 256, 4), np.uint8)
    table[:, 0, :, :3] = _fog_ramp(np.arange(256, dtype=np.uint8)[:, None].repeat(3, 1), fog, light)
    table[..., 3] = 255  # alpha: opaque whatever the byte
    texels = np.empty((rgb.size // 3, 1, 4), np.uint8)
    texels[:, 0, :3] = rgb.reshape(-1, 3)
    out = np.empty((FOG_LEVELS,) + texels.shape, np.uint8)
    for level in range(FOG_LEVELS):
        cv2.LUT(texels, table[level], dst=out[level])
    return out.view(np.uint32)[..., 0].reshape(-1)


@dataclass(frozen=True)
class WallAtlas:
    """Flattened wall texels: colour index ``((level * S + slot) * 2 + side) * T * T + v * T + u``.

    ``slot`` is the block's index into ``slots`` (a lookup table block id -> slot, -1 none).
    """

    rgb: np.ndarray  # (FOG_LEVELS * S * 2 * T * T,) packed uint32 (see :mod:`pixels`)
    alpha: np.ndarray  # (S * T * T,) bool
    slots: np.ndarray  # (256,) int32
    height: np.ndarray  # (S,) float32 metres
    tex_m: np.ndarray  # (S,) float32 metres
    t: int


@lru_cache(maxsize=2)
def _wall_textures(snow: bool) -> tuple[np.ndarray, np.ndarray]:
    """(S, T, T, 3) colours and (S, T, T) alpha of every wall texture, by sorted block id."""
    ids = sorted(WALL_PAINTERS)
    rgbs, alphas = zip(*(WALL_PAINTERS[i](WALL_T, snow) for i in ids), strict=True)
    return np.stack(rgbs), np.stack(alphas)


@lru_cache(maxsize=8)
def wall_atlas(snow: bool, fog: tuple[int, int, int], light: float = 1.0) -> WallAtlas:
    """Every wall texture at every fog level and both face shades."""
    t = WALL_T
    ids = sorted(WALL_PAINTERS)
    rgbs, alphas = _wall_textures(snow)
    stack = rgbs.astype(np.float32)  # (S, T, T, 3)
    sides = np.stack([stack, stack * SIDE_SHADE], axis=1).astype(np.uint8)  # (S, 2, T, T, 3)
    rgb = _fog_ramp_packed(sides, fog, light)
    slots = np.full(256, -1, np.int32)
    for k, i in enumerate(ids):
        slots[i] = k
    height = np.array([WALL_KINDS[i].height_m for i in ids], np.float32)
    tex_m = np.array([WALL_KINDS[i].tex_m for i in ids], np.float32)
    return WallAtlas(rgb, alphas.reshape(-1), slots, height, tex_m, t)


@lru_cache(maxsize=1)
def _ground_textures() -> np.ndarray:
    names = sorted(GROUNDS, key=GROUNDS.__getitem__)
    return np.stack([_ground(n, GROUND_T) for n in names])


@lru_cache(maxsize=8)
def ground_atlas(fog: tuple[int, int, int], light: float = 1.0) -> np.ndarray:
    """(FOG_LEVELS * G * T * T,) packed ground texels by fog level, ground id, v, u."""
    names = sorted(GROUNDS, key=GROUNDS.__getitem__)
    if [GROUNDS[n] for n in names] != list(range(len(names))):
        raise ValueError("GROUNDS ids must be 0..n-1 for the ground atlas")
    stack = _ground_textures()
    return _fog_ramp_packed(stack, fog, light)


#: Baked brightness steps of the ceiling (darker with distance).
CEILING_STEPS = 16


@lru_cache(maxsize=2)
def ceiling_atlas() -> np.ndarray:
    """(CEILING_STEPS * T * T,) packed roof boards seen from inside, bright to dark."""
    boards = _boards(GROUND_T, 301, 5, True, (84, 58, 38)).astype(np.float32)
    k = np.linspace(1.0, 0.35, CEILING_STEPS, dtype=np.float32)[:, None, None, None]
    return pack((boards[None] * k).astype(np.uint8).reshape(-1, 3))
