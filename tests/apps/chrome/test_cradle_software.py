"""Cradle's software practice on one twin task of each app, against the loopback
OpenAI-compatible test server: the ``desktop/software`` prompts, Set-of-Mark boxes and the
redrawn pointer on the screen it sends, at most two actions per step, the frames of the last
action for self-reflection; the server's scripted answers carry each step's actions (the
app skills, lowered to pyautogui code that the env parses), and the task's checker decides.
"""

from __future__ import annotations

import base64
import os
import shutil
import string
from collections import deque

import cv2
import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from agents.cradle import CradlePolicy
from agents.cradle.testing import FakeOpenAI
from agents.cradle.testing.replies import module_of
from gcc_envs.apps.software import fairness
from wrappers import ChunkVideo, DrawPointer

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.timeout(240),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
]
KEY = "GCC_TEST_OPENAI_KEY"
# One task per app: its program, the seeded choices its plan is for (the test resets on a seed
# that makes them), and the actions the scripted model gives, a step (<= 2 calls) per line.
PLANS = {
    "GCC/Chrome-OpenLastClosedPage": ("chromium", {"closed_count": "1"}, [
        "wait(seconds=1)", "hotkey(keys='ctrl+shift+t')\nwait(seconds=1)",
    ]),
    "GCC/Outlook-EmptyJunk": ("thunderbird", {"extra": "Projects", "local": "0", "density": "1"}, [
        "wait(seconds=2)\nclick_at(x=128, y=244)", "wait(seconds=1.5)\nclick_at(x=435, y=140)",
        "hotkey(keys='ctrl+a')\npress_key(key='delete')",
    ]),
    # which of the four scenes is the red boat is drawn at setup: $picture is filled after reset
    "GCC/Meitu-ApplyFilter": ("gimp", {"colour": "red", "subject": "boat"}, [
        "hotkey(keys='ctrl+o')\nwait(seconds=1.5)", "hotkey(keys='alt+home')\nhotkey(keys='ctrl+l')",
        "type_text(text='Pictures/$folder/$picture')\npress_key(key='enter')", "wait(seconds=2.5)",
        "click_at(x=200, y=680)\npress_key(key='/')", "wait(seconds=1)\ntype_text(text='Value Invert')",
        "wait(seconds=1)\npress_key(key='enter')", "wait(seconds=1)\nhotkey(keys='ctrl+shift+e')",
        "wait(seconds=1.5)\nhotkey(keys='ctrl+a')",
        "type_text(text='A_filtered.jpg')\npress_key(key='enter')",
        "wait(seconds=1.5)\npress_key(key='enter')",
    ]),
    # the player settles after each key (pause, seek) before the next edit or in/out key
    "GCC/CapCut-TrimFirstAndLast": ("shotcut", {"start": "1", "end": "5"}, [
        "wait(seconds=1)\nclick_at(x=780, y=270)", "press_key(key='k')\nwait(seconds=1)",
        "double_click_at(x=692, y=426)\nhotkey(keys='ctrl+a')",
        "type_text(text='00:00:05:00')\npress_key(key='enter')", "wait(seconds=1)\nclick_at(x=780, y=270)",
        "wait(seconds=1)\npress_key(key='o')", "double_click_at(x=692, y=426)\nhotkey(keys='ctrl+a')",
        "type_text(text='00:00:01:00')\npress_key(key='enter')", "wait(seconds=1)\nclick_at(x=780, y=270)",
        "wait(seconds=1)\npress_key(key='i')", "click_at(x=1077, y=114)\nwait(seconds=1.5)",
        "click_at(x=306, y=434)\nwait(seconds=2)", "hotkey(keys='ctrl+a')\ntype_text(text='trimmed.mp4')",
        "press_key(key='enter')\nwait(seconds=4)",  # the export job runs in the background
    ]),
    "GCC/Feishu-SendHiToCradle": ("hexchat", {"text": "Hi", "contact": "Cradle"}, [
        "click_at(x=600, y=784)\ntype_text(text='/msg Cradle Hi')",
        "press_key(key='enter')\nwait(seconds=1)",
    ]),
}  # fmt: skip


def model(actions: list[str]):
    """Answers each Cradle module as a model would; action planning pops the next step."""
    queue = deque(actions)

    def reply(body: dict) -> str:
        module = module_of(body)
        if module == "information_gathering":
            return "Description: the application's window is in front.\nInstructions: none"
        if module == "self_reflection":
            return "Success: yes\nCause: none\nContinue: yes"
        if module == "task_inference":
            return "Task: do the next step of the task\nHorizon: short\nSummary: in progress."
        code = queue.popleft() if queue else "wait(seconds=4)\ntask_done()"  # let saves finish
        return f"Reasoning: the next step of the task.\nAction:\n```python\n{code}\n```"

    return reply


def _image(url: str) -> np.ndarray:
    raw = base64.b64decode(url.split(",", 1)[1])
    return cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR)


@pytest.mark.parametrize("env_id", sorted(PLANS))
def test_cradle_does_one_task_of_each_app_through_the_software_prompts(env_id, monkeypatch):
    program, choices, actions = PLANS[env_id]
    if shutil.which(program) is None or (
        "Outlook" in env_id and not os.path.exists("/usr/lib/dovecot/imap")
    ):
        pytest.skip(f"Debian program {program} missing")
    monkeypatch.setenv(KEY, "test-token")
    server = FakeOpenAI(token="test-token").start()
    env = ChunkVideo(DrawPointer(gym.make(env_id)), max_frames=4)
    try:
        policy = CradlePolicy(
            env, base_url=server.base_url, api_key_env=KEY, game="desktop/software"
        )
        assert policy.max_calls == 2
        obs, info = env.reset(seed=fairness.seed_choosing(env, choices))
        drawn = env.unwrapped.episode.vars  # values setup drew after the choices ($picture)
        actions = [string.Template(a).substitute(drawn) for a in actions]
        server.script(*[model(actions)] * 400)
        policy.reset(info)
        success = False
        for _ in range(len(actions) + 12):
            code = policy.act(obs, info)
            assert code.count("\n") <= 8  # two skill calls, each a few pyautogui lines
            obs, _, terminated, truncated, info = env.step(code)
            assert info["last_action_error"] is None, (code, info["last_action_error"])
            if terminated or truncated:
                success = bool(info["success"])
                break
        assert success, f"{env_id} not done; last code {code!r}"
        reqs = server.chat_requests()
        plans = [r for r in reqs if r.first_line.startswith("[action_planning]")]
        reflections = [r for r in reqs if r.first_line.startswith("[self_reflection]")]
        assert plans and "at most 2 calls" in plans[0].body["messages"][0]["content"][0]["text"]
        assert any(r.n_images >= 2 for r in reflections), "no pre/post frames for reflection"
        assert _image(plans[-1].urls[-1]).shape[:2] == obs["frames"][0].shape[:2]
    finally:
        env.close()
        server.stop()
