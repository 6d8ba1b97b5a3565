"""Reading Stardew screens by template matching: the farmer, doors, the bed, Pierre, menu text.

The composite skills see nothing but frames. Templates are drawn from the game's own art (the
16-px-per-tile painters and the HUD's font), scaled the way the renderer scales them, so they
fit at any resolution; no game state is read. Matching runs in two stages: a coarse search on
the frame shrunk to :data:`MATCH_TP` pixels per tile (both sides blurred a little, so sprites
between pixel phases still fit), then an exact check of each candidate at full resolution
in a small window. HUD panels, and sprites standing in front of a target (the farmer before a
door), are masked out: only pixels both sides show are compared. Frames whose tiles are
smaller than :data:`MATCH_TP` px (under about 180 px tall at 16:9) are not read
(:attr:`Screen.ok` is False), and the skills give up cleanly there.

>>> import numpy as np
>>> Screen(np.zeros((84, 84, 3), np.uint8)).ok
False
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from gcc_envs.games.stardew.sim import art_things, art_tiles, hud, layout
from gcc_envs.games.stardew.sim.loader import load_data

#: Pixels per tile of the coarse search (the art is painted at this size).
MATCH_TP = art_tiles.B
#: The farmer's clothes as the game paints them (shirt, hair), and every villager's trousers.
FARMER_SHIRT = (206, 74, 62)
FARMER_HAIR = (120, 72, 40)
NPC_PANTS = (70, 70, 80)
FACINGS = ("down", "up", "left", "right")
#: A match needs at least this fraction of the template's pixels visible.
MIN_COVER = 0.55
#: Coarse candidates with an RMS colour difference (0-1 scale) above this are dropped.
COARSE_RMS = 0.2
_BLUR = 0.8


@dataclass(frozen=True)
class Template:
    """A picture from the game's art (RGBA, 16 px per tile) and how close a match must be."""

    name: str
    rgba: np.ndarray
    #: Largest RMS colour difference (0-1 scale) accepted at full resolution.
    max_rms: float = 0.05

    @property
    def h(self) -> int:
        return self.rgba.shape[0]

    @property
    def w(self) -> int:
        return self.rgba.shape[1]


@dataclass(frozen=True)
class Hit:
    """Where a template matched: its top-left (x, y) in tiles from the frame's top-left."""

    name: str
    x: float
    y: float
    rms: float
    cover: float


@dataclass(frozen=True)
class Art:
    """Every template the skills use."""

    farmer: tuple[Template, ...]
    pierre: Template
    door: Template
    mat: Template
    bed: Template

    def by_name(self, name: str) -> Template:
        every = (*self.farmer, self.pierre, self.door, self.mat, self.bed)
        return next(t for t in every if t.name == name)


@lru_cache(maxsize=1)
def art() -> Art:
    """The templates, painted from the game's art (pure: same art, same templates)."""
    data = load_data()
    tile = data.tile
    paint = art_tiles.TILE_PAINTERS
    farmer = tuple(
        Template(f"farmer_{f}_{step}", art_things.character(f, step, FARMER_SHIRT, FARMER_HAIR))
        for f in FACINGS
        for step in (0, 1)
    )
    npc = next(n for m in data.maps.values() for n in m.npcs if n.name == "Pierre")
    pierre = art_things.character(npc.facing, 0, npc.shirt, npc.hair, NPC_PANTS)
    mat = next(t for t in data.tiles if t.art == "mat")
    bed = np.concatenate(
        [paint["bed_top"](tile["bed_top"].color), paint["bed_bottom"](tile["bed_bottom"].color)]
    )
    return Art(
        farmer=farmer,
        pierre=Template("pierre", pierre),
        door=Template("door", paint["door"](tile["door"].color)),
        mat=Template("mat", paint["mat"](mat.color)),
        bed=Template("bed", bed),
    )


@dataclass(frozen=True)
class _Scaled:
    rgb: np.ndarray
    mask: np.ndarray


