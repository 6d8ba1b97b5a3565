"""The RDR2 simulator's rules: pausing, tutorials, companions, failures, determinism, data."""

from __future__ import annotations

import math
import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest
from rdr2_helpers import face, make, press

from gcc_envs.errors import DataError, GCCError
from gcc_envs.games.rdr2.sim import PAUSE_ANIMATION_S, RDR2Sim, interact, wolves
from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.loader import DATA_DIR, load_data
from gcc_envs.games.rdr2.sim.state import CELL_M, DT
from gcc_envs.games.rdr2.sim.world import hurt_npc

# ---- pausing


def past_their_growl(sim) -> None:
    """Every wolf done growling (the unvaried ones circle 0 s): each runs at the player now."""
    for n in sim.state.npcs.values():
        if n.kind == "wolf":
            n.stalk_left = -wolves.GROWL_S


def test_pausing_runs_the_world_for_the_animation_only() -> None:
    sim = make("mission2", "kill_wolves")
    s = sim.state
    wolf = s.npcs["wolf_2"]
    past_their_growl(sim)
    sim.advance(0.2)
    assert wolf.state == "run"
    x0, y0, clock0 = wolf.x, wolf.y, s.clock
    sim.set_paused(True)
    moved = geo.dist(x0, y0, wolf.x, wolf.y)
    assert s.ui.pause.phase == "paused"
    assert math.isclose(s.clock - clock0, PAUSE_ANIMATION_S, abs_tol=DT / 2)
    assert math.isclose(moved, wolf.speed * PAUSE_ANIMATION_S, rel_tol=0.02)
    x1, y1 = wolf.x, wolf.y
    sim.advance(5.0)
    assert (wolf.x, wolf.y) == (x1, y1) and s.clock - clock0 < PAUSE_ANIMATION_S + DT


def test_player_cannot_act_while_resuming_but_the_world_moves() -> None:
    sim = make("mission2", "kill_wolves")
    s = sim.state
    past_their_growl(sim)
    sim.set_paused(True)
    sim.set_paused(False)
    assert s.ui.pause.phase == "resuming"
    wolf = s.npcs["wolf_2"]
    px, py, wx = s.player.x, s.player.y, wolf.x
    sim.key_down("w")
    sim.advance(PAUSE_ANIMATION_S - DT / 2)
    assert (s.player.x, s.player.y) == (px, py) and wolf.x != wx
    sim.advance(0.5)
    sim.key_up("w")
    assert s.ui.pause.phase == "running" and (s.player.x, s.player.y) != (px, py)


def test_esc_opens_the_pause_menu_and_clicking_resume_closes_it() -> None:
    sim = make("mission1", "go_to_barn")
    s = sim.state
    press(sim, "esc", dt=1.0)
    assert s.ui.pause.phase == "paused"
    clock = s.clock
    sim.advance(3.0)
    assert s.clock == clock
    sim.pointer_move(0.1, 0.32)  # the first entry, "Resume"
    assert s.ui.pause.hovered == 0
    sim.mouse_down("left")
    sim.mouse_up("left")
    sim.advance(1.0)
    assert s.ui.pause.phase == "running" and s.clock > clock


# ---- tutorials unlock controls


def test_weapon_wheel_works_only_after_its_tutorial() -> None:
    sim = make("mission1", "protect_dutch")
    s = sim.state
    sim.key_down("tab")
    assert not s.ui.wheel.open
    sim.key_up("tab")
    sim.advance(2.0)
    assert s.ui.tutorial is not None and s.ui.tutorial.text.startswith("Hold [TAB]")
    sim.key_down("tab")
    assert s.ui.wheel.open
    sim.pointer_move_by(0.0, -0.3)  # up: the revolver's sector
    sim.key_up("tab")
    assert not s.ui.wheel.open and s.player.weapon == "revolver"


def test_choosing_the_knife_in_the_gunfight_brings_the_tutorial_back() -> None:
    sim = make("mission1", "protect_dutch")
    s = sim.state
    sim.advance(2.0)
    sim.key_down("tab")
    sim.pointer_move_by(0.08, 0.2)  # down-right: the knife
    sim.key_up("tab")
    assert s.player.weapon == "knife"
    assert s.ui.tutorial is not None and s.ui.tutorial.id == "need_gun"


