"""Cradle plays Cities: Skylines against the loopback OpenAI-compatible server.

The server's replies are the scripted planner's calls (``agents.cradle.testing.skylines_expert``);
Cradle's own prompts (``agents/cradle/prompts/skylines``, one skill per step, the 3x5 grid)
carry them to the env, which must receive exactly those skills and grow a working block.
"""

from __future__ import annotations

import gymnasium as gym
import pytest

import agents
import gcc_envs  # noqa: F401  (registers the ids)
from agents.cradle import CradleConfig, CradlePolicy, LLMConfig
from agents.cradle.testing import FakeOpenAI
from agents.cradle.testing.skylines_expert import IDLE, skylines_replies
from wrappers import ChunkVideo

pytest.importorskip("openai")
KEY = "GCC_TEST_OPENAI_KEY"
STEPS = 70  # the block's plan takes about 65 one-call steps


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv(KEY, "test-token")
    s = FakeOpenAI(token="test-token").start()
    try:
        yield s
    finally:
        s.stop()


def make_env():  # type: ignore[no-untyped-def]
    env = gym.make("GCC/Skylines-Block", obs_size=(360, 640), max_episode_steps=STEPS)
    return ChunkVideo(env, max_frames=4)


@pytest.mark.parametrize("fused", [True, False])
def test_cradle_builds_a_working_block_from_the_servers_replies(server, fused):
    env = make_env()
    chosen: list[str] = []
    server.default = skylines_replies(env, chosen)
    if fused:
        cfg = LLMConfig(timeout_s=5.0, backoff_s=0.01)
        policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY, llm=cfg,
                              config=CradleConfig(fused=True))  # fmt: skip
    else:
        policy = agents.make_policy("cradle", env, base_url=server.base_url, api_key_env=KEY)
    assert policy.max_calls == 1
    obs, info = env.reset(seed=11)
    policy.reset(info)
    steps = 0
    while True:
        code = policy.act(obs, info)
        assert code == chosen[-1] and policy.last_info["reason"] is None
        obs, _, term, trunc, info = env.step(code)
        assert info["last_action_error"] is None, (code, info["last_action_error"])
        steps += 1
        if term or trunc:
            break
    assert trunc and steps == STEPS and chosen[-1] == IDLE
    m = info["metrics"]
    assert info["success"] and m["max_population"] >= 200, m
    requests = server.chat_requests()
    per_step = 1 if fused else 4
    assert len(requests) == per_step * steps - (0 if fused else 1)  # no reflection at step 1
    text = requests[-1].body["messages"][0]["content"][0]["text"]
    assert "try_place_two_lane_road(x1: int, y1: int, x2: int, y2: int)" in text
    policy.close()
    env.close()


def test_a_reply_with_two_calls_runs_only_the_first(server):
    env = make_env()
    server.script(
        "Action:\n```python\nopen_zoning_menu()\nopen_roads_menu()\n```",
    )
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY,
                          llm=LLMConfig(timeout_s=5.0, backoff_s=0.01),
                          config=CradleConfig(modules=("action_planning",)))  # fmt: skip
    obs, info = env.reset(seed=0)
    policy.reset(info)
    code = policy.act(obs, info)
    assert code == "open_zoning_menu()"
    info = env.step(code)[-1]
    assert env.unwrapped.backend.probe().ui.menu == "zoning" and info["last_action_error"] is None
    assert isinstance(server, FakeOpenAI)
