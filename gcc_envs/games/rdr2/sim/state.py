"""The mutable world state of the RDR2 simulator: plain, picklable dataclasses.

The simulator (``game.py`` and its rule modules) changes it; tasks and scripted players read it
through ``sim.state``; the renderer draws it. Nothing here runs rules.

Units and axes
--------------
Positions ``(x, y)`` are metres on the ground plane; ``x`` grows east, ``y`` grows south, so
grid cell ``(col, row) = (floor(x / CELL_M), floor(y / CELL_M))``. ``yaw_deg`` is the heading
measured from east (+x) towards south (+y): 0 = east, 90 = south, 180 = west, 270 = north; the
unit view vector is ``(cos yaw, sin yaw)``. Turning the mouse right increases yaw. ``pitch_deg``
is positive looking up, clamped to ±:data:`PITCH_LIMIT_DEG`. Heights are in whole blocks of
:data:`BLOCK_M` metres (``WorldMap.level``). Time is seconds of game time (``clock``).

What the renderer reads
-----------------------
* ``state.map``: ``walls`` (block id per cell, 0 = open; see :data:`BLOCKS`), ``ground``
  (ground type per cell, see :data:`GROUNDS`), ``level`` (terrain height in blocks), ``areas``
  (named rectangles for the minimap labels), ``name`` and ``snow``.
* ``state.map``'s ``roof`` (indoor cells: draw a ceiling) and ``version`` (bumped when a door
  opens or closes, for caches).
* ``state.player``: position, ``z`` (level stood on), ``yaw_deg``, ``pitch_deg``,
  ``health``/``max_health``, ``weapon``, ``ammo_clip``/``ammo_reserve``, ``reload_left``,
  ``mounted``, ``aiming``, ``running``, ``moving``, ``carrying``, ``leading``, ``money``.
* ``state.horses`` / ``state.npcs`` / ``state.props``: billboards (position, ``kind``, ``yaw``,
  ``alive``, ``state``, ``open``/``looted`` for props).
* ``state.route``: the red route polyline to the objective for the minimap (None in Mission 3).
* ``state.ui``: ``objective``, ``prompts``, ``tutorial``, ``wheel``, ``pause``, ``overlay``,
  ``loot_progress``, ``damage_flash``, ``muzzle_flash``, ``hit_marker``, ``subtitle``, ``shop``
  and ``pointer`` (the menu cursor); the menu layouts are the ``WHEEL_*``, ``PAUSE_ITEM_*`` and
  ``SHOP_ROW_*`` constants below, which the simulator hit-tests against.
* ``state.clock`` (seconds) and :meth:`WorldState.time_of_day` (hours, for sky colour).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: Metres per grid cell.
CELL_M = 2.0
#: Metres per terrain level (a ledge one level high can be climbed with ``space``).
BLOCK_M = 1.0
#: Fixed physics step (seconds of game time).
DT = 1.0 / 30.0
#: Vertical look limit (degrees).
PITCH_LIMIT_DEG = 60.0
#: Pause / unpause animation length (seconds of world time during which the player cannot act).
PAUSE_ANIMATION_S = 0.5

#: Wall block ids of ``WorldMap.walls`` (0 = open). The renderer picks a texture by id.
BLOCKS: dict[str, int] = {
    "open": 0,
    "rock": 1,
    "log_wall": 2,
    "plank_wall": 3,
    "door": 4,  # a closed door; an open door's cell is 0 and its Prop has open=True
    "fence": 5,
    "tree": 6,
    "barn_wall": 7,
    "store_wall": 8,
    "tent": 9,
    "counter": 10,
    "window_wall": 11,
}
#: Ground types of ``WorldMap.ground``.
GROUNDS: dict[str, int] = {
    "grass": 0,
    "dirt": 1,
    "snow": 2,
    "floor": 3,  # wooden floor indoors
    "road": 4,
    "water": 5,
    "ice": 6,
}
#: Weapons on the weapon wheel, in sector order clockwise from the top.
WEAPONS: tuple[str, ...] = ("revolver", "rifle", "knife", "lasso", "fists", "bow")
#: Weapons that shoot.
GUNS: frozenset[str] = frozenset({"revolver", "rifle"})
#: Rounds per clip of each gun.
CLIP_SIZE: dict[str, int] = {"revolver": 6, "rifle": 5}

#: NPC kinds.
NPC_KINDS: tuple[str, ...] = (
    "dutch",
    "micah",
    "javier",
    "john",
    "enemy",
    "wolf",
    "clerk",
    "horse_barn",
)
#: Prop kinds.
PROP_KINDS: tuple[str, ...] = (
    "crate",
    "door",
    "drawer",
    "cupboard",
    "supply",
    "hitch_post",
    "barrel",
    "campfire",
    "wagon",
    "shelf",
    "lamp",
)

#: Weapon wheel layout (window fractions of a 1280x720 frame): sector ``i`` spans screen
#: headings ``WHEEL_TOP_DEG + 60 * i ± 30`` degrees (clockwise from the top, 0 = screen right,
#: 90 = down) around the centre, from ``WHEEL_INNER_PX`` to ``WHEEL_OUTER_PX`` native pixels.
WHEEL_TOP_DEG = 270.0
WHEEL_INNER_PX = 60.0
WHEEL_OUTER_PX = 260.0
#: Pause menu entry ``i``: (u0, v0, u1, v1) = (0.06, 0.30 + 0.08 i, 0.30, 0.36 + 0.08 i).
PAUSE_ITEM_U = (0.06, 0.30)
PAUSE_ITEM_V0, PAUSE_ITEM_DV, PAUSE_ITEM_H = 0.30, 0.08, 0.06
#: Shop row ``i``: (u0, v0, u1, v1) = (0.55, 0.20 + 0.07 i, 0.95, 0.26 + 0.07 i).
SHOP_ROW_U = (0.55, 0.95)
SHOP_ROW_V0, SHOP_ROW_DV, SHOP_ROW_H = 0.20, 0.07, 0.06


def pause_item_rect(i: int) -> tuple[float, float, float, float]:
    """(u0, v0, u1, v1) of pause menu entry ``i``."""
    v0 = PAUSE_ITEM_V0 + PAUSE_ITEM_DV * i
    return (PAUSE_ITEM_U[0], v0, PAUSE_ITEM_U[1], v0 + PAUSE_ITEM_H)


def shop_row_rect(i: int) -> tuple[float, float, float, float]:
    """(u0, v0, u1, v1) of shop row ``i``."""
    v0 = SHOP_ROW_V0 + SHOP_ROW_DV * i
    return (SHOP_ROW_U[0], v0, SHOP_ROW_U[1], v0 + SHOP_ROW_H)


PAUSE_PHASES: tuple[str, ...] = ("running", "pausing", "paused", "resuming")
OVERLAYS: tuple[str, ...] = ("none", "mission_failed", "checkpoint", "mission_passed")


@dataclass
class Rect:
    """A named axis-aligned area in cells: columns ``[x0, x1)`` and rows ``[y0, y1)``."""

    x0: int
    y0: int
    x1: int
    y1: int

    def contains(self, x_m: float, y_m: float) -> bool:
        """Whether the point (metres) lies inside."""
        cx, cy = x_m / CELL_M, y_m / CELL_M
        return self.x0 <= cx < self.x1 and self.y0 <= cy < self.y1

    def centre(self) -> tuple[float, float]:
        """Centre in metres."""
        return ((self.x0 + self.x1) * CELL_M / 2.0, (self.y0 + self.y1) * CELL_M / 2.0)


@dataclass
class WorldMap:
    """The terrain grid of one mission's region."""

    name: str
    #: (rows, cols) int8 wall block ids (:data:`BLOCKS`); 0 = open.
    walls: np.ndarray
    #: (rows, cols) int8 ground types (:data:`GROUNDS`).
    ground: np.ndarray
    #: (rows, cols) int8 terrain height in blocks.
    level: np.ndarray
    #: (rows, cols) bool: indoors (a roof overhead; the renderer draws a ceiling).
    roof: np.ndarray
    #: Named areas: ``camp``, ``homestead``, ``house``, ``barn``, ``mountain_path``, ``town``,
    #: ``store`` ... (whichever the mission's region has).
    areas: dict[str, Rect] = field(default_factory=dict)
    #: True on the snowy regions (falling snow, white sky).
    snow: bool = False
    #: Bumped when ``walls`` changes (doors opening), so renderers can cache.
    version: int = 0

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, cols)."""
        return int(self.walls.shape[0]), int(self.walls.shape[1])

    def area_at(self, x_m: float, y_m: float) -> str | None:
        """The first named area containing the point, or None."""
        for name, rect in self.areas.items():
            if rect.contains(x_m, y_m):
                return name
        return None


@dataclass
class Player:
    x: float
    y: float
    yaw_deg: float = 0.0
    pitch_deg: float = 0.0
    #: Terrain level the player stands on (blocks).
    z: int = 0
    health: float = 100.0
    max_health: float = 100.0
    alive: bool = True
    weapon: str = "fists"
    #: Weapons owned (the weapon wheel greys out the others).
    weapons: tuple[str, ...] = ("revolver", "knife", "fists")
    ammo_clip: int = 6
    ammo_reserve: int = 24
    #: Horse id ridden, or None on foot.
    mounted: str | None = None
    aiming: bool = False
    running: bool = False
    moving: bool = False
    #: Crouched in cover (``q`` by a wall or a solid prop; moving leaves cover).
    in_cover: bool = False
    #: NPC name carried on the shoulder (Mission 2's John), or None.
    carrying: str | None = None
    #: Horse id being led on foot (Mission 1's barn horse), or None.
    leading: str | None = None
    money: float = 0.0
    #: Supplies in the satchel (item -> count).
    items: dict[str, int] = field(default_factory=dict)
    #: Clock time of the last damage taken (health regenerates after a delay).
    last_hurt: float = -1e9
    #: Seconds left of a jump (the player is airborne while > 0).
    jump_left: float = 0.0
    #: Seconds left before the gun can fire again / reload finishes.
    gun_cooldown: float = 0.0
    reload_left: float = 0.0
    #: Seconds left before the next punch lands.
    punch_cooldown: float = 0.0


@dataclass
class Horse:
    id: str
    name: str
    x: float
    y: float
    yaw_deg: float = 0.0
    health: float = 100.0
    alive: bool = True
    #: ``player`` (Arthur's own), ``dutch``, ``micah``, ``javier``, ``barn`` (the barn horse).
    owner: str = "player"
    #: Rider's name (``arthur`` or an NPC's), or None.
    rider: str | None = None
    hitched: bool = False
    #: Barn horse: spooked until calmed with ``e``.
    calm: bool = True
    #: ``idle``, ``walk``, ``run``, ``spooked``, ``led``, ``dead``.
    state: str = "idle"
    #: Times the player has hit it.
    assaulted: int = 0
    #: ``arthur``, ``enemy`` or ``wolf`` once dead, else None.
    killed_by: str | None = None


@dataclass
class NPC:
    name: str
    kind: str
    x: float
    y: float
    yaw_deg: float = 0.0
    health: float = 100.0
    max_health: float = 100.0
    alive: bool = True
    #: ``idle``, ``walk``, ``wait``, ``ride``, ``cover``, ``shoot``, ``run``, ``bite``,
    #: ``downed`` (John), ``carried``, ``dead``.
    state: str = "idle"
    hostile: bool = False
    #: Waypoints (metres) the NPC follows, and the index of the next one.
    path: tuple[tuple[float, float], ...] = ()
    path_index: int = 0
    #: Horse id ridden, or None.
    mounted: str | None = None
    #: Cover point an enemy holds (metres), or None.
    cover: tuple[float, float] | None = None
    #: Seconds until the next shot / bite.
    cooldown: float = 0.0
    #: Times the player has hit it (friendly NPCs only).
    assaulted: int = 0
    #: Walking / running speed (m/s).
    speed: float = 3.0
    #: Seconds left of a hit flinch (renderer may tint).
    flinch: float = 0.0
    #: ``arthur``, ``enemy`` or ``wolf`` once dead, else None.
    killed_by: str | None = None
    #: Enemies: where they hide and where they step out to shoot (metres), chosen per phase.
    hide_at: tuple[float, float] | None = None
    peek_at: tuple[float, float] | None = None
    #: Enemies: seconds hidden / exposed per cover cycle, chance to run to a flanking cover
    #: after a shot. Wolves: seconds spent circling before a charge (again after each bite).
    hide_s: float = 1.6
    expose_s: float = 1.0
    flank: float = 0.0
    stalk_s: float = 0.0
    #: Wolves: seconds of circling left, and the way round (+1 clockwise, -1 anticlockwise).
    stalk_left: float = 0.0
    orbit: int = 1
    #: Companions: seconds left of waiting for a lagging player (then they go on).
    patience: float = float("inf")
    #: Velocity (m/s) over the last physics step.
    vx: float = 0.0
    vy: float = 0.0


@dataclass
class Prop:
    id: str
    kind: str
    x: float
    y: float
    yaw_deg: float = 0.0
    #: Doors, drawers, cupboards: opened.
    open: bool = False
    #: Lootables: already searched.
    looted: bool = False
    #: What looting gives (item -> count).
    items: dict[str, int] = field(default_factory=dict)
    #: Blocks movement (a crate or wagon; enemies take cover behind it).
    solid: bool = False
    #: Grid cell of a door (col, row), else None.
    cell: tuple[int, int] | None = None


@dataclass
class Prompt:
    """A key prompt at the bottom right, e.g. ``Prompt("E", "Hitch Horse")`` → ``[E] Hitch Horse``."""

    key: str
    label: str

    def text(self) -> str:
        return f"[{self.key}] {self.label}"


@dataclass
class Tutorial:
    """A tutorial box at the top left."""

    id: str
    text: str
    #: Clock time it appeared.
    shown_at: float


@dataclass
class WeaponWheel:
    open: bool = False
    #: Sector index under the pointer (into :data:`WEAPONS`), or None in the centre.
    hovered: int | None = None
    #: Sector last equipped.
    selected: int | None = None


@dataclass
class PauseMenu:
    #: One of :data:`PAUSE_PHASES`.
    phase: str = "running"
    #: Seconds left of the pausing / resuming animation.
    anim_left: float = 0.0
    #: Menu entries and the hovered one (None when the pointer is on none).
    items: tuple[str, ...] = ("Resume", "Story", "Settings", "Quit")
    hovered: int | None = None


@dataclass
class Overlay:
    #: One of :data:`OVERLAYS`.
    kind: str = "none"
    text: str = ""
    since: float = 0.0


@dataclass
class ShopMenu:
    """The general store's catalogue (Mission 3), open while talking to the clerk."""

    open: bool = False
    #: (item, price) rows.
    rows: tuple[tuple[str, float], ...] = ()
    hovered: int | None = None