def test_climbing_works_only_after_its_tutorial() -> None:
    sim = make("mission2", "search_for_john")
    s = sim.state
    p = s.player
    p.x, p.y, p.yaw_deg = 30.5 * CELL_M, 21.3 * CELL_M, 270.0
    sim.key_down("space")
    sim.key_up("space")
    assert p.z == 0 and "climb" not in s.ui.tutorials_seen
    sim.advance(0.6)
    assert s.ui.tutorial is not None and s.ui.tutorial.id == "climb"
    press(sim, "space")
    assert p.z == 1 and p.y < 21 * CELL_M


def test_loot_needs_r_held_for_the_whole_time() -> None:
    sim = make("mission1", "search_house")
    s = sim.state
    drawer = s.props["drawer_front"]
    s.player.x, s.player.y = drawer.x, drawer.y + 1.3
    face(sim, drawer.x, drawer.y)
    sim.advance(0.1)  # entering the house shows the loot tutorial
    assert "loot" in s.ui.tutorials_seen
    sim.key_down("r")
    sim.advance(1.0)
    assert s.ui.loot_progress is not None and 0.6 < s.ui.loot_progress < 0.7
    sim.key_up("r")
    sim.advance(0.1)
    assert not drawer.looted and s.ui.loot_progress is None
    press(sim, "r", dt=1.6)
    assert drawer.looted and s.player.items == {"canned_food": 1}


# ---- companions and enemies


def test_companion_waits_for_a_lagging_player_and_moves_on_when_close() -> None:
    sim = make("mission1")
    s = sim.state
    dutch = s.npcs["dutch"]
    sim.advance(10.0)  # the player stays at camp
    assert dutch.state == "wait"
    gap = geo.dist(dutch.x, dutch.y, s.player.x, s.player.y)
    assert 15.0 < gap < 16.0
    s.player.x = dutch.x - 3.0
    x = dutch.x
    sim.advance(0.5)
    assert dutch.state == "ride" and dutch.x > x


def test_enemies_hide_behind_cover_then_shoot_at_the_player() -> None:
    sim = make("mission1", "protect_dutch")
    s = sim.state
    sim.advance(20.0)
    enemy = s.npcs["odriscoll_1"]
    assert enemy.state in ("run", "cover", "shoot", "aim", "lever")
    assert s.player.last_hurt > 0 or any(n.health < n.max_health for n in s.npcs.values())


def test_a_circling_wolf_weaves_turning_back_at_random() -> None:
    sim = make("mission2", "kill_wolves")
    wolf = next(n for n in sim.state.npcs.values() if n.kind == "wolf")
    wolf.stalk_left = 1000.0  # circling all along
    ways = []
    for _ in range(int(30.0 / DT)):
        sim.advance(DT)
        ways.append(wolf.orbit)
    turns = sum(a != b for a, b in zip(ways, ways[1:]))
    assert wolf.state == "stalk" and set(ways) == {-1, 1}
    assert 30.0 / wolves.WEAVE_S / 2 < turns < 30.0 / wolves.WEAVE_S * 2  # about once a second


def test_wolves_bite_and_health_regenerates() -> None:
    sim = make("mission2", "kill_wolves")
    s = sim.state
    past_their_growl(sim)
    sim.advance(2.0)
    assert 0 < s.player.health < 100
    for n in list(s.npcs.values()):
        if n.kind == "wolf":
            hurt_npc(s, n, 100, "arthur")
    low = s.player.health
    sim.advance(8.0)
    assert s.player.health > low


# ---- checkpoints, determinism, data


def test_passing_a_checkpoint_enters_the_next_one() -> None:
    sim = RDR2Sim()
    sim.reset(
        np.random.default_rng(0),
        {"mission": "mission1", "checkpoint": "hitch_horse", "single": False},
    )
    s = sim.state
    post = s.props["hitch_post"]
    s.player.x, s.player.y, s.player.yaw_deg = post.x, post.y + 1.2, 270.0  # facing it
    sim.advance(0.2)
    assert s.ui.prompts and s.ui.prompts[0].text() == "[E] Hitch Horse"
    press(sim, "e")
    assert s.mission.current == "search_house" and not s.mission.passed
    assert s.ui.objective == "Search the house for supplies. (0/2)" and s.route is not None