@lru_cache(maxsize=64)
def _scaled(name: str, tp: int) -> tuple[_Scaled, _Scaled]:
    """(coarse, fine) versions of template ``name`` for frames with ``tp`` px per tile."""
    t = art().by_name(name)
    size = (max(1, t.w * tp // MATCH_TP), max(1, t.h * tp // MATCH_TP))
    big = cv2.resize(t.rgba, size, interpolation=cv2.INTER_NEAREST)
    fine = _Scaled(np.ascontiguousarray(big[..., :3] / 255.0, np.float32), _alpha(big))
    a = t.rgba[..., 3:4] / 255.0
    pre = cv2.GaussianBlur(t.rgba[..., :3] * a, (0, 0), _BLUR)
    a_blur = cv2.GaussianBlur(a[..., 0], (0, 0), _BLUR)[..., None]
    rgb = np.where(a_blur > 1e-3, pre / np.maximum(a_blur, 1e-3), 0.0) / 255.0
    inner = cv2.erode(_alpha(t.rgba), np.ones((3, 3), np.uint8))
    return _Scaled(np.ascontiguousarray(rgb, np.float32), inner), fine


def _alpha(rgba: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(rgba[..., 3] > 127, np.float32)


def tile_size(height: int, width: int) -> int:
    """Pixels per tile of a frame of this size (the camera shows about 20 x 11.25 tiles)."""
    return max(1, math.ceil(max(width / layout.VIEW_W, height / layout.VIEW_H)))


def _msd(
    img: np.ndarray, valid: np.ndarray, t: _Scaled, min_cover: float
) -> tuple[np.ndarray, np.ndarray]:
    """Mean squared difference over the pixels both show, at every offset; and coverage."""
    m3 = np.repeat(t.mask[..., None], 3, axis=2)
    a = cv2.matchTemplate((img * img).sum(axis=2) * valid, t.mask, cv2.TM_CCORR)
    b = cv2.matchTemplate(img * valid[..., None], t.rgb * m3, cv2.TM_CCORR)
    c = cv2.matchTemplate(valid, (t.rgb * t.rgb).sum(axis=2) * t.mask, cv2.TM_CCORR)
    n = cv2.matchTemplate(valid, t.mask, cv2.TM_CCORR)
    cover = n / max(float(t.mask.sum()), 1.0)
    msd = (a - 2.0 * b + c) / np.maximum(3.0 * n, 1e-6)
    return np.where(cover >= min_cover, msd, np.inf), cover


class Screen:
    """One frame, prepared for matching."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame
        self.h, self.w = frame.shape[:2]
        self.tp = tile_size(self.h, self.w)
        self.ok = self.tp >= MATCH_TP
        self.f = MATCH_TP / self.tp
        self.full = frame.astype(np.float32) / 255.0
        self.valid_full = np.ones((self.h, self.w), np.float32)
        for rect in self._hud():
            x0, y0, x1, y1 = rect.px(self.w, self.h)
            self.valid_full[max(y0 - 2, 0) : y1 + 2, max(x0 - 2, 0) : x1 + 2] = 0.0
        sw, sh = max(1, round(self.w * self.f)), max(1, round(self.h * self.f))
        small = cv2.resize(self.full, (sw, sh), interpolation=cv2.INTER_AREA)
        self.img = cv2.GaussianBlur(small, (0, 0), _BLUR)
        shrunk = cv2.resize(self.valid_full, (sw, sh), interpolation=cv2.INTER_AREA)
        self.valid = (shrunk > 0.99).astype(np.float32)

    # ---- what the HUD hides
    def _hud(self) -> list[layout.Rect]:
        rects = [layout.CLOCK_BOX, layout.ENERGY_BAR]
        for r in (layout.TOOLBAR_PANEL, layout.TOOLBAR_PANEL_TOP, layout.MESSAGE_BOX):
            if self.panel_shown(r):
                rects.append(r)
        return rects

    def panel_shown(self, rect: layout.Rect) -> bool:
        """Whether a HUD panel (dark brown frame) is drawn over ``rect``."""
        x0, y0, x1, y1 = rect.px(self.w, self.h)
        b = max(1, round(4 * min(self.h / 720, self.w / 1280)))
        row = self.frame[y0 + b // 2, x0 + b : x1 - b].astype(np.int32)
        if row.size == 0:
            return False
        near = np.abs(row - np.asarray(hud.BORDER)).max(axis=1) <= 12
        return bool(near.mean() > 0.8)

    @property
    def indoors(self) -> bool:
        """Whether the map is smaller than the view (black void around it): indoors."""
        left = self.frame[: int(self.h * 0.7), : max(1, self.w // 50)]
        top = self.frame[: max(1, self.h // 60), : int(self.w * 0.18)]
        return any(float((s.max(axis=2) < 6).mean()) > 0.9 for s in (left, top))

    # ---- matching
    def find_all(self, t: Template, hide: list[Hit] | None = None, limit: int = 6) -> list[Hit]:
        """Matches of ``t``, best first; ``hide`` are sprites (the farmer) in front of targets."""
        if not self.ok or t.h > self.img.shape[0] or t.w > self.img.shape[1]:
            return []
        coarse, fine = _scaled(t.name, self.tp)
        valid, valid_full = self.valid, self.valid_full
        if hide:
            valid, valid_full = valid.copy(), valid_full.copy()
            for hh in hide:
                hc, hf = _scaled(hh.name, self.tp)
                _paste_zero(valid_full, hf.mask, round(hh.x * self.tp), round(hh.y * self.tp), 2)
                _paste_zero(valid, hc.mask, round(hh.x * MATCH_TP), round(hh.y * MATCH_TP), 1)
        score, _ = _msd(self.img, valid, coarse, MIN_COVER)
        hits: list[Hit] = []
        ry, rx = t.h // 4, t.w // 4  # coarse candidates closer than this are one candidate
        for _ in range(limit * 2):
            y, x = np.unravel_index(int(np.argmin(score)), score.shape)
            if not float(score[y, x]) < COARSE_RMS**2:
                break
            score[max(y - ry, 0) : y + ry + 1, max(x - rx, 0) : x + rx + 1] = np.inf
            hit = self._verify(t, fine, valid_full, x / self.f, y / self.f)
            if hit is not None and not any(_same(hit, o) for o in hits):
                hits.append(hit)
            if len(hits) >= limit:
                break
        return sorted(hits, key=lambda h: h.rms)

    def _verify(
        self, t: Template, fine: _Scaled, valid: np.ndarray, x: float, y: float
    ) -> Hit | None:
        th, tw = fine.mask.shape
        m = 2 * math.ceil(1 / self.f) + 2
        x0, y0 = max(round(x) - m, 0), max(round(y) - m, 0)
        x1, y1 = min(round(x) + tw + m, self.w), min(round(y) + th + m, self.h)
        if x1 - x0 < tw or y1 - y0 < th:
            return None
        score, cover = _msd(self.full[y0:y1, x0:x1], valid[y0:y1, x0:x1], fine, MIN_COVER)
        by, bx = np.unravel_index(int(np.argmin(score)), score.shape)
        best = float(score[by, bx])
        if not best < t.max_rms**2:
            return None
        rms = math.sqrt(max(best, 0.0))
        return Hit(t.name, (x0 + bx) / self.tp, (y0 + by) / self.tp, rms, float(cover[by, bx]))

    def find(self, templates: tuple[Template, ...] | list[Template]) -> Hit | None:
        """The best match of any of ``templates``."""
        best: Hit | None = None
        for t in templates:
            got = self.find_all(t, limit=1)
            if got and (best is None or got[0].rms < best.rms):
                best = got[0]
        return best

    def farmer(self) -> Hit | None:
        """The farmer sprite (any facing, standing or mid-step)."""
        return self.find(art().farmer)


def _same(a: Hit, b: Hit) -> bool:
    return abs(a.x - b.x) < 0.5 and abs(a.y - b.y) < 0.5


def feet(who: Hit) -> tuple[float, float]:
    """Where a character's feet are (tiles): sprites are 1 x 2 tiles, feet 0.3 above the foot."""
    return who.x + 0.5, who.y + 1.7


def _paste_zero(valid: np.ndarray, mask: np.ndarray, x: int, y: int, grow: int) -> None:
    """Zero ``valid`` under ``mask`` placed with its top-left at (x, y), grown by ``grow`` px."""
    h, w = mask.shape
    big = np.pad(mask, grow)
    big = cv2.dilate(big, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    x, y = x - grow, y - grow
    H, W = valid.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w + 2 * grow, W), min(y + h + 2 * grow, H)
    if x0 < x1 and y0 < y1:
        valid[y0:y1, x0:x1] *= 1.0 - big[y0 - y : y1 - y, x0 - x : x1 - x]


# ---------------------------------------------------------------- text on menus
def _text_template(s: str, scale: float, thick: int) -> np.ndarray:
    (w, h), base = cv2.getTextSize(s, hud.FONT, scale, thick)
    pad = max(2, thick * 2)
    img = np.full((h + base + 2 * pad, w + 2 * pad, 3), hud.SLOT, np.uint8)
    cv2.putText(img, s, (pad, pad + h), hud.FONT, scale, hud.TEXT, thick, cv2.LINE_AA)
    return cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)


def find_text(
    frame: np.ndarray,
    s: str,
    size: float,
    region: layout.Rect | None = None,
    min_score: float = 0.8,
) -> tuple[int, int] | None:
    """Centre (frame px) of menu text ``s`` drawn at font ``size`` (at 720 px), or None.

    Menus write with the HUD font scaled by ``min(H / 720, W / 1280)``, so the text is
    re-drawn at that size and matched (normalised correlation, grey levels).
    """
    h, w = frame.shape[:2]
    sc = min(h / 720.0, w / 1280.0)
    if sc * size <= 0.2:
        return None
    tmpl = _text_template(s, size * sc, max(1, round(2 * sc)))
    x0, y0, x1, y1 = (region or layout.Rect(0, 0, 1, 1)).px(w, h)
    grey = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_RGB2GRAY)
    if grey.shape[0] < tmpl.shape[0] or grey.shape[1] < tmpl.shape[1]:
        return None
    res = cv2.matchTemplate(grey, tmpl, cv2.TM_CCOEFF_NORMED)
    _, best, _, (bx, by) = cv2.minMaxLoc(res)
    if best < min_score:
        return None
    return x0 + bx + tmpl.shape[1] // 2, y0 + by + tmpl.shape[0] // 2


def shop_rows(frame: np.ndarray, names: tuple[str, ...], size: float = 0.8) -> list[str | None]:
    """The item name written on each row of the open shop menu (None for an empty row).

    Each row is read as the best-matching of ``names`` (the items a shop can sell), so the
    rows are told apart even where text is only a few pixels tall (frames >= 180 px).
    """
    h, w = frame.shape[:2]
    sc = min(h / 720.0, w / 1280.0)
    thick = max(1, round(2 * sc))
    grey = cv2.cvtColor(np.ascontiguousarray(frame), cv2.COLOR_RGB2GRAY)
    templates = [(n, _text_template(n, size * sc, thick)) for n in names]
    out: list[str | None] = []
    for rect in layout.SHOP_ROWS:
        x0, y0, x1, y1 = rect.px(w, h)
        row = grey[max(y0 - 2, 0) : y1 + 2, x0:x1]
        best, name = 0.75, None
        for n, t in templates:
            if row.shape[0] < t.shape[0] or row.shape[1] < t.shape[1]:
                continue
            score = float(cv2.matchTemplate(row, t, cv2.TM_CCOEFF_NORMED).max())
            if score > best:
                best, name = score, n
        out.append(name)
    return out
