"""The frame-only RDR2 player's eyes for the barn horse and John (its coat in the view, the
barn's doorway), and its wins at lead_horse and carry_john through ``UseSkills`` under the
evaluation's latency."""

from __future__ import annotations

import math

import numpy as np
import pytest
from rdr2_helpers import face, make, play_frame_only

import gcc_envs  # noqa: F401  (registers the ids)
from agents.scripted.rdr2_eyes_horse import HorseErrands, doorway, horse_in_view
from agents.scripted.rdr2_nav import relative_bearing
from gcc_envs.games.rdr2.vision import HudColours

H, W = 180, 320


def test_horse_in_view_finds_the_barn_horse_ahead_and_roughly_how_far() -> None:
    sim = make("mission1", "lead_horse", seed=901, vary=True)
    p, horse = sim.state.player, sim.state.horses["barn_horse"]
    face(sim, horse.x, horse.y)
    p.pitch_deg = 0.0
    seen = horse_in_view(sim.render(H, W))
    assert seen is not None
    yaw, metres = seen
    true_m = math.hypot(horse.x - p.x, horse.y - p.y)
    assert abs(yaw) < 12.0
    assert 0.4 * true_m < metres < 2.5 * true_m
    p.yaw_deg += 180.0  # looking away: no horse
    assert horse_in_view(sim.render(H, W)) is None


def test_doorway_is_the_bright_gap_and_a_wall_has_none() -> None:
    frame = np.zeros((H, W, 3), np.uint8)
    frame[:] = (120, 50, 44)  # barn boards
    assert doorway(frame) is None
    frame[40:140, 220:260] = (230, 232, 236)  # snow through an open door, right of centre
    yaw = doorway(frame)
    assert yaw is not None and 15.0 < yaw < 35.0


def test_john_is_looked_for_behind_along_the_route_line_after_the_tutorial() -> None:
    errands = HorseErrands()
    mm = np.zeros((47, 47, 3), np.uint8)
    first = errands.step("get john onto a horse", mm, [], mm, 30.0, HudColours())
    assert first.startswith("wait(")  # the carry tutorial shows before its prompt
    probe = errands.step("get john onto a horse", mm, [], mm, 30.0, HudColours())
    assert probe.startswith("turn_and_move_forward(degree=-112.0")  # back, a little left
    assert errands.step("get john onto a horse", mm, ["Pick Up John"], mm, 30.0, HudColours()) == (
        "interact()"
    )
    assert errands.step("search the house", mm, [], mm, None, HudColours()) is None


def test_johns_start_lies_behind_the_player_where_the_probe_heads() -> None:
    """The design assumption of the probe: John lies behind, within a few metres."""
    sim = make("mission2", "carry_john", seed=905, vary=True)
    p, john = sim.state.player, sim.state.npcs["john"]
    assert math.hypot(john.x - p.x, john.y - p.y) < 6.0
    assert abs(relative_bearing(p.x, p.y, p.yaw_deg, john.x, john.y)) > 60.0


@pytest.mark.parametrize(
    ("task", "seed"),
    [("mission1:lead_horse", 901), ("mission2:carry_john", 901)],
)
def test_the_frame_only_player_wins_these_checkpoints_on_a_fixed_seed(task: str, seed: int) -> None:
    assert play_frame_only(task, seed, (H, W))
