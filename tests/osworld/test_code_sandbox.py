"""``code="sandbox"``: an agent's Python action runs for real inside the episode's sandbox —
loops and variables work, the display gets its input, nothing outside the episode is
reached, a runaway is stopped at its deadline and keys it leaves held are released."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gcc_envs.errors import GCCError
from gcc_envs.osworld.code_sandbox import check_mode, run_code

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

LOOP = """
lines = []
for i in range(3):
    lines.append(f"echo {i * i} >> ~/squares.txt")
for line in lines:
    pyautogui.typewrite(line + "\\n", interval=0.005)
time.sleep(1.0)
print("typed", len(lines))
"""


def _task() -> dict[str, Any]:
    return {"id": "gcc-code", "instruction": "Write the first three squares to ~/squares.txt.",
            "related_apps": ["os"], "config": [],
            "evaluator": {"func": "exact_match",
                          "result": {"type": "vm_file", "path": "/home/user/squares.txt", "dest": "s"},
                          "expected": {"type": "rule", "rules": {"expected": "0\n1\n4\n"}}}}  # fmt: skip


def test_code_with_loops_runs_in_the_episode_and_scores(sandboxed: Any) -> None:
    env = sandboxed
    env.reset(options={"task": _task()})
    env.step("pyautogui.click(300, 200)")
    _, _, _, _, info = env.step(LOOP)
    assert info["last_action_error"] is None and "typed 3" in info["code_output"]
    _, _, terminated, _, info = env.step("DONE")
    assert terminated and info["score"] == 1.0, info["evaluation"]
    env.unwrapped.code = "parse"  # the safe parser refuses the same code whole
    env.reset(options={"task": _task()})
    _, _, _, _, info = env.step(LOOP)
    assert info["last_action_error"]
    _, _, _, _, info = env.step("DONE")
    assert info["score"] == 0.0


def test_code_reaches_nothing_outside_and_cannot_hang_or_hold_keys(
    sandboxed: Any, tmp_path: Path
) -> None:
    env = sandboxed
    out = tmp_path / "out"
    out.mkdir(mode=0o777)
    env.reset(options={"task": _task()})
    hostile = (f"import os, pathlib\nfor p in ({str(out)!r}, '/etc', '/root'):\n"
               "    try:\n        pathlib.Path(p, 'x').write_text('x')\n    except OSError:\n        pass\n"
               "os.system('touch /tmp/inside')\npyautogui.keyDown('shift')\n")  # fmt: skip
    _, _, _, _, info = env.step(hostile)
    assert info["last_action_error"] is None
    assert (
        list(out.iterdir()) == []
        and not Path("/etc/x").exists()
        and not Path("/tmp/inside").exists()
    )
    assert env.unwrapped.backend.x.pressed_keycodes() == set()  # the shift it left down: released
    _, _, _, _, info = env.step("raise ValueError('no luck')")
    assert "ValueError: no luck" in info["last_action_error"]
    episode = env.unwrapped.runner.running.episode
    ran = run_code(episode, "while True:\n    pass\n", timeout_s=2.0)
    assert ran.error is not None and "ran past 2 s" in ran.error
    with pytest.raises(GCCError, match="code must be one of"):
        check_mode("exec")
    env.step("FAIL")
