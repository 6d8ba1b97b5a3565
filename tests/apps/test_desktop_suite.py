"""The GCC/Desktop-<Task> suite on real programs: each task is a fair test of its checker.

Per task: a scripted solution (events written here, reading only the instruction) scores 1 on
held-out seeds; doing nothing, a random policy and seed 0's input replayed on another seed
score 0. The episode's servers and home are gone after close, and checkers cannot read
outside the home.
"""

import os
import shutil
import socket

import gymnasium as gym
import numpy as np
import pytest
from spec_helpers import programs_of

import gcc_envs  # noqa: F401  (registers the ids)
from gcc_envs import Done, Hotkey, TypeText, Wait
from gcc_envs.errors import GCCError

TASKS = ["GCC/Desktop-MakeFile", "GCC/Desktop-SaveText", "GCC/Desktop-OpenPage"]
pytestmark = [
    pytest.mark.desktop,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
]


def _needs(env_id):
    missing = [p for p in programs_of(env_id) if shutil.which(p) is None]
    return pytest.param(
        env_id,
        marks=[pytest.mark.skipif(bool(missing), reason=f"not installed: {missing}")],
    )


@pytest.fixture(scope="module")
def vdisplay():
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay((1280, 720))
    yield d
    d.close()


def make(env_id, vdisplay):
    return gym.make(env_id, display=vdisplay.name, obs_size=(180, 320))


def solution(env_id, instruction):
    """The scripted solution: the events a person would send, read off the instruction."""
    if env_id.endswith("MakeFile"):
        phrase = instruction.rsplit(": ", 1)[1]
        return [TypeText(f"echo {phrase} > report.txt\n"), Wait(0.3)]
    if env_id.endswith("SaveText"):
        phrase = instruction.split("'")[1]
        return [TypeText(phrase), Hotkey(("ctrl", "s")), Wait(0.5)]
    address = instruction.rsplit(" ", 1)[1]
    return [Hotkey(("ctrl", "l")), TypeText(address + "\n"), Wait(3.0)]


def run(env, actions):
    """Send ``actions`` in the episode under way, then DONE."""
    for a in actions:
        _, _, term, trunc, info = env.step(a)
        assert info["last_action_error"] is None
    _, reward, term, _, info = env.step(Done())
    assert term
    return info, reward


@pytest.mark.parametrize("env_id", [_needs(t) for t in TASKS])
def test_the_scripted_solution_succeeds_and_replay_random_and_nothing_fail(env_id, vdisplay):
    env = make(env_id, vdisplay)
    try:
        seen = set()
        for seed in (11, 12):  # held out: the solution was written against the instruction only
            _, info = env.reset(seed=seed)
            seen.add(info["instruction"])
            acts = solution(env_id, info["instruction"])
            info, reward = run(env, acts)
            assert info["success"], (info.get("check_error"), env.unwrapped.backend.window_titles())
            assert info["score"] == 1.0 and reward == pytest.approx(1.0)
            assert 0 < info["metrics"]["efficiency"] <= 1.0
        env.reset(seed=13)
        info, _ = run(env, [])
        assert not info["success"] and info["score"] == 0.0 and info["metrics"]["efficiency"] == 0

        _, first = env.reset(seed=0)
        replayed = solution(env_id, first["instruction"])
        for seed in range(1, 8):  # a seed whose instruction differs from seed 0's
            _, info = env.reset(seed=seed)
            if info["instruction"] != first["instruction"]:
                break
        seen.add(info["instruction"])
        info, _ = run(env, replayed)
        assert not info["success"], "seed 0's input solved another seed"
        assert len(seen) >= 2  # the seed changes what must be done

        env.action_space.seed(0)
        _, info = env.reset(seed=21)
        for _ in range(10):
            a = env.action_space.sample()
            if int(a["op"]) in (env.unwrapped._event_mode.op_index(o) for o in ("DONE", "FAIL")):
                continue
            env.step(a)
        info = env.step(Done())[-1]
        assert not info["success"] and info["score"] == 0.0
    finally:
        env.close()


@pytest.mark.parametrize("env_id", [_needs("GCC/Desktop-OpenPage")])
def test_the_local_site_binds_loopback_and_everything_is_gone_after_close(env_id, vdisplay):
    env = make(env_id, vdisplay)
    _, info = env.reset(seed=3)
    episode = env.unwrapped.episode
    url = episode.vars["url"]
    host, port = url.removeprefix("http://").split(":")
    assert host == "127.0.0.1"
    pids, home = episode.pids, episode.home
    assert pids and home.is_dir()
    with episode.connect(int(port), 2):  # on the episode's own loopback
        pass
    with pytest.raises(OSError), socket.create_connection((host, int(port)), timeout=1):
        pass  # not on this machine's
    env.close()
    assert not home.exists()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    with pytest.raises(OSError), socket.create_connection((host, int(port)), timeout=1):
        pass


@pytest.mark.parametrize("env_id", [_needs("GCC/Desktop-MakeFile")])
def test_a_checker_cannot_read_outside_the_episode_home(env_id, vdisplay):
    env = make(env_id, vdisplay)
    try:
        env.reset(seed=0)
        probe = env.unwrapped.backend.probe()
        assert not probe.exists("/etc/passwd") and not probe.exists("../../etc/passwd")
        for path in ("/etc/passwd", "../../etc/passwd"):
            with pytest.raises(GCCError, match="outside"):
                probe.read_file(path)
        (probe.home / "link").symlink_to("/etc/passwd")
        with pytest.raises(GCCError, match="outside"):
            probe.read_file("link")
        result = probe.run(["sleep", "30"], timeout_s=0.5)
        assert result.timed_out
        with pytest.raises(GCCError, match="no shell"):
            probe.run("cat /etc/passwd")  # type: ignore[arg-type]
        shot = probe.screenshot()
        assert shot.shape == (720, 1280, 3) and shot.dtype == np.uint8
        assert any("gcc-terminal" in t for t in probe.window_titles())
    finally:
        env.close()
