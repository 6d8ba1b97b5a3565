"""Export to Minari and load back with minari.load_dataset."""

import json
from pathlib import Path

import numpy as np
import pytest
from dataset_helpers import record
from gymnasium.spaces import Box

from gcc_envs.core.events import event_from_dict
from gcc_envs.datasets import export_minari, load
from gcc_envs.errors import DataError, MissingExtraError

minari = pytest.importorskip("minari", minversion="0.5.4")  # 0.5.3 misreads some frame shapes


@pytest.fixture(autouse=True)
def minari_home(tmp_path, monkeypatch):
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "minari"))


def test_state_mode_actions_export_as_space_members(random_dataset):
    out, _ = random_dataset
    export_minari(out, "gcc/farm-random-v0")
    ds = minari.load_dataset("gcc/farm-random-v0")
    assert ds.total_episodes == 2 and ds.total_steps == 24
    assert ds.storage.metadata.get("jpeg_encoding", False) is False
    for got, ep in zip(ds.iterate_episodes(), load(out)):
        assert got.observations.dtype == np.uint8
        assert np.array_equal(got.observations, ep.frames[:])
        for key in ("keys", "buttons", "mouse"):
            want = np.array([a[key] for a in ep.actions], dtype=got.actions[key].dtype)
            assert np.array_equal(got.actions[key], want)
        assert got.actions["scroll"].tolist() == [a["scroll"] for a in ep.actions]
        assert got.rewards.tolist() == ep.rewards.tolist()
        assert got.truncations.tolist() == [s["truncated"] for s in ep.steps]
    env = ds.recover_environment()
    assert env.observation_space == ds.observation_space
    env.close()


def test_code_actions_export_as_the_code_the_recovered_env_takes(tmp_path):
    data = tmp_path / "data"
    code = ["move_down(duration=1.0)", "WAIT", "pyautogui.typewrite('hi')"]
    record(data, [4], policy=lambda t: code[t], steps=3)
    export_minari(data, "gcc/farm-code-v0")
    ds = minari.load_dataset("gcc/farm-code-v0")
    (got,) = ds.iterate_episodes()
    (ep,) = load(data)
    assert list(got.actions) == code
    assert [json.loads(e) for e in got.infos["events"]] == [[], *_untimed(ep.events)]
    env = ds.recover_environment()
    frames = [env.reset(seed=4)[0], *(env.step(c)[0] for c in got.actions)]
    assert np.array_equal(np.stack(frames), got.observations)
    env.close()


def test_actions_export_as_the_event_log_when_asked(tmp_path):
    data = tmp_path / "data"
    code = ["move_down(duration=1.0)", "WAIT", "pyautogui.typewrite('hi')"]
    record(data, [4], policy=lambda t: code[t], steps=3)
    export_minari(data, "gcc/farm-events-v0", actions="events")
    (got,) = minari.load_dataset("gcc/farm-events-v0").iterate_episodes()
    (ep,) = load(data)
    assert np.array_equal(got.observations, ep.frames[:])
    decoded = [[event_from_dict(d) for d in json.loads(a)] for a in got.actions]
    assert [[e.to_dict() for e in step] for step in decoded] == _untimed(ep.events)


def _untimed(events):
    return [[{k: v for k, v in e.items() if k != "t"} for e in step] for step in events]


def test_export_compresses_frames_losslessly(random_dataset):
    out, _ = random_dataset
    ds = export_minari(out, "gcc/farm-small-v0")
    raw = sum(ep.frames[:].nbytes for ep in load(out))
    data = sum(f.stat().st_size for f in Path(ds.storage.data_path).rglob("*.arrow"))
    assert data < raw / 4
    for got, ep in zip(ds.iterate_episodes(), load(out)):
        assert np.array_equal(got.observations, ep.frames[:])


def test_export_leaves_the_frame_space_to_the_env_spec_and_minari_keeps_it_out(random_dataset):
    out, _ = random_dataset
    ds = export_minari(out, "gcc/farm-compact-v0")
    metadata = Path(ds.storage.data_path) / "metadata.json"
    raw = json.loads(metadata.read_text())
    assert "observation_space" not in raw and ", " not in raw["action_space"]
    assert metadata.stat().st_size < 20_000  # not one number per pixel
    ds.storage.update_metadata({"description": "edited"})  # Minari rewrites the file
    again = minari.load_dataset("gcc/farm-compact-v0")
    assert "observation_space" not in json.loads(metadata.read_text())
    frames = next(iter(load(out))).frames
    assert again.observation_space == Box(0, 255, frames[0].shape, np.uint8)
    assert np.array_equal(again[0].observations, frames[:])


def test_export_keeps_a_compact_frame_space_where_the_spec_cannot_give_it(
    random_dataset, monkeypatch
):
    from gcc_envs.datasets import minari_export

    monkeypatch.setattr(minari_export, "frame_space_of", lambda spec: None)
    ds = export_minari(random_dataset[0], "gcc/farm-kept-v0")
    raw = json.loads((Path(ds.storage.data_path) / "metadata.json").read_text())
    assert ", " not in raw["observation_space"]
    again = minari.load_dataset("gcc/farm-kept-v0")
    assert again.observation_space == ds.observation_space


def test_export_refuses_an_existing_id_and_space_actions_it_does_not_have(tmp_path):
    data = tmp_path / "data"
    record(data, [4], policy=lambda t: "WAIT", steps=2)
    export_minari(data, "gcc/x-v0")
    with pytest.raises(DataError, match="exists already"):
        export_minari(data, "gcc/x-v0")
    with pytest.raises(DataError, match="actions='events'"):
        export_minari(data, "gcc/x-v1", actions="space")
    assert not (tmp_path / "minari" / "gcc" / "x-v1").exists()


def test_missing_minari_names_the_extra(random_dataset, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "minari", None)
    with pytest.raises(MissingExtraError, match=r"\[dataset\]"):
        export_minari(random_dataset[0], "gcc/y-v0")
