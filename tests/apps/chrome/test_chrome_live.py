"""The real-app path, run on Linux: the live profile's focus rule and the explicit judges.

On Windows and macOS the same env drives the real Chrome; here it drives a real Chromium on
an Xvfb display (the Chrome twin's), and the LMM judge talks to the loopback OpenAI-compatible
test server, which records the request.
"""

from __future__ import annotations

import shutil

import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from agents.cradle.testing import FakeOpenAI
from gcc_envs.apps.software.live import load_profiles, profile
from gcc_envs.apps.software.lmm_judge import LMMJudge, make_live_judge
from gcc_envs.errors import GCCError


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-token")
    s = FakeOpenAI(token="test-token").start()
    yield s
    s.stop()


def test_every_app_has_a_profile_with_titles_dialogs_and_the_papers_scaling():
    profiles = load_profiles()
    assert sorted(profiles) == ["capcut", "chrome", "feishu", "meitu", "outlook"]
    assert all(p.scale == 1.25 for p in profiles.values())
    chrome = profile("chrome")
    assert chrome.allows("New Tab - Google Chrome", "windows")
    assert chrome.allows("Save As", "windows") and not chrome.allows("Notepad", "windows")


def test_a_real_app_needs_an_explicit_judge():
    with pytest.raises(GCCError, match="explicit judge"):
        make_live_judge("")
    with pytest.raises(GCCError, match="lmm:<model>@<base_url>"):
        make_live_judge("lmm:gpt-4o")


def test_the_lmm_judge_asks_yes_or_no_about_the_screenshot_and_records_both(server):
    judge = LMMJudge(server.base_url, "gpt-4o")
    frame = np.zeros((720, 1280, 3), np.uint8)
    server.script("Yes. The article's PDF is shown as downloaded.", "No, the page is blank.")
    first = judge.decide("Save the PDF.", frame)
    second = judge.decide("Save the PDF.", frame)
    assert first.success and not second.success
    assert "Task: Save the PDF." in first.prompt and first.reply.startswith("Yes")
    (req, _) = server.chat_requests()
    assert req.n_images == 1 and req.details == ["high"]
    assert judge.records == [first, second]


def test_an_unreachable_judge_is_a_recorded_failure_not_a_crash():
    judge = LMMJudge("http://127.0.0.1:9", "gpt-4o", timeout_s=2.0)
    record = judge.decide("Save the PDF.", np.zeros((10, 10, 3), np.uint8))
    assert not record.success and "failed" in (record.error or "")


@pytest.mark.desktop
@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("chromium") is None,
                    reason="Xvfb and chromium needed")  # fmt: skip
def test_the_live_env_drives_the_real_browser_and_the_judge_decides_at_the_end(server):
    twin = gym.make("GCC/Chrome-DarkMode")  # a real Chromium on its own display
    try:
        twin.reset(seed=1)
        display = twin.unwrapped.session.display
        server.script("Yes: the browser shows the dark theme.")
        live = gym.make("GCC/Chrome-DarkMode", live=True, display=display,
                        judge=LMMJudge(server.base_url, "gpt-4o"))  # fmt: skip
        try:
            _, info = live.reset(seed=0)
            _, _, terminated, _, info = live.step("WAIT")
            assert not terminated and info["last_action_error"] is None
            _, _, terminated, _, info = live.step("DONE")
            assert terminated and info["success"] and info["judge"].startswith("lmm:gpt-4o@")
            assert info["judge_record"]["reply"].startswith("Yes")
            assert info["metrics"]["efficiency"] == 3 / 2
        finally:
            live.close()
    finally:
        twin.close()


def test_meet_now_is_live_only_it_refuses_a_twin_and_builds_for_the_real_app():
    assert "GCC/Feishu-MeetNow" not in gym.registry  # no twin, so no id every suite test makes
    with pytest.raises(GCCError, match="no Linux twin"):
        gym.make("GCC/Feishu-SendHiToCradle", task="meet_now")
    with pytest.raises(GCCError, match="explicit judge"):
        gym.make("GCC/Feishu-SendHiToCradle", task="meet_now", live=True)
    env = gym.make("GCC/Feishu-SendHiToCradle", task="meet_now", live=True, judge="human")
    try:  # nothing starts before reset: the real Feishu is on the user's machine
        assert env.unwrapped.row.instruction == "Create a new meeting and meet now."
        assert env.unwrapped.app.name == "Feishu"
    finally:
        env.close()
