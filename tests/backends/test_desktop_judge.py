"""Judges on a real window: template matching, a person's answer, and bad specs."""

import shutil

import cv2
import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import Done, Wait
from gcc_envs.errors import GCCError
from gcc_envs.judges import HumanJudge, make_judge

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(shutil.which("xterm") is None, reason="xterm is not installed"),
]
XTERM = ["xterm", "-geometry", "80x24+20+20", "-title", "gcc-judged", "-e", "/bin/sh"]


@pytest.fixture(scope="module")
def vdisplay():
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay((800, 600))
    yield d
    d.close()


def make(vdisplay, judge):
    return gym.make(
        "GCC/Desktop",
        launch=XTERM,
        display=vdisplay.name,
        time_mode="realtime",
        pause="none",
        judge=judge,
        obs_size=(240, 320),
    )


def test_template_judge_claims_success_when_the_template_is_on_screen(vdisplay, tmp_path):
    probe_env = make(vdisplay, None)
    try:
        probe_env.reset(seed=0)
        window = probe_env.unwrapped.backend.grab_window()
    finally:
        probe_env.close()
    on_screen = tmp_path / "corner.png"
    cv2.imwrite(str(on_screen), cv2.cvtColor(window[:60, :200], cv2.COLOR_RGB2BGR))
    env = make(vdisplay, f"template:{on_screen}")
    try:
        _, info = env.reset(seed=0)
        assert info["judge"] == f"template:{on_screen}"
        _, _, terminated, _, info = env.step(Wait(0.1))
        assert info["success"] and terminated
    finally:
        env.close()


def test_template_judge_never_claims_an_absent_template(vdisplay, tmp_path):
    absent = tmp_path / "noise.png"
    noise = np.random.default_rng(1).integers(0, 255, (50, 90, 3), dtype=np.uint8)
    cv2.imwrite(str(absent), noise)
    env = make(vdisplay, f"template:{absent}")
    try:
        env.reset(seed=0)
        _, _, terminated, _, info = env.step(Wait(0.1))
        assert not info["success"] and not terminated
    finally:
        env.close()


@pytest.mark.parametrize("answer, success", [("y", True), ("n", False)])
def test_human_judge_is_asked_when_the_agent_says_done(vdisplay, answer, success):
    questions = []

    def ask(question):
        questions.append(question)
        return answer

    env = make(vdisplay, HumanJudge(ask))
    try:
        _, info = env.reset(seed=0)
        _, _, terminated, _, info = env.step(Wait(0.1))
        assert not terminated and questions == []  # not asked mid-episode
        _, reward, terminated, _, info = env.step(Done())
        assert terminated and info["success"] is success and len(questions) == 1
        assert info["judge"] == "human" and ("failure" in info) is not success
        assert (reward > 0) is success
    finally:
        env.close()


def test_unknown_judge_specs_are_refused_with_the_choices():
    with pytest.raises(GCCError, match="state-file:<path>"):
        make_judge("oracle")
    with pytest.raises(GCCError, match="probe"):
        make_judge(42)