@pytest.mark.parametrize(
    ("off_m", "look_deg", "hitches"),
    [
        (1.4, 0, True),
        (1.4, 40, True),
        (1.4, 55, False),
        (1.4, 180, False),
        (0.7, 180, True),
        (1.7, 0, False),
    ],
)
def test_the_hitching_post_answers_a_rider_facing_it_or_right_beside_it(
    off_m: float, look_deg: float, hitches: bool
) -> None:
    sim = RDR2Sim()
    sim.reset(np.random.default_rng(3), {"mission": "mission1", "checkpoint": "hitch_horse"})
    s = sim.state
    post = s.props["hitch_post"]
    s.ui.tutorials_seen.add("hitch")
    assert s.player.mounted
    s.player.x, s.player.y = post.x, post.y + off_m  # the post lies at 270 degrees from here
    s.player.yaw_deg = (270.0 + look_deg) % 360.0
    labels = [a.label for a in interact.available(s)]
    assert ("Hitch Horse" in labels) is hitches
    assert "Dismount" in labels


def test_following_micah_passes_only_with_the_barn_horse_led_there() -> None:
    """Micah asks for the horse by the reins: at his walk's end without it, nothing passes."""
    sim = make("mission1", "follow_micah")
    s = sim.state
    micah, horse = s.npcs["micah"], s.horses["barn_horse"]
    micah.x, micah.y = micah.path[-1]
    micah.path_index = len(micah.path)
    s.player.x, s.player.y = micah.x + 2.0, micah.y
    horse.x, horse.y = micah.x + 3.0, micah.y
    sim.advance(0.2)
    assert not s.mission.passed and s.mission.failure is None
    s.player.leading = horse.id
    sim.advance(0.2)
    assert s.mission.passed


def test_mission3_has_no_route_line() -> None:
    assert make("mission3").state.route is None


def test_same_seed_same_input_gives_the_same_frames() -> None:
    frames = []
    for _ in range(2):
        sim = make("mission1", "protect_dutch", seed=7)
        sim.advance(2.0)
        sim.key_down("1")
        sim.key_up("1")
        sim.key_down("w")
        for _ in range(10):
            sim.pointer_move_by(0.01, 0.0)
            sim.mouse_down("left")
            sim.mouse_up("left")
            sim.advance(0.5)
        frames.append(sim.render(72, 128))
        frames.append(np.array([n.health for n in sim.state.npcs.values()]))
    assert np.array_equal(frames[0], frames[2]) and np.array_equal(frames[1], frames[3])


def test_sim_pickles_mid_episode() -> None:
    sim = make("mission2", "kill_wolves")
    sim.advance(1.0)
    copy = pickle.loads(pickle.dumps(sim))
    sim.advance(1.0)
    copy.advance(1.0)
    assert copy.state.player.health == sim.state.player.health
    assert np.array_equal(copy.render(48, 64), sim.render(48, 64))


@pytest.mark.parametrize(
    "options, message",
    [
        ({"mission": "mission9"}, "unknown RDR2 mission"),
        ({"mission": "mission1", "checkpoint": "kill_wolves"}, "no checkpoint"),
        ({"colour": "red"}, "unknown RDR2Sim reset options"),
    ],
)
def test_bad_reset_options_raise(options: dict, message: str) -> None:
    with pytest.raises(GCCError, match=message):
        RDR2Sim().reset(np.random.default_rng(0), options)


def test_broken_data_file_names_file_and_entry(tmp_path: Path) -> None:
    broken = tmp_path / "data"
    shutil.copytree(DATA_DIR, broken)
    text = (broken / "mission2.toml").read_text()
    (broken / "mission2.toml").write_text(text.replace('kind = "wolf"', 'kind = "bear"', 1))
    with pytest.raises(DataError, match=r"mission2.toml: npcs #3 \('wolf_1'\): kind 'bear'"):
        load_data(broken)


def test_advance_rejects_negative_time() -> None:
    with pytest.raises(GCCError):
        make("mission3").advance(-1.0)


