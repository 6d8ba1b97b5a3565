"""SB3 smoke: a short PPO run trains, evaluates, saves, and the saved model acts as a policy."""

import json

import gymnasium as gym
import pytest

pytest.importorskip("stable_baselines3")

import agents  # noqa: E402
from agents.evaluate import run_episode  # noqa: E402
from agents.sb3.train import TrainConfig, train  # noqa: E402
from gcc_envs.errors import GCCError  # noqa: E402


@pytest.mark.slow
def test_short_ppo_run_saves_a_model_that_plays_through_the_skill_grid(tmp_path):
    cfg = TrainConfig(
        env_id="GCC/Stardew-FarmClearup",
        out=str(tmp_path),
        steps=256,
        envs=1,
        eval_every=128,
        eval_episodes=1,
    )
    path = train(cfg, progress=False)
    assert path.exists()
    history = json.loads((tmp_path / "evaluations.json").read_text())
    assert history[-1]["timesteps"] >= 256
    assert {"success_rate", "mean_return"} <= set(history[-1])
    baseline = json.loads((tmp_path / "random_baseline.json").read_text())
    assert 0.0 <= baseline["success_rate"] <= 1.0

    env = gym.make("GCC/Stardew-FarmClearup", obs_size=(84, 84))
    policy = agents.make_policy("sb3", env, model_path=path)
    rec = run_episode(env, policy, seed=0)
    assert rec.steps == 100 and rec.invalid_actions == 0
    assert rec.policy == "sb3"


@pytest.mark.slow
def test_sb3_policy_acts_through_the_grid_it_was_trained_on(tmp_path):
    grid = {"use_tool": {}, "move_left": {"duration": [0.5, 1.0]}}
    cfg = TrainConfig(
        env_id="GCC/Stardew-Shopping",
        out=str(tmp_path),
        steps=64,
        envs=1,
        eval_every=10_000,
        eval_episodes=1,
        grid=grid,
        algo_kwargs={"n_steps": 64},
    )
    path = train(cfg, progress=False)
    env = gym.make("GCC/Stardew-Shopping", obs_size=(84, 84))
    policy = agents.make_policy("sb3", env, model_path=path)
    obs, info = env.reset(seed=0)
    policy.reset(info)
    code = policy.act(obs, info)
    assert code in ("use_tool()", "move_left(duration=0.5)", "move_left(duration=1.0)")


@pytest.mark.slow
def test_sb3_policy_refuses_an_env_of_another_frame_size(tmp_path):
    cfg = TrainConfig(
        env_id="GCC/Stardew-Shopping",
        out=str(tmp_path),
        steps=64,
        envs=1,
        eval_every=10_000,
        eval_episodes=1,
        algo_kwargs={"n_steps": 64},
    )
    path = train(cfg, progress=False)
    env = gym.make("GCC/Stardew-Shopping", obs_size=(72, 128))
    with pytest.raises(GCCError, match="obs_size"):
        agents.make_policy("sb3", env, model_path=path)


def test_train_config_refuses_dqn_on_a_multidiscrete_interface():
    with pytest.raises(GCCError, match="Discrete"):
        TrainConfig(env_id="GCC/Stardew-Shopping", out="x", algo="dqn", action="flat")
