"""Live profiles: what the real game's window and controls look like (DESIGN §4 (b)).

A profile is data: the window to find, how to pause, the keys the game uses, how the mouse is
read, the HUD regions. The same profile configures the simulator's env (key set, mouse scale),
so a policy that works on the sim sends the same keys to the real game.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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

    def __post_init__(self) -> None:
        if self.pause not in ("key", "focus", "signal", "none"):
            raise ValueError(f"pause must be key, focus, signal or none, got {self.pause!r}")
        if self.pause == "key" and not self.pause_key:
            raise ValueError("pause='key' needs pause_key")
        if self.mouse not in ("absolute", "camera"):
            raise ValueError(f"mouse must be absolute or camera, got {self.mouse!r}")
