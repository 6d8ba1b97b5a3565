"""Frames as one append-only stream per episode: each frame zstd-compressed, lossless.

``frames.zst`` holds one record per observation, in order: ``<I`` (payload bytes) then the
payload, the frame's pixels (RGB, as observed) compressed with zstd (pyarrow's codec, already
the ``dataset`` extra's). A record is written with one ``write`` and flushed before its step's
row, so a killed recorder leaves whole records plus at most a torn last one, which the reader
drops. Each row's ``frame_b2`` is the payload's checksum, as for a PNG file.

Why, against a PNG file per frame (``frames``): measured by ``benchmarks/perf_dataset.py`` at
84x84, a frame costs a file create, a rename and a PNG encode there (~1.5 ms on this machine's
disk, two to three plain steps), and one short append here (~0.1 ms), for about the same bytes
(zstd at level :data:`LEVEL` ~2.7 KB a Stardew frame, PNG ~2.9 KB; raw is 21 KB); at 360x640
zstd writes ~half PNG's bytes. Deltas between frames did not help (the camera moves: ~30 %
larger). PNG stays readable and writable (``DatasetWriter(frames="png")``): a folder of images
opens in any viewer.

>>> import tempfile, numpy as np
>>> path = Path(tempfile.mkdtemp()) / STREAM
>>> f = np.arange(16 * 16 * 3, dtype=np.uint8).reshape(16, 16, 3)
>>> w = StreamWriter(path, f.shape)
>>> _ = w.append(f), w.append(f[::-1].copy())
>>> w.close()
>>> r = StreamReader(path, f.shape)
>>> len(r), bool((r.read(1) == f[::-1]).all())
(2, True)
"""

from __future__ import annotations

import mmap
import os
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.datasets.checksums import digest
from gcc_envs.datasets.frames import LazyFrames
from gcc_envs.errors import DataError

#: The stream's file name in an episode folder.
STREAM = "frames.zst"
#: zstd level: 1 compresses a Stardew 84x84 frame in ~39 us against ~52 us at level 3, for
#: ~2 % more bytes (2,711 against 2,651 B, 300 frames, best of 6); the frame writer is what
#: holds a recorded step back (its pipe fills), so speed wins here.
LEVEL = 1
_HEAD = struct.Struct("<I")


def _codec() -> Any:
    from gcc_envs.datasets.table import pyarrow

    return pyarrow().Codec("zstd", compression_level=LEVEL)


def check_stream_frame(frame: np.ndarray, shape: Sequence[int] | None = None) -> np.ndarray:
    """A fresh C-contiguous uint8 copy of ``frame`` (of ``shape`` when given) to store."""
    frame = np.asarray(frame)
    if frame.dtype != np.uint8:
        raise DataError(f"frames must be uint8, got {frame.dtype}")
    if shape is not None and tuple(frame.shape) != tuple(shape):
        raise DataError(f"frame of shape {frame.shape}, the episode's are {tuple(shape)}")
    return np.array(frame, order="C", copy=True)


class StreamWriter:
    """Appends frames to ``path`` (created), each flushed before :meth:`append` returns."""

    def __init__(self, path: Path, shape: Sequence[int]) -> None:
        self.path = path
        self.shape = tuple(shape)
        self._codec = _codec()
        try:
            self._file = open(path, "ab")
        except OSError as e:
            raise DataError(f"could not create {path}: {e.strerror or e}") from None

    def append(self, frame: np.ndarray) -> str:
        """Write one frame; return its payload's checksum."""
        frame = np.ascontiguousarray(frame)
        if frame.shape != self.shape or frame.dtype != np.uint8:
            raise DataError(f"{self.path}: frame {frame.shape} {frame.dtype}, not {self.shape}")
        payload = self._codec.compress(frame, asbytes=True)
        try:
            self._file.write(_HEAD.pack(len(payload)) + payload)
            self._file.flush()
        except OSError as e:
            raise DataError(f"could not write a frame to {self.path}: {e.strerror or e}") from None
        return digest(payload)

    def fileno(self) -> int:
        return self._file.fileno()

    def close(self) -> None:
        self._file.close()


class StreamReader:
    """The whole records of a stream file (a torn last record is left out)."""

    def __init__(self, path: Path, shape: Sequence[int]) -> None:
        self.path = path
        self.shape = tuple(shape)
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                self._data: Any = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        except OSError:
            raise DataError(f"{path}: missing or unreadable frame stream") from None
        self._spans: list[tuple[int, int]] = []
        at = 0
        while at + _HEAD.size <= len(self._data):
            (n,) = _HEAD.unpack_from(self._data, at)
            if at + _HEAD.size + n > len(self._data):
                break  # torn: the recorder was killed while writing it
            self._spans.append((at + _HEAD.size, n))
            at += _HEAD.size + n
        self._codec: Any = None

    def __len__(self) -> int:
        return len(self._spans)

    def payload(self, i: int) -> bytes:
        start, n = self._spans[i]
        return self._data[start : start + n]

    def read(self, i: int, b2: str | None = None) -> np.ndarray:
        """Frame ``i``; with ``b2``, its payload checked against that checksum first."""
        data = self.payload(i)
        if b2 is not None and digest(data) != b2:
            raise DataError(
                f"{self.path}: frame {i}'s checksum does not match its row (damaged or swapped)"
            )
        if self._codec is None:
            self._codec = _codec()
        size = int(np.prod(self.shape))
        try:
            raw = self._codec.decompress(data, decompressed_size=size, asbytes=True)
        except Exception:  # noqa: BLE001 - pyarrow raises its own types for bad data
            raise DataError(f"{self.path}: frame {i} is not a readable zstd frame") from None
        if len(raw) != size:
            raise DataError(f"{self.path}: frame {i} holds {len(raw)} bytes, expected {size}")
        return np.frombuffer(raw, np.uint8).reshape(self.shape).copy()


class StreamFrames(LazyFrames):
    """The frames of one episode's stream, decoded when indexed or iterated."""

    def __init__(
        self, reader: StreamReader, count: int, digests: Sequence[str | None] | None = None
    ) -> None:
        super().__init__(count, reader.shape, digests)
        self.reader = reader

    def _read(self, i: int) -> np.ndarray:
        return self.reader.read(i, self.digests[i])

    def __repr__(self) -> str:
        return f"StreamFrames({self._count} x {self.shape}, {self.reader.path})"
