"""``GCC/Desktop`` with ``sandbox=True``: the launched program runs in a sandbox of its own."""

from __future__ import annotations

import shutil
import time

import gymnasium as gym
import pytest
from sandbox_helpers import processes_of, wait_until

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs.errors import GCCError
from gcc_envs.sandbox import bwrap_missing

pytestmark = pytest.mark.desktop


def test_a_sandboxed_launch_runs_as_its_own_user_and_ends_with_close() -> None:
    if bwrap_missing() or not all(shutil.which(p) for p in ("Xvfb", "openbox", "xterm")):
        pytest.skip(bwrap_missing() or "needs Xvfb, openbox and xterm")
    env = gym.make("GCC/Desktop", launch=["xterm"], sandbox=True, disable_env_checker=True)
    try:
        env.reset()
        box = env.unwrapped.backend.sandbox
        env.step("pyautogui.write('id -u > ~/who; touch /tmp/x /etc/x')")
        env.step("pyautogui.press('enter')")
        assert wait_until(lambda: (box.home / "who").exists(), 5)
        time.sleep(0.2)
        assert (box.home / "who").read_text() == f"{box.uid}\n"
        assert processes_of(box.uid)
    finally:
        env.close()
    assert wait_until(lambda: not processes_of(box.uid), 5) and not box.home.exists()


def test_sandbox_needs_a_program_to_launch() -> None:
    with pytest.raises(GCCError, match="launch="):
        gym.make("GCC/Desktop", sandbox=True, disable_env_checker=True)
