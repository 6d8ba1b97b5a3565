"""The LMM client over HTTP (the real openai package) against the loopback server."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import numpy as np
import pytest

from agents.cradle.llm import BudgetExceeded, LLMClient, LLMConfig, LLMError, user_message
from gcc_envs.errors import GCCError

KEY = "GCC_TEST_OPENAI_KEY"


def client(server, **kw) -> LLMClient:
    cfg = dict(base_url=server.base_url, api_key_env=KEY, timeout_s=2.0, backoff_s=0.01)
    return LLMClient(LLMConfig(**{**cfg, **kw}))


def test_server_refuses_a_request_without_the_token(server):
    req = urllib.request.Request(
        server.base_url + "/chat/completions",
        data=json.dumps({"model": "m", "messages": []}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=5)
    assert e.value.code == 401


def test_a_wrong_key_is_an_llm_error_without_retries(server, monkeypatch):
    monkeypatch.setenv(KEY, "wrong")
    with pytest.raises(LLMError, match="Authentication"):
        client(server).chat([user_message("hi")])
    assert [r.status for r in server.requests] == [401]


def test_the_api_key_is_read_when_the_client_is_made(server, monkeypatch):
    monkeypatch.delenv(KEY)
    with pytest.raises(GCCError, match=KEY):
        client(server)


def test_chat_sends_png_data_urls_and_sums_usage_and_cost(server):
    server.script("Description: a farm", "Description: a town")
    c = client(server, model="gpt-4o", seed=3)
    frame = np.zeros((36, 64, 3), np.uint8)
    r = c.chat([user_message("look", [frame, frame], "low")], module="gather")
    c.chat([user_message("look again", [frame], "high")], module="gather")
    assert r.text == "Description: a farm"
    rec = server.chat_requests()
    assert [x.n_images for x in rec] == [2, 1] and [x.details for x in rec] == [
        ["low"] * 2,
        ["high"],
    ]
    url = rec[0].body["messages"][0]["content"][1]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,") and rec[0].body["seed"] == 3
    u = c.ledger.by_module["gather"]
    assert u.calls == 2 and u.prompt_tokens == 1 + 85 * 2 + 2 + 85 and u.completion_tokens == 8
    assert u.cost_usd == pytest.approx((u.prompt_tokens * 2.5 + u.completion_tokens * 10) / 1e6)
    assert u.latency_s > 0 and c.ledger.episode.calls == 2


def test_http_500s_are_retried_a_bounded_number_of_times(server):
    server.script(*[{"status": 500}] * 10)
    with pytest.raises(LLMError, match="3 tries"):
        client(server, max_retries=2).chat([user_message("hi")])
    assert len(server.chat_requests()) == 3


def test_a_429_then_success_is_retried(server):
    server.script({"status": 429}, "ok")
    assert client(server).chat([user_message("hi")]).text == "ok"
    assert [r.status for r in server.chat_requests()] == [429, 200]


def test_a_reply_slower_than_the_timeout_is_retried_then_an_error(server):
    server.script(*[{"delay": 1.0, "text": "late"}] * 2)
    with pytest.raises(LLMError, match="Timeout"):
        client(server, timeout_s=0.2, max_retries=1).chat([user_message("hi")])
    assert len(server.chat_requests()) == 2


def test_the_call_budget_stops_further_calls(server):
    c = client(server, max_calls=2)
    c.chat([user_message("a")])
    c.chat([user_message("b")])
    with pytest.raises(BudgetExceeded, match="max_calls=2"):
        c.chat([user_message("c")])
    assert len(server.chat_requests()) == 2


def test_the_cost_budget_stops_further_calls(server):
    server.default = "x" * 4000
    c = client(server, max_cost_usd=1e-9)
    c.chat([user_message("a")])
    with pytest.raises(BudgetExceeded, match="max_cost_usd"):
        c.chat([user_message("b")])


def test_embeddings_are_unit_vectors_from_the_endpoint(server):
    c = client(server)
    v = c.embed(["move up", "move up", "buy item"])
    assert v.shape == (3, 64) and np.allclose(np.linalg.norm(v, axis=1), 1)
    assert v[0] @ v[1] == pytest.approx(1) and v[0] @ v[2] < 0.5
    assert c.ledger.by_module["embed"].calls == 1
