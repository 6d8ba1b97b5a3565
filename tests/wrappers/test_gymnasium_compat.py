"""GCC envs and these wrappers work with Gymnasium's vector envs and its own wrappers."""

import gymnasium as gym
import numpy as np
import pytest
from spec_helpers import walking_ids

import gcc_envs
from wrappers import ChunkVideo, FlattenHybridAction, TruncateWhenStuck, UseSkills

IDS = gcc_envs.env_ids("sim")
SIZE = (72, 128)


def test_async_vector_env_of_four_steps_with_the_right_shapes():
    envs = gym.make_vec(
        IDS[0],
        num_envs=4,
        vectorization_mode="async",
        wrappers=[FlattenHybridAction],
        obs_size=(84, 84),
    )
    try:
        obs, _ = envs.reset(seed=0)
        assert obs.shape == (4, 84, 84, 3) and obs.dtype == np.uint8
        envs.action_space.seed(0)
        for _ in range(20):
            obs, rew, term, trunc, info = envs.step(envs.action_space.sample())
            assert obs.shape == (4, 84, 84, 3)
            assert rew.shape == term.shape == trunc.shape == (4,)
            assert info["game_time"].shape == (4,)
    finally:
        envs.close()


@pytest.mark.parametrize("env_id", IDS)
def test_record_video_writes_an_mp4(env_id, tmp_path):
    env = gym.make(env_id, obs_size=SIZE, render_mode="rgb_array")
    env = gym.wrappers.RecordVideo(
        env, str(tmp_path / "videos"), episode_trigger=lambda e: True, disable_logger=True
    )
    env.reset(seed=0)
    for i in range(6):
        env.step("move_down(duration=0.5)" if i % 2 else "move_right(duration=0.5)")
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 0


@pytest.mark.parametrize("env_id", walking_ids())
def test_record_episode_statistics_over_a_wrapper_stack(env_id, walk):
    env = gym.make(env_id, obs_size=SIZE, max_episode_steps=5)
    env = gym.wrappers.RecordEpisodeStatistics(TruncateWhenStuck(UseSkills(ChunkVideo(env))))
    obs, _ = env.reset(seed=0)
    assert obs["count"] == 1
    done, steps = False, 0
    while not done:
        obs, _, term, trunc, info = env.step(walk(env_id).code)
        steps += 1
        done = term or trunc
    # the statistics count every step; the walk runs to the limit unless the game ends it first
    # (Mission 2, seed 0: the player walks away from the horse and fails at step 4)
    assert info["episode"]["l"] == steps and (steps == 5 or term)
    assert 1 <= obs["count"] <= info["frames_recorded"] + 1 and info["stuck_steps"] >= 0


def test_a_wrapper_stack_is_recreated_from_its_spec():
    env = gym.make(IDS[0], obs_size=SIZE)
    env = TruncateWhenStuck(FlattenHybridAction(ChunkVideo(env, max_frames=4)), patience=7)
    clone = gym.make(env.spec)
    registered = [w.name for w in gym.spec(IDS[0]).additional_wrappers]  # the registry's own
    assert [w.name for w in clone.spec.additional_wrappers] == [
        *registered,
        "ChunkVideo",
        "FlattenHybridAction",
        "TruncateWhenStuck",
    ]
    assert clone.observation_space == env.observation_space
    assert clone.action_space == env.action_space and clone.patience == 7
