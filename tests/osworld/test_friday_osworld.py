"""FRIDAY on ``GCC/OSWorld`` with ``code="sandbox"``: it learns a spreadsheet tool in a practice
episode (the critic keeps it; the env's check agrees), and a held-out task then succeeds by
retrieving and calling it, where the same task with an empty store fails — same seed, only the
store changed. A hostile tool reaches nothing outside the episode and ends at its deadline.
The model is a scripted loopback endpoint; the tools run for real, inside the sandbox."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.cradle.testing import FakeOpenAI
from agents.friday import FridayConfig, FridayPolicy, Store
from agents.friday.learn import learn
from agents.friday.testing import Script

pytestmark = [pytest.mark.desktop, pytest.mark.slow]
pytest.importorskip("openai")
pytest.importorskip("openpyxl")

REPORT = '''def write_report(path: str, cell: str, value: object, bold: bool = True) -> str:
    """Write value into cell of a new spreadsheet workbook (.xlsx) at path, bold if asked."""
    import os
    from openpyxl import Workbook
    from openpyxl.styles import Font
    wb = Workbook()
    wb.active[cell] = value
    wb.active[cell].font = Font(bold=bold)
    wb.save(os.path.expanduser(path))
    return f"saved {path}: {cell}={value!r} bold={bold}"
'''
#: Without the tool the scripted model does not know openpyxl: it writes text named .xlsx.
NAIVE = '''def write_text_report(path: str, text: str) -> str:
    """Write text into a file."""
    import os
    with open(os.path.expanduser(path), "w") as f:
        f.write(text)
    return f"wrote {path}"
'''


def _cell_check(path: str, cell: str) -> str:
    """A shell command that prints a workbook cell's value and boldness."""
    code = (f"from openpyxl import load_workbook; c = load_workbook('{path}').active['{cell}']; "
            "print(f'{c.value} bold={c.font.b}')")  # fmt: skip
    return f'{sys.executable} -c "{code}"'


PRACTICE = {"instruction": "Create ~/practice.xlsx with the number 7 in cell A1, in bold.",
            "check": _cell_check("/home/user/practice.xlsx", "A1"), "expect": "7 bold=True"}  # fmt: skip
HELD_OUT = {"id": "friday-held-out", "instruction": "Make ~/report.xlsx whose B2 says Total, in bold.",
            "related_apps": ["os"], "config": [],
            "evaluator": {"func": "check_include_exclude",
                          "result": {"type": "vm_command_line", "shell": True,
                                     "command": _cell_check("/home/user/report.xlsx", "B2")},
                          "expected": {"type": "rule", "rules": {"include": ["Total bold=True"]}}}}  # fmt: skip


def _plan(prompt: str) -> str:
    task = prompt.split("Task: ", 1)[1].splitlines()[0]
    return json.dumps({"subtasks": [{"id": "1", "description": task, "dependencies": []}]})


def _actor(prompt: str) -> str:
    practice = "practice.xlsx" in prompt
    args = "'~/practice.xlsx', 'A1', 7" if practice else "'~/report.xlsx', 'B2', 'Total'"
    if "- write_report:" in prompt:  # retrieved from the repository: call it
        return f"Reasoning: the repository has a tool for this.\nInvocation: write_report({args})"
    if practice:
        return f"Reasoning: no tool fits.\n```python\n{REPORT}```\nInvocation: write_report({args})"
    return f"Reasoning: write it.\n```python\n{NAIVE}```\nInvocation: write_text_report('~/report.xlsx', 'Total')"


def _critic(prompt: str) -> str:
    ok = "saved " in prompt or "wrote " in prompt  # judged from the code's output
    score = 9 if "saved " in prompt else 3
    return json.dumps({"complete": ok, "score": score, "reasoning": "judged from the output"})


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setenv("GCC_TEST_OPENAI_KEY", "test-token")
    s = FakeOpenAI(token="test-token").start()
    s.default = Script(curriculum=json.dumps({"tasks": [PRACTICE]}),
                       planner=_plan, actor=_actor, refiner=_actor, critic=_critic)  # fmt: skip
    try:
        yield s
    finally:
        s.stop()


def _policy(env: Any, server: FakeOpenAI, store: Path, **kw: Any) -> FridayPolicy:
    return FridayPolicy(env, base_url=server.base_url, model="fake-model",
                        api_key_env="GCC_TEST_OPENAI_KEY", store=store, **kw)  # fmt: skip


def _evaluate(env: Any, policy: FridayPolicy) -> tuple[float, dict[str, Any]]:
    obs, info = env.reset(seed=0, options={"task": HELD_OUT})
    policy.reset(info)
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(policy.act(obs, info))
        done = terminated or truncated
    return info["score"], policy.episode_info()


