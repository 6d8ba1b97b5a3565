"""The mutable world state of the Stardew simulator: plain, picklable dataclasses.

The simulator changes it; tasks, scripted players and the renderer read it. Positions are in
tile units: the player's ``(x, y)`` is the centre of their feet, so the tile they stand on is
``(floor(x), floor(y))`` and ``(x, y) = (tx + 0.5, ty + 0.5)`` is the centre of tile (tx, ty).
Time is counted in ticks of :data:`TICK_HZ` per second of game time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gcc_envs.games.stardew.sim.data import GameData, MapData

#: Fixed simulation rate (ticks per second of game time).
TICK_HZ = 30
#: Ticks per in-game minute: 10 game minutes pass every 7 s, as in the real game.
TICKS_PER_MINUTE = 21
#: 6:00 AM, when every day starts.
DAY_START = 6 * 60
#: 2:00 AM of the next day (minutes since the previous midnight): the player passes out.
PASS_OUT = 26 * 60
#: Inventory size; the first :data:`TOOLBAR` slots are the toolbar.
INVENTORY = 36
TOOLBAR = 12
#: (dx, dy) of each facing; up is north (-y).
DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass
class Slot:
    item: str
    count: int = 1


@dataclass
class Obstacle:
    """An obstacle; a 2x2 one is anchored at its top-left (x, y) and listed on all 4 tiles."""

    kind: str
    x: int
    y: int
    hp: int
    size: int = 1
    variant: int = 0


@dataclass
class Planted:
    crop: str
    #: Nights grown (one per watered night); ripe when it reaches the crop's ``days``.
    days: int = 0


@dataclass
class Soil:
    """A tilled tile."""

    watered: bool = False
    crop: Planted | None = None


@dataclass
class LocationState:
    name: str
    obstacles: dict[tuple[int, int], Obstacle] = field(default_factory=dict)
    soil: dict[tuple[int, int], Soil] = field(default_factory=dict)
    #: Bumped on every change of obstacles or soil (the renderer caches by it).
    version: int = 0


@dataclass
class Player:
    x: float
    y: float
    facing: str = "down"
    energy: int = 270
    max_energy: int = 270
    water: int = 40
    water_max: int = 40
    #: Distance walked (tiles), drives the walking animation.
    walked: float = 0.0
    #: Whether the player walked during the last advance (walking animation).
    moving: bool = False


@dataclass
class Message:
    text: str
    #: Tick at which it disappears.
    until: int


@dataclass
class Swing:
    """A tool animation in progress (input is ignored until ``until``)."""

    item: str
    x: int
    y: int
    until: int


@dataclass
class Stats:
    cleared: dict[str, int] = field(default_factory=dict)
    tilled: int = 0
    planted: int = 0
    watered: int = 0
    #: Waterings of soil with a crop in it (the part of watering Cultivation credits).
    watered_crops: int = 0
    harvested: int = 0
    harvest: dict[str, int] = field(default_factory=dict)
    bought: dict[str, int] = field(default_factory=dict)
    spent: int = 0
    passed_out: int = 0
    sleeps: int = 0
    tool_uses: int = 0
    #: Times each location was entered (through a door or a warp).
    visits: dict[str, int] = field(default_factory=dict)

    @property
    def cleared_total(self) -> int:
        return sum(self.cleared.values())


@dataclass
class WorldState:
    data: GameData
    scenario: str
    location: str
    player: Player
    money: int
    day: int
    #: Minutes since midnight of the current day (360 = 6:00 AM; past 1440 after midnight).
    minutes: int
    inventory: list[Slot | None]
    locations: dict[str, LocationState]
    #: Obstacles on each location right after reset.
    initial_obstacles: dict[str, int]
    selected: int = 0
    #: Open menu: "shop", "sleep", "inventory" or None.
    menu: str | None = None
    #: Highlighted option of the sleep dialogue (0 = Yes, 1 = No).
    menu_choice: int = 0
    message: Message | None = None
    swing: Swing | None = None
    #: Ticks since reset (runs while menus are open; stops only while paused).
    tick: int = 0
    #: Ticks into the current game minute.
    minute_ticks: int = 0
    #: Pointer in normalised window coordinates.
    pointer: tuple[float, float] = (0.5, 0.5)
    stats: Stats = field(default_factory=Stats)
    #: Furniture layout of each location with several (index into ``(map, *map.layouts)``).
    layout: dict[str, int] = field(default_factory=dict)
    #: Weather of each day, from day 1: ``"sun"`` or ``"rain"`` (rain waters all soil).
    weather: tuple[str, ...] = ()
    #: The shop's stock this episode, in menu order: (item id, price in g).
    shop: tuple[tuple[str, int], ...] = ()

    # ---- inventory
    @property
    def toolbar(self) -> list[Slot | None]:
        return self.inventory[:TOOLBAR]

    @property
    def selected_item(self) -> str | None:
        slot = self.inventory[self.selected]
        return None if slot is None else slot.item

    def inventory_count(self, item_id: str) -> int:
        return sum(s.count for s in self.inventory if s is not None and s.item == item_id)

    def slot_of(self, item_id: str) -> int | None:
        """Index of the first slot holding ``item_id`` (toolbar keys are index + 1)."""
        for i, s in enumerate(self.inventory):
            if s is not None and s.item == item_id:
                return i
        return None

    # ---- map queries
    def map(self, location: str | None = None) -> MapData:
        """The map of ``location`` (default: here) in this episode's furniture layout."""
        m = self.data.maps[location or self.location]
        i = self.layout.get(m.name, 0)
        return m.layouts[i - 1] if i else m

    def raining(self, day: int | None = None) -> bool:
        d = (self.day if day is None else day) - 1
        return 0 <= d < len(self.weather) and self.weather[d] == "rain"

    def price_of(self, item_id: str) -> int:
        """What the shop charges for ``item_id`` this episode (the item's price if unstocked)."""
        for item, price in self.shop:
            if item == item_id:
                return price
        return self.data.items[item_id].price

    def tile_at(self, location: str, x: int, y: int) -> str:
        """Kind of the tile (static map, or "soil"/"soil_wet" once tilled); "void" outside."""
        m = self.map(location)
        if not (0 <= x < m.width and 0 <= y < m.height):
            return "void"
        soil = self.locations[location].soil.get((x, y))
        if soil is not None:
            return "soil_wet" if soil.watered else "soil"
        return self.data.tiles[m.tiles[y, x]].name

    def obstacle_at(self, location: str, x: int, y: int) -> Obstacle | None:
        return self.locations[location].obstacles.get((x, y))

    def soil_at(self, location: str, x: int, y: int) -> Soil | None:
        return self.locations[location].soil.get((x, y))

    def crop_at(self, location: str, x: int, y: int) -> Planted | None:
        soil = self.soil_at(location, x, y)
        return None if soil is None else soil.crop

    def is_ripe(self, location: str, x: int, y: int) -> bool:
        crop = self.crop_at(location, x, y)
        return crop is not None and crop.days >= self.data.crops[crop.crop].days

    def obstacle_count(self, location: str = "farm", kind: str | None = None) -> int:
        obs = {id(o): o for o in self.locations[location].obstacles.values()}
        return sum(1 for o in obs.values() if kind is None or o.kind == kind)

    # ---- player
    @property
    def current_tile(self) -> tuple[int, int]:
        return int(self.player.x // 1), int(self.player.y // 1)

    @property
    def target_tile(self) -> tuple[int, int]:
        x, y = self.current_tile
        dx, dy = DIRECTIONS[self.player.facing]
        return x + dx, y + dy

    @property
    def busy(self) -> bool:
        return self.swing is not None and self.tick < self.swing.until

    # ---- clock
    @property
    def time_text(self) -> str:
        """Clock text in 10-minute steps, e.g. "6:00 am", "12:30 pm", "1:10 am"."""
        m = (self.minutes // 10) * 10 % 1440
        hour, minute = divmod(m, 60)
        suffix = "am" if hour < 12 else "pm"
        return f"{(hour - 1) % 12 + 1}:{minute:02d} {suffix}"

    @property
    def date_text(self) -> str:
        return f"{WEEKDAYS[(self.day - 1) % 7]}. {(self.day - 1) % 28 + 1}"

    @property
    def game_seconds(self) -> float:
        return self.tick / TICK_HZ
