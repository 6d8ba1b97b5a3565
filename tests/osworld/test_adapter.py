"""``DesktopEnv`` runs OSWorld's agent loop (its runner, its ``PromptAgent``) unchanged;
hostile task files are contained."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from osworld_upstream import run_single_example
from solutions import SOLUTIONS

from gcc_envs.osworld.taskfile import bundled_paths

pytestmark = [pytest.mark.desktop]


def _example(key: str) -> dict[str, Any]:
    return json.loads(next(f for _, f in bundled_paths() if f.name.startswith(key)).read_text())


class ScriptedAgent:
    """An agent with OSWorld's agent interface (``reset``, ``predict``) that plays a script."""

    def __init__(self, actions: list[Any]) -> None:
        self.script = list(actions)

    def reset(self, _logger: Any = None) -> None:
        self.queue = list(self.script)

    def predict(self, instruction: str, obs: dict[str, Any]) -> tuple[str, list[Any]]:
        assert instruction and obs["screenshot"].startswith(b"\x89PNG")
        return "scripted", [self.queue.pop(0)] if self.queue else ["DONE"]


@pytest.fixture(scope="module")
def desktop_env() -> Iterator[Any]:
    if shutil.which("Xvfb") is None or shutil.which("xterm") is None:
        pytest.skip("needs Xvfb, openbox and xterm")
    from gcc_envs.osworld import DesktopEnv

    env = DesktopEnv(action_space="pyautogui", require_a11y_tree=False)
    yield env
    env.close()


def test_an_osworld_agent_loop_completes_a_task(desktop_env: Any, tmp_path: Path) -> None:
    example = _example("e0df059f")
    scores: list[float] = []
    run_single_example(ScriptedAgent(SOLUTIONS["e0df059f"]), desktop_env, example, 15,
                       example["instruction"], SimpleNamespace(sleep_after_execution=0.5),
                       str(tmp_path), scores, ready_s=0, settle_s=0)  # fmt: skip
    assert scores == [1.0]
    assert (tmp_path / "result.txt").read_text() == "1.0\n"
    assert next(tmp_path.glob("step_1_*.png")).read_bytes().startswith(b"\x89PNG")
    assert [json.loads(line)["action"] for line in open(tmp_path / "traj.jsonl")][-1] == "DONE"
    assert (tmp_path / "recording.mp4").stat().st_size > 0
    assert desktop_env.action_history[-1] == "DONE"


@pytest.fixture(scope="module")
def default_env() -> Iterator[Any]:
    """A ``DesktopEnv`` as OSWorld's ``run.py`` makes one (``require_a11y_tree=True``)."""
    if shutil.which("Xvfb") is None or shutil.which("xterm") is None:
        pytest.skip("needs Xvfb, openbox and xterm")
    from gcc_envs.osworld import DesktopEnv

    env = DesktopEnv(action_space="pyautogui")
    yield env
    env.close()


