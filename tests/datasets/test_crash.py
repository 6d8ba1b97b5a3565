"""A recorder killed with SIGKILL mid-episode leaves every episode readable."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from gcc_envs.datasets import Episode, load, replay
from gcc_envs.errors import DataError

CHILD = textwrap.dedent(
    """
    import sys, time
    import gymnasium as gym
    import gcc_envs
    from agents import make_policy
    from wrappers.record_trajectory import RecordTrajectory

    env = RecordTrajectory(
        gym.make("GCC/Stardew-FarmClearup", obs_size=(72, 128), max_episode_steps=40),
        sys.argv[1],
        policy_name="random",
    )
    policy = make_policy("random", env, seed=0)
    for ep in range(100):
        obs, info = env.reset(seed=ep)
        policy.reset(info)
        done, t = False, 0
        while not done:
            obs, _, terminated, truncated, info = env.step(policy.act(obs, info))
            done = terminated or truncated
            print(f"step {ep} {t}", flush=True)
            if ep == 1 and t >= 3:
                time.sleep(0.01)  # keep the kill inside episode 1
            t += 1
    """
)


def wait_until_written(folder, steps, timeout=20.0):
    """Wait for the orphaned writer process to write ``steps`` steps and stop writing."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        time.sleep(0.2)
        try:
            now = len(Episode(folder))
        except DataError:  # the writer has not created the folder yet
            continue
        if now >= steps and now == last:
            return
        last = now
    raise AssertionError(f"{folder}: fewer than {steps} steps written in {timeout} s")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_mid_episode_keeps_finished_episodes_and_the_steps_written(tmp_path):
    out = tmp_path / "data"
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(out)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.strip() == "step 1 3":
                break
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    # Steps 0-3 of episode 1 had returned: they were handed to the writer process, which
    # writes everything it got before it exits.
    wait_until_written(out / "episode-000001-seed-1", steps=4)
    first, cut = load(out)
    assert first.complete and len(first) == 40 and len(first.frames) == 41
    assert first.steps[-1]["truncated"] and first.meta["result"]["steps"] == 40
    assert not cut.complete and cut.meta["complete"] is False
    assert 4 <= len(cut) < 40 and len(cut.frames) == len(cut) + 1
    assert [s["step"] for s in cut.steps] == list(range(len(cut)))
    # What was kept is exact: a re-run from the log gives the same frames.
    for got, want in zip(replay(cut), cut.frames):
        assert np.array_equal(got, want)
