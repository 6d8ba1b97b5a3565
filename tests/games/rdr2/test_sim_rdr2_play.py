"""Playing the RDR2 missions through with input only: every checkpoint can be passed."""

from __future__ import annotations

import pytest
from rdr2_helpers import make, press

from gcc_envs.games.rdr2.live import SIM_PIXELS_PER_DEGREE
from gcc_envs.games.rdr2.sim import RDR2Sim, combat
from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.state import CELL_M, WEAPONS


def face(sim: RDR2Sim, x: float, y: float) -> None:
    p = sim.state.player
    turn = geo.angle_diff(geo.heading(x - p.x, y - p.y), p.yaw_deg)
    sim.pointer_move_by(turn * SIM_PIXELS_PER_DEGREE[0] / 1280.0, 0.0)


def walk_to(
    sim: RDR2Sim, x: float, y: float, tol: float = 0.8, run: bool = True, limit_s: float = 60.0
) -> None:
    """Steer towards (x, y) metres with ``w`` (and ``shift``) held until within ``tol``."""
    s = sim.state
    sim.key_down("w")
    if run:
        sim.key_down("shift")
    t = 0.0
    while geo.dist(s.player.x, s.player.y, x, y) > tol and t < limit_s:
        face(sim, x, y)
        sim.advance(0.1)
        t += 0.1
        if s.mission.failure or s.mission.passed:
            break
    sim.key_up("w")
    sim.key_up("shift")
    assert t < limit_s, f"stuck at {(s.player.x, s.player.y)} going to {(x, y)}"


def cells(x: float, y: float) -> tuple[float, float]:
    return x * CELL_M, y * CELL_M


def wait_until(sim: RDR2Sim, cond, limit_s: float = 30.0) -> None:
    t = 0.0
    while not cond() and t < limit_s:
        sim.advance(0.1)
        t += 0.1
    assert cond(), "condition never held"


def equip(sim: RDR2Sim, weapon: str) -> None:
    """Hold tab, point at the weapon's sector, release."""
    import math

    i = WEAPONS.index(weapon)
    ang = math.radians(270.0 + 60.0 * i)
    sim.key_down("tab")
    sim.pointer_move(0.5 + math.cos(ang) * 150 / 1280, 0.5 + math.sin(ang) * 150 / 720)
    sim.advance(0.1)
    sim.key_up("tab")


def aim(sim: RDR2Sim, n) -> None:
    s = sim.state
    yaw, pitch = combat.aim_angles(s, n.x, n.y, combat.body_height(n))
    ppd = SIM_PIXELS_PER_DEGREE
    du = geo.angle_diff(yaw, s.player.yaw_deg) * ppd[0] / 1280.0
    sim.pointer_move_by(du, -(pitch - s.player.pitch_deg) * ppd[1] / 720.0)


def shoot_at(sim: RDR2Sim, name: str) -> None:
    s = sim.state
    n = s.npcs[name]
    yaw, pitch = combat.aim_angles(s, n.x, n.y, combat.body_height(n))
    ppd = SIM_PIXELS_PER_DEGREE
    du = geo.angle_diff(yaw, s.player.yaw_deg) * ppd[0] / 1280.0
    sim.pointer_move_by(du, -(pitch - s.player.pitch_deg) * ppd[1] / 720.0)
    sim.mouse_down("right")
    sim.advance(0.05)
    sim.mouse_down("left")
    sim.mouse_up("left")
    sim.advance(0.5)
    sim.mouse_up("right")


def mount(sim: RDR2Sim) -> None:
    """The rides start on foot beside the horse: ``e`` mounts it."""
    assert sim.state.player.mounted is None
    assert [p.text() for p in sim.state.ui.prompts][:1] == ["[E] Mount"]
    press(sim, "e")
    assert sim.state.player.mounted == "arthur_horse"


def open_barn(sim: RDR2Sim) -> None:
    """From in front of the barn: face its door and open it."""
    walk_to(sim, *cells(54.5, 11.0))
    face(sim, *cells(54.5, 9.5))
    press(sim, "e")
    assert sim.state.props["barn_door"].open


def test_follow_dutch_reaches_homestead_and_passes() -> None:
    sim = make("mission1", "follow_dutch")
    s = sim.state
    sim.advance(0.1)
    mount(sim)
    for x, y in [(20.0, 16.5), (38.5, 16.5), (41.5, 13.0)]:
        walk_to(sim, *cells(x, y), tol=1.5)
    wait_until(sim, lambda: s.mission.passed or s.mission.failure is not None)
    assert s.mission.passed and s.mission.failure is None


