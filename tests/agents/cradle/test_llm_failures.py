"""A broken or dead LMM endpoint: clear errors, counted attempts, no-op steps, a bounded end."""

from __future__ import annotations

import json
import socket
import types

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.cli import main
from agents.cradle import CradleConfig, CradlePolicy, LLMConfig
from agents.cradle.llm import LLMClient, LLMError, user_message
from wrappers import ChunkVideo

KEY = "GCC_TEST_OPENAI_KEY"
MOVE = "Action:\n```python\nmove_up(duration=0.5)\n```"
GOOD = {
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}],
    "usage": {"prompt_tokens": 3, "completion_tokens": 1},
}


def body(**changes) -> bytes:
    doc = json.loads(json.dumps(GOOD))
    for path, value in changes.items():
        *parents, leaf = path.split("__")
        node = doc
        for p in parents:
            node = node[int(p)] if p.isdigit() else node[p]
        node[leaf] = value
    return json.dumps(doc).encode()


MALFORMED = {
    "truncated": json.dumps(GOOD).encode()[:40],
    "tokens-lots": body(usage__prompt_tokens="lots"),
    "infinity": body().replace(b'"prompt_tokens": 3', b'"prompt_tokens": Infinity'),
    "tokens-float": body(usage__completion_tokens=1.5),
    "content-number": body(choices__0__message__content=12345),
    "message-null": body(choices__0__message=None),
    "content-list-of-numbers": body(choices__0__message__content=[1, 2]),
    "no-choices": body(choices=[]),
    "choices-null": body(choices=None),
    "usage-list": body(usage=[1]),
    "not-an-object": b"[1, 2, 3]",
    "null": b"null",
    "empty": b"",
    "not-utf8": b"\xff\xfe{}",
    "deep": b"[" * 100_000,
}


def client(server, **config) -> LLMClient:
    return LLMClient(LLMConfig(base_url=server.base_url, api_key_env=KEY, backoff_s=0, **config))


@pytest.mark.parametrize("raw", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_200_reply_is_retried_then_an_llm_error(server, raw):
    server.default = {"raw": raw}
    c = client(server, max_retries=2)
    with pytest.raises(LLMError, match=server.base_url):
        c.chat([user_message("hello")])
    assert len(server.chat_requests()) == 3
    spent = c.ledger.episode
    assert spent.calls == 3 and spent.failed_calls == 3 and spent.prompt_tokens == 0


def test_a_malformed_reply_then_a_good_one_is_one_retry(server):
    server.script({"raw": MALFORMED["message-null"]}, {"raw": body()})
    c = client(server, max_retries=2)
    reply = c.chat([user_message("hello")])
    assert reply.text == "hi" and reply.usage.prompt_tokens == 3
    assert c.ledger.episode.calls == 2 and c.ledger.episode.failed_calls == 1


def test_content_sent_as_text_parts_is_joined(server):
    server.default = {"raw": body(choices__0__message__content=[{"text": "a"}, {"text": "b"}])}
    assert client(server).chat([user_message("hello")]).text == "ab"


def make_policy(server, **kwargs):
    env = ChunkVideo(gym.make("GCC/Stardew-Shopping", obs_size=(180, 320)), max_frames=4)
    policy = CradlePolicy(
        env, base_url=server.base_url, api_key_env=KEY,
        config=CradleConfig(modules=("action_planning",)), **kwargs,
    )  # fmt: skip
    obs, info = env.reset(seed=0)
    policy.reset(info)
    return env, policy, obs, info


def test_failed_steps_are_no_ops_with_the_reason_then_the_episode_ends(server):
    server.default = {"raw": MALFORMED["truncated"]}
    heard = []
    env, policy, obs, info = make_policy(
        server, llm=LLMConfig(max_retries=1, backoff_s=0), max_failed_steps=2,
        on_error=heard.append,
    )  # fmt: skip
    assert policy.act(obs, info) == ""  # a no-op step, and why
    assert "not JSON" in policy.last_info["reason"] and policy.stop_reason is None
    assert len(heard) == 1 and server.base_url in heard[0]
    assert policy.act(obs, info) == "DONE"
    assert policy.stop_reason.startswith("llm: 2 steps in a row failed")
    usage = policy.episode_info()
    assert usage["llm_failed_steps"] == 2 and "not JSON" in usage["last_llm_error"]
    assert usage["calls"] == 4 == len(server.chat_requests()) and usage["failed_calls"] == 4
    assert len(heard) == 1  # the first failure only
    env.close()


def test_a_good_reply_resets_the_count_of_failed_steps(server):
    bad = {"raw": MALFORMED["message-null"]}
    server.script(bad, MOVE, bad, MOVE)
    env, policy, obs, info = make_policy(
        server, llm=LLMConfig(max_retries=0, backoff_s=0), max_failed_steps=2
    )
    codes = [policy.act(obs, info) for _ in range(4)]
    assert codes == ["", "move_up(duration=0.5)", "", "move_up(duration=0.5)"]
    assert policy.stop_reason is None
    env.close()


def test_failed_requests_count_toward_the_call_budget(server):
    server.default = {"status": 500}
    env, policy, obs, info = make_policy(
        server, llm=LLMConfig(max_retries=5, backoff_s=0), max_llm_calls=3
    )
    assert policy.act(obs, info) == "DONE" and "call budget spent: 3" in policy.stop_reason
    assert len(server.chat_requests()) == 3 == policy.episode_info()["calls"]
    env.close()


def dead_url() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    return f"http://127.0.0.1:{port}/v1"


def test_run_against_a_dead_endpoint_stops_says_why_and_exits_1(monkeypatch, tmp_path, capsys):
    import agents.cradle.llm as llm

    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setattr(llm, "time", types.SimpleNamespace(
        perf_counter=llm.time.perf_counter, sleep=lambda s: None))  # fmt: skip
    url, out = dead_url(), tmp_path / "run"
    code = main([
        "run", "GCC/Stardew-Shopping", "--policy", "cradle", "--llm-base-url", url,
        "--episodes", "1", "--obs-size", "180", "320", "--no-video", "--quiet",
        "--out", str(out), "--llm-max-failed-steps", "2", "--llm-timeout-s", "5",
    ])  # fmt: skip
    assert code == 1
    (record,) = json.loads((out / "results.json").read_text())
    info = record["policy_info"]
    assert record["steps"] == 2 and info["stop_reason"].startswith("llm: 2 steps in a row")
    assert info["calls"] == info["failed_calls"] == 8  # 2 steps x (1 try + 3 retries)
    assert "APIConnectionError" in info["first_llm_error"]
    err = capsys.readouterr().err
    assert f"{url}: APIConnectionError" in err and "warning" in err
