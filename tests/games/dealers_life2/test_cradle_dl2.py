"""CradlePolicy runs a shop day with the game's prompts against the loopback OpenAI server."""

from __future__ import annotations

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.cradle import CradlePolicy, LLMConfig
from agents.cradle.prompts import load_prompts

pytest.importorskip("openai")
from agents.cradle.testing import FakeOpenAI  # noqa: E402
from agents.cradle.testing.dealers_life2_expert import trader_replies  # noqa: E402
from wrappers import ChunkVideo  # noqa: E402

KEY = "GCC_TEST_OPENAI_KEY"


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv(KEY, "test-token")
    s = FakeOpenAI(token="test-token").start()
    try:
        yield s
    finally:
        s.stop()


def test_the_games_prompts_load_with_one_call_per_step():
    prompts = load_prompts("dealers_life2")
    assert "pawn shop" in prompts["action_planning"].template.template


def test_cradle_trades_a_day_reflecting_on_the_first_and_last_frame(server):
    env = ChunkVideo(gym.make("GCC/DealersLife2-Day", obs_size=(360, 640)), max_frames=8)
    chosen: list[str] = []
    server.default = trader_replies(env, chosen)
    policy = CradlePolicy(
        env,
        base_url=server.base_url,
        api_key_env=KEY,
        llm=LLMConfig(timeout_s=5.0, backoff_s=0.01),
    )
    # the game's settings: one skill per step, first and last frame for self-reflection
    assert policy.max_calls == 1 and policy.config.reflect_frames == 2
    obs, info = env.reset(seed=901)
    policy.reset(info)
    done, steps = False, 0
    while not done:
        code = policy.act(obs, info)
        assert code == chosen[-1]
        obs, _, term, trunc, info = env.step(code)
        assert info["last_action_error"] is None
        steps += 1
        done = term or trunc
    assert info["success"] and info["metrics"]["deals_closed"] >= 3
    reflections = [r for r in server.chat_requests() if "[self_reflection]" in r.first_line]
    assert len(reflections) == steps - 1 and all(r.n_images == 2 for r in reflections)
    policy.close()
