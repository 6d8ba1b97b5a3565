"""The real Stardew Valley's profile: window, controls, pause method, HUD regions.

Facts from the Cradle appendix: the game pauses itself when its window loses focus, so the
``focus`` pause method applies; movement is WASD, ``c`` uses the tool, ``x`` does the action,
number keys select toolbar slots.
"""

from __future__ import annotations

from gcc_envs.core.profile import LiveProfile

KEYS = (
    "w",
    "a",
    "s",
    "d",
    "c",
    "x",
    "e",
    "esc",
    "enter",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "0",
    "-",
    "=",
)

PROFILE = LiveProfile(
    window_title=r"^Stardew Valley",
    keys=KEYS,
    pause="focus",
    mouse="absolute",
    max_mouse_px=160.0,
    resolution=(1280, 720),
    hud={
        "clock": (0.82, 0.0, 0.18, 0.2),
        "energy": (0.94, 0.62, 0.06, 0.38),
        "toolbar": (0.25, 0.88, 0.5, 0.12),
    },
)
