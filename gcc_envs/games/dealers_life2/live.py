"""The real Dealer's Life 2's profile: window, controls, pause method, HUD regions.

Facts from the Cradle appendix: a first-person pawn-shop game played with point-and-click
mouse input and the keyboard for prices; a price is typed as an integer into a box at the
bottom right of the haggle screen. The game is turn based: nothing happens while it waits for
the player, so no pause is needed between steps.
"""

from __future__ import annotations

from gcc_envs.core.profile import LiveProfile

#: Digits and editing keys for the price box, plus enter/esc for dialogs.
KEYS = (
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "backspace",
    "enter",
    "esc",
)

PROFILE = LiveProfile(
    window_title=r"^Dealer'?s Life 2",
    keys=KEYS,
    pause="none",
    mouse="absolute",
    max_mouse_px=200.0,
    resolution=(1920, 1080),
    hud={
        # The haggle screen's price box, bottom right.
        "price_box": (0.74, 0.80, 0.22, 0.10),
        # The customer's speech and the dialog options under it.
        "dialog": (0.25, 0.62, 0.50, 0.30),
        # The item description card.
        "item_card": (0.05, 0.15, 0.30, 0.55),
        # Money and day at the top.
        "status": (0.0, 0.0, 1.0, 0.08),
    },
)
