"""gcc-gym run --policy cradle talks to an OpenAI-compatible endpoint and records usage."""

from __future__ import annotations

import json

from agents.cli import main


def test_run_with_cradle_writes_llm_usage_into_results(server, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "test-token")
    server.default = "Reason: head south.\nAction:\n```python\nmove_down(duration=0.25)\n```"
    out = tmp_path / "run"
    code = main([
        "run", "GCC/Stardew-Shopping", "--policy", "cradle", "--llm-base-url", server.base_url,
        "--llm-model", "test-model", "--episodes", "1", "--obs-size", "180", "320",
        "--no-video", "--quiet", "--out", str(out),
    ])  # fmt: skip
    assert code == 0
    (record,) = json.loads((out / "results.json").read_text())
    assert record["policy"] == "cradle" and record["steps"] == 100
    usage = record["policy_info"]
    assert usage["calls"] == len(server.chat_requests()) > 0
    assert usage["prompt_tokens"] > 0
    assert {r.body["model"] for r in server.chat_requests()} == {"test-model"}


def test_run_with_cradle_reflects_on_the_video_of_the_last_action(server, monkeypatch, tmp_path):
    from agents.cradle.testing.replies import module_of

    monkeypatch.setenv("OPENAI_API_KEY", "test-token")
    server.default = "Reason: head south.\nAction:\n```python\nmove_down(duration=2)\n```"
    code = main([
        "run", "GCC/Stardew-Shopping", "--policy", "cradle", "--llm-base-url", server.base_url,
        "--episodes", "1", "--obs-size", "180", "320", "--no-video", "--quiet",
        "--out", str(tmp_path / "run"),
    ])  # fmt: skip
    assert code == 0
    reflections = [r for r in server.chat_requests() if module_of(r.body) == "self_reflection"]
    assert reflections
    # a 2 s action at 2 frames per game second: the chunk holds several frames, not one
    assert max(r.n_images for r in reflections) > 2
