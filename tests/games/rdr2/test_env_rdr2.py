"""The RDR2 envs through ``gymnasium.make``: spaces, checks, determinism, success and failure."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gcc_envs  # noqa: F401  (registers the ids)
from gcc_envs.errors import GCCError
from gcc_envs.games.rdr2.env import RDR2Env
from gcc_envs.games.rdr2.sim.world import hurt_player

IDS = ["GCC/RDR2-Mission1", "GCC/RDR2-Mission2", "GCC/RDR2-Mission3"]
SMALL = {"obs_size": (72, 128)}


def test_default_make_runs_reset_and_step_at_native_size() -> None:
    env = gym.make("GCC/RDR2-Mission1")
    obs, info = env.reset(seed=0)
    assert obs.shape == (720, 1280, 3) and obs.dtype == np.uint8
    assert "Dutch" in info["instruction"]
    obs, reward, terminated, truncated, info = env.step(_noop(env))
    assert obs.shape == (720, 1280, 3) and not terminated and not truncated
    assert info["t_game"] == pytest.approx(0.25)
    assert env.spec is not None and env.spec.max_episode_steps == 8 * 500  # 500 per checkpoint
    assert isinstance(env.unwrapped, RDR2Env) and env.unwrapped.max_skill_calls == 1
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes(env_id: str) -> None:
    env = gym.make(env_id, **SMALL)
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def _noop(env: gym.Env) -> dict:
    action = env.action_space.sample()
    action["keys"][:] = 0
    action["buttons"][:] = 0
    action["scroll"] = 0
    action["mouse"] = np.zeros(2, np.float32)
    return action


def _rollout(env_id: str, seed: int, steps: int = 12) -> tuple[list[np.ndarray], list[float]]:
    env = gym.make(env_id, **SMALL)
    env.action_space.seed(seed)
    obs, _ = env.reset(seed=seed)
    frames, rewards = [obs], []
    for _ in range(steps):
        obs, r, term, trunc, _ = env.step(env.action_space.sample())
        frames.append(obs)
        rewards.append(float(r))
        if term or trunc:
            break
    env.close()
    return frames, rewards


@pytest.mark.parametrize("env_id", IDS)
def test_same_seed_same_actions_same_frames(env_id: str) -> None:
    f1, r1 = _rollout(env_id, 3)
    f2, r2 = _rollout(env_id, 3)
    assert len(f1) == len(f2) and r1 == r2
    assert all(np.array_equal(a, b) for a, b in zip(f1, f2))


def test_camera_mouse_turns_the_view() -> None:
    env = gym.make("GCC/RDR2-Mission3", **SMALL)
    env.reset(seed=0)
    sim = env.unwrapped.backend.sim
    yaw = sim.state.player.yaw_deg
    action = _noop(env)
    action["mouse"] = np.array([0.05, 0.0], np.float32)
    env.step(action)
    # 0.05 x 160 = 8 frame px of 128 = 80 native px; at 4 px per degree: 20 degrees right
    assert (sim.state.player.yaw_deg - yaw) % 360.0 == pytest.approx(20.0, abs=0.5)


def test_checkpoint_task_succeeds_with_reward_and_flags() -> None:
    env = gym.make("GCC/RDR2-Mission1", task="mission1:hitch_horse", **SMALL)
    _, info = env.reset(seed=0)
    s = env.unwrapped.backend.sim.state
    post = s.props["hitch_post"]
    s.player.x, s.player.y, s.player.yaw_deg = post.x, post.y + 1.2, 270.0  # facing it
    env.step(_noop(env))  # the hitch tutorial and prompt appear during this step
    assert [p.text() for p in s.ui.prompts] == ["[E] Hitch Horse"]
    _, reward, terminated, _, info = env.step("pyautogui.press('e')")
    assert terminated and info["success"] and "failure" not in info
    assert reward == pytest.approx(1.5)
    assert info["progress"] == 1.0 and info["task"]["flags"] == {"hitch_horse": True}


def test_failure_terminates_with_the_reason() -> None:
    env = gym.make("GCC/RDR2-Mission2", task="mission2:kill_wolves", **SMALL)
    env.reset(seed=0)
    hurt_player(env.unwrapped.backend.sim.state, 1000.0)
    _, reward, terminated, _, info = env.step(env.action_space.sample())
    assert terminated and not info["success"] and info["failure"] == "you died"
    assert reward == 0.0


def test_mission_progress_counts_checkpoints() -> None:
    env = gym.make("GCC/RDR2-Mission1", **SMALL)
    env.reset(seed=0, options={"checkpoint": "search_house", "single": False})
    _, _, _, _, info = env.step(env.action_space.sample())
    # started at the third checkpoint: two of eight count as done
    assert info["progress"] == pytest.approx(0.0)
    assert env.unwrapped.backend.sim.state.mission.current == "search_house"


def test_paused_time_mode_spends_the_pause_animations() -> None:
    env = gym.make("GCC/RDR2-Mission3", time_mode="paused", **SMALL)
    env.reset(seed=0)
    sim = env.unwrapped.backend.sim
    before = sim.state.clock
    env.step(env.action_space.sample())
    # the step runs in wall time, then the pause animation adds its 0.5 s of game time
    assert sim.state.clock - before >= 0.5
    assert sim.state.ui.pause.phase == "paused"


def test_unknown_task_is_refused() -> None:
    with pytest.raises(GCCError, match="unknown RDR2 task"):
        gym.make("GCC/RDR2-Mission1", task="mission1:fly_to_moon")
