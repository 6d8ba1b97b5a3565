"""Frames in one zstd stream per episode (the default): lossless, compact, crash-safe, checked."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from dataset_helpers import as_cut_short, record

from gcc_envs.datasets import DatasetWriter, Episode, load
from gcc_envs.datasets.frame_stream import STREAM
from gcc_envs.errors import DataError


@pytest.fixture(scope="module")
def streamed(tmp_path_factory):
    out = tmp_path_factory.mktemp("stream")
    return out, record(out, [1, 2], background=False)


def test_streamed_frames_read_back_bit_exact_and_smaller_than_raw(streamed):
    out, log = streamed
    for ep, want in zip(load(out), log):
        assert ep.meta["frames"]["encoding"] == "zstd" and ep.meta["format_version"] == 3
        assert not (ep.path / "frames").exists()
        assert np.array_equal(ep.frames[:], np.stack(want["frames"]))
        raw = sum(f.nbytes for f in want["frames"])
        assert (ep.path / STREAM).stat().st_size * 5 <= raw


def test_a_png_writer_and_a_stream_writer_store_the_same_episode(tmp_path):
    for frames in ("png", "zstd"):
        record(tmp_path / frames, [3], frames=frames, steps=4, background=False)
    (a,), (b,) = load(tmp_path / "png"), load(tmp_path / "zstd")
    assert np.array_equal(a.frames[:], b.frames[:])
    assert [s["action"] for s in a.steps] == [s["action"] for s in b.steps]


def test_a_torn_last_record_is_dropped_and_the_rows_before_it_kept(streamed, tmp_path):
    full = next(load(streamed[0]))
    cut = as_cut_short(full, tmp_path, rows=5, torn=17)
    data = (cut / STREAM).read_bytes()
    (cut / STREAM).write_bytes(data + data[:9])  # a record whose writer was killed mid-write
    ep = Episode(cut)
    assert not ep.complete and len(ep) == 5 and len(ep.frames) == 6
    assert np.array_equal(ep.frames[:], full.frames[:6])


def _spans(data: bytes) -> list[tuple[int, int]]:
    out, at = [], 0
    while at < len(data):
        n = int.from_bytes(data[at : at + 4], "little")
        out.append((at, at + 4 + n))
        at += 4 + n
    return out


@pytest.mark.parametrize("damage", ["swap", "flip"])
def test_a_damaged_or_swapped_record_is_a_data_error(streamed, tmp_path, damage):
    src = next(load(streamed[0])).path
    copy = tmp_path / src.name
    shutil.copytree(src, copy)
    data = bytearray((copy / STREAM).read_bytes())
    spans = _spans(bytes(data))
    if damage == "swap":
        (a0, a1), (b0, b1) = spans[2], spans[5]
        data = data[:a0] + data[b0:b1] + data[a1:b0] + data[a0:a1] + data[b1:]
    else:
        data[spans[4][0] + 10] ^= 0x40
    (copy / STREAM).write_bytes(bytes(data))
    with pytest.raises(DataError, match=r"frames\.zst"):
        list(Episode(copy).frames)


def test_writer_refuses_an_unknown_frame_encoding(tmp_path):
    with pytest.raises(DataError, match="frames must be one of"):
        DatasetWriter(tmp_path, frames="jpeg")
