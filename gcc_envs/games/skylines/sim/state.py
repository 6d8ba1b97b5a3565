"""The city's state: terrain, what is built, the buildings that grew, money and the UI.

Grids are ``(ROWS, COLS)`` numpy arrays indexed ``[row, col]``; cell ``(c, r)`` in this package
means column ``c`` (x, east) and row ``r`` (y, south). The state is plain data: the rules
(:mod:`.rules`), the networks (:mod:`.networks`) and the growth (:mod:`.growth`) are functions
of it. ``version`` counts changes of anything drawn on the map, so renderers and network
caches know when to rebuild.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gcc_envs.games.skylines.sim.data import GameData, Scenario
from gcc_envs.games.skylines.sim.layout import COLS, ROWS

Cell = tuple[int, int]


@dataclass(frozen=True)
class Terrain:
    """What the seed decides: the sea, the shoreline, the highway and its ramps, wind, woods."""

    #: "west" or "east": where the sea is (the highway runs along the other edge).
    sea_side: str
    water: np.ndarray
    #: Land cells next to water (4-neighbours): where pumps and drains may stand.
    shore: np.ndarray
    #: Cells into the water from the shore (0 on land), for drawing depth.
    depth: np.ndarray
    highway: np.ndarray
    ramp: np.ndarray
    #: The ends of the entry and the exit ramp, where roads connect.
    entry: Cell
    exit: Cell
    #: Wind strength in [0, 1] (a wind turbine makes ``power_mw × wind``).
    wind: np.ndarray
    trees: np.ndarray
    #: Land the city may build on (the owned tiles).
    owned: np.ndarray

    @property
    def buildable(self) -> np.ndarray:
        return self.owned & ~self.water & ~self.highway & ~self.ramp


@dataclass
class Service:
    """A placed building of the Electricity or Water & Sewage menus."""

    id: int
    tool: str
    x: int
    y: int
    w: int
    h: int
    #: MW for plants, m³/week for pumps and drains (fixed at placement).
    output: float

    def cells(self) -> tuple[slice, slice]:
        return (slice(self.y, self.y + self.h), slice(self.x, self.x + self.w))

    def contains(self, c: int, r: int) -> bool:
        return self.x <= c < self.x + self.w and self.y <= r < self.y + self.h


@dataclass
class Preview:
    """What the selected tool would build now, and whether the game allows it."""

    tool: str
    ok: bool
    #: The refusal ("Not enough money"), or "" when ``ok``.
    error: str
    cost: int
    #: Cells covered (a bool grid), for drawing.
    cells: np.ndarray
    #: Construction info lines ("Estimated production: 6.4 MW").
    info: tuple[str, ...] = ()
    #: Footprint (x, y, w, h) of a building, else None.
    footprint: tuple[int, int, int, int] | None = None
    #: Line ends or area corners.
    a: Cell | None = None
    b: Cell | None = None


@dataclass
class UI:
    menu: str | None = None
    tool: str | None = None
    #: Start of a line being placed (line tools), or of the rectangle being dragged (areas).
    anchor: Cell | None = None
    #: Corners of a dragged zone rectangle waiting for a click to confirm.
    pending: tuple[Cell, Cell] | None = None
    dragging: bool = False
    view: str | None = None
    pointer: tuple[float, float] = (0.5, 0.5)
    #: The game's last message (text, rgb, game time until which it shows).
    message: tuple[str, tuple[int, int, int], float] | None = None


@dataclass
class Stats:
    built: int = 0
    refused: int = 0
    spent: float = 0.0
    refunded: float = 0.0
    #: Taxes minus upkeep over every simulated week.
    weekly_net: float = 0.0
    #: Population each simulated week.
    history: list[int] = field(default_factory=list)


@dataclass
class CityState:
    data: GameData
    scenario: Scenario
    terrain: Terrain
    rng: np.random.Generator
    budget: float
    road: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), bool))
    pipe: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), bool))
    line: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), bool))
    zone: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), np.int8))
    #: Service id per cell (0: none); ``services`` maps ids to buildings.
    occupied: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), np.int32))
    services: dict[int, Service] = field(default_factory=dict)
    next_id: int = 1
    #: Zoned buildings: kind (0 none, else the zone code), people or jobs in them, weeks
    #: without power / water, weeks abandoned (0: lived in).
    bkind: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), np.int8))
    occ: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), np.float32))
    dark: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), np.int16))
    dry: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), np.int16))
    abandoned: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), np.int16))
    #: Problems of each building this week (bit flags of :data:`PROBLEMS`).
    problems: np.ndarray = field(default_factory=lambda: np.zeros((ROWS, COLS), np.uint8))
    week: int = 0
    population: int = 0
    jobs: int = 0
    max_population: int = 0
    income: float = 0.0
    expenses: float = 0.0
    #: Why zoned lots cannot grow, as the game's advisor says it (set by each week).
    notices: tuple[str, ...] = ()
    #: RCI demand in [0, 1].
    demand: tuple[float, float, float] = (1.0, 0.0, 0.3)
    #: Whether the simulation runs (the play/pause control) and its speed (1, 2 or 4).
    running: bool = False
    speed: int = 1
    #: Game seconds since the start, and toward the next simulated week.
    t: float = 0.0
    week_acc: float = 0.0
    ui: UI = field(default_factory=UI)
    stats: Stats = field(default_factory=Stats)
    version: int = 0
    #: Derived data (networks) keyed by ``version``; rebuilt on demand, never pickled.
    derived: dict[str, Any] = field(default_factory=dict, repr=False)

    def touch(self, built: bool = True) -> None:
        """Mark the map as changed: drawn layers and networks rebuild.

        ``built=False`` (growth: only buildings changed) keeps the road network.
        """
        self.version += 1
        roads = None if built else self.derived.get("roads")
        self.derived.clear()
        if roads is not None:
            self.derived["roads"] = roads

    def say(self, text: str, rgb: tuple[int, int, int], seconds: float = 3.0) -> None:
        self.ui.message = (text, rgb, self.t + seconds)

    def __getstate__(self) -> dict[str, Any]:
        d = self.__dict__.copy()
        d["derived"] = {}
        return d


#: Problem flags of a building (bits of ``CityState.problems``).
NO_POWER, NO_WATER, NO_SEWAGE, DEAD_END, POLLUTED, ABANDONED = 1, 2, 4, 8, 16, 32
PROBLEMS = {
    NO_POWER: "No electricity",
    NO_WATER: "No water",
    NO_SEWAGE: "Sewage backs up",
    DEAD_END: "Dead-end roads: traffic cannot get through",
    POLLUTED: "Pollution",
    ABANDONED: "Abandoned",
}
