"""Input and arrangement helpers for the Stardew simulator tests (imported by the tests)."""

from __future__ import annotations

from gcc_envs.games.stardew.sim import StardewSim
from gcc_envs.games.stardew.sim.worldgen import place_obstacle


def tap(sim: StardewSim, key: str, after: float = 0.0) -> None:
    """Press and release ``key`` (as pyautogui.press does), then let ``after`` seconds pass."""
    sim.key_down(key)
    sim.advance(1 / 30)
    sim.key_up(key)
    if after:
        sim.advance(after)


def hold(sim: StardewSim, key: str | tuple[str, ...], seconds: float) -> None:
    keys = (key,) if isinstance(key, str) else key
    for k in keys:
        sim.key_down(k)
    sim.advance(seconds)
    for k in keys:
        sim.key_up(k)


def click(sim: StardewSim, u: float, v: float, button: str = "left") -> None:
    sim.pointer_move(u, v)
    sim.mouse_down(button)
    sim.mouse_up(button)


def put(sim: StardewSim, location: str, x: int, y: int, facing: str = "down") -> None:
    """Arrange: stand the player on the centre of tile (x, y) of ``location``."""
    s = sim.state
    s.location = location
    s.player.x, s.player.y, s.player.facing = x + 0.5, y + 0.5, facing


def clear_area(sim: StardewSim, location: str, x0: int, y0: int, x1: int, y1: int) -> None:
    """Arrange: remove every obstacle touching the rectangle (inclusive)."""
    loc = sim.state.locations[location]
    doomed = {id(o) for (x, y), o in loc.obstacles.items() if x0 <= x <= x1 and y0 <= y <= y1}
    for xy in [xy for xy, o in loc.obstacles.items() if id(o) in doomed]:
        del loc.obstacles[xy]
    loc.version += 1


def place(sim: StardewSim, kind: str, x: int, y: int, location: str = "farm") -> None:
    """Arrange: put an obstacle of ``kind`` at (x, y)."""
    place_obstacle(sim.state.locations[location], sim.data, kind, x, y)


def bedside(sim: StardewSim) -> tuple[int, int, str]:
    """The wake spot beside the bed of this episode's farmhouse layout, and the way to the bed."""
    s = sim.state
    w = s.map("farmhouse").wake
    assert w is not None
    left = s.tile_at("farmhouse", w.x - 1, w.y).startswith("bed")
    return w.x, w.y, "left" if left else "right"
