"""A spent LMM budget ends the episode with DONE, and `gcc-gym run` records why."""

from __future__ import annotations

import json

import gymnasium as gym

import gcc_envs  # noqa: F401  (registers the ids)
from agents.cli import main
from agents.cradle import CradleConfig, CradlePolicy, LLMConfig
from wrappers import ChunkVideo

KEY = "GCC_TEST_OPENAI_KEY"
MOVE = "Action:\n```python\nmove_up(duration=0.5)\n```"


def test_a_spent_call_budget_answers_done_and_the_env_ends_the_episode(server):
    server.default = MOVE
    env = ChunkVideo(gym.make("GCC/Stardew-Shopping", obs_size=(180, 320)), max_frames=4)
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY,
                          llm=LLMConfig(backoff_s=0.01), max_llm_calls=1,
                          config=CradleConfig(modules=("action_planning",)))  # fmt: skip
    obs, info = env.reset(seed=0)
    policy.reset(info)
    assert policy.act(obs, info) == "move_up(duration=0.5)" and policy.stop_reason is None
    obs, _, terminated, _, info = env.step(policy.last_info["code"])
    assert not terminated
    code = policy.act(obs, info)
    assert code == "DONE" and policy.last_info["budget_exhausted"]
    assert "max_calls=1" in policy.stop_reason
    assert policy.last_info["episode_usage"]["stop_reason"] == policy.stop_reason
    _, _, terminated, _, info = env.step(code)
    assert terminated and not info["success"] and len(server.chat_requests()) == 1
    policy.reset(info)  # a new episode has a fresh budget
    assert policy.stop_reason is None and policy.act(obs, info) == "move_up(duration=0.5)"


def test_a_spent_cost_budget_stops_the_fused_agent_mid_episode(server):
    server.default = MOVE
    env = ChunkVideo(gym.make("GCC/Stardew-Shopping", obs_size=(180, 320)), max_frames=4)
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY,
                          llm=LLMConfig(backoff_s=0.01), max_cost_usd=1e-9,
                          config=CradleConfig(fused=True))  # fmt: skip
    obs, info = env.reset(seed=0)
    policy.reset(info)
    policy.act(obs, info)
    assert policy.act(obs, info) == "DONE" and "max_cost_usd" in policy.stop_reason


def test_gcc_gym_run_records_the_budget_stop_in_results_json(server, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "test-token")
    server.default = MOVE
    out = tmp_path / "run"
    code = main([
        "run", "GCC/Stardew-Shopping", "--policy", "cradle", "--llm-base-url", server.base_url,
        "--llm-max-calls", "3", "--cradle-fused", "--episodes", "1", "--obs-size", "180", "320",
        "--no-video", "--quiet", "--out", str(out),
    ])  # fmt: skip
    assert code == 0
    (record,) = json.loads((out / "results.json").read_text())
    assert record["steps"] == 4 and not record["success"]
    assert record["failure"] == "agent declared DONE"
    assert record["policy_info"]["calls"] == 3 == len(server.chat_requests())
    assert record["policy_info"]["stop_reason"].startswith("budget: call budget spent: 3")
