"""The same tasks on another machine: RemoteBackend (serve-desktop) plus the episode server."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from solutions import SOLUTIONS

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("xterm") is None,
                       reason="needs Xvfb, openbox and xterm"),
]  # fmt: skip
TOKEN = "osworld-remote-token"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def remote() -> Iterator[tuple[str, str]]:
    from gcc_envs.backends.desktop.display import VirtualDisplay
    from gcc_envs.osworld.remote import EpisodeServer

    display = VirtualDisplay((1920, 1080))
    proc = subprocess.Popen(
        [sys.executable, "-m", "agents.cli", "serve-desktop", "--token", TOKEN, "--port", "0",
         "--display", display.name],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    line = proc.stdout.readline() if proc.stdout else ""
    episodes = EpisodeServer(display.name, TOKEN)
    thread = threading.Thread(
        target=episodes.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
    )
    thread.start()
    try:
        assert line.startswith("serving on "), line
        yield line.split()[-1], episodes.url
    finally:
        episodes.shutdown()
        episodes.server_close()
        proc.terminate()
        proc.wait(15)
        display.close()


def _run(env: Any, task: str, actions: list[str]) -> dict[str, Any]:
    env.reset(options={"task": task})
    for action in actions:
        _, _, _, _, info = env.step(action)
        if "score" in info:
            return info
    raise AssertionError("the episode did not end")


def test_a_task_runs_and_scores_on_a_remote_desktop(remote: tuple[str, str]) -> None:
    import gymnasium as gym

    desktop, episodes = remote
    env = gym.make("GCC/OSWorld", backend="remote", url=desktop, token=TOKEN, pause="none",
                   episodes=episodes, episodes_token=TOKEN, disable_env_checker=True)  # fmt: skip
    try:
        assert env.observation_space.shape == (1080, 1920, 3)  # the remote screen's size
        assert _run(env, "e0df059f", SOLUTIONS["e0df059f"])["score"] == 1.0
        assert _run(env, "e0df059f", ["DONE"])["score"] == 0.0
        assert _run(env, "3720f614", ["FAIL"])["score"] == 1.0
    finally:
        env.close()


def test_the_episode_server_needs_its_token(remote: tuple[str, str]) -> None:
    from gcc_envs.errors import BackendError
    from gcc_envs.osworld.remote import RemoteRunner
    from gcc_envs.osworld.taskfile import load_task

    with pytest.raises(BackendError, match="token"):
        RemoteRunner(remote[1], "wrong-token-123").start(load_task("3720f614"))
