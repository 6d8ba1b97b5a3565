"""Top-k skill retrieval: the endpoint's embeddings, or word overlap when there are none."""

from __future__ import annotations

import gymnasium as gym

import gcc_envs  # noqa: F401  (registers the ids)
from agents.cradle import CradleConfig, CradlePolicy, LLMConfig
from agents.cradle.llm import LLMError
from agents.cradle.retrieval import SkillRetriever

KEY = "GCC_TEST_OPENAI_KEY"
DOCS = {
    "buy_item": "buy_item: buy seeds from Pierre in the store",
    "use_tool": "use_tool: use the selected tool",
    "go_through_door": "go_through_door: walk to the nearest door and go through it",
}


def test_lexical_retrieval_ranks_by_shared_words():
    assert SkillRetriever().top_k("buy parsnip seeds in the store", DOCS, 2)[0] == "buy_item"


def test_a_failing_embedding_endpoint_falls_back_to_words():
    def broken(texts):
        raise LLMError("no /v1/embeddings here")

    r = SkillRetriever(broken)
    assert r.top_k("go through the door", DOCS, 1) == ["go_through_door"]
    assert r.last_mode == "lexical"


def test_action_planning_shows_the_top_k_skills_retrieved_by_embedding(server):
    server.script("Action:\n```python\ngo_through_door()\n```")
    env = gym.make("GCC/Stardew-Shopping", obs_size=(180, 320))
    config = CradleConfig(modules=("action_planning",), top_k=3)
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY, config=config,
                          llm=LLMConfig(backoff_s=0.01), goal="go through the door to the store")  # fmt: skip
    obs, info = env.reset(seed=0)
    policy.reset({})
    assert policy.act(obs, info) == "go_through_door()"
    assert policy.retriever.last_mode == "embedding" and len(policy.last_info["skills"]) == 3
    assert "go_through_door" in policy.last_info["skills"]
    assert any(r.path.endswith("/embeddings") for r in server.requests)
    prompt = server.chat_requests()[0].body["messages"][0]["content"][0]["text"]
    shown = [n for n in env.unwrapped.skills if f"\n{n}(" in prompt]
    assert sorted(shown) == sorted(policy.last_info["skills"])
    assert policy.last_info["episode_usage"]["calls"] == 2  # 1 embedding request + 1 chat
    policy.act(obs, info)  # the same task: documents and query are cached
    assert sum(r.path.endswith("/embeddings") for r in server.requests) == 1
