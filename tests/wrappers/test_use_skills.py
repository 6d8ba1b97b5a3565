"""UseSkills and UseSkillGrid: act with the env's skills; anything else runs nothing."""

import math
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from spec_helpers import walking_ids

from gcc_envs.errors import GCCError
from gcc_envs.registration import spec_of
from wrappers import UseSkillGrid, UseSkills
from wrappers.use_skills import expand_grid

IDS = walking_ids()
GRID_IDS = [i for i in IDS if spec_of(i).skill_grid]
#: The wrapper's own mechanics are tested on the toy game of tests/specs (two calls a step).
TOY = "GCC/Toy-ReachCorner"
SIZE = (72, 128)
MODES = ["state", "event"]


def where(env):
    s = env.unwrapped.backend.probe()
    return (s.x, s.y)


def checked(env):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env warns that a wrapper is not the raw env
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("action_mode", MODES)
def test_use_skills_passes_check_env_and_acts_with_text(env_id, action_mode, walk):
    env = UseSkills(gym.make(env_id, obs_size=SIZE, action_mode=action_mode))
    assert isinstance(env.action_space, spaces.Text)
    checked(env)
    assert env.skill_text == env.unwrapped.skills.describe() and env.skill_text
    env.reset(seed=0)
    w = walk(env_id)
    _, _, _, _, info = env.step(w.code)
    assert info["last_action_error"] is None
    assert [(e["type"], e.get("key", "")) for e in info["events"]] == list(w.events)
    assert info["t_game"] == pytest.approx(w.seconds)


def test_a_skill_call_moves_the_player():
    env = UseSkills(gym.make(TOY, obs_size=SIZE))
    env.reset(seed=0)
    x0, y0 = where(env)
    env.step("walk_up(duration=1.0)")
    assert where(env)[1] < y0 - 0.2 and where(env)[0] == x0


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize(
    "action",
    [
        "move_down(duration='x')",
        "move_down(duration=0.5)\nmove_up(duration=0.5)\nmove_down(duration=0.5)",
        "pyautogui.press('c')",
        "move_down(duration=0.5); pyautogui.press('s')",
        "time.sleep(1)",
        "WAIT",
        "DONE\nDONE",
        "DONE\nselect_tool(key=99)",
        "teleport(x=3)",
        "select_tool(key=99)",
        "import os",
        "move_down(",
        42,
    ],
)
def test_refused_input_is_reported_and_runs_nothing(env_id, action):
    env = UseSkills(gym.make(env_id, obs_size=SIZE), max_calls=2)
    obs0, _ = env.reset(seed=0)
    if isinstance(action, str) and action.startswith("move_down(duration=0.5)\n"):
        code = spec_of(env_id).walk.code  # the game's own calls, one more than allowed
        action = "\n".join([code] * 3)
    obs, _, term, trunc, info = env.step(action)
    assert isinstance(info["last_action_error"], str) and info["last_action_error"]
    assert info["events"] == [] and info["held_keys"] == []
    assert info["invalid_actions"] == 1
    if not spec_of(env_id).moves_on_its_own:
        assert np.array_equal(obs, obs0)
    assert not term and not trunc


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("word", ["DONE", "FAIL"])
def test_done_and_fail_end_the_episode_in_every_game(env_id, word):
    env = UseSkills(gym.make(env_id, obs_size=SIZE))
    env.reset(seed=0)
    _, _, term, trunc, info = env.step(word)
    assert info["last_action_error"] is None and info["invalid_actions"] == 0
    assert term and not trunc
    assert [e["type"] for e in info["events"]] == [word.title()]


def test_done_after_the_calls_runs_them_then_ends_the_episode():
    env = UseSkills(gym.make(TOY, obs_size=SIZE))
    env.reset(seed=0)
    y0 = where(env)[1]
    _, _, term, _, info = env.step("walk_up(duration=1.0)\nwalk_up(duration=1.0)\nDONE")
    assert info["last_action_error"] is None and term
    assert where(env)[1] < y0 - 0.2 and info["events"][-1]["type"] == "Done"


