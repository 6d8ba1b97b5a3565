"""Frames of a trajectory: one lossless PNG per observation, read back lazily.

Why PNG files and not FFV1 video in MKV (both lossless). Measured by
``benchmarks/perf_dataset.py`` on Stardew frames, one core each, tmpfs:

* **size** — PNG (zlib level 1, fixed row filter) ~65 KB per 1280×720 frame and ~3.1 KB per
  84×84 frame; FFV1 (``ffmpeg -c:v ffv1 -level 3``) ~183 KB and ~9.3 KB: the flat colours of
  game and desktop screens suit PNG's row filter + deflate better than FFV1's context coder;
* **speed** — PNG ~210 frames/s at 1280×720 and ~9,000 at 84×84; FFV1 ~73 and ~3,200;
* **crash safety** — each PNG is written to a hidden temporary name and renamed, so a killed
  process never leaves half a frame; a killed ``ffmpeg`` leaves an MKV without its index and
  needs a process (and its start-up) per episode;
* **random access** — ``frames[i]`` reads one small file; a video has to be decoded from the
  last key frame.

PNG's row filter is fixed rather than chosen per row (OpenCV's default costs 2–3× the time for a
few percent in size): "up" for large frames, none for small ones (≤ 256×256), where the fixed
cost dominates and flat art compresses as well without it. Files are ``frames/000000.png``
(the reset observation), then one per step.

>>> import tempfile, numpy as np
>>> d = Path(tempfile.mkdtemp())
>>> f = np.arange(16 * 16 * 3, dtype=np.uint8).reshape(16, 16, 3)
>>> _ = write_frame(d / frame_name(0), f)
>>> bool((read_frame(d / frame_name(0), f.shape) == f).all())
True
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import overload

import cv2
import numpy as np

from gcc_envs.datasets.checksums import digest
from gcc_envs.errors import DataError

_PNG_LEVEL = [cv2.IMWRITE_PNG_COMPRESSION, 1]
#: Frames up to this many pixels skip PNG's row filter (faster, and smaller for flat art).
_SMALL = 256 * 256


def png_params(shape: tuple[int, ...]) -> list[int]:
    """OpenCV ``imwrite`` parameters for a frame of ``shape`` (zlib level 1, fixed filter)."""
    if not hasattr(cv2, "IMWRITE_PNG_FILTER"):  # OpenCV < 4.10: libpng's adaptive filter
        return list(_PNG_LEVEL)
    small = shape[0] * shape[1] <= _SMALL
    flt = cv2.IMWRITE_PNG_FILTER_NONE if small else cv2.IMWRITE_PNG_FILTER_UP
    return [*_PNG_LEVEL, cv2.IMWRITE_PNG_FILTER, flt]


def frame_name(index: int) -> str:
    return f"{index:06d}.png"


def temp_name(path: Path) -> Path:
    """Where a frame is written before it is renamed to ``path`` (hidden, still ``.png``)."""
    return path.with_name(f".{path.stem}.tmp.png")


def check_frame_shape(shape: tuple[int, ...]) -> None:
    """Refuse shapes PNG cannot hold: (H, W) or (H, W, C) with C in 1, 3, 4."""
    if len(shape) == 2 or (len(shape) == 3 and shape[2] in (1, 3, 4)):
        return
    raise DataError(f"frames must be (H, W) or (H, W, 1|3|4) images, got shape {shape}")


def to_bgr(frame: np.ndarray) -> np.ndarray:
    """A fresh array in OpenCV's channel order (BGR/BGRA/grey) for :func:`cv2.imwrite`."""
    frame = np.asarray(frame)
    if frame.dtype != np.uint8:
        raise DataError(f"frames must be uint8, got {frame.dtype}")
    check_frame_shape(frame.shape)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return cv2.cvtColor(frame, cv2.COLOR_RGB2BGR)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_RGBA2BGRA)
    return np.array(frame, copy=True)


