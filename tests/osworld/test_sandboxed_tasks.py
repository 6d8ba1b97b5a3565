"""Task files run in the episode's sandbox: hostile ones reach nothing outside and never make
``reset`` raise; evaluator commands (``pactl``, ``which``, ``apt list``) run for real."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.desktop, pytest.mark.slow]


def _task(config: list[dict[str, Any]], **evaluator: Any) -> dict[str, Any]:
    return {"id": "gcc-hostile", "instruction": "Do nothing.", "related_apps": [],
            "config": config, "evaluator": evaluator or {"func": "infeasible"}}  # fmt: skip


def test_a_hostile_task_file_reaches_nothing_outside_and_reset_returns(
    osworld_env: Any, tmp_path: Path
) -> None:
    if shutil.which("xterm") is None:
        pytest.skip("needs xterm")
    out = tmp_path / "out"
    out.mkdir(mode=0o777)
    steps = [
        {"type": "launch", "parameters": {"command": ["xterm", "-e", "sh", "-c",
                                                      f"id > {out}/a; sleep 20"]}},
        {"type": "launch", "parameters": {"command": f"XDG_CONFIG_HOME={out} xterm -e "
                                                     f"sh -c 'touch {out}/b; sleep 20'"}},
        {"type": "execute", "parameters": {"command": f"echo x > {out}/c; touch /etc/d; "
                                                      "setsid -f sleep 1000", "shell": True}},
        {"type": "execute", "parameters": {"command": "echo x > /no/such/folder/f", "shell": True}},
        {"type": "execute", "parameters": {"command": "grep -E '(' /etc/hostname", "shell": True}},
        {"type": "execute", "parameters": {"command": "head -c 20000 /dev/zero | tr '\\0' a | "
                                                      "grep -E '(a+)+$'", "shell": True}},
        {"type": "execute", "parameters": {"command": "echo '2^999999' | bc | wc -c",
                                           "shell": True}},
        {"type": "execute", "parameters": {"command": "python3 -c \"print('['*100000)\" | jq .",
                                           "shell": True}},
        {"type": "execute", "parameters": {"command": ["no-such-program"]}},
    ]  # fmt: skip
    t0 = time.monotonic()
    _, info = osworld_env.reset(options={"task": _task(steps)})
    assert time.monotonic() - t0 < 120
    assert "setup_error" not in info, info.get("setup_error")
    notes = " ".join(info["setup_notes"])
    assert "No such file or directory" in notes and "no-such-program" in notes
    time.sleep(1)
    assert list(out.iterdir()) == [] and not Path("/etc/d").exists()
    _, _, terminated, _, info = osworld_env.step("FAIL")
    assert terminated and info["score"] == 1.0  # infeasible, and FAIL said


def test_evaluator_commands_of_the_ubuntu_desktop_run_and_score(osworld_env: Any) -> None:
    missing = [p for p in ("pulseaudio", "pactl", "xterm", "apt") if shutil.which(p) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (Debian: pulseaudio-utils pulseaudio xterm)")
    task = {
        "id": "gcc-volume", "instruction": "Set the sound volume to 40%.", "related_apps": ["os"],
        "config": [],
        "evaluator": {
            "func": ["exact_match", "check_include_exclude"], "conj": "and",
            "result": [
                {"type": "vm_command_line", "shell": True, "command":
                 "pactl get-sink-volume @DEFAULT_SINK@ | grep -oP '\\d+%' | head -1"},
                {"type": "vm_command_line", "shell": True, "command":
                 "which pactl; apt list --installed 2>/dev/null | grep -c pulseaudio-utils"},
            ],
            "expected": [{"type": "rule", "rules": {"expected": "40%\n"}},
                         {"type": "rule", "rules": {"include": ["/usr/bin/pactl\n1\n"]}}],
        },
    }  # fmt: skip
    _, info = osworld_env.reset(options={"task": task})
    assert "setup_error" not in info, info.get("setup_error")
    _, _, _, _, done = osworld_env.step("DONE")
    assert done["score"] == 0.0 and "100%" in done["evaluation"]["slots"][0]["result"]
    osworld_env.reset(options={"task": task})
    osworld_env.unwrapped.runner.running.episode.wait_title("Terminal", 20)
    osworld_env.step("pyautogui.write('pactl set-sink-volume @DEFAULT_SINK@ 40%')")
    osworld_env.step("pyautogui.press('enter')")
    time.sleep(1)
    _, _, _, _, done = osworld_env.step("DONE")
    assert done["score"] == 1.0, done["evaluation"]


def test_the_file_manager_opens_the_folder_the_task_names(osworld_env: Any) -> None:
    """``launch nautilus FOLDER`` (10 of the 305 task files here) opens GNOME Files on that
    folder, in the episode's home; reset waits for that window, titled by the folder."""
    if shutil.which("nautilus") is None:
        pytest.skip("needs nautilus (Debian: nautilus)")
    folder = "/home/user/Documents/Novels/Pass Through"
    steps = [
        {"type": "execute", "parameters": {"command": ["mkdir", "-p", folder]}},
        {"type": "execute", "parameters": {"command": ["touch", f"{folder}/chapter1.txt"]}},
        {"type": "launch", "parameters": {"command": ["nautilus", folder]}},
    ]
    _, info = osworld_env.reset(options={"task": _task(steps)})
    assert "setup_error" not in info and not info.get("unsupported"), info
    assert "nautilus runs as nautilus" in info["setup_notes"]
    titles = osworld_env.unwrapped.runner.running.probe.window_titles()
    assert "Pass Through" in titles, titles
    _, _, terminated, _, end = osworld_env.step("FAIL")
    assert terminated and end["score"] == 1.0
