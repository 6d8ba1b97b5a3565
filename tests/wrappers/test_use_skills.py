"""UseSkills and UseSkillGrid: act with the env's skills; anything else runs nothing."""

import math
import warnings

import gymnasium as gym
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

import gcc_envs
from gcc_envs.errors import GCCError
from wrappers import UseSkillGrid, UseSkills
from wrappers.use_skills import expand_grid

IDS = gcc_envs.env_ids("sim")
SIZE = (72, 128)
MODES = ["state", "event"]


def where(env):
    p = env.unwrapped.backend.probe().player
    return (p.x, p.y)


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
    assert [(e["type"], e["key"]) for e in info["events"]] == w.events
    assert info["t_game"] == pytest.approx(w.seconds)


def test_a_skill_call_moves_the_farmer():
    env = UseSkills(gym.make("GCC/Stardew-FarmClearup", obs_size=SIZE))
    env.reset(seed=0)
    x0, y0 = where(env)
    env.step("move_down(duration=1.0)")
    assert where(env)[1] > y0 + 1.0 and where(env)[0] == x0


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize(
    "action",
    [
        "move_down(duration='x')",
        "move_down(duration=0.5)\nmove_up(duration=0.5)\nmove_down(duration=0.5)",
        "pyautogui.press('c')",
        "move_down(duration=0.5); pyautogui.press('s')",
        "time.sleep(1)",
        "DONE",
        "teleport(x=3)",
        "select_tool(key=99)",
        "import os",
        "move_down(",
        42,
    ],
)
def test_refused_input_is_reported_and_runs_nothing(env_id, action):
    env = UseSkills(gym.make(env_id, obs_size=SIZE), max_calls=2)
    env.reset(seed=0)
    p0 = where(env)
    _, _, term, trunc, info = env.step(action)
    assert isinstance(info["last_action_error"], str) and info["last_action_error"]
    assert info["events"] == [] and info["held_keys"] == []
    assert info["invalid_actions"] == 1
    assert where(env) == p0
    assert not term and not trunc


def test_the_error_says_what_was_wrong():
    env = UseSkills(gym.make("GCC/Stardew-FarmClearup", obs_size=SIZE))
    env.reset(seed=0)
    three = "use_tool()\nuse_tool()\nuse_tool()"
    assert "at most 2" in env.step(three)[-1]["last_action_error"]
    assert "only skill calls" in env.step("pyautogui.press('c')")[-1]["last_action_error"]
    assert "duration" in env.step("move_down(duration='x')")[-1]["last_action_error"]


def test_max_calls_comes_from_the_env_when_it_says():
    env = gym.make("GCC/Stardew-FarmClearup", obs_size=SIZE)
    assert UseSkills(env).max_calls == 2
    env.unwrapped.max_skill_calls = 1  # what an RDR2-like env declares
    one = UseSkills(env)
    assert one.max_calls == 1
    one.reset(seed=0)
    assert "at most 1" in one.step("use_tool()\nuse_tool()")[-1]["last_action_error"]
    with pytest.raises(GCCError):
        UseSkills(env, max_calls=0)


def test_empty_text_is_a_no_op_step():
    env = UseSkills(gym.make("GCC/Stardew-FarmClearup", obs_size=SIZE))
    env.reset(seed=0)
    info = env.step("# thinking only")[-1]
    assert info["last_action_error"] is None and info["events"] == []


@pytest.mark.parametrize("env_id", IDS)
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
    env = UseSkillGrid(gym.make("GCC/Stardew-FarmClearup", obs_size=SIZE))
    env.reset(seed=0)
    for bad in (20, -1, 2.5, "x"):
        info = env.step(bad)[-1]
        assert info["last_action_error"] and info["events"] == []


def test_a_custom_grid_expands_every_combination():
    grid = {"move_left": {"duration": [0.5, 1.0]}, "select_tool": {"key": [2, 3]}, "use_tool": {}}
    env = UseSkillGrid(gym.make("GCC/Stardew-FarmClearup", obs_size=SIZE), grid)
    assert env.codes == (
        "move_left(duration=0.5)",
        "move_left(duration=1.0)",
        "select_tool(key=2)",
        "select_tool(key=3)",
        "use_tool()",
    )
    assert expand_grid(["use_tool()", "do_action()"]) == ["use_tool()", "do_action()"]


@pytest.mark.parametrize(
    "grid", [{"teleport": {}}, ["pyautogui.press('c')"], {"select_tool": {"key": [99]}}, {}]
)
def test_a_bad_grid_is_refused_when_the_wrapper_is_made(grid):
    with pytest.raises(GCCError):
        UseSkillGrid(gym.make("GCC/Stardew-FarmClearup", obs_size=SIZE), grid)
