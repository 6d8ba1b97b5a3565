"""Game data: the TOML files under ``games/stardew/data`` parsed once into frozen dataclasses.

Every problem is a :class:`~gcc_envs.errors.DataError` naming the file, the entry and what is
wrong. The data is immutable by convention (frozen dataclasses, tuples, read-only arrays; the
few dicts are lookups built here and never changed), so one :class:`GameData` can be shared by
many simulators.

Map coordinates: tile ``(x, y)`` is column ``x`` (east is +x) and row ``y`` (south is +y) of a
map's ``rows``; it covers ``[x, x+1) x [y, y+1)`` in the continuous tile units of the player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

#: The folder holding the game's TOML files.
DATA_DIR = Path(__file__).resolve().parent.parent / "data"

FACINGS = ("up", "down", "left", "right")
TOOLS = ("axe", "hoe", "can", "pickaxe", "scythe")
ITEM_KINDS = ("tool", "seed", "produce", "resource")
TILE_ARTS = frozenset(
    {
        "grass",
        "dirt",
        "path",
        "pavers",
        "forest",
        "water",
        "fence",
        "flowers",
        "bush",
        "lamp",
        "bench",
        "mailbox",
        "bus_top",
        "bus_bottom",
        "bus_wheel",
        "roof",
        "planks",
        "plaster",
        "bricks",
        "window",
        "door",
        "sign",
        "floor",
        "wall_top",
        "wallpaper",
        "mat",
        "bed_top",
        "bed_bottom",
        "tv",
        "table",
        "fireplace",
        "plant",
        "rug",
        "counter",
        "shelf",
        "soil",
        "flat",
    }
)
OBSTACLE_ARTS = frozenset({"weeds", "twig", "stone", "tree", "stump", "boulder", "large_stump"})
ICON_ARTS = frozenset(
    {
        "axe",
        "hoe",
        "can",
        "pickaxe",
        "scythe",
        "packet",
        "root",
        "pod",
        "round",
        "flower",
        "leafy",
        "wood",
        "stone",
        "fiber",
    }
)
#: Built-in tile kinds every legend must define.
BUILTIN_TILES = ("soil", "soil_wet", "void")
#: Values of :attr:`MapData.solid`: walkable, blocked, a door (blocked while locked).
FREE, SOLID, DOOR = 0, 1, 2

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class TileKind:
    index: int
    name: str
    char: str | None
    art: str
    color: RGB
    under: str | None = None
    solid: bool = False
    farmable: bool = False
    spawn: bool = False
    water: bool = False
    door: bool = False


@dataclass(frozen=True)
class Warp:
    """Stepping onto any tile of the rectangle moves the player to ``to`` at (tx, ty).

    Along an axis where the rectangle is longer than one tile, the player's offset is kept
    (walking off the farm's east edge on row 15 arrives on the matching row of the bus stop).
    """

    x: int
    y: int
    w: int
    h: int
    to: str
    tx: int
    ty: int
    facing: str

    def arrival(self, px: float, py: float) -> tuple[float, float]:
        ax = self.tx + (px - self.x) if self.w > 1 else self.tx + 0.5
        ay = self.ty + (py - self.y) if self.h > 1 else self.ty + 0.5
        return ax, ay


@dataclass(frozen=True)
class Door:
    """A door tile: walk into it (or act on it) to enter; locked outside ``open``-``close``."""

    x: int
    y: int
    name: str
    to: str | None
    tx: int
    ty: int
    facing: str
    open: int | None = None
    close: int | None = None
    locked: bool = False
    message: str = "Locked."

    def is_open(self, minutes: int) -> bool:
        if self.locked or self.to is None:
            return False
        if self.open is None or self.close is None:
            return True
        return self.open <= minutes % 1440 < self.close


@dataclass(frozen=True)
class Sign:
    x: int
    y: int
    w: int
    text: str


@dataclass(frozen=True)
class Npc:
    name: str
    x: int
    y: int
    facing: str
    shirt: RGB
    hair: RGB


@dataclass(frozen=True)
class Spot:
    x: int
    y: int
    facing: str = "down"


@dataclass(frozen=True)
class Placement:
    kind: str
    x: int
    y: int


@dataclass(frozen=True, eq=False)
class MapData:
    name: str
    title: str
    outdoor: bool
    width: int
    height: int
    rows: tuple[str, ...]
    #: (height, width) read-only array of tile-kind indices.
    tiles: np.ndarray
    #: Flat ``y * width + x`` bytes: FREE, SOLID or DOOR (static; obstacles come on top).
    solid: bytes
    warps: tuple[Warp, ...] = ()
    doors: tuple[Door, ...] = ()
    signs: tuple[Sign, ...] = ()
    npcs: tuple[Npc, ...] = ()
    objects: tuple[Placement, ...] = ()
    scatter: tuple[tuple[str, int], ...] = ()
    keep_clear: tuple[tuple[int, int, int, int], ...] = ()
    wake: Spot | None = None
    shop: Spot | None = None
    #: (x, y) -> Warp for every tile of every warp rectangle.
    warp_at: dict[tuple[int, int], Warp] = field(default_factory=dict)
    door_at: dict[tuple[int, int], Door] = field(default_factory=dict)
    #: Other furniture layouts of this location (``[[layouts]]``: same size, doors and
    #: warps); a reset picks one of ``(self, *layouts)`` with the seed.
    layouts: tuple[MapData, ...] = ()


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    kind: str
    icon: str
    color: RGB
    price: int = 0
    sell: int = 0
    tool: str | None = None
    energy: int = 0
    crop: str | None = None


@dataclass(frozen=True)
class Crop:
    id: str
    seed: str
    produce: str
    days: int


@dataclass(frozen=True)
class ObstacleKind:
    kind: str
    art: str
    tools: tuple[str, ...]
    hits: int
    size: int = 1
    variants: int = 1
    becomes: str | None = None
    drops: tuple[tuple[str, int], ...] = ()
    message: str = ""


@dataclass(frozen=True)
class Scenario:
    name: str
    location: str
    x: int
    y: int
    facing: str
    day: int
    minutes: int
    money: int
    inventory: tuple[tuple[str, int], ...]
    energy: int | None = None
    #: Seeded variation (all optional; see ``start_wake`` too). ``start_area``: the start is a random walkable,
    #: obstacle-free tile of this [x0, y0, x1, y1] rectangle (else ``(x, y)``), facing a random
    #: way when ``random_facing``; ``money``: drawn from ``money_range`` [lo, hi];
    #: ``rain_chance``: each day after the first rains with this chance (rain waters soil);
    #: ``plot_area``: a cleared ``plot_size`` (w, h) plot of farmable soil goes somewhere in
    #: this rectangle of map ``field`` (default: the start map), the rest of the field
    #: overgrown with ``scatter`` (counts replacing that map's own) — see ``worldgen``.
    start_area: tuple[int, int, int, int] | None = None
    #: Start on the wake spot of the start map's layout (beside the bed), as the game does.
    start_wake: bool = False
    random_facing: bool = False
    money_range: tuple[int, int] | None = None
    rain_chance: float = 0.0
    plot_area: tuple[int, int, int, int] | None = None
    plot_size: tuple[int, int] = (3, 3)
    scatter: tuple[tuple[str, int], ...] | None = None
    field: str | None = None
    #: With ``scatter``: obstacles on the field's other spawn tiles (the meadow), and the row
    #: the plot's lane is cleared up to (through the meadow).
    meadow_scatter: tuple[tuple[str, int], ...] = ()
    lane_to: int = 0


@dataclass(frozen=True, eq=False)
class GameData:
    tiles: tuple[TileKind, ...]
    tile: dict[str, TileKind]
    items: dict[str, Item]
    crops: dict[str, Crop]
    obstacles: dict[str, ObstacleKind]
    shop_title: str
    shop_stock: tuple[str, ...]
    scenarios: dict[str, Scenario]
    maps: dict[str, MapData]
    #: Seeded shop: prices are the item's price times a factor drawn from this [lo, hi]
    #: (Pierre's price up to JojaMart's 25 % more); ``shop_always`` is always stocked, and
    #: at least ``shop_min_items`` of ``shop_stock`` are, in a shuffled order.
    shop_markup: tuple[float, float] = (1.0, 1.0)
    shop_always: tuple[str, ...] = ()
    shop_min_items: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> GameData:
        return self  # immutable: copies of a state share it

    def __copy__(self) -> GameData:
        return self