def test_hitch_prompt_then_e_hitches() -> None:
    sim = make("mission1", "hitch_horse")
    s = sim.state
    walk_to(sim, *cells(42.5, 11.8), tol=0.3, run=False)
    face(sim, *cells(42.5, 11.2))  # the post: its prompt answers a rider facing it
    sim.advance(0.2)
    assert any(p.text() == "[E] Hitch Horse" for p in s.ui.prompts)
    press(sim, "e")
    sim.advance(0.2)
    assert s.horses["arthur_horse"].hitched and s.mission.passed


def test_search_house_by_looting_two_drawers() -> None:
    sim = make("mission1", "search_house")
    s = sim.state
    walk_to(sim, *cells(38.5, 10.6), run=False)
    face(sim, *cells(38.5, 9.5))
    press(sim, "e")  # open the door
    assert s.props["house_door"].open
    walk_to(sim, *cells(38.5, 7.0), run=False)
    for target in ("drawer_front", "cupboard_front"):
        prop = s.props[target]
        walk_to(sim, prop.x, prop.y + 1.4, tol=0.4, run=False)
        face(sim, prop.x, prop.y)
        sim.key_down("r")
        sim.advance(1.7)
        sim.key_up("r")
        assert prop.looted
    sim.advance(0.1)
    assert s.mission.passed


def test_protect_dutch_needs_a_gun_then_shooting_wins() -> None:
    sim = make("mission1", "protect_dutch")
    s = sim.state
    sim.advance(2.0)  # the weapon wheel tutorial appears
    assert s.ui.tutorial is not None and s.ui.tutorial.id == "weapon_wheel"
    equip(sim, "knife")
    assert s.player.weapon == "knife" and s.ui.tutorial.id == "need_gun"
    equip(sim, "revolver")
    assert s.player.weapon == "revolver"
    for _ in range(60):
        alive = [n for n in s.npcs.values() if n.kind == "enemy" and n.alive]
        if not alive or s.mission.passed:
            break
        target = min(alive, key=lambda n: geo.dist(s.player.x, s.player.y, n.x, n.y))
        wait_until(sim, lambda t=target: t.state == "aim" or not t.alive, 10.0)
        shoot_at(sim, target.name)
    sim.advance(0.1)
    assert s.mission.passed, [(n.name, n.health) for n in s.npcs.values()]


def test_barn_then_lead_horse_then_follow_micah() -> None:
    sim = make("mission1", "go_to_barn", single=False)
    s = sim.state
    open_barn(sim)
    walk_to(sim, *cells(54.5, 7.5))
    sim.advance(0.1)
    assert s.mission.current == "lead_horse"
    horse = s.horses["barn_horse"]
    walk_to(sim, horse.x, horse.y + 2.0, run=False)
    face(sim, horse.x, horse.y)
    assert [p.text() for p in s.ui.prompts][:1] == ["[E] Calm Horse"]
    press(sim, "e")
    assert horse.calm
    press(sim, "e")
    assert s.player.leading == "barn_horse"
    walk_to(sim, *cells(54.5, 11.0), run=False)
    walk_to(sim, *cells(56.5, 15.0), run=False)
    wait_until(sim, lambda: s.mission.current == "follow_micah", 10.0)
    assert s.player.leading is None  # the reins are let go: take them again
    barn = s.horses["barn_horse"]
    walk_to(sim, barn.x, barn.y, tol=2.2, run=False)
    sim.advance(0.1)
    assert [p.text() for p in s.ui.prompts][:1] == ["[E] Lead Horse"]
    press(sim, "e")
    assert s.player.leading == "barn_horse"
    micah = s.npcs["micah"]
    for _ in range(200):
        if s.mission.current != "follow_micah":
            break
        walk_to(sim, micah.x, micah.y, tol=4.0, run=False, limit_s=5)
        sim.advance(0.3)
    assert s.mission.current == "return_to_camp", s.mission.failure


def test_return_to_camp_needs_the_horse() -> None:
    sim = make("mission1", "return_to_camp")
    s = sim.state
    horse = s.horses["arthur_horse"]
    walk_to(sim, horse.x, horse.y, tol=1.5, run=False)
    press(sim, "e")
    assert s.player.mounted == "arthur_horse"
    walk_to(sim, *cells(38.5, 16.5))
    walk_to(sim, *cells(10.0, 16.5))
    sim.advance(0.2)
    assert s.mission.passed


