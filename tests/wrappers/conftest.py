"""What the wrapper suites need to know about each game: a skill call that walks the player."""

from __future__ import annotations

from dataclasses import dataclass

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401  (registers the ids)


@dataclass(frozen=True)
class Walk:
    """Skill code that moves the player, the input events it sends, and its game time."""

    code: str
    events: list[tuple[str, str]]
    seconds: float
    #: Other code that moves the player (alternated with ``code`` to keep the screen changing).
    other: str


#: Stardew agents may run two skill calls per step, RDR2 agents one (the paper's settings).
WALKS = {
    "stardew": Walk(
        "move_down(duration=0.5)\nmove_up(duration=0.5)",
        [("KeyPress", "s"), ("KeyPress", "w")],
        1.0,
        "move_right(duration=0.5)",
    ),
    "rdr2": Walk("move_forward(duration=1.0)", [("KeyPress", "w")], 1.0, "turn(degree=90)"),
    # temporary until the seam reads GameSpec.walk: a menu opens (events without a key: "")
    "skylines": Walk(
        "open_roads_menu()", [("Wait", ""), ("Click", ""), ("Wait", "")], 0.25, "open_zoning_menu()"
    ),
}


@pytest.fixture
def walk():
    """``walk(env_id)`` gives that env's :class:`Walk`."""

    def of(env_id: str) -> Walk:
        return WALKS[gym.spec(env_id).kwargs["game"]]

    return of
