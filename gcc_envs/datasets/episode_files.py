"""The files of one episode being written: folder, ``meta.json``, rows, frames, Parquet at the end.

Used in the recording process (``background=False``) or in the writer process
(``writer_process``); either way the reset frame is written before ``meta.json`` (which holds
its checksum), and per step the frame is written (PNG under a temporary name, renamed) before
its row, which carries the frame's checksum and is sealed (see ``checksums``), appended to
``steps.jsonl`` and flushed. :meth:`EpisodeFiles.finish` turns the rows into ``steps.parquet``
(written aside, then renamed) before ``meta.json`` says ``"complete": true`` with the file's
checksum and ``steps.jsonl`` is removed.

A failed write leaves the episode cut short at the last whole step, in both modes: nothing more
is written, and ``finish`` does not make it complete (it raises the failure instead).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.datasets.checksums import file_digest, seal_row
from gcc_envs.datasets.frame_stream import STREAM, StreamWriter
from gcc_envs.datasets.frames import frame_name, write_bgr
from gcc_envs.datasets.meta import FRAMES, STEPS_JSONL, STEPS_PARQUET, write_meta
from gcc_envs.datasets.table import rows_to_table, write_parquet
from gcc_envs.errors import DataError


def encode_row(row: dict[str, Any]) -> bytes:
    """One line of ``steps.jsonl`` (before the writer adds the frame checksum and the seal)."""
    return (json.dumps(row, separators=(",", ":")) + "\n").encode()


class EpisodeFiles:
    """Creates ``folder`` and writes the episode into it, step by step."""

    def __init__(
        self, folder: Path, meta: dict[str, Any], reset_frame: np.ndarray, fsync: bool = False
    ) -> None:
        self.folder = folder
        self.fsync = fsync
        self.frames = folder / FRAMES
        self.stream: StreamWriter | None = None
        if meta["frames"].get("encoding") == "zstd":  # one stream file (see frame_stream)
            folder.mkdir(parents=True)
            self.stream = StreamWriter(folder / STREAM, meta["frames"]["shape"])
        else:
            self.frames.mkdir(parents=True)
        self.n_frames = 0
        self.lines: list[bytes] = []
        self.failed: str | None = None
        self._seal = ""
        reset_b2 = self._frame(reset_frame)
        self.meta = {**meta, "frames": {**meta["frames"], "reset_b2": reset_b2}}
        write_meta(folder, self.meta)
        self.jsonl = open(folder / STEPS_JSONL, "ab")

    def step(self, line: bytes, bgr: np.ndarray) -> None:
        """The frame after a step (OpenCV channel order), then its row (an ``encode_row`` line)."""
        if self.failed is not None:
            raise DataError(f"{self.folder}: recording failed earlier ({self.failed})")
        try:
            b2 = self._frame(bgr)
            body = line.rstrip(b"\n")
            line = seal_row(body[:-1] + f',"frame_b2":"{b2}"}}\n'.encode(), self._seal)
            self.jsonl.write(line)
            self.jsonl.flush()
            if self.fsync:
                os.fsync(self.jsonl.fileno())
        except BaseException as e:
            self.failed = f"{type(e).__name__}: {e}"
            raise
        self._seal = line[-35:-3].decode()
        self.lines.append(line)

    def _frame(self, bgr: np.ndarray) -> str:
        """Store a frame: ``bgr`` in OpenCV's channel order for PNG, as observed for zstd."""
        if self.stream is not None:
            b2 = self.stream.append(bgr)
        else:
            b2 = write_bgr(self.frames / frame_name(self.n_frames), bgr)
        self.n_frames += 1
        return b2

    def finish(self, result: dict[str, Any]) -> None:
        """Steps table to Parquet, ``meta.json`` complete with ``result``, JSON lines removed."""
        if self.failed is not None:
            self.abandon()
            raise DataError(
                f"{self.folder}: recording failed ({self.failed}); the episode is kept cut "
                f"short at {len(self.lines)} steps"
            )
        self.jsonl.close()
        self._close_stream()
        rows = [json.loads(line) for line in self.lines]
        parquet = self.folder / STEPS_PARQUET
        write_parquet(rows_to_table(rows, self.meta["info_keys"]), parquet)
        self.meta = {
            **self.meta,
            "complete": True,
            "result": result,
            "n_steps": len(rows),
            "files": {STEPS_PARQUET: file_digest(parquet)},
        }
        write_meta(self.folder, self.meta)
        os.remove(self.folder / STEPS_JSONL)

    def abandon(self) -> None:
        """Stop writing and leave the episode as a cut-short one (readable from its rows)."""
        self.jsonl.close()
        self._close_stream()

    def _close_stream(self) -> None:
        if self.stream is not None:
            self.stream.close()