@pytest.mark.parametrize("checkpoint", ["search_for_john", "carry_john", "kill_wolves"])
def test_mission2_hard_checkpoints_can_be_passed(checkpoint: str) -> None:
    sim = make("mission2", checkpoint)
    s = sim.state
    if checkpoint == "search_for_john":
        for level, row in enumerate((21.3, 15.3, 9.3)):
            walk_to(sim, *cells(30.5, row), tol=0.3, run=False)
            assert s.player.z == level
            face(sim, *cells(30.5, row - 3))
            press(sim, "space")
            assert s.player.z == level + 1
        john = s.npcs["john"]
        walk_to(sim, john.x + 1.5, john.y + 1.0, run=False)
    elif checkpoint == "carry_john":
        john = s.npcs["john"]
        walk_to(sim, john.x, john.y + 1.2, tol=0.5, run=False)
        press(sim, "e")
        assert s.player.carrying == "john"
        for x, y in [(27.0, 6.0), (30.5, 12.0), (30.5, 24.0)]:
            walk_to(sim, *cells(x, y), run=False)
        horse = s.horses["javier_horse"]
        walk_to(sim, horse.x - 1.5, horse.y, run=False)
        assert [p.text() for p in s.ui.prompts][:1] == ["[E] Put John on Horse"]
        press(sim, "e")
    else:
        for _ in range(12):
            alive = [n for n in s.npcs.values() if n.kind == "wolf" and n.alive]
            if not alive:
                break
            target = min(alive, key=lambda n: geo.dist(s.player.x, s.player.y, n.x, n.y))
            shoot_at(sim, target.name)
    sim.advance(0.2)
    assert s.mission.passed, (s.mission.failure, s.player.z, s.player.x / 2, s.player.y / 2)


def test_mission3_buy_supplies_at_the_store() -> None:
    sim = make("mission3")
    s = sim.state
    for x, y in [(10.0, 17.6), (48.5, 17.6)]:
        walk_to(sim, *cells(x, y))
    face(sim, *cells(48.5, 16.5))
    press(sim, "e")
    assert s.props["store_door"].open
    walk_to(sim, *cells(48.5, 14.4), tol=0.3, run=False)
    sim.advance(0.1)
    assert [p.text() for p in s.ui.prompts][:1] == ["[E] Shop"]
    press(sim, "e")
    assert s.ui.shop.open
    press(sim, "enter")  # the first row: canned beans, $1
    assert s.player.items.get("canned_beans") == 1 and s.player.money == 19.0
    sim.advance(0.1)
    assert s.mission.passed


def _loot(sim: RDR2Sim, prop_id: str) -> None:
    prop = sim.state.props[prop_id]
    walk_to(sim, prop.x, prop.y + 1.4, tol=0.4, run=False)
    face(sim, prop.x, prop.y)
    sim.key_down("r")
    sim.advance(1.7)
    sim.key_up("r")


def _fight(sim: RDR2Sim, kind: str, rounds: int = 60) -> None:
    s = sim.state
    for _ in range(rounds):
        alive = [n for n in s.npcs.values() if n.kind == kind and n.alive]
        if not alive:
            return
        target = min(alive, key=lambda n: geo.dist(s.player.x, s.player.y, n.x, n.y))
        if kind == "enemy":
            wait_until(sim, lambda t=target: t.state == "aim" or not t.alive, 10.0)
        aim(sim, target)
        if combat.crosshair_target(s, combat.AIM_SLACK_DEG) not in (target, None):
            press(sim, "a", 0.3)  # a friend or a horse is in the way: step aside
            continue
        shoot_at(sim, target.name)


