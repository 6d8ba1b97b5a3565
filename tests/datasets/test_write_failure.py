"""A failed write mid-episode leaves the same readable cut-short episode, inline or in the
background, and the recorder hears of it."""

from __future__ import annotations

import time

import gymnasium as gym
import numpy as np
import pytest
from dataset_helpers import SIZE

import gcc_envs  # noqa: F401  (registers the ids)
from gcc_envs.datasets import Episode
from gcc_envs.errors import DataError
from wrappers.record_trajectory import RecordTrajectory

STEPS = 12
FAIL_AT = 6  # the frame after step 5 cannot be written


def wait_for(path, timeout_s=20.0):
    deadline = time.monotonic() + timeout_s
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.02)


@pytest.mark.parametrize("background", [False, True], ids=["inline", "background"])
def test_a_failed_frame_write_leaves_a_readable_cut_short_episode(tmp_path, background):
    env = RecordTrajectory(
        gym.make("GCC/Stardew-FarmClearup", obs_size=SIZE, max_episode_steps=STEPS),
        tmp_path,
        background=background,
        frames="png",
    )
    obs, _ = env.reset(seed=1)
    folder = env.episode_dir
    wait_for(folder / "frames")
    (folder / "frames" / f".{FAIL_AT:06d}.tmp.png").mkdir()  # where that frame is written first
    frames, rewards, errors = [obs], [], []
    for _ in range(STEPS):
        try:
            obs, reward, *_ = env.step("move_up(duration=0.25)")
        except DataError as e:  # the recorder raises, at once or at its next call
            errors.append(str(e))
            break
        frames.append(obs)
        rewards.append(float(reward))
    try:
        env.close()
    except DataError as e:
        errors.append(str(e))
    assert errors and f".{FAIL_AT:06d}.tmp.png" in " ".join(errors)  # what failed, named
    ep = Episode(folder)
    assert not ep.complete and len(ep) == FAIL_AT - 1 and len(ep.frames) == FAIL_AT
    assert [s["step"] for s in ep.steps] == list(range(FAIL_AT - 1))
    assert list(ep.rewards) == rewards[: FAIL_AT - 1]
    for got, want in zip(ep.frames, frames, strict=False):
        assert np.array_equal(got, want)