def test_learned_tool_makes_a_held_out_task_succeed_that_fails_with_an_empty_store(
    sandboxed: Any, server: FakeOpenAI, tmp_path: Path
) -> None:
    env, store = sandboxed, tmp_path / "store"
    learner = _policy(env, server, store)
    report = learn(env, learner, "spreadsheets with openpyxl", 1, log_path=tmp_path / "log.jsonl")
    (ep,) = report.episodes
    assert ep.tools_kept == ["write_report"] and ep.critic_success
    assert ep.checked and ep.env_success is True and ep.agree  # the env's check agrees
    kept = Store.open(store, readonly=True).tools["write_report"]
    assert kept.score == 9 and kept.provenance.episode == "learn-0"
    print(f"\nlearning episode: {ep.usage['calls']} calls, {ep.usage['prompt_tokens']} prompt + "
          f"{ep.usage['completion_tokens']} completion tokens; curriculum "
          f"{report.curriculum_usage}")  # fmt: skip

    empty = tmp_path / "empty"
    Store.open(empty)  # a fresh store: nothing learned
    snapshot = sorted(p.name for p in store.rglob("*"))
    results = {}
    for name, folder in (("learned", store), ("empty", empty)):
        policy = _policy(env, server, folder, store_readonly=True)
        results[name] = _evaluate(env, policy)
        policy.close()
        used = results[name][1]
        print(f"evaluation with the {name} store: score {results[name][0]}, {used['calls']} calls, "
              f"{used['prompt_tokens']} prompt + {used['completion_tokens']} completion tokens")  # fmt: skip
    (score, info), (empty_score, empty_info) = results["learned"], results["empty"]
    assert score == 1.0 and info["attempts"][0]["tool"] == "write_report"
    assert not info["attempts"][0]["new_tool"]  # retrieved and called, not rewritten
    assert empty_score == 0.0 and empty_info["attempts"][0]["tool"] == "write_text_report"
    assert sorted(p.name for p in store.rglob("*")) == snapshot  # read-only: nothing written


def test_hostile_tool_changes_nothing_outside_and_ends_at_its_deadline(
    sandboxed: Any, server: FakeOpenAI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deadline = 3.0  # the env's own deadline (30 s), shortened for the test
    monkeypatch.setattr(sandboxed.unwrapped, "code_timeout_s", deadline)
    out = tmp_path / "out"
    out.mkdir(mode=0o777)
    out.chmod(0o777)
    listener = socket.socket()
    listener.bind(("0.0.0.0", 0))
    listener.listen(1)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet: only asks for this machine's own address
        address = probe.getsockname()[0]
    except OSError:
        address = None
    finally:
        probe.close()
    if address is None or address.startswith("127."):
        pytest.skip("this machine has no non-loopback address to aim at")
    hostile = f'''def probe_everything() -> None:
    """Reach outside the home and the network, then never stop."""
    import pathlib, socket
    for p in ({str(out)!r}, "/etc", "/root"):
        try:
            pathlib.Path(p, "x").write_text("x")
        except OSError as e:
            print("no write:", p, type(e).__name__, flush=True)
    try:
        socket.create_connection(({address!r}, {port}), timeout=1).sendall(b"hi")
        print("connected", flush=True)
    except OSError as e:
        print("no network:", type(e).__name__, flush=True)
    while True:
        pass
'''
    server.default = Script(
        planner='{"subtasks": [{"id": "1", "description": "probe", "dependencies": []}]}',
        actor=f"Reasoning: try.\n```python\n{hostile}```\nInvocation: probe_everything()",
        critic=_critic,
    )  # fmt: skip
    accepted: list[Any] = []

    def accept() -> None:
        t_end = time.monotonic() + deadline + 5
        while time.monotonic() < t_end:
            try:
                accepted.append(listener.accept())
            except OSError:
                continue

    watcher = threading.Thread(target=accept, daemon=True)
    watcher.start()
    policy = _policy(sandboxed, server, tmp_path / "store", config=FridayConfig(max_refinements=0))
    obs, info = sandboxed.reset(seed=0, options={"task": HELD_OUT})
    policy.reset(info)
    action = policy.act(obs, info)
    t0 = time.monotonic()
    obs, _, _, _, info = sandboxed.step(action)
    took = time.monotonic() - t0
    watcher.join()
    listener.close()
    assert f"ran past {deadline:g} s" in info["last_action_error"]
    assert deadline <= took < deadline + 5
    assert (
        list(out.iterdir()) == [] and not Path("/etc/x").exists() and not Path("/root/x").exists()
    )
    assert accepted == []
    said = info.get("code_output") or ""
    assert f"no write: {out}" in said and "no network:" in said and "connected" not in said, said
    assert policy.act(obs, info) == "DONE"  # the critic saw the deadline; no refinement left
    assert policy.episode_info()["tools_kept"] == []
    assert not (tmp_path / "store" / "tools").exists()
    sandboxed.step("FAIL")
    policy.close()
