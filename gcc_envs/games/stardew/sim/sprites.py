"""Sprites at a render's tile size, and the cell atlas the world layer is gathered from.

A map cell is drawn from three layers: ground (tile kind, tilled soil, a piece of a sign),
object (an obstacle piece or a crop stage) and upper (the part of a tree's canopy that hangs
over the tile above the trunk). The three ids combine into one *cell key*; each key seen is
composited once per tile size into a slot of an atlas, and a frame is ``atlas[slots]``.

Everything here lives in a cache dict owned by the simulator (nothing at module level).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from gcc_envs.games.stardew.sim import art_base, art_things, art_tiles
from gcc_envs.games.stardew.sim.data import GameData, Sign, TileKind
from gcc_envs.games.stardew.sim.state import LocationState, Planted

#: Crop growth stages drawn (0 = seeds ... 4 = ripe).
CROP_STAGES = 5


@dataclass
class Tables:
    """Tile-size independent numbering of the layers (built once per GameData)."""

    ground: list[tuple[str, Any]]  # ("tile", TileKind) | ("sign", (Sign, piece))
    static_ground: dict[str, np.ndarray]
    objects: list[tuple[Any, ...]]  # index 0 = nothing
    object_id: dict[tuple[Any, ...], int]
    uppers: list[tuple[Any, ...]]
    upper_id: dict[tuple[Any, ...], int]
    #: object id -> upper id of the tile above it (0 = none)
    canopy_of: np.ndarray
    soil: int
    soil_wet: int
    void: int

    @property
    def n_obj(self) -> int:
        return len(self.objects)

    @property
    def n_up(self) -> int:
        return len(self.uppers)

    def key(self, g: int, o: int, u: int) -> int:
        return (g * self.n_obj + o) * self.n_up + u

    def split(self, key: int) -> tuple[int, int, int]:
        go, u = divmod(key, self.n_up)
        g, o = divmod(go, self.n_obj)
        return g, o, u


def build_tables(data: GameData) -> Tables:
    ground: list[tuple[str, Any]] = [("tile", t) for t in data.tiles]
    static: dict[str, np.ndarray] = {}
    for name, base in data.maps.items():
        for k, m in enumerate((base, *base.layouts)):
            ids = m.tiles.astype(np.int64)
            for sign in m.signs:
                for i in range(sign.w):
                    ids[sign.y, sign.x + i] = len(ground)
                    ground.append(("sign", (sign, i)))
            static[f"{name}#{k}" if k else name] = ids
    objects: list[tuple[Any, ...]] = [("none",)]
    uppers: list[tuple[Any, ...]] = [("none",)]
    canopy: dict[int, int] = {}
    for kind in data.obstacles.values():
        above = art_things.OBSTACLE_ROWS_ABOVE.get(kind.art, 0)
        for v in range(kind.variants):
            for j in range(-above, kind.size):
                for i in range(kind.size):
                    piece = ("ob", kind.art, v, i, j)
                    (uppers if j < 0 else objects).append(piece)
            for i in range(kind.size):
                if above:
                    canopy[objects.index(("ob", kind.art, v, i, 0))] = uppers.index(
                        ("ob", kind.art, v, i, -1)
                    )
    for crop in data.crops.values():
        for stage in range(CROP_STAGES):
            objects.append(("crop", crop.id, stage))
    canopy_of = np.zeros(len(objects), np.int64)
    for o, u in canopy.items():
        canopy_of[o] = u
    return Tables(
        ground=ground,
        static_ground=static,
        objects=objects,
        object_id={p: i for i, p in enumerate(objects)},
        uppers=uppers,
        upper_id={p: i for i, p in enumerate(uppers)},
        canopy_of=canopy_of,
        soil=data.tile["soil"].index,
        soil_wet=data.tile["soil_wet"].index,
        void=data.tile["void"].index,
    )


def crop_stage(data: GameData, crop: Planted) -> int:
    days = data.crops[crop.crop].days
    if crop.days >= days:
        return CROP_STAGES - 1
    if crop.days == 0:
        return 0
    return 1 + (crop.days - 1) * (CROP_STAGES - 2) // max(days - 1, 1)


def location_keys(
    data: GameData, tables: Tables, loc: LocationState, layout: int = 0
) -> np.ndarray:
    """(height, width) cell keys of a location in its current state and furniture layout."""
    g = tables.static_ground[f"{loc.name}#{layout}" if layout else loc.name].copy()
    o = np.zeros_like(g)
    for (x, y), soil in loc.soil.items():
        g[y, x] = tables.soil_wet if soil.watered else tables.soil
        if soil.crop is not None:
            o[y, x] = tables.object_id[("crop", soil.crop.crop, crop_stage(data, soil.crop))]
    for (x, y), ob in loc.obstacles.items():
        art = data.obstacles[ob.kind].art
        o[y, x] = tables.object_id[("ob", art, ob.variant, x - ob.x, y - ob.y)]
    u = np.zeros_like(g)
    u[:-1] = tables.canopy_of[o[1:]]
    return (g * tables.n_obj + o) * tables.n_up + u


def scale(img: np.ndarray, tp: int) -> np.ndarray:
    """Scale 16-px-per-tile art to ``tp`` pixels per tile (crisp when enlarging)."""
    h, w = img.shape[:2]
    size = (max(1, w * tp // art_base.B), max(1, h * tp // art_base.B))
    interp = cv2.INTER_NEAREST if tp >= art_base.B else cv2.INTER_AREA
    return cv2.resize(img, size, interpolation=interp)


def over(base: np.ndarray, top: np.ndarray) -> np.ndarray:
    """``top`` (RGBA float) composited over ``base`` (RGB float)."""
    a = top[..., 3:4] / 255.0
    return base * (1.0 - a) + top[..., :3] * a


@dataclass
class TileSet:
    """Sprites and the cell atlas at one tile size ``tp``."""

    data: GameData
    tables: Tables
    tp: int
    atlas: np.ndarray = field(init=False)
    lut: np.ndarray = field(init=False)
    count: int = 0
    _pieces: dict[tuple[Any, ...], np.ndarray] = field(default_factory=dict)
    _blits: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        t = self.tables
        self.atlas = np.zeros((64, self.tp, self.tp, 3), np.uint8)
        self.lut = np.full(len(t.ground) * t.n_obj * t.n_up, -1, np.int32)

    # ---- cells
    def slots(self, keys: np.ndarray) -> np.ndarray:
        """Atlas slot of every cell key, compositing keys seen for the first time."""
        slots = self.lut[keys]
        if (slots < 0).any():
            for key in np.unique(keys[slots < 0]).tolist():
                self._add(key)
            slots = self.lut[keys]
        return slots

    def _add(self, key: int) -> None:
        if self.count == len(self.atlas):
            self.atlas = np.concatenate([self.atlas, np.zeros_like(self.atlas)])
        g, o, u = self.tables.split(key)
        img = self.ground(g)
        for layer, i in (("obj", o), ("up", u)):
            if i:
                img = over(img, self.piece(layer, i))
        self.atlas[self.count] = np.clip(img + 0.5, 0, 255).astype(np.uint8)
        self.lut[key] = self.count
        self.count += 1

    def ground(self, g: int) -> np.ndarray:
        """RGB float sprite of ground id ``g``."""
        cached = self._pieces.get(("ground", g))
        if cached is not None:
            return cached
        what, value = self.tables.ground[g]
        if what == "tile":
            img = self._tile(value)
        else:
            img = self._sign_piece(*value)
        self._pieces[("ground", g)] = img
        return img

    def _tile(self, kind: TileKind) -> np.ndarray:
        art = scale(art_tiles.TILE_PAINTERS[kind.art](kind.color), self.tp)
        if kind.under is None:
            return art[..., :3].copy()
        return over(self._tile(self.data.tile[kind.under]), art)

    def _sign_piece(self, sign: Sign, i: int) -> np.ndarray:
        key = ("sign", sign)
        board = self._pieces.get(key)
        if board is None:
            tp = self.tp
            kind = self.data.tile["sign"]
            tile = scale(art_tiles.TILE_PAINTERS["sign"](kind.color), tp)[..., :3]
            board = np.clip(np.concatenate([tile] * sign.w, axis=1) + 0.5, 0, 255).astype(np.uint8)
            edge = max(1, tp // 8)
            dark = (np.asarray(kind.color, np.float32) * 0.6).astype(np.uint8)
            board[:, :edge] = dark
            board[:, -edge:] = dark
            fs = 0.5 * tp / 22.0
            (tw, th), _ = cv2.getTextSize(sign.text, cv2.FONT_HERSHEY_DUPLEX, fs, 1)
            fs *= min(1.0, 0.86 * sign.w * tp / max(tw, 1))
            thick = max(1, round(tp / 24))
            (tw, th), _ = cv2.getTextSize(sign.text, cv2.FONT_HERSHEY_DUPLEX, fs, thick)
            org = ((sign.w * tp - tw) // 2, (tp + th) // 2)
            cv2.putText(
                board,
                sign.text,
                org,
                cv2.FONT_HERSHEY_DUPLEX,
                fs,
                (250, 238, 200),
                thick,
                cv2.LINE_AA,
            )
            board = board.astype(np.float32)
            self._pieces[key] = board
        return board[:, i * self.tp : (i + 1) * self.tp].copy()

    def piece(self, layer: str, i: int) -> np.ndarray:
        """RGBA float sprite of an object (``"obj"``) or upper (``"up"``) piece."""
        spec = (self.tables.objects if layer == "obj" else self.tables.uppers)[i]
        cached = self._pieces.get(spec)
        if cached is not None:
            return cached
        tp = self.tp
        if spec[0] == "crop":
            crop = self.data.crops[spec[1]]
            color = self.data.items[crop.produce].color
            img = scale(art_things.crop(spec[2], color), tp)
        else:
            _, art, variant, pi, pj = spec
            full = scale(art_things.OBSTACLE_PAINTERS[art](variant), tp)
            above = art_things.OBSTACLE_ROWS_ABOVE.get(art, 0)
            y0 = (pj + above) * tp
            img = full[y0 : y0 + tp, pi * tp : (pi + 1) * tp]
        img = np.ascontiguousarray(img, np.float32)
        self._pieces[spec] = img
        return img

    # ---- sprites blitted over the world and the HUD
    def blit_sprite(
        self,
        key: tuple[Any, ...],
        w_tiles: float,
        h_tiles: float,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(premultiplied RGB uint16, 255 - alpha uint16) of a character or icon sprite."""
        got = self._blits.get(key)
        if got is None:
            got = prepare(self._paint(key), round(w_tiles * self.tp), round(h_tiles * self.tp))
            self._blits[key] = got
        return got

    def _paint(self, key: tuple[Any, ...]) -> np.ndarray:
        what = key[0]
        if what == "player":
            return art_things.character(key[1], key[2], (206, 74, 62), (120, 72, 40))
        if what == "npc":
            npc = key[1]
            return art_things.character(npc.facing, 0, npc.shirt, npc.hair, (70, 70, 80))
        item = self.data.items[key[1]]
        return art_things.ICON_PAINTERS[item.icon](item.color)


