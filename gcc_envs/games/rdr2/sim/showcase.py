"""Hand-built states that show what the renderer draws, and :func:`save_showcase`.

Four scenes at the native 1280x720: following Dutch on horseback up a snowy path, the
homestead shootout (aiming at O'Driscolls), the weapon wheel, and the pause menu. The maps are
small ASCII drawings parsed here, independent of the mission data.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim.render import render
from gcc_envs.games.rdr2.sim.state import (
    BLOCKS,
    CELL_M,
    GROUNDS,
    NPC,
    Horse,
    MissionState,
    PauseMenu,
    Player,
    Prompt,
    Prop,
    Tutorial,
    UIState,
    WeaponWheel,
    WorldMap,
    WorldState,
)

#: ASCII map characters: (wall block, ground type, roof).
CHARS: dict[str, tuple[str, str, bool]] = {
    ".": ("open", "snow", False),
    ",": ("open", "grass", False),
    "_": ("open", "road", False),
    "#": ("rock", "snow", False),
    "T": ("tree", "snow", False),
    "L": ("log_wall", "floor", True),
    "P": ("plank_wall", "floor", True),
    "W": ("window_wall", "floor", True),
    "D": ("door", "floor", True),
    "=": ("open", "floor", True),
    "B": ("barn_wall", "dirt", True),
    "F": ("fence", "snow", False),
    "A": ("tent", "snow", False),
}

HOMESTEAD = """
##############################
#......T.......T.......T.....#
#.T..........................#
#.......PPPWPPPD....BBBBBB...#
#.......P=====PP....B....B.T.#
#.......W=====W.....B....B...#
#.......P=====P.....B....B...#
#.......PPPDPPP.....BBB.BB...#
#............................#
#..T.....____________........#
#........_..........___......#
#..FFFFF._...........__......#
#........_...........T.......#
#...T....______..............#
#.............___............#
#...............__.......T...#
#................_...........#
#..T.............__..........#
#.................__.....T...#
##############################
"""

MOUNTAIN = """
##########################
#TT#######..#######TT##TT#
#T.T###.....____...#TT#.T#
#..T##.....__..#....##..T#
#...#.....__....##.......#
#T.......__...T..#.......#
#.......__........#..T...#
#.T.....__.........#.....#
#..#....__...T.....#.....#
#..#.....__........#..T..#
#..##.....__......##.....#
#T..#......__....#.......#
#...#.......__..#....T...#
#T..##.......__.#........#
#....#........__#.......T#
#..T.#.........__........#
#....##.........__.......#
#.....#..........__..T...#
##########################
"""


def parse_map(name: str, ascii_map: str, snow: bool = True) -> WorldMap:
    """A :class:`WorldMap` from an ASCII drawing (see :data:`CHARS`)."""
    lines = [ln for ln in ascii_map.strip("\n").splitlines()]
    rows, cols = len(lines), max(len(ln) for ln in lines)
    walls = np.zeros((rows, cols), np.int8)
    ground = np.zeros((rows, cols), np.int8)
    roof = np.zeros((rows, cols), bool)
    for r, line in enumerate(lines):
        for c, ch in enumerate(line.ljust(cols, "#")):
            wall, gr, rf = CHARS[ch]
            walls[r, c] = BLOCKS[wall]
            ground[r, c] = GROUNDS[gr]
            roof[r, c] = rf
    level = np.zeros((rows, cols), np.int8)
    return WorldMap(name, walls, ground, level, roof, snow=snow)


def blank_state(
    ascii_map: str, col: float, row: float, yaw_deg: float = 0.0, snow: bool = True
) -> WorldState:
    """A state on ``ascii_map`` with the player at cell position (col, row) and nothing else."""
    m = parse_map("test", ascii_map, snow)
    x, y = _m(col, row)
    return WorldState(m, Player(x, y, yaw_deg=yaw_deg), MissionState("mission1", ("test",)))


def _m(col: float, row: float) -> tuple[float, float]:
    return col * CELL_M, row * CELL_M


def horseback_state() -> WorldState:
    """Following Dutch up the snowy path, mounted, with Micah riding alongside."""
    m = parse_map("mountain", MOUNTAIN)
    px, py = _m(15.5, 16.2)
    st = WorldState(
        m,
        Player(px, py, yaw_deg=238.0, pitch_deg=-4.0, mounted="boadicea", weapon="revolver"),
        MissionState("mission1", ("follow_dutch",)),
    )
    st.horses["boadicea"] = Horse("boadicea", "Boadicea", px, py, yaw_deg=238.0, rider="arthur")
    dx, dy = _m(11.6, 10.5)
    st.horses["count"] = Horse(
        "count", "The Count", dx, dy, owner="dutch", rider="dutch", state="walk"
    )
    mx, my = _m(14.6, 11.9)
    st.horses["baylock"] = Horse(
        "baylock", "Baylock", mx, my, owner="micah", rider="micah", state="walk"
    )
    st.npcs["dutch"] = NPC("dutch", "dutch", dx, dy, mounted="count", state="ride")
    st.npcs["micah"] = NPC("micah", "micah", mx, my, mounted="baylock", state="ride")
    st.route = [
        _m(*p)
        for p in ((14.5, 15.0), (12.5, 12.0), (10.5, 8.0), (9.0, 5.0), (11.5, 2.5), (14.0, 2.2))
    ]
    st.ui = UIState(
        objective="Follow Dutch",
        subtitle="Dutch: We need to find shelter before the storm gets worse.",
        tutorial=Tutorial(
            "follow", "Hold [W] to follow Dutch. Press [SHIFT] repeatedly to gallop.", 0.0
        ),
    )
    st.clock = 30.0
    return st


def shootout_state() -> WorldState:
    """The homestead shootout: aiming at O'Driscolls by the house, Dutch and Micah in cover."""
    m = parse_map("homestead", HOMESTEAD)
    px, py = _m(16.5, 15.5)
    st = WorldState(
        m,
        Player(
            px,
            py,
            yaw_deg=236.0,
            pitch_deg=1.0,
            weapon="revolver",
            aiming=True,
            ammo_clip=4,
            ammo_reserve=18,
            health=62.0,
        ),
        MissionState("mission1", ("kill_odriscolls",)),
    )
    for i, (c, r) in enumerate(((11.5, 8.6), (13.2, 9.4), (8.6, 9.0))):
        x, y = _m(c, r)
        st.npcs[f"odriscoll{i}"] = NPC(f"odriscoll{i}", "enemy", x, y, hostile=True, state="shoot")
    x, y = _m(14.5, 12.3)
    st.npcs["dead"] = NPC("dead", "enemy", x, y, hostile=True, alive=False, state="dead")
    st.npcs["dutch"] = NPC("dutch", "dutch", *_m(17.6, 13.2), state="cover")
    st.npcs["micah"] = NPC("micah", "micah", *_m(18.7, 15.8), state="cover")
    st.props["crate1"] = Prop("crate1", "crate", *_m(17.2, 11.6), solid=True)
    st.props["wagon"] = Prop("wagon", "wagon", *_m(20.0, 10.5), solid=True)
    st.props["barrel"] = Prop("barrel", "barrel", *_m(12.6, 11.2), solid=True)
    st.horses["boadicea"] = Horse("boadicea", "Boadicea", *_m(21.5, 17.0), hitched=True)
    st.route = [_m(16.5, 15.0), _m(13.0, 9.5)]
    st.ui = UIState(
        objective="Kill the O'Driscolls",
        prompts=[Prompt("R", "Reload"), Prompt("Q", "Take Cover")],
        damage_flash=0.35,
        hit_marker=0.8,
        muzzle_flash=0.7,
    )
    st.clock = 60.0
    return st


