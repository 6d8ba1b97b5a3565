"""``gcc-gym learn`` and ``gcc-gym run --policy friday`` on a simulator (no sandbox: GUI tools
read by the env's safe parser), against a scripted loopback endpoint."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.cli import main
from agents.cradle.testing import FakeOpenAI
from agents.friday.testing import Script

pytest.importorskip("openai")

CURRICULUM = json.dumps({"tasks": [
    {"instruction": "Walk south a little.", "check": None, "expect": None},
    {"instruction": "Walk south a little, twice as far.", "check": None, "expect": None},
]})  # fmt: skip
PLAN = '{"subtasks": [{"id": "1", "description": "walk south", "dependencies": []}]}'


def _actor(prompt: str) -> str:
    if "walk_south()" in prompt:  # the tool was retrieved: call it
        return "Reasoning: the tool does it.\nInvocation: walk_south()"
    return ("Reasoning: move down.\n```python\nmove_down(duration=0.25)\n```\n"
            "Tool: walk_south\nDescription: Walk south for a quarter second")  # fmt: skip


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setenv("OPENAI_API_KEY", "test-token")
    s = FakeOpenAI(token="test-token").start()
    s.default = Script(curriculum=CURRICULUM, planner=PLAN, actor=_actor,
                       critic='{"complete": true, "score": 9, "reasoning": "moved"}')  # fmt: skip
    try:
        yield s
    finally:
        s.stop()


def test_learn_keeps_a_gui_tool_and_reuses_it_in_the_next_episode(
    server: FakeOpenAI, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store, out = tmp_path / "store", tmp_path / "learn"
    code = main([
        "learn", "GCC/Stardew-Shopping", "--objective", "walking around the farm",
        "--policy", "friday", "--store", str(store), "--episodes", "2",
        "--llm-base-url", server.base_url, "--llm-model", "fake-model", "--out", str(out),
        "--env-kwargs", '{"obs_size": [90, 160]}',
    ])  # fmt: skip
    assert code == 0
    lines = [json.loads(x) for x in (out / "log.jsonl").read_text().splitlines()]
    assert [e["tools_kept"] for e in lines] == [["walk_south"], []]
    assert [e["attempts"][0]["tool"] for e in lines] == ["walk_south", "walk_south"]
    assert [e["attempts"][0]["new_tool"] for e in lines] == [True, False]
    assert all(
        e["critic_success"] and e["env_success"] is None and e["agree"] is None for e in lines
    )
    chats = [{k: v["calls"] for k, v in e["usage"]["by_module"].items() if k != "retrieval"}
             for e in lines]  # fmt: skip
    assert chats == [{"planner": 1, "actor": 1, "critic": 1}] * 2
    # embeddings: none while the store is empty, then the tool and each new query once
    assert [e["usage"]["by_module"].get("retrieval", {}).get("calls", 0) for e in lines] == [0, 2]
    saved = json.loads((store / "tools" / "walk_south.json").read_text())
    assert saved["language"] == "calls" and saved["score"] == 9
    assert saved["provenance"] == {"task": "Walk south a little.", "episode": "learn-0",
                                   "model": "fake-model"}  # fmt: skip
    assert (store / "tools" / "walk_south.txt").read_text() == "move_down(duration=0.25)\n"
    report = json.loads((out / "report.json").read_text())
    assert report["curriculum_usage"]["calls"] == 1 and len(report["curriculum"]) == 2
    assert "learned 1 tool(s): walk_south" in capsys.readouterr().out


def test_run_with_friday_uses_a_readonly_store_and_reports_usage(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    store = tmp_path / "store"
    (store / "tools").mkdir(parents=True)
    (store / "friday-store.json").write_text('{"format": 1}')
    (store / "tools" / "walk_south.txt").write_text("move_down(duration=0.25)\n")
    (store / "tools" / "walk_south.json").write_text(json.dumps({
        "name": "walk_south", "description": "Walk south", "signature": "walk_south()",
        "language": "calls", "source": "walk_south.txt", "score": 9}))  # fmt: skip
    before = sorted(p.name for p in store.rglob("*"))
    out = tmp_path / "run"
    code = main([
        "run", "GCC/Stardew-Shopping", "--policy", "friday", "--store", str(store),
        "--store-readonly", "--llm-base-url", server.base_url, "--episodes", "1",
        "--obs-size", "90", "160", "--no-video", "--quiet", "--out", str(out),
    ])  # fmt: skip
    assert code == 0
    (record,) = json.loads((out / "results.json").read_text())
    info = record["policy_info"]
    assert record["policy"] == "friday" and record["steps"] == 2  # the tool's call, then DONE
    assert info["critic_success"] and info["attempts"][0]["tool"] == "walk_south"
    assert len(server.chat_requests()) == 3  # planner, actor, critic
    assert info["calls"] == len(server.requests) == 5  # and 2 embedding requests
    assert sorted(p.name for p in store.rglob("*")) == before


def test_learn_refuses_a_readonly_store(server: FakeOpenAI, tmp_path: Path) -> None:
    code = main(["learn", "GCC/Stardew-Shopping", "--objective", "x", "--store",
                 str(tmp_path / "s"), "--store-readonly"])  # fmt: skip
    assert code == 2
