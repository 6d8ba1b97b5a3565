"""GNOME's Ctrl+Alt+T on an OSWorld episode: the agent gets a terminal it can type into."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

#: A task with no programs (so no terminal) whose check reads a file the terminal must write.
TASK = {
    "id": "shortcut",
    "instruction": "Open a terminal and write hi into ~/hi.txt.",
    "config": [],
    "evaluator": {
        "func": "exact_match",
        "result": {"type": "vm_command_line", "command": "cat ~/hi.txt", "shell": True},
        "expected": {"type": "rule", "rules": {"expected": "hi\n"}},
    },
}


def _titles(env: Any) -> list[str]:
    return env.unwrapped.runner.running.probe.window_titles()


def test_ctrl_alt_t_opens_a_terminal_the_agent_types_into(osworld_env: Any) -> None:
    _, info = osworld_env.reset(options={"task": TASK})
    assert "setup_error" not in info and "Terminal" not in _titles(osworld_env)
    _, _, _, _, info = osworld_env.step("pyautogui.hotkey('ctrl', 'alt', 't')")
    assert info["last_action_error"] is None
    assert info["desktop_note"] == "Ctrl+Alt+T: opened a terminal"
    assert "Terminal" in _titles(osworld_env)
    _, _, _, _, info = osworld_env.step("pyautogui.hotkey('ctrl', 'alt', 't')")
    assert info["desktop_note"] == "Ctrl+Alt+T: focused the open terminal"  # not a second one
    assert _titles(osworld_env).count("Terminal") == 1
    osworld_env.step("pyautogui.typewrite('echo hi > ~/hi.txt'); pyautogui.press('enter')")
    time.sleep(1.0)
    _, _, _, _, end = osworld_env.step("DONE")
    assert end["score"] == 1.0, end["evaluation"]


def test_without_the_shortcut_no_terminal_opens(osworld_env: Any) -> None:
    osworld_env.reset(options={"task": TASK})
    _, _, _, _, info = osworld_env.step("pyautogui.hotkey('ctrl', 't')")
    assert "desktop_note" not in info and "Terminal" not in _titles(osworld_env)
    _, _, _, _, end = osworld_env.step("DONE")
    assert end["score"] == 0.0
