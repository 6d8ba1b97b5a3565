"""The setup steps that act on the episode's Chromium and its windows, on a real desktop:
``chrome_open_tabs`` opens tabs, ``chrome_close_tabs`` closes them, ``close_window`` closes the
windows it names (by title or by ``WM_CLASS``) and no others."""

from __future__ import annotations

import shutil
import time
from functools import partial
from typing import Any

import pytest

from gcc_envs.apps.chrome import cdp
from gcc_envs.osworld.setup import SetupError, run_step
from gcc_envs.osworld.taskfile import Step

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

PAGES = {"a.html": "Tab Alpha", "b.html": "Tab Beta"}


def _task() -> dict[str, Any]:
    write = "; ".join(f"echo '<title>{t}</title>' > /home/user/{n}" for n, t in PAGES.items())
    urls = [f"file:///home/user/{n}" for n in PAGES]
    return {"id": "gcc-tabs", "instruction": "Look at the tabs.", "related_apps": ["chrome"],
            "config": [
                {"type": "execute", "parameters": {"command": write, "shell": True}},
                {"type": "launch", "parameters": {"command": ["google-chrome", "--remote-debugging-port=1337"]}},
                {"type": "chrome_open_tabs", "parameters": {"urls_to_open": urls}},
            ],
            "evaluator": {"func": "infeasible"}}  # fmt: skip


def _titles(ep: Any) -> set[str]:
    return {t["title"] for t in ep.session.in_network(partial(cdp.tabs, ep.cdp_port))}


def test_tabs_open_and_close_and_close_window_closes_only_what_it_names(osworld_env: Any) -> None:
    if shutil.which("chromium") is None or shutil.which("xterm") is None:
        pytest.skip("needs chromium and xterm")
    _, info = osworld_env.reset(options={"task": _task()})
    assert "setup_error" not in info, info.get("setup_error")
    ep = osworld_env.unwrapped.runner.running.episode
    tabs = ep.session.in_network(partial(cdp.tabs, ep.cdp_port))
    titles = {t["title"] for t in tabs}
    assert titles == set(PAGES.values()), titles  # Chromium's empty New Tab was closed
    first = next(t["url"] for t in tabs if t["title"] == "Tab Alpha")
    assert first == f"file://{ep.home}/a.html"  # the task's /home/user is the episode's home
    run_step(ep, Step("chrome_close_tabs", {"urls_to_close": [first]}))
    deadline = time.monotonic() + 10
    while "Tab Alpha" in (titles := _titles(ep)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "Tab Alpha" not in titles and "Tab Beta" in titles
    with pytest.raises(SetupError, match="list of addresses"):
        run_step(ep, Step("chrome_open_tabs", {"urls_to_open": "https://example.org"}))
    ep.launch(["x-terminal-emulator"])
    run_step(ep, Step("close_window", {"window_name": "Chromium", "by_class": True}))
    left = ep.probe.window_titles()
    assert not any("Chromium" in t for t in left) and any(
        "erminal" in t or "xterm" in t for t in left
    ), left
    run_step(ep, Step("close_window", {"window_name": "no such window", "strict": True}))
    _, _, terminated, _, info = osworld_env.step("FAIL")
    assert terminated and info["score"] == 1.0


def test_browse_history_goes_in_before_chromium_starts_and_is_refused_after(
    osworld_env: Any,
) -> None:
    """``update_browse_history`` writes the profile's History before the task launches
    Chromium (the bundled chrome/44ee5668's solution deletes the visits in Chromium's history
    page); once Chromium runs, the step is refused with the reason, as is a malformed history."""
    if shutil.which("chromium") is None:
        pytest.skip("needs chromium")
    visits = [{"url": "https://a.example/", "title": "A", "visit_time_from_now_in_seconds": 60}]
    step = {"type": "update_browse_history", "parameters": {"history": visits}}
    launch = {"type": "launch", "parameters": {"command": ["google-chrome"]}}
    task = {"id": "gcc-history", "instruction": "Look.", "config": [step, launch],
            "evaluator": {"func": "infeasible"}}  # fmt: skip
    _, info = osworld_env.reset(options={"task": task})
    assert "setup_error" not in info, info.get("setup_error")
    assert "update_browse_history: 1 visit(s) added" in info["setup_notes"]
    ep = osworld_env.unwrapped.runner.running.episode
    with pytest.raises(SetupError, match="Chromium is running"):
        run_step(ep, Step("update_browse_history", {"history": visits}))
    with pytest.raises(SetupError, match="each visit is"):
        run_step(ep, Step("update_browse_history", {"history": [{"url": 5}]}))