def prepare(img: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Resize an RGBA float sprite and split it for fast integer alpha blending."""
    width, height = max(width, 1), max(height, 1)
    h, w = img.shape[:2]
    interp = cv2.INTER_NEAREST if width >= w else cv2.INTER_AREA
    img = cv2.resize(img, (width, height), interpolation=interp)
    a = np.clip(np.round(img[..., 3:4]), 0, 255)
    # floor(rgb * a / 255) + round(bg * (255 - a) / 255) never exceeds 255
    pre = np.floor(np.clip(img[..., :3], 0, 255) * (a / 255.0)).astype(np.uint16)
    inv = (255 - a).astype(np.uint16)
    return pre, inv


def blit(frame: np.ndarray, sprite: tuple[np.ndarray, np.ndarray], x: int, y: int) -> None:
    """Alpha-blend a prepared sprite onto ``frame`` with its top-left at (x, y), clipped."""
    pre, inv = sprite
    h, w = pre.shape[:2]
    fx0, fy0 = max(x, 0), max(y, 0)
    fx1, fy1 = min(x + w, frame.shape[1]), min(y + h, frame.shape[0])
    if fx0 >= fx1 or fy0 >= fy1:
        return
    sx, sy = fx0 - x, fy0 - y
    region = frame[fy0:fy1, fx0:fx1]
    p = pre[sy : sy + fy1 - fy0, sx : sx + fx1 - fx0]
    i = inv[sy : sy + fy1 - fy0, sx : sx + fx1 - fx0]
    region[...] = (region * i + 127) // 255 + p