def write_frame(path: Path, frame: np.ndarray) -> str:
    """Write ``frame`` (RGB) as PNG at ``path`` atomically: temporary name, then rename; the
    file's BLAKE2 digest (see ``checksums``)."""
    return write_bgr(path, to_bgr(frame))


def write_bgr(path: Path, bgr: np.ndarray) -> str:
    """:func:`write_frame` for a frame already in OpenCV's channel order; the file's digest."""
    ok, png = cv2.imencode(".png", bgr, png_params(bgr.shape))
    if not ok:
        raise DataError(f"could not encode frame {path} as PNG")
    data = png.data
    tmp = temp_name(path)
    try:
        with open(tmp, "wb") as f:
            f.write(data)
    except OSError as e:
        raise DataError(f"could not write frame {tmp}: {e.strerror or e}") from None
    os.replace(tmp, path)
    return digest(data)


def read_frame(path: Path, shape: tuple[int, ...], b2: str | None = None) -> np.ndarray:
    """Read one frame written by :func:`write_frame` as an RGB(A)/grey array of ``shape``;
    with ``b2``, check the file against that digest first."""
    try:
        data = path.read_bytes()
    except OSError:
        raise DataError(f"{path}: missing or unreadable frame") from None
    if b2 is not None and digest(data) != b2:
        raise DataError(f"{path}: the frame's checksum does not match its row (damaged or swapped)")
    try:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED) if data else None
    except cv2.error:
        img = None
    if img is None:
        raise DataError(f"{path}: not a readable PNG frame")
    if img.ndim == 3 and img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    elif img.ndim == 3 and img.shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA)
    want = tuple(shape)
    if img.shape != want and not (img.ndim == 2 and want == (*img.shape, 1)):
        raise DataError(f"{path}: frame of shape {img.shape}, expected {want}")
    return img.reshape(want)


def count_frames(folder: Path) -> int:
    """How many frames ``000000.png, 000001.png, ...`` exist without a gap."""
    n = 0
    while (folder / frame_name(n)).exists():
        n += 1
    return n


class LazyFrames(Sequence[np.ndarray]):
    """An episode's frames, each read and checked (``digests``) when indexed or iterated; a
    subclass says how one frame is read (:meth:`_read`)."""

    def __init__(
        self, count: int, shape: tuple[int, ...], digests: Sequence[str | None] | None = None
    ) -> None:
        self.shape = tuple(shape)
        self._count = count
        #: per frame, the checksum each read is checked against (None: not checked)
        self.digests = list(digests) if digests is not None else [None] * count

    def _read(self, i: int) -> np.ndarray:
        raise NotImplementedError

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> np.ndarray: ...
    @overload
    def __getitem__(self, index: slice) -> np.ndarray: ...
    def __getitem__(self, index: int | slice) -> np.ndarray:
        if isinstance(index, slice):
            idx = range(*index.indices(self._count))
            out = np.empty((len(idx), *self.shape), np.uint8)
            for j, i in enumerate(idx):
                out[j] = self[i]
            return out
        i = int(index)
        if i < 0:
            i += self._count
        if not 0 <= i < self._count:
            raise IndexError(f"frame {index} out of range (episode has {self._count})")
        return self._read(i)

    def __iter__(self) -> Iterator[np.ndarray]:
        for i in range(self._count):
            yield self[i]


class Frames(LazyFrames):
    """The frames of one episode as PNG files, read from disk when indexed or iterated."""

    def __init__(
        self,
        folder: Path,
        count: int,
        shape: tuple[int, ...],
        digests: Sequence[str | None] | None = None,
    ) -> None:
        super().__init__(count, shape, digests)
        self.folder = folder

    def _read(self, i: int) -> np.ndarray:
        return read_frame(self.folder / frame_name(i), self.shape, self.digests[i])

    def __repr__(self) -> str:
        return f"Frames({self._count} x {self.shape}, {self.folder})"
