"""Planning for the scripted RDR2 player: bearings, grid paths with ledges, aim points.

Pure functions of the simulator's map arrays and positions (metres, ``yaw`` 0 = east,
90 = south; a positive relative bearing is a turn to the right). The scripts use them to
decide which skill to call; the skills themselves never see any of this.

>>> round(relative_bearing(0.0, 0.0, 0.0, 0.0, 10.0), 1)  # facing east, target south: right
90.0
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

Cell = tuple[int, int]  # (col, row)
_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def relative_bearing(px: float, py: float, yaw_deg: float, x: float, y: float) -> float:
    """Degrees to turn (positive right) to face (x, y) from (px, py) looking ``yaw_deg``."""
    want = math.degrees(math.atan2(y - py, x - px))
    return (want - yaw_deg + 180.0) % 360.0 - 180.0


def cell_of(x: float, y: float, cell_m: float) -> Cell:
    return int(math.floor(x / cell_m)), int(math.floor(y / cell_m))


def centre_of(cell: Cell, cell_m: float) -> tuple[float, float]:
    return (cell[0] + 0.5) * cell_m, (cell[1] + 0.5) * cell_m


def rect_distance(x: float, y: float, cell: Cell, cell_m: float) -> float:
    """Distance from (x, y) to the nearest point of ``cell``'s square (0 inside it).

    >>> rect_distance(1.0, 1.0, (1, 0), 2.0)
    1.0
    """
    x0, y0 = cell[0] * cell_m, cell[1] * cell_m
    dx = max(x0 - x, 0.0, x - (x0 + cell_m))
    dy = max(y0 - y, 0.0, y - (y0 + cell_m))
    return math.hypot(dx, dy)


def plan(
    walls: np.ndarray,
    level: np.ndarray,
    start: Cell,
    goals: set[Cell],
    blocked: frozenset[Cell] | set[Cell] = frozenset(),
    climb: bool = True,
) -> list[Cell] | None:
    """Shortest 8-connected cell path from ``start`` to any of ``goals`` (both included).

    A step may go down any number of levels, or up one level when ``climb`` (a ledge to climb);
    diagonal steps may not cut a blocked corner. ``blocked`` adds cells to avoid (solid props).
    """
    rows, cols = walls.shape

    def free(c: int, r: int) -> bool:
        return 0 <= c < cols and 0 <= r < rows and walls[r, c] == 0 and (c, r) not in blocked

    prev: dict[Cell, Cell | None] = {start: None}
    todo = deque([start])
    while todo:
        cur = todo.popleft()
        if cur in goals:
            path = [cur]
            while (p := prev[path[-1]]) is not None:
                path.append(p)
            return path[::-1]
        z = int(level[cur[1], cur[0]])
        for dc, dr in _STEPS:
            nxt = (cur[0] + dc, cur[1] + dr)
            if nxt in prev or not free(*nxt):
                continue
            up = int(level[nxt[1], nxt[0]]) - z
            if up > (1 if climb else 0):
                continue
            if dc and dr:  # no corner cutting, and no climbing diagonally
                if up > 0 or not (free(cur[0] + dc, cur[1]) and free(cur[0], cur[1] + dr)):
                    continue
                if int(level[cur[1], cur[0] + dc]) > z or int(level[cur[1] + dr, cur[0]]) > z:
                    continue
            prev[nxt] = cur
            todo.append(nxt)
    return None


def clear_line(
    walls: np.ndarray,
    level: np.ndarray,
    z: int,
    a: tuple[float, float],
    b: tuple[float, float],
    cell_m: float,
    radius: float = 0.45,
    blocked: frozenset[Cell] | set[Cell] = frozenset(),
) -> bool:
    """Whether a body of ``radius`` can walk straight from ``a`` to ``b`` at level ``z`` (it
    may step down, not up): every sample along the segment and to its sides is free (and not
    in a ``blocked`` cell)."""
    rows, cols = walls.shape
    d = math.hypot(b[0] - a[0], b[1] - a[1])
    if d < 1e-6:
        return True
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    n = max(2, int(d / (cell_m * 0.25)) + 1)
    for i in range(n + 1):
        t = d * i / n
        for side in (-radius, 0.0, radius):
            x = a[0] + ux * t - uy * side
            y = a[1] + uy * t + ux * side
            c, r = int(math.floor(x / cell_m)), int(math.floor(y / cell_m))
            if not (0 <= c < cols and 0 <= r < rows) or walls[r, c] != 0 or level[r, c] > z:
                return False
            if (c, r) in blocked:
                return False
    return True


def aim_point(
    rel_yaw_deg: float, rel_pitch_down_deg: float, width: int, height: int, hfov_deg: float
) -> tuple[int, int]:
    """Screen pixel that lies ``rel_yaw`` right and ``rel_pitch_down`` below the crosshair of a
    pinhole camera (the inverse of :func:`gcc_envs.games.rdr2.vision.angle_to_point`).

    >>> aim_point(0.0, 0.0, 1280, 720, 70.0)
    (640, 360)
    """
    f = (width / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    dx = f * math.tan(math.radians(rel_yaw_deg))
    dy = math.tan(math.radians(rel_pitch_down_deg)) * math.hypot(f, dx)
    return int(round(width / 2.0 + dx - 0.5)), int(round(height / 2.0 + dy - 0.5))
