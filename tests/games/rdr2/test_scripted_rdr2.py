"""The scripted RDR2 player passes checkpoints through skills alone; its planning helpers."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.scripted import ScriptedPolicy
from agents.scripted import rdr2_nav as nav
from agents.scripted.rdr2_eyes import read_prompts
from gcc_envs.games.rdr2 import vision
from gcc_envs.games.rdr2.tasks import CHECKPOINTS, MAX_STEPS, task_keys
from wrappers import UseSkills
from wrappers.use_skills import skill_calls

SIZE = (180, 320)
#: A seed none of the scripts was tuned on.
HELD_OUT = 7


def play(task: str, seed: int = HELD_OUT, privileged: bool = True) -> tuple[bool, list[str]]:
    """Run the scripted player through ``UseSkills`` (one call per step, as the paper)."""
    env = UseSkills(gym.make(f"GCC/RDR2-Mission{task[7]}", task=task, obs_size=SIZE))
    pol = ScriptedPolicy(env.unwrapped, privileged=privileged)
    obs, info = env.reset(seed=seed)
    pol.reset(info)
    errors = []
    try:
        for _ in range(MAX_STEPS):
            action = pol.act(obs, info)
            assert isinstance(action, str) and len(skill_calls(action, env.skills)) == 1
            obs, _, term, trunc, info = env.step(action)
            if info.get("last_action_error"):
                errors.append(info["last_action_error"])
            if term or trunc:
                break
    finally:
        env.close()
    return bool(info["success"]), errors


@pytest.mark.parametrize("task", [k for k in task_keys() if ":" in k])
def test_scripted_player_passes_every_checkpoint_one_call_a_step(task: str) -> None:
    ok, errors = play(task)
    assert ok and not errors


EASY = [f"{c.mission}:{c.name}" for c in CHECKPOINTS if c.difficulty == "easy"]


@pytest.mark.parametrize("task", EASY)
def test_frame_reading_player_passes_the_easy_checkpoints(task: str) -> None:
    ok, errors = play(task, privileged=False)
    assert ok and not errors


@pytest.mark.parametrize("size", [(180, 320), (360, 640)])
def test_prompts_are_read_by_their_look_in_the_huds_font(size: tuple[int, int]) -> None:
    env = gym.make("GCC/RDR2-Mission1", task="mission1:follow_micah", obs_size=size)
    obs, _ = env.reset(seed=3)
    assert read_prompts(obs) == ["Lead Horse"]  # beside the barn horse
    obs, *_ = env.step("interact()")
    assert read_prompts(obs) == ["Let Go of Horse"]
    env.close()
    env = gym.make("GCC/RDR2-Mission1", task="mission1:hitch_horse", obs_size=size)
    obs, _ = env.reset(seed=3)
    assert read_prompts(obs) == ["Dismount"]  # riding: "[E] Dismount", not "[E] Mount"
    env.close()


def test_relative_bearing_is_positive_to_the_right() -> None:
    assert nav.relative_bearing(0, 0, 0, 10, 0) == pytest.approx(0)
    assert nav.relative_bearing(0, 0, 0, 0, 10) == pytest.approx(90)  # south is right of east
    assert nav.relative_bearing(0, 0, 90, 10, 0) == pytest.approx(-90)
    assert abs(nav.relative_bearing(0, 0, 0, -10, 0)) == pytest.approx(180)


def test_plan_climbs_one_level_but_not_two() -> None:
    walls = np.zeros((5, 3), np.int8)
    level = np.zeros((5, 3), np.int8)
    level[:2] = 1  # a ledge one block up at the top rows
    path = nav.plan(walls, level, (1, 4), {(1, 0)})
    assert path is not None and path[0] == (1, 4) and path[-1] == (1, 0)
    level[:2] = 2
    assert nav.plan(walls, level, (1, 4), {(1, 0)}) is None


def test_plan_goes_around_walls_without_cutting_corners() -> None:
    walls = np.zeros((3, 3), np.int8)
    walls[1, 1] = 1
    path = nav.plan(walls, np.zeros_like(walls), (0, 1), {(2, 1)})
    assert path is not None and (1, 1) not in path
    for a, b in zip(path, path[1:]):
        if a[0] != b[0] and a[1] != b[1]:
            assert walls[a[1], b[0]] == 0 and walls[b[1], a[0]] == 0


def test_clear_line_sees_walls_beside_the_path() -> None:
    walls = np.zeros((3, 6), np.int8)
    walls[0, 2] = 1
    level = np.zeros_like(walls)
    assert nav.clear_line(walls, level, 0, (1.0, 3.0), (11.0, 3.0), 2.0)
    assert not nav.clear_line(walls, level, 0, (1.0, 2.2), (11.0, 2.2), 2.0)


@pytest.mark.parametrize(("yaw", "pitch"), [(0.0, 0.0), (20.0, 5.0), (-30.0, -10.0)])
def test_aim_point_inverts_angle_to_point(yaw: float, pitch: float) -> None:
    x, y = nav.aim_point(yaw, pitch, 1280, 720, 70.0)
    back = vision.angle_to_point(x, y, 1280, 720, 70.0)
    assert back[0] == pytest.approx(yaw, abs=0.15) and back[1] == pytest.approx(pitch, abs=0.15)


def test_open_bearing_points_along_the_players_own_ground() -> None:
    from agents.scripted.rdr2_eyes import open_bearing

    mm = np.full((47, 47, 3), 90, np.uint8)  # walls
    mm[14:34, 0:30] = 220  # a strip of ground running off to the left (west of the arrow)
    assert -105.0 <= open_bearing(mm) <= -60.0  # of equal runs, the one nearest ahead
    mm[0:30, 14:34] = 220  # and as long a way ahead
    assert open_bearing(mm) == 0.0
