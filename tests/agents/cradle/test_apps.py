"""Cradle on desktop apps: app skills lowered to pyautogui, Set-of-Mark labels for clicks."""

from __future__ import annotations

import shutil
import time

import cv2
import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.cradle import CradleConfig, CradlePolicy
from agents.cradle.image_tokens import png_size
from agents.cradle.visual import VisualPrompter
from gcc_envs.core.code import parse_code
from gcc_envs.core.events import Click
from wrappers import MarkRegions
from wrappers.mark_regions import detect_regions

KEY = "GCC_TEST_OPENAI_KEY"
PLAN_ONLY = CradleConfig(modules=("action_planning",))


def dialog() -> np.ndarray:
    """A flat screen with three high-contrast buttons."""
    frame = np.full((360, 640, 3), 235, np.uint8)
    for x in (60, 260, 460):
        cv2.rectangle(frame, (x, 250), (x + 120, 300), (20, 20, 20), 3)
    return frame


def reply(code: str) -> str:
    return f"Reasoning: the OK button is labelled.\nAction:\n```python\n{code}\n```"


def test_click_on_label_clicks_the_centre_of_the_mark_the_model_saw(server):
    server.script(reply("click_on_label(label_id=2)"))
    env = gym.make("GCC/Desktop", obs_size=(360, 640))
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY, config=PLAN_ONLY)
    frame = dialog()
    code = policy.act(frame, {})
    marks = {m.id: m for m in detect_regions(frame)}
    assert code == f"pyautogui.click({marks[2].cx}, {marks[2].cy})"
    assert parse_code(code) == [Click(marks[2].cx, marks[2].cy)]
    (request,) = server.chat_requests()
    sent = request.urls[0]
    assert png_size(sent) == (640, 360) and request.details == ["high"]
    assert "click_on_label(label_id: int)" in request.body["messages"][0]["content"][0]["text"]
    policy.close()


def test_a_label_that_is_not_on_screen_is_reasked_then_a_no_op(server):
    server.script(reply("click_on_label(label_id=99)"), reply("click_on_label(label_id=98)"))
    env = gym.make("GCC/Desktop", obs_size=(360, 640))
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY, config=PLAN_ONLY)
    assert policy.act(dialog(), {}) == ""
    assert "no mark 99" in policy.last_info["errors"][0]


def test_app_skills_lower_to_pyautogui_the_env_parses(server):
    server.script(reply("hotkey(keys='ctrl+s')"), reply("task_done()"))
    env = gym.make("GCC/Desktop", obs_size=(360, 640))
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY, config=PLAN_ONLY)
    assert policy.act(dialog(), {}) == "pyautogui.hotkey('ctrl', 's')"
    assert policy.act(dialog(), {}) == "DONE"


def test_with_a_mark_regions_wrapper_its_marks_are_used_and_nothing_is_drawn_twice():
    env = MarkRegions(gym.make("GCC/Stardew-Shopping", obs_size=(360, 640)))
    obs, info = env.reset(seed=0)
    vp = VisualPrompter(("marks", "grid"), env)
    assert vp.kinds == ("grid",)
    first = info["marks"][0]
    assert vp.mark_centre(first["id"]) == (first["cx"], first["cy"])


@pytest.mark.desktop
@pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("xterm") is None,
                    reason="needs Xvfb and xterm")  # fmt: skip
def test_cradle_types_a_shell_command_into_a_real_xterm(server, tmp_path):
    from gcc_envs.backends.desktop.display import VirtualDisplay

    out = tmp_path / "made-by-cradle"
    server.script(reply(f"type_text(text='touch {out}')"), reply("press_key(key='enter')"))
    display = VirtualDisplay((800, 600))
    xterm = ["xterm", "-geometry", "80x24+20+20", "-title", "cradle-xterm", "-e", "/bin/sh"]
    env = gym.make("GCC/Desktop", launch=xterm, display=display.name, obs_size=(240, 320))
    try:
        policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY, config=PLAN_ONLY)
        obs, info = env.reset(seed=0)
        policy.reset(info)
        for _ in range(2):
            obs, *_, info = env.step(policy.act(obs, info))
            assert info["last_action_error"] is None
        deadline = time.monotonic() + 10
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert out.exists()
    finally:
        env.close()
        display.close()
