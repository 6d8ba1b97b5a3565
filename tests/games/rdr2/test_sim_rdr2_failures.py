"""The RDR2 missions' failure scenarios, each reached by changing the state and advancing.

Mission 1 has six (after the paper): assaulting, killing or abandoning Dutch or Micah; letting
them be killed; abandoning the homestead; harming or abandoning your horse; the same for the
barn horse; dying. Mission 2 adds Javier and John.
"""

from __future__ import annotations

from rdr2_helpers import face, make, press

from gcc_envs.games.rdr2.sim import RDR2Sim
from gcc_envs.games.rdr2.sim.state import CELL_M
from gcc_envs.games.rdr2.sim.world import hurt_npc, hurt_player


def _fails(sim: RDR2Sim, expected: str) -> None:
    sim.advance(0.1)
    s = sim.state
    assert s.mission.failure == expected
    assert s.ui.overlay.kind == "mission_failed" and expected in s.ui.overlay.text


def test_punching_dutch_fails_as_assault() -> None:
    sim = make("mission1", "go_to_barn")
    s = sim.state
    dutch = s.npcs["dutch"]
    s.player.x, s.player.y = dutch.x + 1.0, dutch.y
    face(sim, dutch.x, dutch.y)
    press(sim, "f")
    assert s.mission.failure == "assaulted Dutch"


def test_leaving_micah_behind_fails_as_abandonment() -> None:
    sim = make("mission1", "follow_dutch")
    s = sim.state
    s.player.x = s.npcs["micah"].x + 65.0
    s.npcs["dutch"].x = s.player.x  # Dutch kept up; Micah is left far behind
    _fails(sim, "abandoned Micah")


def test_letting_dutch_die_fails() -> None:
    sim = make("mission1", "protect_dutch")
    hurt_npc(sim.state, sim.state.npcs["dutch"], 1000.0, "enemy")
    _fails(sim, "Dutch was killed")


def test_leaving_the_homestead_fails() -> None:
    sim = make("mission1", "search_house")
    sim.state.player.x, sim.state.player.y = 20.0 * CELL_M, 16.0 * CELL_M
    _fails(sim, "abandoned the homestead")


def test_shooting_your_own_horse_fails() -> None:
    sim = make("mission1", "go_to_barn")
    s = sim.state
    horse = s.horses["arthur_horse"]
    s.player.x, s.player.y = horse.x, horse.y + 6.0
    face(sim, horse.x, horse.y)
    s.player.weapon = "revolver"
    s.player.aiming = True
    sim.mouse_down("left")
    sim.mouse_up("left")
    _fails(sim, "assaulted your horse")


def test_walking_home_without_your_horse_fails() -> None:
    sim = make("mission1", "return_to_camp")
    s = sim.state
    s.player.x -= 50.0
    _fails(sim, "abandoned your horse")


def test_punching_the_barn_horse_fails() -> None:
    sim = make("mission1", "lead_horse")
    s = sim.state
    horse = s.horses["barn_horse"]
    s.player.x, s.player.y = horse.x, horse.y + 1.2
    face(sim, horse.x, horse.y)
    press(sim, "f")
    assert s.mission.failure == "assaulted the barn horse"


def test_leaving_the_led_barn_horse_fails() -> None:
    sim = make("mission1", "follow_micah")
    s = sim.state
    s.player.x, s.player.y = 52.0 * CELL_M, 16.0 * CELL_M  # with Micah
    s.horses["barn_horse"].x = 64.0 * CELL_M  # left at the east edge
    s.player.leading = None
    _fails(sim, "abandoned the barn horse")


def test_dying_fails_and_enter_restarts_the_checkpoint() -> None:
    sim = make("mission1", "protect_dutch")
    s = sim.state
    hurt_player(s, 500.0)
    _fails(sim, "you died")
    press(sim, "w")
    assert sim.state.mission.failure == "you died"
    press(sim, "enter")
    s2 = sim.state
    assert s2.mission.failure is None and s2.player.alive and s2.player.health == 100
    assert s2.mission.current == "protect_dutch"


def test_leaving_javier_on_the_mountain_fails() -> None:
    sim = make("mission2", "search_for_john")
    s = sim.state
    s.player.x, s.player.y = 2.0 * CELL_M, 33.0 * CELL_M  # back at the far end of camp
    _fails(sim, "abandoned Javier")


def test_shooting_john_fails() -> None:
    sim = make("mission2", "carry_john")
    hurt_npc(sim.state, sim.state.npcs["john"], 1.0, "arthur")
    _fails(sim, "assaulted John")
