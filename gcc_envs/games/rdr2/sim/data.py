"""The RDR2 simulator's content as frozen dataclasses: regions, missions, checkpoints, tutorials.

Parsed once from the TOML files in ``sim/data/`` by :func:`~gcc_envs.games.rdr2.sim.loader.load_data`.
Positions here are already in metres (the files use grid cells).
"""

from __future__ import annotations

from dataclasses import dataclass

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
