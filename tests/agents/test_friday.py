"""FRIDAY on a scripted loopback endpoint: the plan's DAG, the store, the critic's threshold,
bounded refinement, retrieval, and hostile model output — no desktop needed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from agents.cradle.llm import LLMError
from agents.cradle.testing import FakeOpenAI
from agents.friday import FridayConfig, FridayPolicy, Store
from agents.friday.actor import read_reply
from agents.friday.critic import parse_verdict
from agents.friday.curriculum import parse_curriculum
from agents.friday.memory import Fact
from agents.friday.planner import parse_plan
from agents.friday.reply import MAX_REPLY_CHARS, ReplyError
from agents.friday.retrieval import Retriever
from agents.friday.testing import Script
from agents.friday.tools import Provenance, ToolError, make_tool, parse_call, python_tool
from gcc_envs.errors import DataError

pytest.importorskip("openai")

REPORT = '''def write_report(path: str, cell: str, value: object, bold: bool = True) -> str:
    """Write value into cell of a new spreadsheet workbook at path (openpyxl), bold if asked."""
    import os
    from openpyxl import Workbook
    from openpyxl.styles import Font
    wb = Workbook()
    wb.active[cell] = value
    wb.active[cell].font = Font(bold=bold)
    wb.save(os.path.expanduser(path))
    return f"saved {path}"
'''
NEW_TOOL = f"Reasoning: no tool fits.\n```python\n{REPORT}```\nInvocation: write_report('~/r.xlsx', 'A1', 42)"
ONE_STEP = '{"subtasks": [{"id": "1", "description": "write the report", "dependencies": []}]}'


class CodeEnv(gym.Env):
    """A stand-in for an env with ``code="sandbox"``: records each action's text and answers
    with the feedback ``feedback(action)`` gives (error, output); ``DONE`` ends the episode."""

    def __init__(self, feedback: Callable[[str], tuple[str | None, str]] | None = None) -> None:
        self.code = "sandbox"
        self.observation_space = gym.spaces.Box(0, 255, (24, 32, 3), np.uint8)
        self.action_space = gym.spaces.Text(100_000)
        self.feedback = feedback or (lambda a: (None, "saved"))
        self.actions: list[str] = []

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple:
        super().reset(seed=seed)
        return np.zeros((24, 32, 3), np.uint8), {"instruction": "Make the report."}

    def step(self, action: str) -> tuple:
        self.actions.append(action)
        obs = np.zeros((24, 32, 3), np.uint8)
        if action == "DONE":
            return obs, 0.0, True, False, {"success": True}
        error, output = self.feedback(action)
        return obs, 0.0, False, False, {"last_action_error": error, "code_output": output}


def _policy(server: FakeOpenAI, env: gym.Env, **kw: Any) -> FridayPolicy:
    return FridayPolicy(env, base_url=server.base_url, model="fake-model",
                        api_key_env="GCC_TEST_OPENAI_KEY", **kw)  # fmt: skip


def _episode(env: gym.Env, policy: FridayPolicy, limit: int = 20) -> dict[str, Any]:
    obs, info = env.reset(seed=0)
    policy.reset(info)
    for _ in range(limit):
        obs, _, terminated, truncated, info = env.step(policy.act(obs, info))
        if terminated or truncated:
            break
    return policy.episode_info()


# ---- the plan


def test_plan_with_a_cycle_or_unknown_dependency_is_refused() -> None:
    cyc = {"subtasks": [{"id": "a", "description": "x", "dependencies": ["c"]},
                        {"id": "b", "description": "y", "dependencies": ["a"]},
                        {"id": "c", "description": "z", "dependencies": ["b"]}]}  # fmt: skip
    with pytest.raises(ReplyError, match="cycle: a -> c -> b -> a"):
        parse_plan(json.dumps(cyc))
    with pytest.raises(ReplyError, match="depends on unknown 'q'"):
        parse_plan('{"subtasks": [{"id": "a", "description": "x", "dependencies": ["q"]}]}')
    with pytest.raises(ReplyError, match="'a' is used by more than one"):
        parse_plan(
            '{"subtasks": [{"id": "a", "description": "x"}, {"id": "a", "description": "y"}]}'
        )
    with pytest.raises(ReplyError, match="cycle: a -> a"):
        parse_plan('{"subtasks": [{"id": "a", "description": "x", "dependencies": ["a"]}]}')


def test_plan_orders_the_papers_graph_by_its_dependencies() -> None:
    # the paper's appendix A: 1, 2, 3 first; 4 after 2; 6 after 3; 5 after 1 and 4
    deps = {"1": [], "2": [], "3": [], "4": ["2"], "5": ["1", "4"], "6": ["3"]}
    raw = {"subtasks": [{"id": k, "description": f"task {k}", "dependencies": v}
                        for k, v in reversed(deps.items())]}  # fmt: skip
    order = [s.id for s in parse_plan(json.dumps(raw)).order]
    assert sorted(order) == sorted(deps)
    for k, v in deps.items():
        assert all(order.index(d) < order.index(k) for d in v)


# ---- the store


def test_store_round_trips_and_a_copied_folder_is_a_snapshot(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s")
    prov = Provenance("make a report", "learn-0", "fake-model")
    tool = python_tool(REPORT, "write_report", provenance=prov).scored(9)
    store.add_tool(tool)
    store.add_tool(make_tool("bash", 'ls "$1" | wc -l\n', "count_files", "Count files in a folder"))
    store.add_fact(Fact("calc", "openpyxl writes .xlsx files", prov))
    (tmp_path / "s" / "memory" / "profile.json").write_text('{"name": "Ada"}')
    assert sorted(p.name for p in (tmp_path / "s" / "tools").iterdir()) == [
        "count_files.json", "count_files.sh", "write_report.json", "write_report.py"]  # fmt: skip
    shutil.copytree(tmp_path / "s", tmp_path / "snapshot")
    store.add_tool(make_tool("bash", "true\n", "later", "Learned after the snapshot"))
    again = Store.open(tmp_path / "snapshot", readonly=True)
    assert again.tools["write_report"] == tool
    assert set(again.tools) == {"write_report", "count_files"}
    assert again.memory.facts == store.memory.facts and again.memory.profile == {"name": "Ada"}
    with pytest.raises(Exception, match="read-only"):
        again.add_tool(tool)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: (d / "tools" / "write_report.json").write_text("{nope"), r"write_report.json: not JSON"),
        (lambda d: (d / "tools" / "write_report.py").unlink(), r"write_report.py: the tool's source cannot be read"),
        (lambda d: (d / "tools" / "write_report.py").write_text("def other():\n    pass\n"),
         r"write_report.py: tool write_report: the source defines no function write_report\(\)"),
        (lambda d: (d / "tools" / "write_report.py").write_text("def write_report(:\n"), r"write_report.py: .*syntax error"),
        (lambda d: (d / "tools" / "write_report.json").write_text(
            (d / "tools" / "write_report.json").read_text().replace('"score": 9', '"score": "high"')),
         r"write_report.json: 'score' must be a whole number 0-10"),
        (lambda d: (d / "tools" / "write_report.json").write_text(
            (d / "tools" / "write_report.json").read_text().replace('write_report.py', '../../etc/passwd')),
         r"write_report.json: 'source' must be 'write_report.py'"),
        (lambda d: (d / "memory" / "facts.json").write_text('{"facts": [3]}'), r"facts.json: facts\[0\]"),
        (lambda d: (d / "friday-store.json").unlink(), r"friday-store.json: not a FRIDAY store"),
    ],
)  # fmt: skip
def test_store_errors_name_the_file(
    tmp_path: Path, edit: Callable[[Path], Any], message: str
) -> None:
    store = Store.open(tmp_path / "s")
    store.add_tool(python_tool(REPORT, "write_report").scored(9))
    store.add_fact(Fact("calc", "a fact"))
    edit(tmp_path / "s")
    with pytest.raises(DataError, match=message):
        Store.open(tmp_path / "s")


def test_readonly_store_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no FRIDAY store there"):
        Store.open(tmp_path / "missing", readonly=True)


# ---- the critic's threshold and the refinement bound


@pytest.mark.parametrize(("score", "kept"), [(8, False), (9, True), (10, True)])
def test_a_new_tool_is_kept_only_when_scored_above_8(
    server: FakeOpenAI, tmp_path: Path, score: int, kept: bool
) -> None:
    server.default = Script(planner=ONE_STEP, actor=NEW_TOOL,
                            critic=f'{{"complete": true, "score": {score}, "reasoning": "ok"}}')  # fmt: skip
    env = CodeEnv()
    policy = _policy(server, env, store=tmp_path / "s")
    info = _episode(env, policy)
    assert info["critic_success"] and env.actions[-1] == "DONE"
    assert (
        env.actions[0].startswith("def write_report(")
        and "write_report('~/r.xlsx', 'A1', 42)" in env.actions[0]
    )
    assert info["tools_kept"] == (["write_report"] if kept else [])
    assert (tmp_path / "s" / "tools" / "write_report.json").exists() == kept
    if kept:
        saved = json.loads((tmp_path / "s" / "tools" / "write_report.json").read_text())
        assert saved["score"] == score and saved["provenance"] == {
            "task": "Make the report.", "episode": "episode-1", "model": "fake-model"}  # fmt: skip


def test_a_readonly_store_learns_nothing(server: FakeOpenAI, tmp_path: Path) -> None:
    Store.open(tmp_path / "s")
    server.default = Script(planner=ONE_STEP, actor=NEW_TOOL,
                            critic='{"complete": true, "score": 10, "facts": ["xlsx via openpyxl"]}')  # fmt: skip
    env = CodeEnv()
    info = _episode(env, _policy(server, env, store=tmp_path / "s", store_readonly=True))
    assert info["critic_success"] and info["tools_kept"] == []
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["friday-store.json"]


def test_a_failing_subtask_is_refined_three_times_then_given_up(server: FakeOpenAI) -> None:
    server.default = Script(
        planner='{"subtasks": [{"id": "a", "description": "write it"},'
                ' {"id": "b", "description": "mail it", "dependencies": ["a"]}]}',
        actor=NEW_TOOL, refiner=NEW_TOOL,
        critic='{"complete": false, "score": 2, "reasoning": "no file", "suggestion": "save it"}',
    )  # fmt: skip
    env = CodeEnv(lambda a: ("the code failed (exit status 1): PermissionError", ""))
    info = _episode(env, _policy(server, env))
    assert server.default.asked.count("actor") == 1 and server.default.asked.count("refiner") == 3
    assert server.default.asked.count("critic") == 4
    assert len(env.actions) == 5 and env.actions[-1] == "DONE"  # 4 attempts, then DONE
    assert info["subtasks"] == {"a": "failed", "b": "failed"} and not info["critic_success"]
    assert [a["attempt"] for a in info["attempts"]] == [0, 1, 2, 3]
    refine = [r for r in server.chat_requests() if "[friday.refiner]" in json.dumps(r.body)][0]
    assert "PermissionError" in json.dumps(refine.body) and "save it" in json.dumps(refine.body)


def test_an_endpoint_failure_mid_refinement_keeps_the_count_and_the_feedback(
    server: FakeOpenAI,
) -> None:
    fail = '{"complete": false, "score": 2, "reasoning": "no file", "suggestion": "save it"}'
    server.default = Script(planner=ONE_STEP, actor=NEW_TOOL, refiner=NEW_TOOL, critic=fail)
    server.script(ONE_STEP, NEW_TOOL, fail, {"status": 400})  # the first refiner call fails
    env = CodeEnv(lambda a: ("the code failed (exit status 1): PermissionError", ""))
    info = _episode(env, _policy(server, env))
    assert env.actions[1] == "WAIT" and env.actions[-1] == "DONE"  # the failed step: a no-op
    assert len(env.actions) == 6  # 4 attempts, the no-op, DONE
    assert [a["attempt"] for a in info["attempts"]] == [0, 1, 2, 3]
    assert info["llm_failed_steps"] == 1 and "400" in info["first_llm_error"]
    refines = [r for r in server.chat_requests() if "[friday.refiner]" in json.dumps(r.body)]
    assert len(refines) == 4 and all("save it" in json.dumps(r.body) for r in refines)


# ---- retrieval


def test_retrieval_picks_the_relevant_tool_by_embeddings_and_by_tfidf(server: FakeOpenAI) -> None:
    tools = [
        python_tool(REPORT, "write_report"),
        make_tool("bash", 'curl -s "$1"\n', "fetch_page", "Download a web page and print its HTML"),
        make_tool(
            "bash", 'convert "$1" -resize 50% "$2"\n', "shrink_image", "Halve an image's size"
        ),
    ]
    query = "put the total in a bold cell of a spreadsheet workbook"
    env = CodeEnv()
    policy = _policy(server, env)
    picked = policy.retriever.top_k(query, [t.doc() for t in tools], 1)
    assert policy.retriever.mode == "embedding" and tools[picked[0][0]].name == "write_report"
    assert [r.path for r in server.requests][-1].endswith("/embeddings")
    calls = len(server.requests)
    policy.retriever.top_k(query, [t.doc() for t in tools], 1)
    assert len(server.requests) == calls  # cached: no second request

    def no_embeddings(texts: Any) -> np.ndarray:
        raise LLMError("404 Not Found")

    lexical = Retriever(no_embeddings)
    assert tools[lexical.top_k(query, [t.doc() for t in tools], 1)[0][0]].name == "write_report"
    assert lexical.mode == "tfidf" and lexical.embed is None  # never asked again


def test_the_actor_is_shown_the_retrieved_tool_and_calls_it(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    store = Store.open(tmp_path / "s")
    store.add_tool(python_tool(REPORT, "write_report").scored(9))
    store.add_tool(make_tool("bash", 'curl -s "$1"\n', "fetch_page", "Download a web page"))
    server.default = Script(
        planner=ONE_STEP,
        actor=lambda p: "Invocation: write_report('~/q.xlsx', 'B2', 'Total')" if "write_report(" in p else "?",
        critic='{"complete": true, "score": 10}',
    )  # fmt: skip
    env = CodeEnv()
    info = _episode(env, _policy(server, env, store=tmp_path / "s", store_readonly=True,
                                 config=FridayConfig(top_k_tools=1)))  # fmt: skip
    assert info["critic_success"] and info["attempts"][0]["tool"] == "write_report"
    assert not info["attempts"][0]["new_tool"] and info["tools_kept"] == []
    assert env.actions[0] == REPORT.rstrip() + (
        "\n\n_friday_result = write_report('~/q.xlsx', 'B2', 'Total')\n"
        "if _friday_result is not None:\n    print(_friday_result)\n")  # fmt: skip
    actor_prompt = next(r for r in server.chat_requests() if "[friday.actor]" in json.dumps(r.body))
    assert "fetch_page" not in json.dumps(actor_prompt.body)  # top_k_tools=1: only the best


# ---- hostile model output


def test_hostile_model_output_gives_clear_errors() -> None:
    with pytest.raises(ReplyError, match="holds no JSON object"):
        parse_plan("Sure! First I will open the file.")
    with pytest.raises(ReplyError, match=f"characters; at most {MAX_REPLY_CHARS:,}"):
        parse_plan('{"subtasks": [' + " " * MAX_REPLY_CHARS + "]}")
    with pytest.raises(ReplyError, match="'subtasks' must be a non-empty list, got a string"):
        parse_plan('{"subtasks": "all of them"}')
    with pytest.raises(
        ReplyError, match=r"subtasks\[0\].dependencies must be a list of ids, got a string"
    ):
        parse_plan('{"subtasks": [{"id": "1", "description": "x", "dependencies": "none"}]}')
    with pytest.raises(ReplyError, match="holds NaN, which is not JSON"):
        parse_verdict('{"complete": true, "score": NaN}')
    with pytest.raises(ReplyError, match="'complete' must be true or false, got a string"):
        parse_verdict('{"complete": "yes", "score": 9}')
    with pytest.raises(ReplyError, match="'score' must be a whole number 0-10, got 'nine'"):
        parse_verdict('{"complete": true, "score": "nine"}')
    with pytest.raises(ReplyError, match="'score' must be a whole number 0-10, got 11"):
        parse_verdict('{"complete": true, "score": 11}')
    with pytest.raises(ReplyError, match="nests too deep"):
        parse_verdict('{"a": ' + "[" * 5000 + "]" * 5000 + "}")
    with pytest.raises(ReplyError, match="give both 'check' and 'expect'"):
        parse_curriculum('{"tasks": [{"instruction": "x", "check": "ls"}]}')
    with pytest.raises(ReplyError, match="is a number, not an object"):
        parse_curriculum('{"tasks": [3]}')


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ("Reasoning: easy.", "no 'Invocation:' line"),
        ("Invocation: __import__('os').system('rm -rf ~')", "one call of a tool"),
        ("Invocation: write_report(open('/etc/passwd').read())", "must be literals"),
        ("Invocation: rm_everything()", "calls rm_everything, which is not a tool here"),
        ("Invocation: write_report(*['a'])", "may not use"),
        ("```python\nimport os\n```\nInvocation: nuke()", r"defines no function nuke\(\)"),
        ("```python\ndef f(:\n```\nInvocation: f()", "syntax error"),
        ("```python\ndef f():\n    return 1\n```\nInvocation: f()", "give it a docstring"),
        ("```ruby\nputs 1\n```\nInvocation: f()", "tagged 'ruby'"),
        ("Invocation: " + "write_report(" + "[" * 10 + "]" * 10 + ")", "nest deeper"),
    ],
)
def test_hostile_actor_replies_are_refused_with_a_reason(reply: str, message: str) -> None:
    offered = {"write_report": python_tool(REPORT, "write_report")}
    with pytest.raises(ReplyError, match=message):
        read_reply(reply, "sandbox", offered)


def test_gui_actions_go_through_the_envs_safe_parser() -> None:
    with pytest.raises(ToolError, match="safe parser"):
        read_reply("```python\nimport os\nos.system('x')\n```", "gui", {})
    tool, call, new, code = read_reply(
        "```python\npyautogui.hotkey('ctrl', 's')\n```\nTool: save_file\nDescription: Save",
        "gui",
        {},
    )
    assert (
        new
        and tool is not None
        and tool.language == "calls"
        and code == "pyautogui.hotkey('ctrl', 's')\n"
    )
    assert parse_call("save_file()", {"save_file"}).name == "save_file"


def test_unusable_replies_use_up_attempts_and_nothing_is_sent(server: FakeOpenAI) -> None:
    server.default = Script(planner="no plan today", actor="x" * (MAX_REPLY_CHARS + 1),
                            refiner='{"not": "a tool"}', critic="?")  # fmt: skip
    env = CodeEnv()
    info = _episode(env, _policy(server, env))
    assert "holds no JSON object" in info["plan_error"]  # asked twice, then the task as one step
    assert env.actions == ["DONE"] and info["subtasks"] == {"task": "failed"}
    errors = [a["error"] for a in info["attempts"]]
    assert "characters; at most" in errors[0] and all("Invocation" in e for e in errors[1:])
    assert len(errors) == 4


def test_the_llm_budget_ends_the_episode_with_done(server: FakeOpenAI) -> None:
    server.default = Script(planner=ONE_STEP, actor=NEW_TOOL, refiner=NEW_TOOL,
                            critic='{"complete": false, "score": 0}')  # fmt: skip
    env = CodeEnv()
    info = _episode(env, _policy(server, env, max_llm_calls=3))
    assert env.actions[-1] == "DONE" and info["calls"] == 3
    assert info["stop_reason"].startswith("budget: call budget spent")
