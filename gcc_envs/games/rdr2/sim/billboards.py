"""Which billboards a world state shows: NPCs, horses (with their riders), wolves and props."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from gcc_envs.games.rdr2.sim import sprite_art as art
from gcc_envs.games.rdr2.sim.sprites import Billboard, FixedBoards
from gcc_envs.games.rdr2.sim.state import BLOCKS, CELL_M

#: Prop kinds never drawn as billboards (doors are wall blocks while closed).
HIDDEN_PROPS = frozenset({"door"})


@lru_cache(maxsize=1024)  # props and idle actors stand still: the same board every frame
def _board(
    x_m: float, y_m: float, kind: str, key: art.ArtKey, yaw_deg: float | None = None
) -> Billboard:
    w, h = art.size_m(kind)
    return Billboard(x_m / CELL_M, y_m / CELL_M, w, h, key, yaw_deg)


def _npc(npc: Any) -> Billboard | None:
    state = getattr(npc, "state", "idle")
    if getattr(npc, "mounted", None) or state == "carried":
        return None  # drawn on its horse, or on the player's shoulder
    if npc.kind == "wolf":
        pose = ("wolf", not npc.alive, npc.alive and state == "growl")
        return _board(npc.x, npc.y, "wolf", pose, npc.yaw_deg)
    if npc.kind == "horse_barn":
        return _board(npc.x, npc.y, "horse", ("horse", "barn", None), npc.yaw_deg)
    if not npc.alive or state == "downed":
        return _board(npc.x, npc.y, "lying", ("person", npc.kind, True))
    if state == "aim":
        return _board(npc.x, npc.y, "kneeling", ("kneeling", npc.kind))
    return _board(npc.x, npc.y, "person", ("person", npc.kind, False))


def _rider_kind(state: Any, rider: str | None) -> str | None:
    if rider is None:
        return None
    npc = state.npcs.get(rider)
    return npc.kind if npc is not None else rider


def tree_billboards(
    walls: np.ndarray, x: float, y: float, max_cells: float, snow: bool
) -> list[Billboard]:
    """A fir billboard on every tree cell within ``max_cells`` of cell position (x, y)."""
    trees = FixedBoards(*tree_cells(walls, snow), x, y, max_cells)
    if not trees.boards:
        return []
    return [trees.boards[i] for i in trees.near().tolist()]


#: The fields of a :class:`FixedBoards` that do not move: centres (cells), widths and heights
#: (metres) and the boards themselves.
Cells = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[Billboard, ...]]


def tree_cells(walls: np.ndarray, snow: bool) -> Cells:
    """Every tree cell's centre (cells), width and height (metres; read-only arrays) and its
    billboard, in row order (the fields of a :class:`FixedBoards` that do not move)."""
    w = np.ascontiguousarray(walls)
    return _trees(w.tobytes(), w.dtype.str, w.shape, bool(snow))


@lru_cache(maxsize=8)
def _trees(walls_b: bytes, walls_t: str, shape: tuple[int, ...], snow: bool) -> Cells:
    """:func:`tree_cells`, cached by the grid's content."""
    rows, cols = np.nonzero(np.frombuffer(walls_b, walls_t).reshape(shape) == BLOCKS["tree"])
    w, h = art.size_m("pine")
    key = ("pine", snow)
    boards = tuple(
        Billboard(c + 0.5, r + 0.5, w, h, key)
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True)
    )
    return _cells(boards)


def _cells(boards: tuple[Billboard, ...]) -> Cells:
    """``boards`` with their centres, widths and heights as read-only float64 arrays."""
    cx, cy, wm, hm = (
        np.array([b[i] for b in boards], np.float64).reshape(len(boards)) for i in range(4)
    )
    for a in (cx, cy, wm, hm):
        a.flags.writeable = False
    return cx, cy, wm, hm, boards


def prop_boards(state: Any) -> Cells:
    """The props' billboards (those :func:`world_billboards` draws, in its order) as the
    fields of a :class:`FixedBoards`, cached by where each prop stands and whether it has been
    opened or searched (all that its board shows)."""
    return _props(tuple([(p.x, p.y, p.kind, p.open or p.looted) for p in state.props.values()]))


@lru_cache(maxsize=64)
def _props(key: tuple[tuple[float, float, str, bool], ...]) -> Cells:
    sizes = art.SIZES
    return _cells(
        tuple(
            _board(x, y, kind, ("prop", kind, used))
            for x, y, kind, used in key
            if kind not in HIDDEN_PROPS and kind in sizes
        )
    )


def world_billboards(
    state: Any, max_cells: float = 120.0, trees: bool = True, props: bool = True
) -> list[Billboard]:
    """Every billboard of ``state`` (unsorted; trees first, props last); the player's own mount
    is not one. ``trees=False`` and ``props=False`` leave those out (the renderer places them
    from :func:`tree_cells` and :func:`prop_boards`)."""
    p = state.player
    out = []
    if trees:
        out = tree_billboards(
            state.map.walls, p.x / CELL_M, p.y / CELL_M, max_cells, state.map.snow
        )
    for npc in state.npcs.values():
        bb = _npc(npc)
        if bb is not None:
            out.append(bb)
    for horse in state.horses.values():
        rider = getattr(horse, "rider", None)
        if rider == "arthur" or state.player.mounted == horse.id:
            continue
        if not horse.alive:
            continue
        owner = getattr(horse, "owner", "player")
        kind = "rider" if rider else "horse"
        out.append(
            _board(
                horse.x, horse.y, kind, ("horse", owner, _rider_kind(state, rider)), horse.yaw_deg
            )
        )
    if props:
        out += prop_boards(state)[4]
    return out