@dataclass
class UIState:
    objective: str = ""
    prompts: list[Prompt] = field(default_factory=list)
    tutorial: Tutorial | None = None
    #: Tutorial ids shown so far (a control unlocked by a tutorial works once its id is here).
    tutorials_seen: set[str] = field(default_factory=set)
    wheel: WeaponWheel = field(default_factory=WeaponWheel)
    pause: PauseMenu = field(default_factory=PauseMenu)
    overlay: Overlay = field(default_factory=Overlay)
    shop: ShopMenu = field(default_factory=ShopMenu)
    #: Loot hold progress in [0, 1] while ``r`` is held on a lootable, else None.
    loot_progress: float | None = None
    #: Red damage flash intensity in [0, 1] (fades).
    damage_flash: float = 0.0
    #: Muzzle flash intensity in [0, 1] (fades).
    muzzle_flash: float = 0.0
    #: Hit marker intensity in [0, 1] after a shot lands.
    hit_marker: float = 0.0
    #: A line of dialogue at the bottom centre, and the clock time it was said.
    subtitle: str = ""
    subtitle_at: float = 0.0
    #: Pointer in window fractions (menus only).
    pointer: tuple[float, float] = (0.5, 0.5)


@dataclass
class MissionState:
    """Where the mission stands."""

    #: ``mission1``, ``mission2``, ``mission3``.
    name: str
    #: Checkpoint names in order.
    checkpoints: tuple[str, ...]
    #: Index of the current checkpoint (== len(checkpoints) when passed).
    index: int = 0
    #: Index the episode started at (``reset(options={"checkpoint": ...})``).
    start_index: int = 0
    #: Run only the starting checkpoint, then pass.
    single: bool = False
    passed: bool = False
    #: Failure reason once failed, else None.
    failure: str | None = None
    #: Clock time the current checkpoint began.
    started_at: float = 0.0
    #: Scratch counters of the current checkpoint (kills, looted count, ...).
    counters: dict[str, float] = field(default_factory=dict)
    #: Partial credit inside the current checkpoint in [0, 1) (enemies down, supplies found,
    #: share of the way covered), updated every physics step.
    partial: float = 0.0

    @property
    def current(self) -> str | None:
        return self.checkpoints[self.index] if self.index < len(self.checkpoints) else None

    @property
    def done(self) -> int:
        return self.index - self.start_index


@dataclass
class WorldState:
    map: WorldMap
    player: Player
    mission: MissionState
    horses: dict[str, Horse] = field(default_factory=dict)
    npcs: dict[str, NPC] = field(default_factory=dict)
    props: dict[str, Prop] = field(default_factory=dict)
    #: Red route polyline (metres) to the objective; None when there is none (Mission 3).
    route: list[tuple[float, float]] | None = None
    #: The current checkpoint's whole route line (``route`` is cut at the player as it goes).
    checkpoint_route: list[tuple[float, float]] | None = None
    #: Cover points (metres: rocks, trees, crates) enemies may move between.
    covers: list[tuple[float, float]] = field(default_factory=list)
    ui: UIState = field(default_factory=UIState)
    #: Game time in seconds since the episode began.
    clock: float = 0.0
    #: Hour of day at clock 0.
    start_hour: float = 16.0
    #: Physics steps run so far.
    tick: int = 0

    def time_of_day(self) -> float:
        """Hours in [0, 24): one game day lasts 48 real minutes, as in the game."""
        return (self.start_hour + self.clock / 120.0) % 24.0
