"""Stardew Shopping through ``serve-desktop`` + RemoteBackend: the desktop run, over HTTP.

The same run as ``test_desktop_stardew.py``'s must-show (the scripted policy buys parsnip
seeds in the ``gcc-gym play`` window under Xvfb), but the window, its input, capture and the
state file live behind a ``serve-desktop`` process; the judge runs in the client, reads the
state file through the server and rebuilds the state with the game's mirror.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

import agents
import gcc_envs  # noqa: F401 - registers the ids
from agents.play import play_command

pytest.importorskip("pygame")
pytestmark = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
]
ENV_ID = "GCC/Stardew-Shopping"
TITLE = "Stardew Valley (gcc-gym play)"  # matches the live profile's window_title
OBS = (360, 640)
SCREEN = (800, 480)
TOKEN = "stardew-remote-token"
ROOT = Path(__file__).resolve().parents[3]  # the repository


@pytest.mark.timeout(900)
def test_scripted_policy_completes_shopping_through_a_remote_desktop(tmp_path):
    from gcc_envs.backends.desktop.display import VirtualDisplay, stop_group

    state = tmp_path / "state.json"
    display = VirtualDisplay(SCREEN)
    server = subprocess.Popen(
        [sys.executable, "-m", "agents.cli", "serve-desktop", "--token", TOKEN, "--port", "0",
         "--display", display.name, "--allow-launch", "--state-file", str(state)],
        stdout=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True,
    )  # fmt: skip
    env = None
    try:
        url = server.stdout.readline().split()[-1]
        argv = play_command(ENV_ID, seed=3, state_file=state, title=TITLE, obs_size=OBS)
        env = gym.make(
            ENV_ID,
            backend="remote",
            url=url,
            token=TOKEN,
            launch=argv,
            obs_size=OBS,
            judge=f"state-file:{state}",
        )
        obs, info = env.reset(seed=3)
        assert info["judge"] == f"state-file:{state}"
        assert obs.shape == (*OBS, 3) and obs.std() > 5  # the rendered farm, over the wire
        policy = agents.make_policy("scripted", env, privileged=True)
        policy.reset(info)
        for _ in range(40):
            obs, reward, terminated, truncated, info = env.step(policy.act(obs, info))
            assert info["last_action_error"] is None
            if terminated or truncated:
                break
        assert info["success"] and terminated
        truth = json.loads(state.read_text())  # the window's own account, read directly
        assert truth["world"]["stats"]["bought"].get("parsnip_seeds", 0) > 0
        assert truth["location"] == "farmhouse" and truth["success"]
    finally:
        if env is not None:
            env.close()
        stop_group(server)
        display.close()
