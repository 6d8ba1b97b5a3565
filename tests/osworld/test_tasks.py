"""Each bundled task through the env: its scripted solution scores 1, doing nothing scores 0.

Infeasible tasks: ``FAIL`` scores 1 and ``DONE`` 0. CI runs :data:`SAMPLE`; ``OSWORLD_TASKS=all``,
every bundled task. Unsupported tasks load, say why, score 0.
One env (one display) serves every task; each reset is a fresh home. With
``OSWORLD_TABLE=path.json`` the rows (task, app, setup seconds, scores) are written there.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from solutions import SOLUTIONS, Shows, Until

from gcc_envs.osworld.bundled import BUNDLED
from gcc_envs.osworld.episode import needed_programs, unsupported
from gcc_envs.osworld.taskfile import load_task

pytestmark = [pytest.mark.desktop, pytest.mark.slow]
#: The tasks CI runs: each domain, each kind of solution (settings pages, dialogs, files, the
#: terminal, command palettes), infeasible and unsupported ones. ``OSWORLD_TASKS=all`` runs
#: every bundled task (``benchmarks/osworld_sweep.py`` does, and prints the table).
SAMPLE = ("030eeff7", "2ad9387a", "44ee5668", "99146c54", "3720f614", "7767eef2", "e19bd559", "ef9d12bd",
          "2373b66a", "937087b6", "3ce045a0", "bedcedc4", "13584542", "fe41f596", "5ac2891a",
          "8ba5ae7a", "cb130f0d", "930fdb3b", "9439a27b", "7c4cc09e")  # fmt: skip
TASKS = [t for _, t, _ in BUNDLED if os.environ.get("OSWORLD_TASKS") == "all" or t[:8] in SAMPLE]


@pytest.fixture(scope="module")
def table() -> Iterator[dict[str, dict[str, Any]]]:
    rows: dict[str, dict[str, Any]] = {}
    yield rows
    path = os.environ.get("OSWORLD_TABLE")
    if path:
        worker = os.environ.get("PYTEST_XDIST_WORKER")  # one file per worker under -n N
        with open(f"{path}.{worker}" if worker else path, "w") as f:
            json.dump(rows, f, indent=1)


def _looks(env: Any, until: Until | Shows) -> bool:
    """Whether the desktop comes to show what ``until`` waits for (then the screen settles)."""
    episode = env.unwrapped.runner.running.episode
    if isinstance(until, Shows):
        return _shows(episode.probe, until)
    if not episode.wait_title(until.title, until.timeout_s, present=not until.gone):
        return False
    episode.settle()
    return True


def _shows(probe: Any, want: Shows) -> bool:
    """Whether the pixel ``want.xy`` comes to have the colour ``want.rgb``."""
    x, y = want.xy
    deadline = time.monotonic() + want.timeout_s
    while True:
        pixel = np.asarray(probe.screenshot())[y, x, :3].astype(int)
        if np.abs(pixel - np.array(want.rgb)).max() <= want.tol:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)


def _play(env: Any, items: list[str | Until | Shows], replay: bool = True) -> dict[str, Any]:
    """Send the actions of ``items``, waiting where an :class:`Until` says (see solutions.py)."""
    info: dict[str, Any] = {}
    for i, item in enumerate(items):
        if isinstance(item, (Until, Shows)):
            seen = _looks(env, item)
            if not seen and replay and item.again:
                info = _play(env, items[max(0, i - item.again) : i], replay=False)
                seen = "score" in info or _looks(env, item)
            titles = env.unwrapped.runner.running.probe.window_titles()
            assert seen, f"the desktop never showed {item}; its windows: {titles}"
            if "score" in info:
                break
            continue
        _, _, _, _, info = env.step(item)
        assert info["last_action_error"] is None, info["last_action_error"]
        if "score" in info:
            break
    return info


def _episode(
    env: Any, task_id: str, actions: list[str | Until | Shows]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run one episode; ``info["episode_s"]`` is its wall time, reset to verdict."""
    t0 = time.perf_counter()
    _, start = env.reset(options={"task": task_id})
    info = _play(env, actions)
    if "score" not in info:  # the solution ran out: end the episode as the step limit would
        while "score" not in info:
            _, _, _, _, info = env.step("WAIT")
    return start, {**info, "episode_s": time.perf_counter() - t0}


def _sleeps(task_id: str) -> float:
    """Seconds the task file's own ``sleep`` setup steps wait (part of its setup time)."""
    return sum(float(s.params.get("seconds", 1.0)) for s in load_task(task_id).config
               if s.kind == "sleep")  # fmt: skip


@pytest.mark.parametrize("task_id", TASKS, ids=[t[:8] for t in TASKS])
def test_scripted_solution_scores_one_and_doing_nothing_zero(
    osworld_env: Any, table: dict, task_id: str
) -> None:
    env = osworld_env
    key = task_id[:8]
    missing = [p for p in needed_programs(load_task(task_id)) if shutil.which(p) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (see the README's OSWorld install line)")
    if task_id in unsupported():
        start, info = _episode(env, task_id, ["DONE"])
        assert start["unsupported"] and start["instruction"]
        assert info["score"] == 0.0 and info["success"] is False
        table[key] = {"domain": start["domain"], "setup_s": start["setup_s"], "scripted": None,
                      "nothing": info["score"], "unsupported": start["unsupported"],
                      "nothing_s": info["episode_s"], "sleep_s": _sleeps(task_id)}  # fmt: skip
        return
    start, solved = _episode(env, task_id, SOLUTIONS[key])
    assert "setup_error" not in start, start.get("setup_error")
    _, nothing = _episode(env, task_id, ["DONE"])
    table[key] = {"domain": start["domain"], "setup_s": start["setup_s"],
                  "scripted": solved["score"], "nothing": nothing["score"],
                  "scripted_s": solved["episode_s"], "nothing_s": nothing["episode_s"],
                  "sleep_s": _sleeps(task_id)}  # fmt: skip
    assert solved["score"] == 1.0, solved["evaluation"]
    assert solved["success"] is True
    assert nothing["score"] == 0.0, nothing["evaluation"]
