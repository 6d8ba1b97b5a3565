"""Recorded datasets read back exactly: frames, actions, events, rewards, infos, meta."""

import json
import shutil

import numpy as np
import pytest
from dataset_helpers import SIZE, as_cut_short

from gcc_envs.datasets import DatasetWriter, Episode, load
from gcc_envs.datasets.encoding import jsonable
from gcc_envs.datasets.meta import FORMAT_VERSION, episode_meta
from gcc_envs.datasets.table import step_row
from gcc_envs.errors import DataError


def test_frames_actions_events_rewards_and_infos_read_back_equal(random_dataset):
    out, log = random_dataset
    episodes = list(load(out))
    assert [ep.path.name for ep in episodes] == ["episode-000000-seed-1", "episode-000001-seed-2"]
    for ep, rec in zip(episodes, log):
        assert ep.complete and len(ep) == 12 and len(ep.frames) == 13
        for got, want in zip(ep.frames, rec["frames"]):
            assert got.dtype == np.uint8 and np.array_equal(got, want)
        assert ep.actions == [jsonable(a) for a in rec["actions"]]
        assert ep.events == [info["events"] for info in rec["infos"]]
        assert ep.rewards.tolist() == rec["rewards"]
        for row, info in zip(ep.steps, rec["infos"]):
            assert row["action_kind"] == "space"
            assert row["game_time"] == info["game_time"]
            assert row["held_keys"] == info["held_keys"]
            assert row["progress"] == info["progress"] and row["t_game"] == info["t_game"]
            assert row["last_action_error"] is None and row["wall_s"] > 0
        assert [s["truncated"] for s in ep.steps] == [False] * 11 + [True]


def test_meta_names_env_kwargs_seed_policy_and_versions(random_dataset):
    out, _ = random_dataset
    ep = next(load(out))
    m = ep.meta
    assert m["format_version"] == FORMAT_VERSION and m["complete"] is True
    assert m["env_id"] == "GCC/Stardew-FarmClearup-v1" and m["seed"] == 1  # the version made
    assert m["make_kwargs"]["obs_size"] == list(SIZE) and m["max_episode_steps"] == 12
    assert m["policy"] == "random" and m["time_mode"] == "lockstep"
    assert {"gcc-gym", "gymnasium", "numpy", "opencv"} <= set(m["versions"])
    assert m["frames"].items() >= {"encoding": "png", "dir": "frames", "shape": [*SIZE, 3]}.items()
    assert len(m["frames"]["reset_b2"]) == 32 and m["n_steps"] == 12
    assert m["result"]["steps"] == 12 and m["result"]["truncated"] is True
    assert not (ep.path / "steps.jsonl").exists()


def test_cut_short_episode_reads_its_json_lines_like_the_parquet(random_dataset, tmp_path):
    out, _ = random_dataset
    full = next(load(out))
    cut = as_cut_short(full, tmp_path, rows=5, torn=17)
    (cut / "frames" / ".000009.tmp.png").write_bytes(b"\x89PNG half")
    ep = Episode(cut)
    assert not ep.complete and len(ep) == 5 and len(ep.frames) == 6
    assert ep.steps == full.steps[:5]
    assert np.array_equal(ep.frames[-1], full.frames[5])


def test_rows_whose_frames_were_removed_are_refused(random_dataset, tmp_path):
    out, _ = random_dataset
    cut = as_cut_short(next(load(out)), tmp_path, rows=12)
    for i in range(4, 13):
        (cut / "frames" / f"{i:06d}.png").unlink()
    with pytest.raises(DataError, match="12 steps but 4 frames"):
        Episode(cut)


def test_a_version_1_episode_drops_rows_without_their_frame(random_dataset, tmp_path):
    out, _ = random_dataset
    full = next(load(out))
    cut = tmp_path / full.path.name
    shutil.copytree(full.path, cut)
    (cut / "steps.parquet").unlink()
    (cut / "steps.jsonl").write_text("".join(json.dumps(r) + "\n" for r in full.steps))
    meta = {**full.meta, "format_version": 1, "complete": False}
    (cut / "meta.json").write_text(json.dumps(meta))
    for i in range(4, 13):
        (cut / "frames" / f"{i:06d}.png").unlink()
    assert len(Episode(cut)) == 3


def test_load_takes_a_dataset_or_one_episode_and_refuses_other_folders(random_dataset, tmp_path):
    out, _ = random_dataset
    one = out / "episode-000001-seed-2"
    assert [ep.seed for ep in load(one)] == [2]
    with pytest.raises(DataError, match="no episodes"):
        load(tmp_path)
    with pytest.raises(DataError, match="no such"):
        load(tmp_path / "missing")


def test_frames_are_read_on_demand_by_index_and_slice(random_dataset):
    out, log = random_dataset
    ep = next(load(out))
    assert np.array_equal(ep.frames[-1], log[0]["frames"][-1])
    stack = ep.frames[2:5]
    assert stack.shape == (3, *SIZE, 3)
    assert np.array_equal(stack[0], log[0]["frames"][2])
    with pytest.raises(IndexError):
        ep.frames[13]


@pytest.mark.parametrize(
    "shape", [(40, 48), (40, 48, 1), (40, 48, 4)], ids=["grey", "grey1", "rgba"]
)
@pytest.mark.parametrize("background", [True, False], ids=["process", "inline"])
def test_grey_and_rgba_frames_round_trip(tmp_path, shape, background):
    rng = np.random.default_rng(0)
    frames = [rng.integers(0, 256, shape, dtype=np.uint8) for _ in range(3)]
    w = DatasetWriter(tmp_path, background=background)
    meta = episode_meta(
        {"env_id": None},
        seed=None,
        rng_state=None,
        options=None,
        policy=None,
        info_keys=[],
        frame_shape=shape,
    )
    w.begin_episode(meta, None, frames[0])
    for i, f in enumerate(frames[1:]):
        w.add_step(step_row(i, "WAIT", 0.0, False, False, {}, 0.0, 0.0, []), f)
    w.close({"steps": 2})
    (ep,) = load(tmp_path)
    assert ep.path.name == "episode-000000-seed-none" and ep.actions == ["WAIT", "WAIT"]
    assert all(np.array_equal(a, b) for a, b in zip(ep.frames, frames))


@pytest.mark.parametrize("background", [True, False], ids=["process", "inline"])
def test_a_write_that_fails_raises_instead_of_losing_data(tmp_path, background):
    w = DatasetWriter(tmp_path, background=background)
    (tmp_path / "episode-000000-seed-0").write_text("in the way")  # the folder cannot be made
    meta = episode_meta(
        {"env_id": None},
        seed=0,
        rng_state=None,
        options=None,
        policy=None,
        info_keys=[],
        frame_shape=(16, 16, 3),
    )
    frame = np.zeros((16, 16, 3), np.uint8)
    with pytest.raises((DataError, OSError), match="Not a directory|File exists"):
        w.begin_episode(meta, 0, frame)
        w.add_step(step_row(0, "WAIT", 0.0, False, False, {}, 0.0, 0.0, []), frame)
        w.flush()
    if background:  # the writer process remembers the failure until the end
        with pytest.raises(DataError):
            w.close()
    else:
        w.close()