def _fenced(step: str) -> str:
    return f"The terminal is open; I rename the file.\n```python\n{step}\n```"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("answer", "score"),
    [(SOLUTIONS["e0df059f"][0], 1.0),
     (SOLUTIONS["e0df059f"][0].replace("Jan_2", "Jan_3"), 0.0)],
    ids=["right-action", "wrong-action"],
)  # fmt: skip
def test_osworlds_prompt_agent_scores_what_it_did(
    answer: str, score: float, default_env: Any, osworld_agent: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """OSWorld's own ``PromptAgent`` (screenshot and accessibility tree in, pyautogui code out)
    against a loopback OpenAI-compatible model that answers one action, then DONE."""
    from agents.cradle.testing import FakeOpenAI

    lmm = FakeOpenAI(token="osworld-token", default="DONE").start()
    monkeypatch.setenv("OPENAI_BASE_URL", lmm.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "osworld-token")
    lmm.script(_fenced(answer))
    try:
        agent = osworld_agent.PromptAgent(model="gpt-4o", action_space="pyautogui",
                                          observation_type="screenshot_a11y_tree")  # fmt: skip
        example = _example("e0df059f")
        scores: list[float] = []
        run_single_example(agent, default_env, example, 5, example["instruction"],
                           SimpleNamespace(sleep_after_execution=0.5), str(tmp_path), scores,
                           ready_s=0, settle_s=0)  # fmt: skip
    finally:
        lmm.stop()
    assert scores == [score]
    chats = lmm.chat_requests()
    assert [r.status for r in chats] == [200, 200] and chats[0].n_images == 1  # the screenshot
    user = chats[0].body["messages"][-1]["content"][0]["text"]
    assert "tag\tname\ttext\tclass" in user  # OSWorld linearised the tree it was given
    steps = [json.loads(line) for line in open(tmp_path / "traj.jsonl")]
    assert [s["info"] for s in steps] == [{}, {"done": True}]


def test_doing_nothing_scores_zero_and_fail_ends_the_episode(desktop_env: Any) -> None:
    obs = desktop_env.reset(task_config=_example("e0df059f"))
    assert obs["instruction"].startswith("I have a directory")
    obs, reward, done, info = desktop_env.step("FAIL", 0)
    assert done and info == {"fail": True} and reward == 0.0
    assert desktop_env.evaluate() == 0.0


def test_code_is_parsed_never_run(desktop_env: Any, tmp_path: Path) -> None:
    desktop_env.reset(task_config=_example("e0df059f"))
    marker = tmp_path / "ran"
    _, _, done, info = desktop_env.step(f"import os; os.system('touch {marker}')", 0)
    assert not done and "not allowed" in info["error"] and not marker.exists()


def test_computer_13_actions(tmp_path: Path) -> None:
    from gcc_envs.osworld import DesktopEnv

    env = DesktopEnv(action_space="computer_13", require_a11y_tree=False)
    try:
        env.reset(task_config=_example("e0df059f"))
        command = "mv ~/Desktop/todo_list_Jan_1 ~/Desktop/todo_list_Jan_2"
        for action in ({"action_type": "CLICK", "parameters": {"x": 300, "y": 200}},
                       {"action_type": "TYPING", "parameters": {"text": command}},
                       {"action_type": "PRESS", "parameters": {"key": "enter"}}, "DONE"):  # fmt: skip
            env.step(action, 0.3)
        time.sleep(1)
        assert env.evaluate() == 1.0
    finally:
        env.close()


# ---- hostile task files --------------------------------------------------------------------


def _hostile(config: list[dict], evaluator: dict | None = None) -> dict[str, Any]:
    return {"id": "hostile", "instruction": "nothing to do", "config": config,
            "evaluator": evaluator or {"func": "exact_match", "result": {"type": "vm_command_line",
                                       "command": "echo hi", "shell": True},
                                       "expected": {"type": "rule", "rules": {"expected": "hi\n"}}}}  # fmt: skip


@pytest.mark.parametrize(
    ("step", "refused"),
    [
        ({"type": "execute",
          "parameters": {"command": "echo pwned > /tmp/osworld-hostile-{tag}", "shell": True}}, False),
        ({"type": "execute", "parameters": {"command": ["touch", "/tmp/osworld-hostile-{tag}"]}}, False),
        ({"type": "command",
          "parameters": {"command": "cd /tmp && mkdir osworld-hostile-{tag}", "shell": True}}, False),
        ({"type": "execute",
          "parameters": {"command": ["python3", "-c", "open('/tmp/osworld-hostile-{tag}', 'w')"]}},
         False),
        ({"type": "launch", "parameters": {"command": ["bash", "-c", "touch /tmp/osworld-hostile-{tag}"]}},
         True),
        ({"type": "sleep", "parameters": {"seconds": 100000}}, True),
        ({"type": "download", "parameters": {"files": [{"url": "http://x", "path": "/tmp/y"}]}}, True),
    ],
    ids=["shell-write", "argv-touch", "cd-mkdir", "python", "launch-bash", "sleep-step", "download"],
)  # fmt: skip
def test_hostile_setup_runs_in_the_sandbox_and_changes_nothing_outside(
    osworld_env: Any, step: dict, refused: bool
) -> None:
    """Commands run for real, in the episode's sandbox (its private /tmp); what cannot run at
    all is refused with the reason."""
    tag = f"{os.getpid()}-{time.monotonic_ns()}"
    step = json.loads(json.dumps(step).replace("{tag}", tag))
    before = set(os.listdir("/tmp"))
    t0 = time.monotonic()
    _, info = osworld_env.reset(options={"task": _hostile([step])})
    assert time.monotonic() - t0 < 30, "a setup step ran past its timeout"
    # refused by the setup step itself, or before it by support() (a launch of a program the
    # runner does not map); either way the reason is in info and in the verdict's notes
    reason = info.get("setup_error") or info.get("unsupported")
    assert bool(reason) == refused, reason
    assert not any(name.startswith("osworld-hostile-") for name in set(os.listdir("/tmp")) - before)
    _, _, _, _, end = osworld_env.step("DONE")
    assert end["score"] == (0.0 if refused else 1.0), end["evaluation"]
    if refused:
        notes = " ".join(end["evaluation"]["notes"])
        assert "setup failed" in notes or f"unsupported: {reason}" in notes, notes


def test_a_getter_path_traversal_reads_nothing_outside(osworld_env: Any, tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("CPU")
    evaluator = {"func": "file_contains", "expected": {"type": "rule", "rules": {"expected": ["CPU"]}},
                 "result": {"type": "vm_file", "path": f"/home/user/../../../..{secret}"}}  # fmt: skip
    osworld_env.reset(options={"task": _hostile([], evaluator)})
    _, _, _, _, end = osworld_env.step("DONE")
    assert end["score"] == 0.0 and "outside" in " ".join(end["evaluation"]["notes"])


def test_the_gym_env_takes_computer_13_through_use_code(osworld_env: Any) -> None:
    from wrappers import UseCode

    env = UseCode(osworld_env)
    env.reset(options={"task": "e0df059f"})
    command = "mv ~/Desktop/todo_list_Jan_1 ~/Desktop/todo_list_Jan_2"
    for action in ({"action_type": "CLICK", "x": 300, "y": 200}, {"action_type": "TYPING", "text": command},
                   {"action_type": "PRESS", "key": "enter"}, {"action_type": "WAIT"}, {"action_type": "DONE"}):  # fmt: skip
        _, _, _, _, info = env.step(action)
        assert info["last_action_error"] is None, info["last_action_error"]
    assert info["score"] == 1.0 and info["success"]
