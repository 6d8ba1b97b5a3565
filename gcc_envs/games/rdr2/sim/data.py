"""The RDR2 simulator's content as frozen dataclasses: regions, missions, checkpoints, tutorials.

Parsed once from the TOML files in ``sim/data/`` by :func:`~gcc_envs.games.rdr2.sim.loader.load_data`.
Positions here are already in metres (the files use grid cells).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Point = tuple[float, float]
Pose = tuple[float, float, float]  # x, y (metres), yaw (degrees)


@dataclass(frozen=True)
class RegionData:
    name: str
    #: Read-only arrays; worldgen copies them into the mutable ``WorldMap``.
    walls: np.ndarray
    ground: np.ndarray
    level: np.ndarray
    roof: np.ndarray
    #: name -> (x0, y0, x1, y1) in cells, half-open.
    areas: dict[str, tuple[int, int, int, int]]
    snow: bool


@dataclass(frozen=True)
class HorseSpec:
    id: str
    name: str
    owner: str
    at: Pose
    rider: str | None = None
    calm: bool = True


@dataclass(frozen=True)
class NPCSpec:
    name: str
    kind: str
    at: Pose
    health: float
    hostile: bool = False
    mounted: str | None = None
    speed: float = 3.0
    state: str = "idle"
    #: Checkpoint on whose entry this NPC appears (None: present from the start).
    spawn: str | None = None
    cover: Point | None = None
    #: Enemies: seconds hidden and exposed per cover cycle, chance to move to a flanking cover
    #: after each shot; wolves: seconds circling the player before a charge.
    hide_s: float = 1.6
    expose_s: float = 1.0
    flank: float = 0.0
    stalk_s: float = 0.0
    #: Wolves circle clockwise (1) or anticlockwise (-1).
    orbit: int = 1


@dataclass(frozen=True)
class PropSpec:
    id: str
    kind: str
    at: Pose
    items: tuple[tuple[str, int], ...] = ()
    solid: bool = False
    cell: tuple[int, int] | None = None


@dataclass(frozen=True)
class CheckpointSpec:
    name: str
    difficulty: str  # "easy" | "hard"
    objective: str
    #: Path name drawn as the route line, or None.
    route: str | None
    #: Where the player starts when the episode starts at this checkpoint.
    player: Pose
    player_mounted: str | None = None
    #: actor (NPC or horse id) -> pose, applied when the episode starts here.
    place: tuple[tuple[str, Pose], ...] = ()
    #: NPC -> path name, set on entry.
    paths: tuple[tuple[str, str], ...] = ()
    mount: tuple[tuple[str, str], ...] = ()
    dismount: tuple[str, ...] = ()
    tutorial: str | None = None
    #: When the tutorial appears: after a delay, near a prop/NPC/horse, in an area, near a ledge.
    tutorial_delay: float | None = None
    tutorial_near: str | None = None
    tutorial_radius_m: float = 6.0
    tutorial_area: str | None = None
    tutorial_ledge_m: float | None = None
    #: How many things the checkpoint needs (supplies found, supplies bought).
    need: int = 1
    #: A line of dialogue shown as a subtitle on entry (``"Dutch: ..."``), or None.
    say: str | None = None
    #: Horse id the player starts on foot beside (the checkpoint's ``player`` pose is then
    #: only the view's yaw), or None.
    beside: str | None = None
    #: Metres from the player's own horse / a companion on this checkpoint's routes past which
    #: they are abandoned here (None: the mission's distances).
    abandon_horse_m: float | None = None
    abandon_companion_m: float | None = None
    #: Seconds in all a companion on this checkpoint's routes waits for a lagging player
    #: before going on without them (None: for ever).
    patience_s: float | None = None
    #: Seconds the checkpoint may take, and the failure when they run out (None: no limit).
    time_limit_s: float | None = None
    time_up: str = "took too long"
    #: The player lets go of a led horse on entry (it has to be taken by the reins again).
    release_led: bool = False


Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 in cells, half-open
Range = tuple[float, float]


@dataclass(frozen=True)
class SquadSpec:
    """Hostiles drawn per episode from the mission's NPC ``<prefix>_1`` (the template)."""

    prefix: str
    #: How many (inclusive range).
    count: tuple[int, int]
    #: Where they appear (cells); with ``ring_m``, only that far from where the checkpoint
    #: that spawns them starts (metres).
    spawn: Rect
    ring_m: Range | None = None
    #: Where cover is looked for (rocks, trees, solid props) and extra crates are put.
    cover: Rect | None = None
    extra_cover: tuple[int, int] = (0, 0)
    #: Per-NPC behaviour ranges (see :class:`NPCSpec`).
    hide_s: Range = (1.6, 1.6)
    expose_s: Range = (1.0, 1.0)
    flank: Range = (0.0, 0.0)
    stalk_s: Range = (0.0, 0.0)