def wheel_state() -> WorldState:
    """The shootout with the weapon wheel held open on the rifle."""
    st = shootout_state()
    st.player.aiming = False
    st.player.weapons = ("revolver", "rifle", "knife", "lasso", "fists")
    st.ui.wheel = WeaponWheel(open=True, hovered=1, selected=0)
    st.ui.tutorial = Tutorial("wheel", "Hold [TAB] to view your stored weapons", 0.0)
    st.ui.damage_flash = st.ui.hit_marker = st.ui.muzzle_flash = 0.0
    return st


def pause_state() -> WorldState:
    """The horseback scene with the Esc pause menu up and 'Resume' hovered."""
    st = horseback_state()
    st.ui.pause = PauseMenu(phase="paused", hovered=0)
    return st


SCENES = {
    "horseback": horseback_state,
    "shootout": shootout_state,
    "weapon_wheel": wheel_state,
    "pause_menu": pause_state,
}


def frame_rates(
    sizes: tuple[tuple[int, int], ...] = ((84, 84), (720, 1280)), frames: int = 30
) -> dict[tuple[str, int, int], float]:
    """Frames per second of CPU time rendering each scene at each (height, width), turning."""
    out = {}
    for name, build in SCENES.items():
        st = build()
        for h, w in sizes:
            render(st, h, w)  # build textures, art and text masks first
            t0 = time.process_time()
            for _ in range(frames):
                st.player.yaw_deg = (st.player.yaw_deg + 3.0) % 360.0
                st.clock += 1.0 / 30.0
                render(st, h, w)
            out[(name, h, w)] = frames / max(time.process_time() - t0, 1e-9)
    return out


def save_showcase(out_dir: str | Path, height: int = 720, width: int = 1280) -> list[Path]:
    """Render every scene of :data:`SCENES` to ``out_dir/<name>.png``; returns the paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, build in SCENES.items():
        path = out / f"{name}.png"
        cv2.imwrite(str(path), cv2.cvtColor(render(build(), height, width), cv2.COLOR_RGB2BGR))
        paths.append(path)
    return paths