def test_mission1_plays_through_from_the_start() -> None:
    sim = make("mission1")
    s = sim.state
    sim.advance(0.1)
    mount(sim)
    for x, y in [(20.0, 16.5), (38.5, 16.5), (41.5, 13.0)]:
        walk_to(sim, *cells(x, y), tol=1.5)
    wait_until(sim, lambda: s.mission.current == "hitch_horse")
    walk_to(sim, *cells(42.5, 11.8), tol=0.3, run=False)
    face(sim, *cells(42.5, 11.2))
    sim.advance(0.2)
    press(sim, "e")
    assert s.mission.current == "search_house"
    walk_to(sim, *cells(38.5, 10.6), run=False)
    face(sim, *cells(38.5, 9.5))
    press(sim, "e")
    walk_to(sim, *cells(38.5, 7.0), run=False)
    _loot(sim, "drawer_front")
    _loot(sim, "cupboard_front")
    sim.advance(0.1)
    assert s.mission.current == "protect_dutch"
    walk_to(sim, *cells(38.5, 7.0), run=False)
    walk_to(sim, *cells(38.5, 11.2), run=False)
    wait_until(sim, lambda: "weapon_wheel" in s.ui.tutorials_seen)
    equip(sim, "revolver")
    _fight(sim, "enemy")
    sim.advance(0.1)
    assert s.mission.current == "go_to_barn", s.mission.failure
    open_barn(sim)
    walk_to(sim, *cells(54.5, 7.5))
    sim.advance(0.1)
    horse = s.horses["barn_horse"]
    walk_to(sim, horse.x, horse.y + 2.0, run=False)
    face(sim, horse.x, horse.y)
    press(sim, "e")
    press(sim, "e")
    walk_to(sim, *cells(54.5, 11.0), run=False)
    walk_to(sim, *cells(56.5, 15.0), run=False)
    wait_until(sim, lambda: s.mission.current == "follow_micah", 10.0)
    assert s.player.leading is None  # the reins are let go: take them again
    barn = s.horses["barn_horse"]
    walk_to(sim, barn.x, barn.y, tol=2.2, run=False)
    sim.advance(0.1)
    assert [p.text() for p in s.ui.prompts][:1] == ["[E] Lead Horse"]
    press(sim, "e")
    assert s.player.leading == "barn_horse"
    micah = s.npcs["micah"]
    for _ in range(200):
        if s.mission.current != "follow_micah":
            break
        walk_to(sim, micah.x, micah.y, tol=4.0, run=False, limit_s=5)
        sim.advance(0.3)
    assert s.mission.current == "return_to_camp", s.mission.failure
    own = s.horses["arthur_horse"]
    walk_to(sim, own.x, own.y + 1.5, tol=1.0, run=False)
    press(sim, "e")
    assert s.player.mounted == "arthur_horse"
    walk_to(sim, *cells(38.5, 16.5))
    walk_to(sim, *cells(10.0, 16.5))
    sim.advance(0.2)
    assert s.mission.passed and s.mission.failure is None
    assert s.ui.overlay.kind == "mission_passed"


def test_mission2_plays_through_from_the_start() -> None:
    sim = make("mission2")
    s = sim.state
    sim.advance(0.1)
    mount(sim)
    for x, y in [(30.5, 31.0), (29.0, 26.0)]:
        walk_to(sim, *cells(x, y), tol=1.0)
    wait_until(sim, lambda: s.mission.current == "search_for_john")
    press(sim, "e")  # dismount
    assert s.player.mounted is None
    for level, row in enumerate((21.3, 15.3, 9.3)):
        walk_to(sim, *cells(30.5, row), tol=0.3, run=False)
        face(sim, *cells(30.5, row - 3))
        sim.advance(0.1)
        press(sim, "space")
        assert s.player.z == level + 1
    john = s.npcs["john"]
    walk_to(sim, john.x, john.y + 1.2, tol=0.5, run=False)
    sim.advance(0.6)
    assert s.mission.current == "carry_john"
    press(sim, "e")
    assert s.player.carrying == "john"
    for x, y in [(27.0, 6.0), (30.5, 12.0), (30.5, 24.0)]:
        walk_to(sim, *cells(x, y), run=False)
    horse = s.horses["javier_horse"]
    walk_to(sim, horse.x - 1.5, horse.y, run=False)
    press(sim, "e")
    sim.advance(0.1)
    assert s.mission.current == "kill_wolves"
    wait_until(sim, lambda: "aim" in s.ui.tutorials_seen)
    _fight(sim, "wolf", rounds=20)
    sim.advance(0.1)
    assert s.mission.current == "return_to_camp", s.mission.failure
    own = s.horses["arthur_horse"]
    walk_to(sim, own.x, own.y + 1.5, tol=1.0, run=False)
    press(sim, "e")
    assert s.player.mounted == "arthur_horse"
    for x, y in [(30.5, 31.0), (10.0, 30.5)]:
        walk_to(sim, *cells(x, y))
    sim.advance(0.2)
    assert s.mission.passed and s.mission.failure is None
    assert s.npcs["john"].state == "on_horse"
