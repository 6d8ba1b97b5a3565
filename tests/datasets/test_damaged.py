"""Damaged episode files: each is a ``DataError`` naming the file, never wrong or short data."""

from __future__ import annotations

import json
import os
import shutil

import gymnasium as gym
import pytest
from dataset_helpers import SIZE, record

from gcc_envs.datasets import DatasetWriter, Episode, load
from gcc_envs.datasets.meta import env_description, episode_meta
from gcc_envs.datasets.table import step_row
from gcc_envs.errors import DataError


@pytest.fixture(scope="module")
def complete(tmp_path_factory):
    out = tmp_path_factory.mktemp("complete")
    record(out, [1], frames="png")
    return next(load(out)).path


@pytest.fixture(scope="module")
def cut_short(tmp_path_factory):
    """An episode whose recorder died after 9 steps (rows in steps.jsonl, no Parquet)."""
    out = tmp_path_factory.mktemp("cut")
    env = gym.make("GCC/Stardew-FarmClearup", obs_size=SIZE)
    obs, info = env.reset(seed=2)
    env.action_space.seed(2)
    meta = episode_meta(
        env_description(env), seed=2, rng_state=None, options=None, policy="random",
        info_keys=["progress"], frame_shape=obs.shape,
    )  # fmt: skip
    writer = DatasetWriter(out, background=False, frames="png")
    folder = writer.begin_episode(meta, 2, obs)
    for t in range(9):
        action = env.action_space.sample()
        obs, reward, term, trunc, info = env.step(action)
        writer.add_step(step_row(t, action, reward, term, trunc, info, 0.0, 0.0, ["progress"]), obs)
    writer._inline.abandon()  # what a killed recorder leaves: no end, no Parquet
    env.close()
    return folder


def damaged(src, tmp_path):
    copy = tmp_path / src.name
    shutil.copytree(src, copy)
    return copy


def read_everything(folder):
    ep = Episode(folder)
    return ep, ep.steps, list(ep.frames)


def test_the_undamaged_episodes_read_back(complete, cut_short):
    ep, steps, frames = read_everything(complete)
    assert ep.complete and len(steps) == 12 and len(frames) == 13
    ep, steps, frames = read_everything(cut_short)
    assert not ep.complete and len(steps) == 9 and len(frames) == 10


def test_a_deleted_steps_parquet_is_not_an_empty_episode(complete, tmp_path):
    copy = damaged(complete, tmp_path)
    (copy / "steps.parquet").unlink()
    with pytest.raises(DataError, match="steps.parquet"):
        read_everything(copy)


def test_a_blanked_json_line_does_not_shift_rows_against_frames(cut_short, tmp_path):
    copy = damaged(cut_short, tmp_path)
    lines = (copy / "steps.jsonl").read_bytes().split(b"\n")
    lines[3] = b""
    (copy / "steps.jsonl").write_bytes(b"\n".join(lines))
    with pytest.raises(DataError, match="steps.jsonl"):
        read_everything(copy)


def test_a_nul_filled_steps_jsonl_is_not_an_empty_episode(cut_short, tmp_path):
    copy = damaged(cut_short, tmp_path)
    size = (copy / "steps.jsonl").stat().st_size
    (copy / "steps.jsonl").write_bytes(b"\x00" * size)
    with pytest.raises(DataError, match="steps.jsonl"):
        read_everything(copy)


def test_a_wrong_frame_shape_in_meta_does_not_reshape_frames(complete, tmp_path):
    copy = damaged(complete, tmp_path)
    meta = json.loads((copy / "meta.json").read_text())
    meta["frames"]["shape"] = [SIZE[1], SIZE[0], 3]
    (copy / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(DataError, match="meta.json|shape"):
        read_everything(copy)


@pytest.mark.parametrize("episode", ["complete", "cut_short"])
def test_swapped_frames_are_found(episode, request, tmp_path):
    copy = damaged(request.getfixturevalue(episode), tmp_path)
    a, b = copy / "frames" / "000002.png", copy / "frames" / "000005.png"
    os.replace(a, copy / "frames" / "tmp")
    os.replace(b, a)
    os.replace(copy / "frames" / "tmp", b)
    with pytest.raises(DataError, match="000002.png"):
        read_everything(copy)


@pytest.mark.parametrize("where", [0.2, 0.5, 0.8])
def test_a_bit_flip_in_steps_parquet_is_found(complete, tmp_path, where):
    copy = damaged(complete, tmp_path)
    data = bytearray((copy / "steps.parquet").read_bytes())
    data[int(where * len(data))] ^= 0x10
    (copy / "steps.parquet").write_bytes(bytes(data))
    with pytest.raises(DataError, match="steps.parquet"):
        read_everything(copy)


@pytest.mark.parametrize(
    "damage",
    [
        lambda m: m.pop("frames"),  # was a KeyError
        lambda m: m.update(frames=None),  # was an AttributeError
        lambda m: m.update(info_keys=7),
    ],
    ids=["no-frames", "frames-null", "info-keys-number"],
)
def test_a_meta_json_of_the_wrong_shape_is_a_data_error(complete, tmp_path, damage):
    copy = damaged(complete, tmp_path)
    meta = json.loads((copy / "meta.json").read_text())
    damage(meta)
    (copy / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(DataError, match="meta.json"):
        read_everything(copy)


def test_a_meta_json_that_is_not_utf8_is_a_data_error(complete, tmp_path):
    copy = damaged(complete, tmp_path)
    (copy / "meta.json").write_bytes(b'{"format": "\xff\xfe"}')
    with pytest.raises(DataError, match="meta.json"):
        read_everything(copy)


def test_garbage_in_place_of_steps_parquet_is_a_data_error(complete, tmp_path):
    copy = damaged(complete, tmp_path)
    (copy / "steps.parquet").write_bytes(b"PAR1" + b"\x07" * 200 + b"PAR1")
    with pytest.raises(DataError, match="steps.parquet"):
        read_everything(copy)


def test_verification_can_be_skipped_and_still_checks_structure(complete, tmp_path):
    ep = Episode(complete, verify=False)
    assert len(ep) == 12 and all(d is None for d in ep.frames.digests)
    copy = damaged(complete, tmp_path)
    (copy / "steps.parquet").unlink()
    with pytest.raises(DataError, match="steps.parquet"):
        Episode(copy, verify=False)


@pytest.mark.slow
def test_the_corruption_fuzzer_finds_no_crash_hang_or_silent_loss():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "fuzz_dataset.py"
    done = subprocess.run(
        [sys.executable, str(script), "--flips", "8", "--json"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    strict, loose = figures["verify"], figures["no-verify"]
    assert strict["tried"] >= 150
    assert strict["lost"] == strict["crashed"] == strict["hung"] == 0
    assert loose["crashed"] == loose["hung"] == 0


def test_an_episode_killed_before_its_first_row_holds_the_reset_frame(tmp_path):
    env = gym.make("GCC/Stardew-FarmClearup", obs_size=SIZE)
    obs, _ = env.reset(seed=4)
    meta = episode_meta(
        env_description(env), seed=4, rng_state=None, options=None, policy="random",
        info_keys=[], frame_shape=obs.shape,
    )  # fmt: skip
    writer = DatasetWriter(tmp_path, background=False)
    folder = writer.begin_episode(meta, 4, obs)
    writer._inline.abandon()  # killed here
    env.close()
    ep, steps, frames = read_everything(folder)
    assert not ep.complete and steps == [] and len(frames) == 1
    assert (frames[0] == obs).all()