def test_shop_refuses_what_the_player_cannot_afford() -> None:
    sim = make("mission3")
    s = sim.state
    s.player.money = 0.5
    s.ui.shop.open = True
    s.ui.shop.hovered = 0
    press(sim, "enter")
    assert s.player.items == {} and s.player.money == 0.5
    assert s.ui.subtitle.startswith("Clerk:")
    sim.pointer_move(0.7, 0.20 + 0.07 * 2 + 0.03)  # the third row: biscuits, $0.60
    assert s.ui.shop.hovered == 2
    press(sim, "esc")
    assert not s.ui.shop.open and s.ui.pause.phase == "running"


def test_pointer_is_a_cursor_only_in_menus() -> None:
    sim = make("mission3")
    s = sim.state
    yaw = s.player.yaw_deg
    sim.pointer_move(0.9, 0.5)
    assert s.player.yaw_deg == yaw
    sim.pointer_move_by(0.1, 0.0)  # 128 native px at 4 px per degree
    assert (s.player.yaw_deg - yaw) % 360 == pytest.approx(32.0)
    sim.pointer_move_by(0.0, 1.0)  # far down: pitch stops at the limit
    assert s.player.pitch_deg == -60.0


def test_pause_menu_answers_keys() -> None:
    sim = make("mission3")
    s = sim.state
    sim.set_paused(True)
    press(sim, "s")
    assert s.ui.pause.hovered == 1
    press(sim, "w")
    press(sim, "enter")
    assert s.ui.pause.phase == "resuming"


def test_a_running_player_cannot_calm_the_barn_horse() -> None:
    sim = make("mission1", "lead_horse")
    s = sim.state
    horse = s.horses["barn_horse"]
    s.player.x, s.player.y = horse.x, horse.y + 2.0
    face(sim, horse.x, horse.y)
    sim.advance(0.1)
    sim.key_down("shift")
    sim.key_down("s")  # running backwards, away from it
    sim.advance(0.1)
    press(sim, "e")
    assert not horse.calm and s.ui.subtitle == "The horse shies away."
    sim.key_up("s")
    sim.key_up("shift")
    s.player.x, s.player.y = horse.x, horse.y + 2.0
    sim.advance(0.1)
    press(sim, "e")
    assert horse.calm


def test_horses_cannot_be_ridden_indoors() -> None:
    sim = make("mission3")
    s = sim.state
    horse = s.horses["arthur_horse"]
    s.player.x, s.player.y = horse.x - 1.5, horse.y
    face(sim, horse.x, horse.y)
    sim.advance(0.1)
    press(sim, "e")
    assert s.player.mounted == "arthur_horse"
    s.player.x, s.player.y = 48.5 * CELL_M, 17.2 * CELL_M
    door = s.props["store_door"]
    s.props["store_door"].open = True
    s.map.walls[door.cell[1], door.cell[0]] = 0
    face(sim, 48.5 * CELL_M, 12.0 * CELL_M)
    sim.key_down("w")
    sim.advance(2.0)
    sim.key_up("w")
    assert s.player.y > 16.0 * CELL_M  # stopped at the door


