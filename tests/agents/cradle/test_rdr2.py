"""A scripted-reply Cradle loop on GCC/RDR2-Mission1: the game's templates and practices."""

from __future__ import annotations

import gymnasium as gym
import pytest

import gcc_envs
from agents.cradle import CradleConfig, CradlePolicy, LLMConfig
from agents.cradle.testing.replies import module_of, module_reply
from wrappers import ChunkVideo

KEY = "GCC_TEST_OPENAI_KEY"
pytestmark = pytest.mark.skipif(
    "GCC/RDR2-Mission1" not in gcc_envs.env_ids(), reason="RDR2 is not registered"
)
PLAN = ["follow(duration=5)", "turn(degree=30)"]  # two calls: only the first may run


def reply(body: dict) -> str:
    module = module_of(body)
    if module == "information_gathering":
        return module_reply(module, "rdr2", [], '"Hold [TAB] to view your stored weapons"')
    return module_reply(module, "rdr2", PLAN)


@pytest.mark.parametrize("fused", [False, True])
def test_a_scripted_cradle_loop_runs_rdr2_with_only_the_first_action(server, fused):
    server.default = reply
    env = ChunkVideo(gym.make("GCC/RDR2-Mission1", obs_size=(180, 320)), max_frames=8)
    shadow = gym.make("GCC/RDR2-Mission1", obs_size=(180, 320))
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY,
                          llm=LLMConfig(backoff_s=0.01),
                          config=CradleConfig(fused=fused) if fused else None)  # fmt: skip
    assert (
        policy.max_calls == 1
        and "Red Dead Redemption 2" in policy.prompts["fused"].path.read_text()
    )
    obs, info = env.reset(seed=0)
    shadow.reset(seed=0)
    policy.reset(info)
    for _ in range(3):
        code = policy.act(obs, info)
        assert code == "follow(duration=5)" and policy.last_info["dropped"] == 1
        obs, _, terminated, truncated, info = env.step(code)
        want = shadow.step(code)[-1]
        assert info["last_action_error"] is None and not (terminated or truncated)
        assert [e["type"] for e in info["events"]] == [e["type"] for e in want["events"]]
    modules = [module_of(r.body) for r in server.chat_requests()]
    if fused:
        assert modules == ["fused"] * 3
    else:  # the paper's default for RDR2 curates skills, once, from the new tutorial text
        assert modules.count("skill_curation") == 1 and modules.count("action_planning") == 3
        assert modules.count("self_reflection") == 2
    assert policy.tasks.current.startswith("follow Dutch")
