"""``support()``: whether a task runs here and why not, read from the task file alone; and the
verdicts OSWorld gives whatever the setup did (an infeasible task's final FAIL scores 1)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from gcc_envs.osworld.bundled import BUNDLED
from gcc_envs.osworld.episode import EpisodeRunner, _Running, unsupported
from gcc_envs.osworld.support import support, task_urls
from gcc_envs.osworld.taskfile import bundled_paths, load_task, parse_task

EVERYWHERE = {"which": lambda program: f"/usr/bin/{program}"}
URL = "https://files.example.org/task/report.xlsx"


def _raw(task_id: str) -> dict[str, Any]:
    path = next(f for _, f in bundled_paths() if f.name.startswith(task_id))
    return json.loads(Path(str(path)).read_text())


def _with(task_id: str, **changes: Any) -> Any:
    raw = copy.deepcopy(_raw(task_id))
    for key, value in changes.items():
        raw[key] = value
    return parse_task(raw, "custom")


def test_every_bundled_task_runs_where_its_programs_are_but_the_two_machine_wide_ones() -> None:
    verdicts = {t: support(load_task(t), online=True, **EVERYWHERE) for _, t, _ in BUNDLED}
    blocked = {t: s for t, s in verdicts.items() if not s.runs}
    assert set(blocked) == set(unsupported())
    assert all(s.kind == "setting" and s.why() == unsupported()[t] for t, s in blocked.items())


def test_a_missing_program_is_named() -> None:
    s = support(load_task("030eeff7"), online=True, which=lambda p: None if p == "chromium" else p)
    assert not s.runs and s.kind == "program" and "chromium" in s.why()


@pytest.mark.parametrize(
    ("step", "kind", "words"),
    [
        ({"type": "googledrive", "parameters": {"settings_file": "x"}}, "account", "Google"),
        ({"type": "login", "parameters": {"platform": "x"}}, "account", "account"),
        ({"type": "teleport", "parameters": {}}, "part", "'teleport' is not implemented"),
    ],
)
def test_steps_that_cannot_run_here_say_why(step: dict, kind: str, words: str) -> None:
    raw = _raw("030eeff7")
    task = _with("030eeff7", config=[step, *raw["config"]])
    s = support(task, online=True, **EVERYWHERE)
    assert not s.runs and s.kind == kind and words in s.why()


def test_live_websites_need_the_network_and_downloads_the_cache_when_offline() -> None:
    raw = _raw("030eeff7")
    tabs = {"type": "chrome_open_tabs", "parameters": {"urls_to_open": ["https://example.org"]}}
    download = {
        "type": "download",
        "parameters": {"files": [{"url": URL, "path": "/home/user/r.xlsx"}]},
    }
    task = _with("030eeff7", config=[download, *raw["config"]])
    assert list(task_urls(task)) == [URL]
    offline = support(task, online=False, **EVERYWHERE)
    assert offline.kind == "network" and URL in offline.why() and "osworld cache" in offline.why()
    assert URL not in support(task, online=False, cached=lambda u: u == URL, **EVERYWHERE).why()
    task = _with("030eeff7", config=[tabs, *raw["config"]])
    assert "live websites" in support(task, online=False, **EVERYWHERE).why()


def test_an_evaluator_part_this_package_lacks_is_named() -> None:
    raw = _raw("030eeff7")
    evaluator = {**raw["evaluator"], "func": "compare_hologram"}
    s = support(_with("030eeff7", evaluator=evaluator), online=True, **EVERYWHERE)
    assert s.kind == "part" and "compare_hologram" in s.why()


class _Backend:
    screen_size = (1920, 1080)

    def release_all(self) -> None:
        pass


@pytest.mark.parametrize("setup_failed", [True, False])
def test_an_infeasible_task_scores_one_on_fail_whatever_its_setup_did(setup_failed: bool) -> None:
    task = load_task(next(t for _, t, infeasible in BUNDLED if infeasible))
    runner = EpisodeRunner(_Backend())
    problem = "setup failed: a program is missing" if setup_failed else None
    for last, want in (("FAIL", 1.0), ("DONE", 0.0), (None, 0.0)):
        runner.running = _Running(task, problem=problem)
        outcome = runner.finish(last)
        assert outcome.score == want
        assert (problem in outcome.report()["notes"]) is setup_failed


def test_a_feasible_task_that_could_not_be_set_up_scores_zero_with_the_reason() -> None:
    runner = EpisodeRunner(_Backend())
    for last in ("DONE", "FAIL"):
        runner.running = _Running(load_task("030eeff7"), problem="setup failed: no chromium")
        outcome = runner.finish(last)
        assert outcome.score == 0.0 and outcome.report()["notes"] == ["setup failed: no chromium"]


def test_a_document_names_the_libreoffice_component_it_opens_in() -> None:
    raw = _raw("030eeff7")
    opens = [{"type": "open", "parameters": {"path": "/home/user/budget.xlsx"}},
             {"type": "launch", "parameters": {"command": ["libreoffice", "--writer"]}}]  # fmt: skip
    task = _with("030eeff7", config=[*opens, *raw["config"]])
    s = support(task, online=True, which=lambda p: None if p in ("localc", "lowriter") else p)
    assert s.kind == "program" and "localc" in s.why() and "lowriter" in s.why()
    assert "loimpress" not in s.why()


@pytest.mark.parametrize(
    ("instruction", "blocked"),
    [
        ("Stream the video at https://media.example.org/live.m3u8 for me.", True),
        ("Clone www.example.org/repo into my home.", True),
        ("Open http://localhost:8080/report in the browser.", False),
        ("Rename the file report.txt to final.txt.", False),
    ],
)
def test_offline_an_instruction_naming_a_web_address_needs_the_network(
    instruction: str, blocked: bool
) -> None:
    task = _with("030eeff7", instruction=instruction)
    offline = support(task, online=False, **EVERYWHERE)
    assert (offline.kind == "network" and "web address" in offline.why()) is blocked
    assert support(task, online=True, **EVERYWHERE).runs


def test_offline_a_task_listed_as_needing_the_network_says_why_and_runs_online() -> None:
    from gcc_envs.osworld.support import needs_network

    listed = _with("030eeff7", id=next(iter(needs_network())))
    offline = support(listed, online=False, **EVERYWHERE)
    assert offline.kind == "network" and offline.why() == needs_network()[listed.id]
    assert support(listed, online=True, **EVERYWHERE).runs


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        (["/usr/bin/thunderbird"], None),  # mapped (its profile is the task's own)
        (["nautilus", "/home/user/Desktop"], None),  # GNOME Files, mapped
        (["gnome-calculator"], "gnome-calculator"),
        ("VLC_VERBOSE=-1 vlc --no-audio", None),  # (an environment word, then a mapped program)
        (["socat", "tcp-listen:9222,fork", "tcp:localhost:1337"], None),  # the runner's own
        ("", "cannot read"),
    ],
)
def test_a_launch_the_runner_does_not_map_is_refused_before_reset(command, refused) -> None:
    """support() refuses what reset's launch step would refuse, naming it."""
    launch = [{"type": "launch", "parameters": {"command": command, "shell": True}}]
    s = support(_with("030eeff7", config=launch), online=True, **EVERYWHERE)
    if refused is None:
        assert s.runs, s.reasons
    else:
        assert not s.runs and s.kind == "part" and refused in s.why(), s.reasons


def test_the_file_managers_window_is_known_by_the_folder_it_shows() -> None:
    from gcc_envs.osworld.apps import app_for_window, find_app

    files = find_app("nautilus")
    assert files.window_for(["nautilus", "/home/user/Documents/Novels/Pass Through"]) == (
        r"^Pass\ Through$"
    )
    assert files.window_for(["nautilus", "/home/user/"]) == "^Home$"
    assert files.window_for(["nautilus", "/tmp/ep/home"], home="/tmp/ep/home") == "^Home$"
    # a folder's title is no program's name: activate_window of an unknown title is not Files
    assert app_for_window("Papers") is None
    assert app_for_window("Files") is files
