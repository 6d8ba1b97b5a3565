"""Stardew skills: atomic skills' events, bad arguments, and the frame-only composite skills.

Composite skills are judged by the simulator's state *after* they ran; while they run they get
nothing but frames (checked by driving them with frames alone, and by their source).
"""

from __future__ import annotations

import ast
import inspect

import gymnasium as gym
import numpy as np
import pytest
from stardew_helpers import put

import gcc_envs  # noqa: F401  (registers the ids)
from gcc_envs import Click, KeyPress, Program, Wait
from gcc_envs.backends.sim import SimBackend
from gcc_envs.core.expand import PointerTracker, expand
from gcc_envs.games.stardew import skills, vision
from gcc_envs.games.stardew.sim import StardewSim
from gcc_envs.games.stardew.skills import MAX_MOVES, SKILLS

COMPOSITE = ("go_through_door", "get_out_of_house", "enter_door_and_sleep", "buy_item")


def new_env(task: str = "Shopping", size: tuple[int, int] = (720, 1280), seed: int = 0):
    """The env after reset; Shopping's farmer is put on the path below the farmhouse door."""
    env = gym.make(f"GCC/Stardew-{task}", obs_size=size)
    env.reset(seed=seed)
    if task == "Shopping":
        put(env.unwrapped.backend.sim, "farm", 27, 7, "down")
    return env


def state(env):
    return env.unwrapped.backend.probe()


def presses(info) -> int:
    return sum(e["type"] == "KeyPress" for e in info["events"])


# ---------------------------------------------------------------- atomic skills
@pytest.mark.parametrize(
    ("code", "events"),
    [
        ("move_up(duration=0.7)", [KeyPress("w", 0.7)]),
        ("move_down(duration=1)", [KeyPress("s", 1.0)]),
        ("move_left()", [KeyPress("a", 0.5)]),
        ("move_right(duration=0.25)", [KeyPress("d", 0.25)]),
        ("use_tool()", [KeyPress("c"), Wait(skills.SWING_S)]),
        ("do_action()", [KeyPress("x"), Wait(skills.SWING_S)]),
        ("select_tool(key=3)", [KeyPress("3")]),
        ("select_tool(12)", [KeyPress("=")]),
    ],
)
def test_atomic_skills_produce_the_right_events(code, events):
    env = new_env()
    _, _, _, _, info = env.step(code)
    assert info["last_action_error"] is None
    assert info["events"] and [
        {k: v for k, v in e.items() if k != "t"} for e in info["events"]
    ] == [e.to_dict() for e in events]


def test_the_library_describes_every_skill_in_one_line():
    text = SKILLS.describe()
    for name in ("move_up", "do_action", "use_tool", "select_tool", *COMPOSITE):
        line = next(li for li in text.splitlines() if li.startswith(f"{name}("))
        assert len(line) > len(name) + 10
    assert "buy_item(item: str = 'Parsnip Seeds', count: int = 1)" in text


@pytest.mark.parametrize(
    "code",
    [
        "select_tool(key=13)",
        "select_tool(key=0)",
        "move_up(duration=-1)",
        "buy_item(item='Diamonds')",
        "buy_item(count=0)",
        "go_through_door(where='store')",
    ],
)
def test_bad_arguments_are_reported_not_run(code):
    env = new_env()
    p0 = (state(env).player.x, state(env).player.y)
    _, _, _, _, info = env.step(code)
    assert isinstance(info["last_action_error"], str) and info["last_action_error"]
    assert info["invalid_actions"] == 1
    assert (state(env).player.x, state(env).player.y) == p0


# ---------------------------------------------------------------- composite skills
@pytest.mark.parametrize("size", [(720, 1280), (360, 640)])
def test_go_through_door_enters_the_farmhouse_even_when_standing_in_front_of_it(size):
    env = new_env("Shopping", size)
    put(env.unwrapped.backend.sim, "farm", 27, 7, "down")  # right below the door: it is hidden
    _, _, _, _, info = env.step("go_through_door()")
    assert info["last_action_error"] is None
    assert state(env).location == "farmhouse"
    assert presses(info) <= MAX_MOVES


def test_go_through_door_enters_the_store_and_leaves_by_the_mat():
    env = new_env("Shopping")
    put(env.unwrapped.backend.sim, "town", 17, 10)  # arrange: in town, south-west of Pierre's
    env.step("go_through_door()")
    assert state(env).location == "store"
    env.step("go_through_door()")
    assert state(env).location == "town"
    assert state(env).current_tile[0] == 18  # out through the store door, onto its path


@pytest.mark.parametrize("size", [(720, 1280), (360, 640)])
def test_get_out_of_house_walks_from_the_start_to_the_farm(size):
    env = new_env("Cultivation", size)  # somewhere in the house
    assert state(env).location == "farmhouse"
    _, _, _, _, info = env.step("get_out_of_house()")
    assert info["last_action_error"] is None
    assert state(env).location == "farm"


@pytest.mark.parametrize("size", [(720, 1280), (360, 640)])
def test_enter_door_and_sleep_ends_the_day(size):
    env = new_env("Shopping", size)  # on the farm, 9:00, day 1
    _, _, _, _, info = env.step("enter_door_and_sleep()")
    s = state(env)
    assert info["last_action_error"] is None
    assert (s.day, s.time_text, s.location, s.stats.sleeps) == (2, "6:00 am", "farmhouse", 1)
    assert s.menu is None
    assert any(e["type"] == "Click" for e in info["events"])  # "Yes" was clicked


