"""The real Cities: Skylines' profile: window, controls, pause method, HUD regions.

Facts from the Cradle appendix: the camera is locked (no zoom, pan or rotation), actions are
mouse clicks on menus and on the map (a 3 × 5 grid of screen regions helps place things), and
the city simulation stays paused while building, so no pause is needed between steps; it is
unpaused once at the end to grow the population. Budget, population, construction
information and error messages are read from the screen.
"""

from __future__ import annotations

from gcc_envs.core.profile import LiveProfile

#: ``esc`` cancels a tool, ``space`` toggles the simulation's pause, digits set its speed.
KEYS = ("esc", "space", "1", "2", "3", "delete", "enter")

PROFILE = LiveProfile(
    window_title=r"^Cities: Skylines",
    keys=KEYS,
    pause="none",
    mouse="absolute",
    max_mouse_px=200.0,
    resolution=(1920, 1080),
    hud={
        # The build toolbar (roads, electricity, water & sewage, zoning) along the bottom.
        "toolbar": (0.10, 0.86, 0.80, 0.14),
        # Money and population in the bottom bar.
        "budget": (0.30, 0.95, 0.15, 0.05),
        "population": (0.45, 0.95, 0.12, 0.05),
        # The construction-info panel of the selected tool (e.g. a pump's estimated output).
        "info_panel": (0.0, 0.45, 0.25, 0.40),
        # The map area the agent builds on (the 3 × 5 grid covers it).
        "map": (0.0, 0.05, 1.0, 0.80),
    },
)
