"""Incremental, crash-safe writing of trajectory datasets (one folder per episode).

Per step the frame is written as PNG under a temporary name, then renamed, and the row (with
the frame's checksum) is appended to ``steps.jsonl`` and flushed
(:class:`~gcc_envs.datasets.episode_files.EpisodeFiles`). A process killed at any point leaves
every earlier episode whole and the current one readable up to its last step with both on disk;
a failed write (disk full, say) leaves the same cut-short episode, inline or in the background.

With ``background=True`` (default) all of that runs in a writer process
(:mod:`~gcc_envs.datasets.writer_process`) while the env computes the next step; the recording
process only encodes each row as JSON and hands row and frame over a pipe. If the recording
process dies the writer still writes everything it was handed, so no returned step is lost;
only if both die at once (machine crash, a signal to the whole process group) can what is
still in the pipe be lost (at most 1 MiB). ``fsync=True`` makes rows survive power loss.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.datasets.episode_files import EpisodeFiles, encode_row
from gcc_envs.datasets.frame_stream import STREAM, check_stream_frame
from gcc_envs.datasets.frames import to_bgr
from gcc_envs.datasets.table import pyarrow
from gcc_envs.datasets.writer_process import WriterProcess
from gcc_envs.errors import DataError

_EPISODE_DIR = re.compile(r"^episode-(\d{6,})-seed-")


def episode_dir_name(index: int, seed: int | None) -> str:
    return f"episode-{index:06d}-seed-{'none' if seed is None else seed}"


def next_episode_index(root: Path) -> int:
    """One past the highest episode index already in ``root`` (0 for a new dataset)."""
    found = [int(m.group(1)) for p in root.iterdir() if (m := _EPISODE_DIR.match(p.name))]
    return max(found) + 1 if found else 0


#: How frames can be stored: ``"zstd"``, one stream file per episode (``frame_stream``), or
#: ``"png"``, a file per frame (``frames``).
FRAME_ENCODINGS = ("zstd", "png")


class DatasetWriter:
    """Writes episodes into ``root`` (created if needed), continuing its episode numbering.

    ``frames`` says how frames are stored (:data:`FRAME_ENCODINGS`); both load the same way.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        background: bool = True,
        fsync: bool = False,
        frames: str = "zstd",
    ) -> None:
        if frames not in FRAME_ENCODINGS:
            raise DataError(f"frames must be one of {FRAME_ENCODINGS}, got {frames!r}")
        self.encoding = frames
        pyarrow()  # fail now, not at the end of the first episode
        self.root = Path(root)
        if (self.root / "meta.json").exists():
            raise DataError(f"{self.root} is an episode folder; record into a dataset folder")
        self.root.mkdir(parents=True, exist_ok=True)
        self.fsync = fsync
        self.background = background
        # Started now so its start-up overlaps the env's.
        self._process: WriterProcess | None = WriterProcess() if background else None
        self._inline: EpisodeFiles | None = None
        self._open = False
        self._closed = False
        self._next_index = next_episode_index(self.root)

    @property
    def in_episode(self) -> bool:
        return self._open

    def begin_episode(self, meta: dict[str, Any], seed: int | None, frame: np.ndarray) -> Path:
        """Start a new episode folder with ``meta.json`` and the reset frame; return its path."""
        if self._closed:
            raise DataError("this DatasetWriter is closed; make a new one")
        if self._open:
            raise DataError("an episode is still open; end it before beginning another")
        bgr = self._prepare(frame)
        index = self._next_index
        self._next_index += 1
        folder = self.root / episode_dir_name(index, seed)
        meta = {**meta, "episode_index": index}
        if self.encoding == "zstd":  # readers before format 3 know PNG frames only
            meta["format_version"] = max(3, int(meta.get("format_version", 0)))
            meta["frames"] = {"encoding": "zstd", "file": STREAM, "shape": list(bgr.shape)}
        if self._process is not None:
            self._process.begin(folder, meta, self.fsync)
            self._process.frame(bgr)
        else:
            self._inline = EpisodeFiles(folder, meta, bgr, self.fsync)
        self._open = True
        return folder

    def add_step(self, row: dict[str, Any], frame: np.ndarray) -> None:
        """Append one step: its row (see ``table.step_row``) and the observation after it."""
        self._need_episode()
        bgr = self._prepare(frame)
        line = encode_row(row)
        if self._process is not None:
            self._process.step(line, bgr)
        else:
            assert self._inline is not None
            self._inline.step(line, bgr)

    def end_episode(self, result: dict[str, Any]) -> None:
        """Finish the open episode: Parquet steps table, ``meta.json`` with ``result``."""
        self._need_episode()
        self._open = False
        if self._process is not None:
            self._process.end(result)
        else:
            assert self._inline is not None
            inline, self._inline = self._inline, None
            inline.finish(result)

    def flush(self) -> None:
        """Return once everything handed over is on disk; raise if anything failed."""
        if self._process is not None:
            self._process.sync()

    def close(self, result: dict[str, Any] | None = None) -> None:
        """End an open episode (with ``result``), wait for the writes, stop the writer process.

        A closed writer cannot begin another episode.
        """
        try:
            if self._open:
                self.end_episode(result or {})
            self.flush()
        finally:
            self._open = False
            self._closed = True
            if self._inline is not None:
                self._inline.abandon()
                self._inline = None
            if self._process is not None:
                self._process.close()
                self._process = None

    def _prepare(self, frame: np.ndarray) -> np.ndarray:
        """A fresh copy of ``frame`` as its encoding stores it (OpenCV's channel order: PNG)."""
        return check_stream_frame(frame) if self.encoding == "zstd" else to_bgr(frame)

    def _need_episode(self) -> None:
        if not self._open:
            raise DataError("no episode is open; call begin_episode() first (env.reset())")
