"""Cities: Skylines' skill library, as the Cradle paper's agent generated it by exploring the toolbar.

Each skill drives the toolbar with real clicks and drags and reads only frames
(:mod:`gcc_envs.games.skylines.vision`): it first looks at the screen (the frame size, which
menu is open, whether a preview shows), opens the right menu only if it is not open, picks the
tool on the panel and previews the placement at the agent's pixel coordinates — without
building. ``confirm_placement()`` clicks where the preview is and ``cancel_placement()``
right-clicks; both refuse (``info["last_action_error"]``) when nothing is previewed.
Coordinates are pixels of the observation; points off the map are refused before anything is
sent. One skill call per step (the paper's setting: the agent must see a preview before it
confirms it).
"""

from __future__ import annotations

from collections.abc import Generator

import numpy as np

from gcc_envs.core.events import TAP_S, Click, DragTo, Event, MouseDown, MouseUp, MoveTo, Wait
from gcc_envs.core.skills import SkillLibrary
from gcc_envs.errors import CodeActionError
from gcc_envs.games.skylines import vision
from gcc_envs.games.skylines.sim import layout
from gcc_envs.games.skylines.sim.data import load_data

ProgramGen = Generator[Event, "np.ndarray | None", None]
#: Seconds a preview's pointer glide and a zone drag take.
GLIDE_S = 0.2
DRAG_S = 0.3


def _look() -> Generator[Event, np.ndarray | None, np.ndarray]:
    frame = yield Wait(0.0)
    if frame is None:  # only a program driven outside an env gets no frames
        raise CodeActionError("Cities: Skylines skills read the screen: run them through env.step")
    return frame


def _on_map(skill: str, frame: np.ndarray, *points: tuple[int, int]) -> None:
    H, W = frame.shape[:2]
    x0, y0, x1, y1 = layout.map_rect_px(W, H)
    for x, y in points:
        if layout.cell_at(x, y, W, H) is None or not (0 <= x < W):
            raise CodeActionError(
                f"{skill}(): ({x}, {y}) is not on the map, which spans x {x0}-{x1 - 1}, "
                f"y {y0}-{y1 - 1} of this {W}x{H} screen"
            )


def _open(frame: np.ndarray, menu: str) -> ProgramGen:
    """Click the toolbar button of ``menu`` unless its panel is open already."""
    if not vision.menu_is_open(frame, menu):
        H, W = frame.shape[:2]
        yield Click(*layout.centre(layout.button_rect(menu), W, H))
        yield Wait(0.05)


def _pick(frame: np.ndarray, tool: str) -> ProgramGen:
    """Open the tool's menu and click its card on the panel."""
    data = load_data()
    menu = data.tools[tool].menu
    yield from _open(frame, menu)
    j = [t.id for t in data.menu_tools(menu)].index(tool)
    H, W = frame.shape[:2]
    yield Click(*layout.centre(layout.item_rect(j), W, H))
    yield Wait(0.05)


def _point(skill: str, tool: str, x: int, y: int) -> ProgramGen:
    frame = yield from _look()
    _on_map(skill, frame, (x, y))
    yield from _pick(frame, tool)
    yield MoveTo(x, y, GLIDE_S)


def _line(skill: str, tool: str, x1: int, y1: int, x2: int, y2: int) -> ProgramGen:
    frame = yield from _look()
    _on_map(skill, frame, (x1, y1), (x2, y2))
    yield from _pick(frame, tool)
    yield Click(x1, y1)
    yield MoveTo(x2, y2, GLIDE_S)


def _area(skill: str, tool: str, x1: int, y1: int, x2: int, y2: int) -> ProgramGen:
    frame = yield from _look()
    _on_map(skill, frame, (x1, y1), (x2, y2))
    yield from _pick(frame, tool)
    yield MoveTo(x1, y1)
    yield DragTo(x2, y2, duration_s=DRAG_S)


def _menu(menu: str) -> ProgramGen:
    frame = yield from _look()
    yield from _open(frame, menu)


# ---------------------------------------------------------------- menus
def open_roads_menu() -> ProgramGen:
    """Open the Roads menu of the bottom toolbar (its panel lists the two-lane road)."""
    return _menu("roads")


def open_electricity_menu() -> ProgramGen:
    """Open the Electricity menu (wind turbine, coal power plant, power line) and its view."""
    return _menu("electricity")


def open_water_sewage_menu() -> ProgramGen:
    """Open the Water & Sewage menu (water pipe, pumping station, drain pipe) and its view."""
    return _menu("water")


def open_zoning_menu() -> ProgramGen:
    """Open the Zoning menu (residential, commercial, industrial, de-zone) and the zone grid."""
    return _menu("zoning")


# ---------------------------------------------------------------- previews
def try_place_two_lane_road(x1: int, y1: int, x2: int, y2: int) -> ProgramGen:
    """Preview a two-lane road from (x1, y1) to (x2, y2); it must connect to a road or ramp."""
    return _line("try_place_two_lane_road", "road", x1, y1, x2, y2)


def try_place_wind_turbine(x: int, y: int) -> ProgramGen:
    """Preview a wind turbine at (x, y); its info shows the production the wind there gives."""
    return _point("try_place_wind_turbine", "wind_turbine", x, y)


