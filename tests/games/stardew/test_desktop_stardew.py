"""The Stardew simulator as a real pygame window under Xvfb, driven through the desktop backend.

The window (``gcc-gym play``) publishes its world to a state file: the ground truth these
tests check, and what the state-file judge rebuilds for the task check and the script.
"""

import shutil
import time

import cv2
import gymnasium as gym
import numpy as np
import pytest

import agents
import gcc_envs  # noqa: F401 - registers the ids
from agents.play import paused_banner, play_command
from gcc_envs import KeyDown, Program, Wait
from gcc_envs.errors import BackendError
from gcc_envs.judges import StateFileJudge

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


@pytest.fixture(scope="module")
def vdisplay():
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay(SCREEN)
    yield d
    d.close()


def make(tmp_path, seed=0, play_opts=None, **kw):
    state = tmp_path / "state.json"
    argv = play_command(
        ENV_ID, seed=seed, state_file=state, title=TITLE, obs_size=OBS, **(play_opts or {})
    )
    kw.setdefault("screen_size", SCREEN)
    env = gym.make(ENV_ID, backend="desktop", launch=argv, obs_size=OBS, **kw)
    return env, StateFileJudge(state)


def game_seconds(env, reader: StateFileJudge) -> float:
    return float(reader.fresh(env.unwrapped.backend)["game_seconds"])


def test_scripted_policy_completes_shopping_through_real_input_and_capture(tmp_path):
    """The must-show: real X input, real mss capture, the window's own state as ground truth."""
    state = tmp_path / "state.json"
    env, reader = make(tmp_path, seed=3, judge=f"state-file:{state}")  # its own Xvfb
    try:
        obs, info = env.reset(seed=3)
        assert info["judge"] == f"state-file:{state}"
        assert obs.shape == (*OBS, 3) and obs.std() > 5  # the rendered farm, not a blank frame
        backend = env.unwrapped.backend
        assert backend.vdisplay is not None and backend.pause_strategy == "focus"
        assert backend.x.title(backend.window) == TITLE
        policy = agents.make_policy("scripted", env, privileged=True)
        policy.reset(info)
        for _ in range(40):
            obs, reward, terminated, truncated, info = env.step(policy.act(obs, info))
            assert info["last_action_error"] is None, info["last_action_error"]
            if terminated or truncated:
                break
        truth = reader.fresh(env.unwrapped.backend)
        assert info["success"] and terminated, (info, {k: truth[k] for k in ("location", "player")})
        world = truth["world"]
        assert world["stats"]["bought"].get("parsnip_seeds", 0) > 0
        assert truth["location"] == "farmhouse" and truth["success"]  # the window's own check
    finally:
        env.close()


def test_paused_mode_freezes_the_game_while_the_agent_thinks(tmp_path, vdisplay):
    env, reader = make(tmp_path, display=vdisplay.name, time_mode="paused")
    try:
        _, info = env.reset(seed=0)
        assert info["judge"] is None  # no judge on a real game: success is never claimed
        _, _, terminated, _, info = env.step(Wait(0.5))
        assert not info["success"] and not terminated
        before = game_seconds(env, reader)
        time.sleep(2.0)  # the agent thinks
        thinking = game_seconds(env, reader) - before
        _, _, _, _, info = env.step(Wait(0.5))
        step = game_seconds(env, reader) - before - thinking
        assert thinking < 0.15, thinking
        assert 0.4 < step < 1.0, step  # the step's 0.5 s plus the pause/resume overhead
        assert reader.fresh(env.unwrapped.backend)["paused"]
    finally:
        env.close()


def test_realtime_mode_lets_the_game_run_while_the_agent_thinks(tmp_path, vdisplay):
    env, reader = make(tmp_path, display=vdisplay.name, time_mode="realtime")
    try:
        env.reset(seed=0)
        env.step(Wait(0.2))
        before = game_seconds(env, reader)
        time.sleep(2.0)
        thinking = game_seconds(env, reader) - before
        assert 1.6 < thinking < 2.6, thinking
        assert not reader.fresh(env.unwrapped.backend)["paused"]
    finally:
        env.close()


def test_key_pause_shows_the_pause_screen_and_restores_held_keys(tmp_path, vdisplay):
    template = tmp_path / "paused.png"
    cv2.imwrite(str(template), cv2.cvtColor(paused_banner(), cv2.COLOR_RGB2BGR))
    env, reader = make(
        tmp_path,
        display=vdisplay.name,
        play_opts={"pause_key": "esc"},
        pause="key",
        pause_key="esc",
        pause_template=str(template),
        time_mode="paused",
    )
    try:
        env.reset(seed=0)
        backend = env.unwrapped.backend
        assert reader.fresh(backend)["key_paused"]  # reset pauses: the PAUSED screen is up
        d_code = backend.x.stroke("d").keycode
        held_in_step = []

        def walk_right():
            yield KeyDown("d")  # held across the step boundary (as in the state action mode)
            yield Wait(0.3)
            held_in_step.append(d_code in backend.x.pressed_keycodes())

        env.step(Program(walk_right))
        paused = reader.fresh(env.unwrapped.backend)
        assert paused["key_paused"] and paused["held_keys"] == []  # a player lets go first
        assert d_code not in backend.x.pressed_keycodes()
        time.sleep(1.0)
        frozen = reader.fresh(env.unwrapped.backend)
        assert frozen["game_seconds"] == paused["game_seconds"]
        assert frozen["player"]["x"] == paused["player"]["x"]

        def look():
            yield Wait(0.3)
            held_in_step.append(d_code in backend.x.pressed_keycodes())

        env.step(Program(look))
        moved = reader.fresh(env.unwrapped.backend)
        assert held_in_step == [True, True]  # pressed again after resuming
        assert moved["player"]["x"] > frozen["player"]["x"] + 0.5  # it walked on
        assert moved["key_paused"]
        assert backend.timings["pause_s"] < 3.0 and backend.timings["resume_s"] < 3.0
    finally:
        env.close()


def test_key_pause_without_a_matching_pause_screen_raises_a_clear_error(tmp_path, vdisplay):
    noise = np.random.default_rng(0).integers(0, 255, (40, 80, 3), dtype=np.uint8)
    template = tmp_path / "wrong.png"
    cv2.imwrite(str(template), noise)
    env, _ = make(
        tmp_path,
        display=vdisplay.name,
        play_opts={"pause_key": "esc"},
        pause="key",
        pause_key="esc",
        pause_template=str(template),
        time_mode="paused",
    )
    try:
        with pytest.raises(BackendError, match="pressed 'esc' twice but the pause screen"):
            env.reset(seed=0)
        assert not env.unwrapped.backend.x.pressed_keycodes() & {
            env.unwrapped.backend.x.stroke("esc").keycode
        }
    finally:
        env.close()


def test_state_file_judge_reads_a_program_stopped_by_the_signal_pause(tmp_path, vdisplay):
    state = tmp_path / "state.json"
    env, reader = make(tmp_path, display=vdisplay.name, pause="signal", judge=f"state-file:{state}")
    try:
        _, info = env.reset(seed=0)  # paused mode: the window is stopped between steps
        assert env.unwrapped.backend.frozen
        t0 = time.monotonic()
        _, _, _, _, info = env.step(Wait(0.3))
        assert info["last_action_error"] is None and info["task"]["flags"]["in_town"] is False
        assert time.monotonic() - t0 < 2.0  # the judge did not wait for a frozen publisher
        assert env.unwrapped.backend.probe().location == "farm"
    finally:
        env.close()