@dataclass(frozen=True)
class ContainerSpec:
    """Drawers and cupboards laid out per episode along the walls of an area."""

    area: str
    count: tuple[int, int]
    kinds: tuple[str, ...]
    #: Supply items (one per container that holds any) and how many containers hold one.
    supplies: tuple[str, ...]
    with_supplies: tuple[int, int]
    #: Other contents, one container each.
    extras: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class GroupSpec:
    """Points inside ``area`` (cells) move together by up to ``shift`` cells (dx, dy); the
    NPC ``anchor`` must land on open ground."""

    area: Rect
    shift: tuple[float, float]
    anchor: str


@dataclass(frozen=True)
class StoreSlot:
    """A building plot (cells, walls included) the general store may stand on, and the side
    its door faces (``"south"`` or ``"north"``)."""

    rect: Rect
    door_side: str


@dataclass(frozen=True)
class VariationSpec:
    """What the seed changes in a mission (the env card lists it; ranges are data)."""

    #: Every distinct point (starts, placements, NPC routes, route lines) moves up to this
    #: many metres, to open ground of the same kind (indoor/outdoor, level).
    jitter_m: float = 0.0
    #: Start views turn up to this many degrees; ``free_yaw`` checkpoints start facing any way.
    yaw_deg: float = 0.0
    free_yaw: tuple[str, ...] = ()
    #: Thing id (prop, horse or NPC) -> candidate poses; one is drawn.
    slots: tuple[tuple[str, tuple[Pose, ...]], ...] = ()
    #: Path name -> candidate last points; one is drawn, and every path that ends where this
    #: one does ends there instead (where a companion leads: a walk and its route line).
    ends: tuple[tuple[str, tuple[Point, ...]], ...] = ()
    groups: tuple[GroupSpec, ...] = ()
    containers: ContainerSpec | None = None
    squads: tuple[SquadSpec, ...] = ()
    #: Plots the general store may stand on (one is drawn; the rest are closed houses).
    store: tuple[StoreSlot, ...] = ()
    #: The store's catalogue rows come in a seeded order.
    shuffle_shop: bool = False
    #: (checkpoint, horse, (lo, hi) metres): the horse has wandered that far from where the
    #: checkpoint starts, in any direction (the player walks over to mount it).
    strays: tuple[tuple[str, str, Range], ...] = ()
    #: (checkpoint, metres, far): the checkpoint starts anywhere up to that far from its start,
    #: on open ground in clear line of it and ``far`` metres or more from where its route line
    #: ends; route lines that began there begin there instead.
    spreads: tuple[tuple[str, float, float], ...] = ()


@dataclass(frozen=True)
class MissionData:
    name: str
    title: str
    region: str
    start_hour: float
    money: float
    weapons: tuple[str, ...]
    weapon: str
    abandon_companion_m: float
    abandon_horse_m: float
    abandon_area: str | None
    abandon_area_m: float
    horses: tuple[HorseSpec, ...]
    npcs: tuple[NPCSpec, ...]
    props: tuple[PropSpec, ...]
    paths: dict[str, tuple[Point, ...]]
    checkpoints: tuple[CheckpointSpec, ...]
    #: (item, price, is_supply) rows of the store, if the mission has one.
    shop: tuple[tuple[str, float, bool], ...] = ()
    #: Tutorials already seen in earlier missions (their controls work from the start).
    known_tutorials: tuple[str, ...] = ()
    #: What the seed varies (:mod:`~gcc_envs.games.rdr2.sim.variation`).
    variation: VariationSpec = field(default_factory=VariationSpec)
    #: Cover points (metres) the mission's enemies may move between (filled per episode).
    covers: tuple[Point, ...] = ()

    def checkpoint_index(self, name: str) -> int:
        for i, c in enumerate(self.checkpoints):
            if c.name == name:
                return i
        raise KeyError(name)


@dataclass(frozen=True)
class GameData:
    regions: dict[str, RegionData]
    missions: dict[str, MissionData]
    #: tutorial id -> box text.
    tutorials: dict[str, str]