def try_place_coal_power_plant(x: int, y: int) -> ProgramGen:
    """Preview a coal power plant at (x, y) (40 MW, expensive, pollutes homes nearby)."""
    return _point("try_place_coal_power_plant", "coal_plant", x, y)


def try_place_power_line(x1: int, y1: int, x2: int, y2: int) -> ProgramGen:
    """Preview a power line from (x1, y1) to (x2, y2) (carries power across gaps)."""
    return _line("try_place_power_line", "power_line", x1, y1, x2, y2)


def try_place_water_pumping_station(x: int, y: int) -> ProgramGen:
    """Preview a water pumping station at (x, y), on the shoreline; shows its production."""
    return _point("try_place_water_pumping_station", "pumping_station", x, y)


def try_place_water_pipe(x1: int, y1: int, x2: int, y2: int) -> ProgramGen:
    """Preview a water pipe from (x1, y1) to (x2, y2) (pipes serve buildings nearby)."""
    return _line("try_place_water_pipe", "water_pipe", x1, y1, x2, y2)


def try_place_water_drain_pipe(x: int, y: int) -> ProgramGen:
    """Preview a water drain pipe at (x, y), on the shoreline (the sewage outlet)."""
    return _point("try_place_water_drain_pipe", "drain_pipe", x, y)


def try_place_residential_zone(x1: int, y1: int, x2: int, y2: int) -> ProgramGen:
    """Preview a residential zone in the rectangle with corners (x1, y1) and (x2, y2)."""
    return _area("try_place_residential_zone", "residential", x1, y1, x2, y2)


def try_place_commercial_zone(x1: int, y1: int, x2: int, y2: int) -> ProgramGen:
    """Preview a commercial zone in the rectangle with corners (x1, y1) and (x2, y2)."""
    return _area("try_place_commercial_zone", "commercial", x1, y1, x2, y2)


def try_place_industrial_zone(x1: int, y1: int, x2: int, y2: int) -> ProgramGen:
    """Preview an industrial zone in the rectangle with corners (x1, y1) and (x2, y2)."""
    return _area("try_place_industrial_zone", "industrial", x1, y1, x2, y2)


def try_de_zone(x1: int, y1: int, x2: int, y2: int) -> ProgramGen:
    """Preview removing the zones in the rectangle with corners (x1, y1) and (x2, y2)."""
    return _area("try_de_zone", "dezone", x1, y1, x2, y2)


# ---------------------------------------------------------------- confirm / cancel
def _press(skill: str, button: str) -> ProgramGen:
    frame = yield from _look()
    if vision.preview_status(frame) == "none":
        raise CodeActionError(
            f"{skill}(): nothing is being previewed (the construction info is empty); "
            "call a try_place_* skill first"
        )
    yield MouseDown(button)
    yield Wait(TAP_S / 2)
    yield MouseUp(button)
    yield Wait(0.1)


def confirm_placement() -> ProgramGen:
    """Build what is previewed (a left click where the preview is); the game may refuse it."""
    return _press("confirm_placement", "left")


def cancel_placement() -> ProgramGen:
    """Drop the preview (a right click); the budget does not change."""
    return _press("cancel_placement", "right")


MENUS = (open_roads_menu, open_electricity_menu, open_water_sewage_menu, open_zoning_menu)
PREVIEWS = (
    try_place_two_lane_road,
    try_place_wind_turbine,
    try_place_water_pumping_station,
    try_place_water_pipe,
    try_place_water_drain_pipe,
    try_place_residential_zone,
    try_place_commercial_zone,
    try_place_industrial_zone,
    try_de_zone,
    try_place_power_line,
    try_place_coal_power_plant,
)
SKILLS = SkillLibrary.from_functions(*MENUS, *PREVIEWS, confirm_placement, cancel_placement)


def skill_grid(W: int = 1280, H: int = 720) -> dict[str, dict[str, tuple[int, ...]]]:
    """A grid of concrete calls for ``wrappers.UseSkillGrid`` on a ``W`` × ``H`` screen.

    Points sit on the inner lines of the 3 × 5 coordinate grid (``wrappers.OverlayGrid``);
    a wind turbine preview comes last, so ``confirm_placement`` and ``cancel_placement`` (in
    this order) always have a preview to act on.
    """
    xs = tuple(W * i // 5 for i in range(1, 5))
    ys = tuple(H * i // 3 for i in range(1, 3))
    pair = {"x1": xs[:2], "y1": ys[:1], "x2": xs[2:], "y2": ys}
    point = {"x": xs, "y": ys}
    return {
        "open_roads_menu": {},
        "open_electricity_menu": {},
        "open_water_sewage_menu": {},
        "open_zoning_menu": {},
        "try_place_two_lane_road": pair,
        "try_place_water_pipe": pair,
        "try_place_power_line": pair,
        "try_place_residential_zone": pair,
        "try_place_commercial_zone": pair,
        "try_place_industrial_zone": pair,
        "try_place_water_pumping_station": point,
        "try_place_water_drain_pipe": point,
        "try_place_wind_turbine": point,
        "confirm_placement": {},
        "cancel_placement": {},
    }


#: The grid at the design size (1280 × 720); the env scales it to its own frame.
SKILL_GRID = skill_grid()


def make_skills(profile: object = None, real: bool = False) -> SkillLibrary:
    """The skill library (the same on the simulator and, once calibrated, the real game)."""
    del profile, real
    return SKILLS
