"""``gcc-gym replay`` and ``gcc-gym export`` on a recorded dataset."""

import json
import shutil
import sys

import cv2
import numpy as np
import pytest

from agents.cli import main


def test_replay_renders_an_mp4_and_reports_identical_frames(random_dataset, tmp_path, capsys):
    out, _ = random_dataset
    video = tmp_path / "replay.mp4"
    assert main(["replay", str(out / "episode-000000-seed-1"), "--out", str(video), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "12 steps" in text and "identical to the recording" in text
    cap = cv2.VideoCapture(str(video))
    assert cap.get(cv2.CAP_PROP_FRAME_COUNT) == 13
    assert _fourcc(cap) in ("avc1", "h264")  # H.264, as gcc-gym run's videos
    ok, frame = cap.read()
    assert ok and frame.shape == (72, 128, 3)


def test_replay_without_the_video_extra_writes_mp4v_and_says_so(
    random_dataset, tmp_path, monkeypatch, caplog
):
    pytest.importorskip("imageio_ffmpeg")
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # as if not installed
    out, _ = random_dataset
    video = tmp_path / "replay.mp4"
    assert main(["replay", str(out / "episode-000000-seed-1"), "--out", str(video), "--quiet"]) == 0
    assert "pip install -e '.[video]'" in caplog.text
    cap = cv2.VideoCapture(str(video))
    assert _fourcc(cap) in ("mp4v", "fmp4")  # MPEG-4 Part 2 (OpenCV may report it as FMP4)
    assert cap.get(cv2.CAP_PROP_FRAME_COUNT) == 13


def _fourcc(cap: cv2.VideoCapture) -> str:
    code = int(cap.get(cv2.CAP_PROP_FOURCC))
    return "".join(chr((code >> 8 * i) & 0xFF) for i in range(4)).lower()


def reseal(ep, frame_index: int) -> None:
    """Give frame ``frame_index`` of a complete episode checksums that match its new bytes."""
    from gcc_envs.datasets.checksums import file_digest
    from gcc_envs.datasets.meta import read_meta, write_meta
    from gcc_envs.datasets.table import pyarrow, read_parquet, write_parquet

    pa, parquet = pyarrow(), ep / "steps.parquet"
    table = read_parquet(parquet)
    digests = table.column("frame_b2").to_pylist()
    digests[frame_index - 1] = file_digest(ep / "frames" / f"{frame_index:06d}.png")
    i = table.column_names.index("frame_b2")
    write_parquet(table.set_column(i, "frame_b2", pa.array(digests, pa.string())), parquet)
    meta = read_meta(ep)
    write_meta(ep, {**meta, "files": {"steps.parquet": file_digest(parquet)}})


def test_replay_exits_1_when_the_recording_does_not_reproduce(random_dataset, tmp_path, capsys):
    out, _ = random_dataset
    ep = tmp_path / "episode-000000-seed-1"
    shutil.copytree(out / ep.name, ep)
    frame = ep / "frames" / "000003.png"
    cv2.imwrite(str(frame), np.zeros((72, 128, 3), np.uint8))
    reseal(ep, frame_index=3)  # a whole recording that a re-run does not reproduce
    assert main(["replay", str(ep), "--quiet"]) == 1
    assert "DIFFERENT from the recording from frame 3" in capsys.readouterr().out


def test_replay_wants_one_episode(random_dataset, capsys):
    out, _ = random_dataset
    assert main(["replay", str(out), "--quiet"]) == 2
    assert "holds 2 episodes" in capsys.readouterr().err


def test_export_writes_a_minari_dataset(random_dataset, tmp_path, monkeypatch, capsys):
    minari = pytest.importorskip("minari", minversion="0.5.4")  # 0.5.3 misreads some frame shapes
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    out, _ = random_dataset
    assert main(["export", str(out), "--minari", "gcc/cli-v0"]) == 0
    assert "2 episodes, 24 steps, actions Dict" in capsys.readouterr().out
    ds = minari.load_dataset("gcc/cli-v0")
    assert ds.total_steps == 24
    assert main(["export", str(out), "--minari", "gcc/cli-v0"]) == 2
    assert "exists already" in capsys.readouterr().err
    meta = json.loads((out / "episode-000000-seed-1" / "meta.json").read_text())
    assert meta["complete"] is True  # export reads, never writes, the recording
