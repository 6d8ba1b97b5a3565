"""Live profiles: what the real game's window and controls look like (DESIGN §4 (b)).

A profile is data: the window to find, how to pause, the keys the game uses, how the mouse is
read, the HUD regions. The same profile configures the simulator's env (key set, mouse scale),
so a policy that works on the sim sends the same keys to the real game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gcc_envs.errors import DataError


@dataclass(frozen=True)
class LiveProfile:
    """The real game's window, controls and pause method."""

    #: Regular expression matched against window titles.
    window_title: str
    #: Keys the game reacts to, in the ``state`` action mode's order.
    keys: tuple[str, ...]
    #: ``"key"`` (press ``pause_key``), ``"focus"`` (focus another window), ``"signal"``, ``"none"``.
    pause: str = "focus"
    pause_key: str | None = None
    #: ``"absolute"`` (a pointer clicks on the screen) or ``"camera"`` (the mouse turns the view).
    mouse: str = "absolute"
    #: Pixels of mouse motion for a full-scale relative move in the ``state`` action mode.
    max_mouse_px: float = 100.0
    #: Resolution the profile's pixel figures were measured at, (W, H).
    resolution: tuple[int, int] = (1280, 720)
    #: Named screen regions as (x, y, w, h) fractions of the window.
    hud: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    #: Camera-mouse games: mouse pixels per degree of view rotation (horizontal, vertical) at
    #: ``resolution`` in the real game (``gcc-gym calibrate`` measures it); the skills that
    #: turn the view are built with it on a real screen.
    pixels_per_degree: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if self.pause not in ("key", "focus", "signal", "none"):
            raise DataError(f"pause must be key, focus, signal or none, got {self.pause!r}")
        if self.pause == "key" and not self.pause_key:
            raise DataError("pause='key' needs pause_key")
        if self.mouse not in ("absolute", "camera"):
            raise DataError(f"mouse must be absolute or camera, got {self.mouse!r}")
        ppd = self.pixels_per_degree
        if ppd is not None and not (len(ppd) == 2 and all(v > 0 for v in ppd)):
            raise DataError(f"pixels_per_degree must be two positive numbers, got {ppd!r}")