@pytest.mark.parametrize(
    ("size", "count"), [((720, 1280), 1), ((720, 1280), 3), ((360, 640), 2), ((180, 320), 2)]
)
def test_buy_item_buys_at_the_counter(size, count):
    env = new_env("Shopping", size)
    put(env.unwrapped.backend.sim, "store", 7, 8, "up")  # arrange: just inside the store
    money, price = state(env).money, state(env).price_of("parsnip_seeds")
    _, _, _, _, info = env.step(f"buy_item(item='Parsnip Seeds', count={count})")
    s = state(env)
    assert info["last_action_error"] is None
    assert s.inventory_count("parsnip_seeds") == count
    assert s.money == money - price * count
    assert s.menu is None  # the shop was closed again
    assert sum(e["type"] == "Click" for e in info["events"]) == count


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_buy_item_finds_the_row_wherever_the_seeded_menu_puts_it(seed):
    env = new_env("Shopping", (180, 320), seed=seed)
    put(env.unwrapped.backend.sim, "store", 7, 8, "up")
    item = state(env).shop[-1][0]  # the last row of this episode's menu
    name = state(env).data.items[item].name
    _, _, _, _, info = env.step(f"buy_item(item={name!r}, count=1)")
    assert info["last_action_error"] is None
    assert state(env).inventory_count(item) == 1 and state(env).menu is None


def test_buy_item_closes_the_menu_when_the_item_is_not_sold_today():
    env = new_env("Shopping", (360, 640), seed=0)
    stocked = {i for i, _ in state(env).shop}
    missing = next(it for it in state(env).data.shop_stock if it not in stocked)
    name = state(env).data.items[missing].name
    put(env.unwrapped.backend.sim, "store", 7, 8, "up")
    money = state(env).money
    env.step(f"buy_item(item={name!r}, count=1)")
    assert state(env).money == money and state(env).menu is None


def test_buy_item_gives_up_when_nobody_is_at_the_counter():
    env = new_env("Shopping")
    sim = env.unwrapped.backend.sim
    put(sim, "store", 7, 8, "up")
    sim.state.minutes = 18 * 60  # arrange: after closing time
    money = sim.state.money
    _, _, _, _, info = env.step("buy_item()")
    s = state(env)
    assert info["last_action_error"] is None
    assert (s.money, s.menu, s.inventory_count("parsnip_seeds")) == (money, None, 0)
    assert not any(e["type"] == "Click" for e in info["events"])


def test_a_skill_with_nothing_to_find_gives_up_within_its_budget():
    env = new_env("Shopping")
    put(env.unwrapped.backend.sim, "farm", 12, 20)  # arrange: far from any door
    _, _, _, _, info = env.step("go_through_door()")
    assert info["last_action_error"] is None
    assert state(env).location == "farm"
    assert presses(info) <= MAX_MOVES


@pytest.mark.parametrize("name", COMPOSITE)
def test_composite_skills_do_nothing_on_frames_too_small_to_read(name):
    env = new_env("Shopping", (84, 84))
    p0 = (state(env).player.x, state(env).player.y)
    _, _, _, _, info = env.step(f"{name}()")
    assert info["last_action_error"] is None
    assert [e["type"] for e in info["events"]] == ["Wait"]
    assert (state(env).player.x, state(env).player.y) == p0


# ---------------------------------------------------------------- frames only
def drive(program: Program, backend: SimBackend) -> int:
    """Run a program handing it only read-only frames; returns the number of events."""
    W, H = backend.size
    pointer, n = PointerTracker(W // 2, H // 2), 0
    gen = program.start()
    try:
        event = next(gen)
        while True:
            n += 1
            for p in expand(event, pointer):
                backend.advance(p) if isinstance(p, float) else backend.send(p)
            frame = backend.capture()
            frame.setflags(write=False)
            event = gen.send(frame)
    except StopIteration:
        return n


def test_composite_skills_work_from_frames_alone():
    backend = SimBackend(StardewSim(), (720, 1280))
    backend.reset(np.random.default_rng(3), {"scenario": "shopping"})
    put(backend.sim, "farm", 27, 9, "down")  # arrange: in front of the farmhouse
    assert drive(SKILLS["enter_door_and_sleep"].program(), backend) > 3
    s = backend.probe()
    assert (s.day, s.location) == (2, "farmhouse")
    drive(SKILLS["get_out_of_house"].program(), backend)
    assert backend.probe().location == "farm"


@pytest.mark.parametrize("module", [skills, vision])
def test_skill_code_never_touches_game_state(module):
    tree = ast.parse(inspect.getsource(module))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    forbidden = {"probe", "backend", "state", "WorldState", "StardewSim", "env", "sim"}
    assert not names & forbidden


def test_frames_reach_composite_skills_only_as_arrays():
    seen = []

    def spy():
        gen = SKILLS["go_through_door"].program().start()
        event = next(gen)
        while True:
            frame = yield event
            seen.append(type(frame))
            try:
                event = gen.send(frame)
            except StopIteration:
                return

    env = new_env("Shopping")
    env.step(Program(spy))
    assert state(env).location == "farmhouse"
    assert seen and set(seen) == {np.ndarray}


def test_code_text_may_chain_a_composite_and_an_atomic_skill():
    env = new_env("Shopping")
    _, _, _, _, info = env.step("go_through_door()\nmove_up(duration=0.2)")
    assert info["last_action_error"] is None
    assert state(env).location == "farmhouse"


def test_click_events_stay_inside_the_frame():
    env = new_env("Shopping")
    put(env.unwrapped.backend.sim, "store", 7, 8, "up")
    _, _, _, _, info = env.step("buy_item(count=2)")
    clicks = [Click(e["x"], e["y"]) for e in info["events"] if e["type"] == "Click"]
    assert clicks and all(0 <= c.x < 1280 and 0 <= c.y < 720 for c in clicks)