def test_the_skill_grid_never_holds_done():
    env = gym.make(TOY, obs_size=SIZE)
    with pytest.raises(GCCError):
        UseSkillGrid(env, grid=["walk_up()", "DONE"])


def test_the_error_says_what_was_wrong():
    env = UseSkills(gym.make(TOY, obs_size=SIZE))
    env.reset(seed=0)
    three = "walk_up()\nwalk_up()\nwalk_up()"
    assert "at most 2" in env.step(three)[-1]["last_action_error"]
    assert "only skill calls" in env.step("pyautogui.press('c')")[-1]["last_action_error"]
    assert "duration" in env.step("walk_up(duration='x')")[-1]["last_action_error"]


@pytest.mark.parametrize("env_id", IDS)
def test_max_calls_comes_from_the_game_spec(env_id):
    env = gym.make(env_id, obs_size=SIZE)
    assert UseSkills(env).max_calls == spec_of(env_id).max_skill_calls
    env.close()


def test_max_calls_follows_what_the_env_declares():
    env = gym.make(TOY, obs_size=SIZE)
    env.unwrapped.max_skill_calls = 1  # what a one-call game declares
    one = UseSkills(env)
    assert one.max_calls == 1
    one.reset(seed=0)
    assert "at most 1" in one.step("walk_up()\nwalk_up()")[-1]["last_action_error"]
    with pytest.raises(GCCError):
        UseSkills(env, max_calls=0)


def test_empty_text_is_a_no_op_step():
    env = UseSkills(gym.make(TOY, obs_size=SIZE))
    env.reset(seed=0)
    info = env.step("# thinking only")[-1]
    assert info["last_action_error"] is None and info["events"] == []


@pytest.mark.parametrize("env_id", GRID_IDS)
@pytest.mark.parametrize("action_mode", MODES)
def test_skill_grid_passes_check_env_and_every_entry_runs(env_id, action_mode):
    env = UseSkillGrid(gym.make(env_id, obs_size=SIZE, action_mode=action_mode))
    grid = env.unwrapped.skill_grid
    combos = sum(math.prod(len(v) for v in params.values()) for params in grid.values())
    assert env.action_space == spaces.Discrete(combos) and combos > len(grid) > 5
    checked(env)
    env.reset(seed=0)
    for i in range(env.action_space.n):
        # a library curated from the game's tutorials lists a gated skill only once taught
        listed = env.codes[i].partition("(")[0] in env.unwrapped.skills
        _, _, term, trunc, info = env.step(i)
        if listed:
            assert info["last_action_error"] is None, env.codes[i]
            assert info["events"]
        else:
            assert info["last_action_error"] and not info["events"], env.codes[i]
        if term or trunc:
            env.reset(seed=0)


def test_skill_grid_index_out_of_range_runs_nothing():
    env = UseSkillGrid(gym.make(TOY, obs_size=SIZE), {"walk_up": {"duration": [0.5, 1.0]}})
    env.reset(seed=0)
    for bad in (2, -1, 2.5, "x"):
        info = env.step(bad)[-1]
        assert info["last_action_error"] and info["events"] == []


def test_a_custom_grid_expands_every_combination():
    grid = {"walk_left": {"duration": [0.5, 1.0]}, "walk_up": {"duration": [0.25]}}
    env = UseSkillGrid(gym.make(TOY, obs_size=SIZE), grid)
    assert env.codes == (
        "walk_left(duration=0.5)",
        "walk_left(duration=1.0)",
        "walk_up(duration=0.25)",
    )
    assert expand_grid(["walk_up()", "walk_left()"]) == ["walk_up()", "walk_left()"]


@pytest.mark.parametrize(
    "grid", [{"teleport": {}}, ["pyautogui.press('c')"], {"walk_up": {"duration": ["x"]}}, {}]
)
def test_a_bad_grid_is_refused_when_the_wrapper_is_made(grid):
    with pytest.raises(GCCError):
        UseSkillGrid(gym.make(TOY, obs_size=SIZE), grid)
