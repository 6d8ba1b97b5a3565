"""SB3 smoke: a short PPO run trains, evaluates, saves, and the saved model acts as a policy."""

import json

import gymnasium as gym
import pytest

pytest.importorskip("stable_baselines3")

import agents  # noqa: E402
from agents.evaluate import run_episode  # noqa: E402
from agents.sb3.train import TrainConfig, train  # noqa: E402
from gcc_envs.errors import GCCError  # noqa: E402


@pytest.fixture(autouse=True)
def torch_threads_restored():
    """Training and SB3Policy set torch's threads for the process: put them back after."""
    import torch

    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


@pytest.mark.slow
def test_short_ppo_run_saves_a_model_that_plays_through_the_skill_grid(tmp_path, monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
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
    # evaluated every 128 steps, not at the first; the last is the final model's, not twice
    assert [row["timesteps"] for row in history] == [128, 256]
    assert {"success_rate", "mean_return"} <= set(history[-1])
    baseline = json.loads((tmp_path / "random_baseline.json").read_text())
    assert 0.0 <= baseline["success_rate"] <= 1.0

    env = gym.make("GCC/Stardew-FarmClearup", obs_size=(84, 84))
    policy = agents.make_policy("sb3", env, model_path=path)
    rec = run_episode(env, policy, seed=0)
    assert rec.steps == 100 and rec.invalid_actions == 0
    assert rec.policy == "sb3"
    import torch

    assert torch.get_num_threads() == 1  # one frame at a time: one thread (OMP unset)


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
def test_sb3_policy_refuses_another_frame_size_and_run_takes_the_trained_one(tmp_path, capsys):
    from agents.cli import main

    cfg = TrainConfig(
        env_id="GCC/Stardew-Shopping",
        out=str(tmp_path / "model"),
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
    # gcc-gym run reads the size from gcc_train.json; a size of its own is refused by flag
    argv = ["run", "GCC/Stardew-Shopping", "--policy", "sb3", "--model", str(path)]
    argv += ["--episodes", "1", "--no-video", "--quiet", "--out", str(tmp_path / "run")]
    assert main(argv) == 0
    assert json.loads((tmp_path / "run" / "results.json").read_text())[0]["steps"] == 100
    assert main([*argv, "--obs-size", "72", "128"]) == 2
    err = capsys.readouterr().err
    assert "obs_size=(84, 84)" in err and "--obs-size" in err


def test_train_threads_leave_a_core_per_env_worker_and_omp_num_threads_wins(monkeypatch):
    import torch

    from agents.sb3.threads import set_torch_threads, torch_threads

    assert [torch_threads(w, cores=8) for w in (0, 1, 2, 3, 8)] == [8, 4, 2, 2, 1]
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert set_torch_threads(None, auto=1) == 1 == torch.get_num_threads()
    assert set_torch_threads(2, auto=1) == 2  # asked for: set as it is
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert set_torch_threads(None, auto=1) == 2  # the user's OMP_NUM_THREADS: left alone
    with pytest.raises(GCCError, match="torch_threads"):
        TrainConfig(env_id="GCC/Stardew-Shopping", out="x", torch_threads=-1)


def test_train_config_refuses_dqn_on_a_multidiscrete_interface():
    with pytest.raises(GCCError, match="Discrete"):
        TrainConfig(env_id="GCC/Stardew-Shopping", out="x", algo="dqn", action="flat")
