"""Reading a Stardew frame into a world state, for the scripted players without privileges.

What a player who knows the game (its published maps and art, the toolbar order the skill
library documents) can see on one screen: which map and where on it (the frame matched against
the maps' bare ground, painted with the game's own art), the farmer's tile and facing (the
farmer templates of :mod:`gcc_envs.games.stardew.vision`), and what lies on every tile in
view — an obstacle, tilled soil (dry or wet), a crop and how grown — by matching each tile to
the game's cells. Tiles once seen are remembered for the episode (the view moves with the
farmer); the day is read from the clock panel, and a new day forgets which soil was watered.
Nothing here reads the simulator's state.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from gcc_envs.errors import GCCError
from gcc_envs.games.stardew.sim import art_things, hud, layout
from gcc_envs.games.stardew.sim.data import GameData, MapData
from gcc_envs.games.stardew.sim.sprites import (
    CROP_STAGES,
    TileSet,
    blit,
    build_tables,
    location_keys,
    prepare,
)
from gcc_envs.games.stardew.sim.state import (
    INVENTORY,
    LocationState,
    Obstacle,
    Planted,
    Player,
    Slot,
    Soil,
    WorldState,
)
from gcc_envs.games.stardew.vision import Screen, feet

#: The toolbar the skill library documents (``select_tool``): slots 1-6.
TOOLBAR = ("axe", "hoe", "watering_can", "pickaxe", "scythe", "parsnip_seeds")
#: Toolbar slots read from the screen.
TOOLBAR_SLOTS = 12
#: Pixels per tile of the coarse map search.
COARSE = 4
#: Pixels per tile side when tiles are compared with the game's cells.
CELL = 16
#: Share of a tile that must be in view (not under the HUD or the farmer) to be read.
MIN_SEEN = 0.6


class FarmerHidden(GCCError):
    """No farmer in the frame (a HUD panel over it at the map's edge): move and look again."""


@dataclass(frozen=True)
class _Where:
    name: str
    layout: int
    x0: int
    y0: int


class FrameReader:
    """Turns frames into :class:`WorldState` views (``read``); remembers what it has seen."""

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.tables = build_tables(data)
        self._sets: dict[int, TileSet] = {}
        self._canvas: dict[tuple[str, int, int], tuple[np.ndarray, int]] = {}
        self._cells: dict[int, dict[int, np.ndarray]] = {}
        self._icon_cache: dict[int, dict[str, np.ndarray]] = {}
        self.reset()

    def reset(self) -> None:
        self.memory: dict[str, LocationState] = {n: LocationState(n) for n in self.data.maps}
        self.layout: dict[str, int] = {}
        self.day = 1
        self._date: np.ndarray | None = None
        self._items: list[str | None] = list(TOOLBAR)  # until the toolbar is seen: the docs'

    # ---- the game's art
    def _tileset(self, tp: int) -> TileSet:
        if tp not in self._sets:
            self._sets[tp] = TileSet(self.data, self.tables, tp)
        return self._sets[tp]

    def _bare(self, name: str, k: int) -> np.ndarray:
        """Cell keys of map ``name`` in layout ``k`` with nothing on it."""
        return location_keys(self.data, self.tables, LocationState(name), k)

    def _coarse(self, name: str, k: int, tp: int) -> tuple[np.ndarray, int]:
        """The bare map at COARSE px per tile in a black margin; and the margin (px)."""
        key = (name, k, tp)
        if key not in self._canvas:
            ts = self._tileset(tp)
            keys = self._bare(name, k)
            slots = ts.slots(keys)
            small = np.stack(
                [
                    cv2.resize(a, (COARSE, COARSE), interpolation=cv2.INTER_AREA)
                    for a in ts.atlas[: ts.count]
                ]
            )
            h, w = keys.shape
            img = small[slots].transpose(0, 2, 1, 3, 4).reshape(h * COARSE, w * COARSE, 3)
            pad = round(max(layout.VIEW_W, layout.VIEW_H)) * COARSE
            self._canvas[key] = (
                cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT),
                pad,
            )
        return self._canvas[key]

    def _maps(self) -> list[tuple[str, int, MapData]]:
        out = []
        for name, m in self.data.maps.items():
            for k, mm in enumerate((m, *m.layouts)):
                if name not in self.layout or self.layout[name] == k:
                    out.append((name, k, mm))
        return out

    # ---- reading
    def _locate(self, frame: np.ndarray, valid: np.ndarray, tp: int) -> _Where:
        h, w = frame.shape[:2]
        f = COARSE / tp
        sw, sh = max(1, round(w * f)), max(1, round(h * f))
        small = cv2.resize(frame, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
        mask = (cv2.resize(valid, (sw, sh), interpolation=cv2.INTER_AREA) > 0.99).astype(np.float32)
        mask3 = np.repeat(mask[..., None], 3, axis=2)
        best: tuple[float, str, int, int, int] | None = None
        for name, k, _ in self._maps():
            canvas, pad = self._coarse(name, k, tp)
            res = cv2.matchTemplate(canvas.astype(np.float32), small, cv2.TM_SQDIFF, mask=mask3)
            _, _, (bx, by), _ = cv2.minMaxLoc(res)
            score = float(res[by, bx]) / max(float(mask3.sum()), 1.0)
            if best is None or score < best[0]:
                best = (score, name, k, bx - pad, by - pad)
        assert best is not None
        _, name, k, cx, cy = best
        return self._refine(frame, valid, tp, name, k, round(cx / f), round(cy / f))

    def _refine(
        self, frame: np.ndarray, valid: np.ndarray, tp: int, name: str, k: int, x0: int, y0: int
    ) -> _Where:
        """The exact camera pixel near (x0, y0), matching the bare ground at full size."""
        m = self.data.maps[name]
        r = tp // COARSE + 2
        h, w = frame.shape[:2]
        tx0, ty0 = (x0 - r) // tp - 1, (y0 - r) // tp - 1
        tx1, ty1 = (x0 + w + r) // tp + 2, (y0 + h + r) // tp + 2
        keys = np.full((ty1 - ty0, tx1 - tx0), -1, np.int64)
        bare = self._bare(name, k)
        ys, xs = np.mgrid[ty0:ty1, tx0:tx1]
        inside = (xs >= 0) & (ys >= 0) & (xs < m.width) & (ys < m.height)
        keys[inside] = bare[ys[inside], xs[inside]]
        ts = self._tileset(tp)
        slots = ts.slots(np.maximum(keys, 0))
        tiles = np.where((keys >= 0)[..., None, None, None], ts.atlas[slots], 0)
        img = tiles.transpose(0, 2, 1, 3, 4).reshape(keys.shape[0] * tp, keys.shape[1] * tp, 3)
        # search the window around the coarse guess with a quarter-size frame
        q = 0.25
        ox, oy = x0 - r - tx0 * tp, y0 - r - ty0 * tp
        win = img[oy : oy + h + 2 * r, ox : ox + w + 2 * r]
        a = cv2.resize(win, None, fx=q, fy=q, interpolation=cv2.INTER_AREA).astype(np.float32)
        b = cv2.resize(frame, None, fx=q, fy=q, interpolation=cv2.INTER_AREA).astype(np.float32)
        mk = cv2.resize(valid, (b.shape[1], b.shape[0]), interpolation=cv2.INTER_AREA) > 0.99
        mk3 = np.repeat(mk[..., None], 3, axis=2).astype(np.float32)
        res = cv2.matchTemplate(a, b, cv2.TM_SQDIFF, mask=mk3)
        _, _, (bx, by), _ = cv2.minMaxLoc(res)
        # last, the exact pixel: the middle of the frame at full size, a few pixels around
        gx, gy = ox + round(bx / q), oy + round(by / q)  # the frame's top-left in ``img``
        e = 3
        cx0, cy0, cw, ch = w // 4, h // 4, w // 2, h // 2
        mid = frame[cy0 : cy0 + ch, cx0 : cx0 + cw].astype(np.float32)
        mm = valid[cy0 : cy0 + ch, cx0 : cx0 + cw] > 0.99
        sx0, sy0 = max(gx + cx0 - e, 0), max(gy + cy0 - e, 0)
        area = img[sy0 : gy + cy0 + ch + e, sx0 : gx + cx0 + cw + e].astype(np.float32)
        if area.shape[0] >= ch and area.shape[1] >= cw:
            mm3 = np.repeat(mm[..., None], 3, axis=2).astype(np.float32)
            res = cv2.matchTemplate(area, mid, cv2.TM_SQDIFF, mask=mm3)
            _, _, (fx, fy), _ = cv2.minMaxLoc(res)
            gx, gy = sx0 + fx - cx0, sy0 + fy - cy0
        return _Where(name, k, gx + tx0 * tp, gy + ty0 * tp)

    def read(self, frame: np.ndarray) -> WorldState:
        """The world as this frame shows it (plus what earlier frames showed)."""
        scr = Screen(frame)
        if not scr.ok:
            raise GCCError(
                f"a {frame.shape[0]}x{frame.shape[1]} frame has tiles under 16 px: too small to "
                "read (keep obs_size at least 180 px tall)"
            )
        tp = scr.tp
        me = scr.farmer()
        valid = scr.valid_full.copy()
        if me is not None:  # the farmer stands in front of the ground: mask the sprite's core
            x, y = round((me.x + 0.1) * tp), round((me.y + 0.2) * tp)
            valid[max(y, 0) : y + round(1.8 * tp), max(x, 0) : x + round(0.8 * tp)] = 0.0
        where = self._locate(frame, valid, tp)
        if where.name in self.data.maps and self.data.maps[where.name].layouts:
            self.layout[where.name] = where.layout
        self._read_day(frame)
        self._read_cells(frame, valid, tp, where)
        if me is None:
            raise FarmerHidden("the farmer is not on screen")
        fx, fy = feet(me)
        player = Player(x=where.x0 / tp + fx, y=where.y0 / tp + fy, facing=me.name.split("_")[1])
        return self._state(where.name, player, scr)

    def _read_day(self, frame: np.ndarray) -> None:
        """A new date on the clock panel is a new day: soil seen watered has dried since."""
        h, w = frame.shape[:2]
        x0, y0, x1, y1 = layout.CLOCK_BOX.px(w, h)
        bh = y1 - y0
        date = frame[y0 + round(0.17 * bh) : y0 + round(0.42 * bh), x0:x1].astype(np.int16)
        last, self._date = self._date, date
        if last is None or last.shape != date.shape:
            return
        if float(np.abs(date - last).mean()) > 4.0:
            self.day += 1
            for loc in self.memory.values():
                for soil in loc.soil.values():
                    soil.watered = False

    def _read_cells(self, frame: np.ndarray, valid: np.ndarray, tp: int, where: _Where) -> None:
        """Match every whole, unhidden tile in view to the game's cells; remember the result."""
        m = self.data.maps[where.name]
        if where.layout:
            m = m.layouts[where.layout - 1]
        h, w = frame.shape[:2]
        t = self.tables
        bare = self._bare(where.name, where.layout)
        cells, patches, masks = [], [], []
        for ty in range(max(0, -(-where.y0 // tp)), min(m.height, (where.y0 + h) // tp)):
            for tx in range(max(0, -(-where.x0 // tp)), min(m.width, (where.x0 + w) // tp)):
                px, py = tx * tp - where.x0, ty * tp - where.y0
                if px < 0 or py < 0 or px + tp > w or py + tp > h:
                    continue
                seen = valid[py : py + tp, px : px + tp]
                if seen.mean() < MIN_SEEN:
                    continue
                cells.append((tx, ty))
                patches.append(frame[py : py + tp, px : px + tp])
                masks.append(seen)
        if not cells:
            return
        ts = self._tileset(tp)
        small = (
            np.stack([cv2.resize(p, (CELL, CELL), interpolation=cv2.INTER_AREA) for p in patches])
            .reshape(len(cells), -1)
            .astype(np.float32)
        )
        weight = np.stack(
            [cv2.resize(v, (CELL, CELL), interpolation=cv2.INTER_AREA) for v in masks]
        )
        weight = np.repeat(weight[..., None], 3, axis=3).reshape(len(cells), -1)
        loc = self.memory[where.name]
        farmable = np.array([k.farmable for k in self.data.tiles])
        xy = np.array(cells)
        g0 = bare[xy[:, 1], xy[:, 0]] // (t.n_obj * t.n_up)
        farm = farmable[m.tiles[xy[:, 1], xy[:, 0]]]
        ou = np.arange(t.n_obj * t.n_up)
        for g in np.unique(g0).tolist():
            for tilled in (False, True):
                sel = np.nonzero((g0 == g) & (farm == tilled))[0]
                if not len(sel):
                    continue
                gs = [g, t.soil, t.soil_wet] if tilled else [g]
                keys = (np.array(gs)[:, None] * (t.n_obj * t.n_up) + ou[None, :]).ravel()
                ref = self._small_cells(ts, keys)
                a, wt = small[sel], weight[sel]
                err = (wt * a * a).sum(1)[:, None] - 2.0 * (wt * a) @ ref.T + wt @ (ref * ref).T
                for c, k in zip(sel.tolist(), keys[err.argmin(axis=1)].tolist(), strict=True):
                    gg, o, _ = t.split(int(k))
                    self._remember(loc, cells[c][0], cells[c][1], gg, o)

    def _small_cells(self, ts: TileSet, keys: np.ndarray) -> np.ndarray:
        """The game's cells ``keys`` at CELL px, flattened (cached per tile size)."""
        cache = self._cells.setdefault(ts.tp, {})
        missing = [k for k in keys.tolist() if k not in cache]
        if missing:
            slots = ts.slots(np.array(missing, np.int64))
            for k, sl in zip(missing, slots.tolist(), strict=True):
                img = cv2.resize(ts.atlas[sl], (CELL, CELL), interpolation=cv2.INTER_AREA)
                cache[k] = img.reshape(-1).astype(np.float32)
        return np.stack([cache[k] for k in keys.tolist()])

    def _remember(self, loc: LocationState, x: int, y: int, g: int, o: int) -> None:
        t = self.tables
        old = loc.obstacles.get((x, y))
        if old is not None:
            for j in range(old.size):
                for i in range(old.size):
                    loc.obstacles.pop((old.x + i, old.y + j), None)
        if g in (t.soil, t.soil_wet):
            soil = loc.soil.setdefault((x, y), Soil())
            soil.watered = g == t.soil_wet
            soil.crop = None
        else:
            loc.soil.pop((x, y), None)
        piece = t.objects[o]
        if piece[0] == "crop" and (x, y) in loc.soil:
            crop = self.data.crops[piece[1]]
            ripe = piece[2] >= CROP_STAGES - 1
            loc.soil[(x, y)].crop = Planted(
                crop.id, crop.days if ripe else min(piece[2], crop.days - 1)
            )
        elif piece[0] == "ob":
            kind = next(k for k in self.data.obstacles.values() if k.art == piece[1])
            ax, ay = x - piece[3], y - piece[4]
            ob = Obstacle(kind.kind, ax, ay, kind.hits, kind.size, piece[2])
            for j in range(kind.size):
                for i in range(kind.size):
                    loc.obstacles[(ax + i, ay + j)] = ob

    def _state(self, location: str, player: Player, scr: Screen) -> WorldState:
        seen = self._toolbar(scr)
        if seen is not None:  # the toolbar is on screen: remember what it holds
            self._items = seen
        inventory: list[Slot | None] = [None] * INVENTORY
        for i, item in enumerate(self._items):
            inventory[i] = None if item is None else Slot(item, 1)
        return WorldState(
            data=self.data,
            scenario="frame",
            location=location,
            player=player,
            money=0,
            day=self.day,
            minutes=12 * 60,  # daytime: doors are taken to be open
            inventory=inventory,
            locations=self.memory,
            initial_obstacles={},
            selected=self._selected(scr),
            layout=dict(self.layout),
        )

    def _toolbar_top(self, scr: Screen) -> bool | None:
        """Whether the toolbar is drawn at the top, the bottom (False), or not seen (None)."""
        top = scr.panel_shown(layout.TOOLBAR_PANEL_TOP)
        bottom = scr.panel_shown(layout.TOOLBAR_PANEL)
        return None if top == bottom else top

    def _toolbar(self, scr: Screen) -> list[str | None] | None:
        """The item in each toolbar slot, by matching the game's icons; None when unseen."""
        top = self._toolbar_top(scr)
        if top is None:
            return None
        sc = min(scr.h / 720.0, scr.w / 1280.0)
        b = max(1, round(2 * sc))
        out: list[str | None] = []
        for i in range(TOOLBAR_SLOTS):
            x0, y0, x1, y1 = layout.toolbar_slot(i, top).px(scr.w, scr.h)
            w, h = x1 - x0, y1 - y0
            size = max(1, round(min(w, h) * 0.78))
            ix, iy = x0 + (w - size) // 2, y0 + (h - size) // 2 + b
            crop = scr.frame[iy : iy + size, ix : ix + size].astype(np.float32)
            if crop.shape[:2] != (size, size):
                return None
            best, err = None, float(((crop - np.float32(hud.SLOT)) ** 2).mean())
            for item, icon in self._icons(size).items():
                e = float(((crop - icon) ** 2).mean())
                if e < err:
                    best, err = item, e
            out.append(best)
        return out

    def _icons(self, size: int) -> dict[str, np.ndarray]:
        """Every item's icon as a toolbar slot shows it (on the slot colour), at ``size`` px."""
        if size not in self._icon_cache:
            icons = {}
            for item in self.data.items.values():
                img = np.empty((size, size, 3), np.uint8)
                img[:] = hud.SLOT
                sprite = prepare(art_things.ICON_PAINTERS[item.icon](item.color), size, size)
                blit(img, sprite, 0, 0)
                icons[item.id] = img.astype(np.float32)
            self._icon_cache[size] = icons
        return self._icon_cache[size]

    def _selected(self, scr: Screen) -> int:
        """The toolbar slot framed in red (the selected one)."""
        top = bool(self._toolbar_top(scr))
        best, red = 0, -1.0
        for i in range(len(TOOLBAR) + 6):
            x0, y0, x1, y1 = layout.toolbar_slot(i, top).px(scr.w, scr.h)
            ring = np.concatenate([scr.frame[y0 : y0 + 2, x0:x1], scr.frame[y1 - 2 : y1, x0:x1]], 1)
            if ring.size == 0:
                continue
            px = ring.reshape(-1, 3).astype(np.float32)
            score = float((px[:, 0] - px[:, 1]).mean())
            if score > red:
                best, red = i, score
        return best