def test_every_start_and_waypoint_lies_on_open_ground() -> None:
    data = load_data()
    for md in data.missions.values():
        region = data.regions[md.region]

        def open_at(x: float, y: float, region=region) -> bool:
            col, row = int(x // CELL_M), int(y // CELL_M)
            return region.walls[row, col] == 0

        for cp in md.checkpoints:
            assert open_at(*cp.player[:2]), (md.name, cp.name)
            for who, pose in cp.place:
                assert open_at(*pose[:2]), (md.name, cp.name, who)
        for name, pts in md.paths.items():
            assert all(open_at(x, y) for x, y in pts), (md.name, name)
        for npc in md.npcs:
            assert open_at(*npc.at[:2]), (md.name, npc.name)


def test_taking_cover_cuts_the_damage_enemies_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    from gcc_envs.games.rdr2.sim import combat

    # every shot at the player, and cover holding at any range (point blank is tested apart)
    monkeypatch.setattr(combat, "COMPANION_TARGET", 0.0)
    monkeypatch.setattr(combat, "POINT_BLANK_M", 0.0)
    hurt = []
    for cover in (False, True):
        sim = make("mission1", "protect_dutch", seed=3)
        s = sim.state
        crate = s.props["crate_porch"]
        s.player.x, s.player.y = crate.x, crate.y - 1.2  # the crate between us and the yard
        if cover:
            press(sim, "q")
            assert s.player.in_cover
        sim.advance(30.0)
        hurt.append(s.player.max_health - s.player.health + (0 if s.player.alive else 100))
    assert hurt[1] < hurt[0]


def _enemy_gap(s: object) -> float:
    """Mean distance (m) from the living O'Driscolls to Dutch."""
    d = s.npcs["dutch"]
    far = [geo.dist(n.x, n.y, d.x, d.y) for n in s.npcs.values() if n.kind == "enemy" and n.alive]
    return sum(far) / len(far)


def test_enemies_advance_on_dutch_while_the_player_waits() -> None:
    sim = make("mission1", "protect_dutch", seed=5)
    s = sim.state
    sim.advance(1.0)
    start = _enemy_gap(s)
    sim.advance(12.0)  # as an agent thinking through a few steps would
    assert _enemy_gap(s) < start - 8.0


def test_an_odriscoll_kneels_to_aim_fires_and_stands_working_the_lever_before_ducking_back() -> (
    None
):
    from gcc_envs.games.rdr2.sim import combat
    from gcc_envs.games.rdr2.sim.billboards import world_billboards

    sim = make("mission1", "protect_dutch", seed=5)
    s = sim.state
    man = s.npcs["odriscoll_1"]
    seen: list[tuple[str, float, float]] = []  # (state, x, y) each tick, until back in cover
    for _ in range(int(15.0 / DT)):
        sim.advance(DT)
        seen.append((man.state, man.x, man.y))
        if len(seen) > 1 and seen[-2][0] == "lever" and man.state != "lever":
            break
    states = [st for st, _, _ in seen]
    assert "aim" in states and "lever" in states
    first = states.index("aim")
    assert states[first - 1] == "shoot"  # he stepped out, then knelt where he stopped
    aim = [(x, y) for st, x, y in seen if st == "aim"]
    lever = [(x, y) for st, x, y in seen if st == "lever"]
    assert aim[0] == aim[-1] == lever[0] == lever[-1]  # kneels and stands in one spot
    assert len(lever) * DT == pytest.approx(combat.LEVER_S, abs=2 * DT)
    assert states[-1] in ("cover", "run")  # then ducks back, or moves to a new cover
    man.state = "aim"  # kneeling: drawn on one knee, and a lower target
    boards = world_billboards(s, trees=False, props=False)
    assert [b.art[0] for b in boards if (b.x, b.y) == (man.x / CELL_M, man.y / CELL_M)] == [
        "kneeling"
    ]
    assert combat.body_height(man) == combat.KNEEL_M < combat.body_height(s.npcs["dutch"])


def test_a_fork_plays_ahead_alike_each_time_without_touching_the_game_or_foreseeing_its_dice() -> (
    None
):
    sim = make("mission1", "protect_dutch", seed=5)
    sim.advance(3.0)

    def ahead(twin: RDR2Sim, seconds: float) -> list[tuple[str, float, float, float]]:
        twin.advance(seconds)
        s = twin.state
        return [(n.state, n.x, n.y, n.health) for n in s.npcs.values()] + [
            ("player", s.player.x, s.player.y, s.player.health)
        ]

    before = ahead(sim.fork(), 0.0)
    a, b = ahead(sim.fork(), 20.0), ahead(sim.fork(), 20.0)
    assert a == b  # the same game forks alike
    assert ahead(sim.fork(), 0.0) == before  # and forking left the game as it was
    assert ahead(sim, 20.0) != a  # the game's own dice (fire, flanking) fell otherwise


def test_dutch_falls_when_nobody_fights() -> None:
    sim = make("mission1", "protect_dutch", seed=5)
    sim.advance(60.0)
    assert sim.state.mission.failure == "Dutch was killed"


def test_point_blank_shots_come_round_cover(monkeypatch: pytest.MonkeyPatch) -> None:
    from gcc_envs.games.rdr2.sim import combat

    monkeypatch.setattr(combat, "COMPANION_TARGET", 0.0)
    hurt = []
    for blank in (0.0, 50.0):
        monkeypatch.setattr(combat, "POINT_BLANK_M", blank)
        sim = make("mission1", "protect_dutch", seed=3)
        s = sim.state
        crate = s.props["crate_porch"]
        s.player.x, s.player.y = crate.x, crate.y - 1.2
        press(sim, "q")
        sim.advance(12.0)
        hurt.append(s.player.max_health - s.player.health + (0 if s.player.alive else 100))
    assert hurt[1] > hurt[0]


def test_moving_leaves_cover() -> None:
    sim = make("mission1", "protect_dutch")
    s = sim.state
    assert not press(sim, "q") and not s.player.in_cover  # nothing within reach of the porch
    s.player.x, s.player.y = 37.5 * CELL_M, 10.4 * CELL_M  # against the house wall
    press(sim, "q")
    assert s.player.in_cover
    press(sim, "a")
    assert not s.player.in_cover


def test_later_missions_know_the_earlier_tutorials() -> None:
    s1, s2 = make("mission1").state, make("mission2").state
    assert "weapon_wheel" not in s1.ui.tutorials_seen
    assert "weapon_wheel" in s2.ui.tutorials_seen and "climb" not in s2.ui.tutorials_seen
    sim = make("mission2")
    sim.key_down("tab")
    assert sim.state.ui.wheel.open


class _PromptsEveryTick(RDR2Sim):
    """The simulator as it was: key prompts worked out on every tick."""

    def _tick(self) -> None:
        super()._tick()
        self._show_prompts()


@pytest.mark.parametrize(
    ("start", "seed"),
    [
        ({"mission": "mission1", "checkpoint": "hitch_horse"}, 5),
        # a seed whose random play finds the horse (lead_horse starts facing any way)
        ({"mission": "mission1", "checkpoint": "lead_horse"}, 7),
        ({"mission": "mission2", "checkpoint": "search_for_john"}, 5),
        ({"mission": "mission3"}, 5),
    ],
)
def test_prompts_worked_out_once_per_advance_are_those_of_every_tick(start, seed) -> None:
    """Only the HUD reads the prompts, so the last tick's are all an advance needs; through
    random play that walks, pauses, resumes (prompts hide while the resume animation runs)
    and opens the shop, both simulators show the same prompts and frames at every step."""
    sims = [RDR2Sim(), _PromptsEveryTick()]
    for sim in sims:
        sim.reset(np.random.default_rng(seed), start)
    rng = np.random.default_rng(6)
    keys = ("w", "a", "d", "shift", "e", "esc", "r")
    shown = 0
    for _ in range(300):
        held = [k for k in keys if rng.random() < 0.3]
        turn, ticks = float(rng.normal(0, 0.05)), int(rng.integers(1, 9))
        for sim in sims:
            for k in held:
                sim.key_down(k)
            sim.pointer_move_by(turn, 0.0)
            sim.advance(ticks * DT)  # some advances end on the tick a resume finishes
            for k in held:
                sim.key_up(k)
        a, b = (s.state.ui.prompts for s in sims)
        assert a == b
        shown += bool(a)
        np.testing.assert_array_equal(sims[0].render(84, 84), sims[1].render(84, 84))
    assert shown >= 10, f"prompts showed on only {shown} of 300 steps"


def test_prompts_come_back_one_tick_after_a_resume_ends() -> None:
    """The tick that finishes the resume animation still counts as not acting (its prompts
    were decided before the animation moved on); the next tick shows them again."""
    sim = RDR2Sim()
    sim.reset(np.random.default_rng(5), {"mission": "mission1", "checkpoint": "hitch_horse"})
    sim.advance(DT)
    assert sim.state.ui.prompts, "a rider is offered to dismount"
    sim.set_paused(True)
    sim.set_paused(False)
    sim.advance(round(PAUSE_ANIMATION_S / DT) * DT)
    assert sim.state.ui.pause.phase == "running"
    assert sim.state.ui.prompts == []
    sim.advance(DT)
    assert sim.state.ui.prompts
