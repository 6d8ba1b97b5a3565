"""Rendering: ``render(state, height, width) -> (H, W, 3) uint8 RGB``, a pure function of state.

Every size from 84x84 to 1920x1080 is drawn directly at that size (no downscaling): the ray
caster casts one ray per column, billboards and text are scaled with the frame. Order:
sky/ground/walls (:mod:`scene`), billboards with a depth test (:mod:`sprites`), low walls in
front of them, the player's view model and snow (:mod:`hands`), HUD and minimap, then the
full-screen layers (:mod:`screens`): weapon wheel, shop, mission banners, pause menu.

Textures, sprite art and text masks are built on first use and kept in bounded caches keyed
only by their inputs, so the output depends on the state alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from gcc_envs.games.rdr2.sim import hands, hud, minimap, screens
from gcc_envs.games.rdr2.sim.billboards import prop_boards, tree_cells, world_billboards
from gcc_envs.games.rdr2.sim.pixels import unpack
from gcc_envs.games.rdr2.sim.scene import Camera, SceneMemo, draw_low_walls, draw_scene
from gcc_envs.games.rdr2.sim.sky import sky_colors
from gcc_envs.games.rdr2.sim.sprites import FixedBoards, draw_billboards
from gcc_envs.games.rdr2.sim.state import CELL_M

#: Horizontal field of view (degrees).
FOV_DEG = 70.0
#: Eye height above the ground (metres) on foot and in the saddle.
EYE_FOOT_M = 1.65
EYE_MOUNTED_M = 2.5
#: Fog distance scale (metres) in clear and snowy regions.
FOG_CLEAR_M = 110.0
FOG_SNOW_M = 48.0
MIN_SIZE, MAX_SIZE = 16, 4096


@dataclass
class FrameMemo:
    """What the next frame may take from the last one instead of drawing it again: the scene
    of a view that has not moved and a minimap that shows nothing new (the same pixels; each
    memo's key is everything its part reads). A simulator keeps one per screen."""

    scene: SceneMemo = field(default_factory=SceneMemo)
    minimap: minimap.MinimapMemo = field(default_factory=minimap.MinimapMemo)
    #: The tree cells of the last walls grid (held: compared by identity) at its version and
    #: snow (:func:`tree_cells` hashes the grid's bytes; this skips that while it is the same).
    trees: tuple[Any, ...] | None = None


def camera(state: Any, height: int, width: int) -> Camera:
    """The player's camera for a frame of this size."""
    p = state.player
    eye = EYE_MOUNTED_M if p.mounted else EYE_FOOT_M
    if getattr(p, "jump_left", 0.0) > 0.0:
        eye += 0.4
    if not p.alive:
        eye = 0.4
    return Camera(
        x=p.x / CELL_M,
        y=p.y / CELL_M,
        yaw=math.radians(p.yaw_deg),
        pitch=math.radians(p.pitch_deg),
        eye_m=eye,
        fov=math.radians(FOV_DEG),
        width=width,
        height=height,
        fog_m=FOG_SNOW_M if state.map.snow else FOG_CLEAR_M,
    )


def render_world(state: Any, height: int, width: int, memo: FrameMemo | None = None) -> np.ndarray:
    """The 3D view with billboards and the view model, no HUD (a fresh array). With ``memo``
    the scene of a view that has not moved is copied from the last frame (the same pixels)."""
    canvas = np.empty((height, width), np.uint32)
    cam = camera(state, height, width)
    m = state.map
    z = int(getattr(state.player, "z", 0))
    hour = state.time_of_day()
    if memo is None:
        found = draw_scene(canvas, cam, m.walls, m.ground, m.level, m.roof, z, m.snow, hour)
    else:
        grids = (m.walls, m.ground, m.level, m.roof)
        found = memo.scene.draw(canvas, cam, grids, m.version, z, m.snow, hour)
    p = state.player
    if memo is None:
        cells = tree_cells(m.walls, m.snow)
    else:
        kept = memo.trees
        if kept is None or kept[0] is not m.walls or kept[1] != (m.version, m.snow):
            memo.trees = kept = (m.walls, (m.version, m.snow), tree_cells(m.walls, m.snow))
        cells = kept[2]
    trees = FixedBoards(*cells, p.x / CELL_M, p.y / CELL_M, cam.max_dist)
    props = FixedBoards(*prop_boards(state), 0.0, 0.0, math.inf)
    boards = world_billboards(state, cam.max_dist, trees=False, props=False)
    low_any = bool(np.isfinite(found.low.dist).any())
    # (a depth buffer no billboard writes changes nothing)
    some = bool(boards or trees.boards or props.boards)
    px_depth = np.full((height, width), np.inf, np.float32) if low_any and some else None
    sky = sky_colors(hour, m.snow)
    draw_billboards(canvas, cam, boards, found.depth, sky.fog, px_depth, sky.light, trees, props)
    if low_any:
        draw_low_walls(canvas, cam, found, m.walls, m.level, z, m.snow, hour, px_depth)
    frame = unpack(canvas)
    hands.draw(frame, state, FOV_DEG)
    return frame


def render(state: Any, height: int, width: int, memo: FrameMemo | None = None) -> np.ndarray:
    """The game screen of ``state`` at (height, width): a fresh (H, W, 3) uint8 RGB array
    (``memo``: see :func:`render_world`)."""
    if not (MIN_SIZE <= height <= MAX_SIZE and MIN_SIZE <= width <= MAX_SIZE):
        raise ValueError(
            f"render size must be within {MIN_SIZE}..{MAX_SIZE} pixels, got {height}x{width}"
        )
    frame = render_screen(state, height, width, memo)
    mix = screens.pause_mix(state)
    if mix > 0.0:
        menu = screens.draw_pause(frame, state)
        if mix >= 1.0:
            return menu
        frame = cv2.addWeighted(frame, 1.0 - mix, menu, mix, 0.0)
    return frame


def render_screen(state: Any, height: int, width: int, memo: FrameMemo | None = None) -> np.ndarray:
    """The game screen without the pause menu (a fresh array); :func:`render` checks the size."""
    frame = render_world(state, height, width, memo)
    ui = state.ui
    if ui.wheel.open:
        screens.draw_wheel(frame, state)
    else:
        box = minimap.draw(frame, state, None if memo is None else memo.minimap)
        hud.draw(frame, state, box)
    if ui.shop.open:
        screens.draw_shop(frame, state)
    screens.draw_overlay(frame, state)
    return frame
