"""The files of one episode being written: folder, ``meta.json``, rows, frames, Parquet at the end.

Used in the recording process (``background=False``) or in the writer process
(``writer_process``); either way each row is appended to ``steps.jsonl`` and flushed, each frame
written as PNG under a temporary name and renamed, and :meth:`EpisodeFiles.finish` turns the
rows into ``steps.parquet`` (written aside, then renamed) before ``meta.json`` says
``"complete": true`` and ``steps.jsonl`` is removed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.datasets.frames import frame_name, write_bgr
from gcc_envs.datasets.meta import FRAMES, STEPS_JSONL, STEPS_PARQUET, write_meta
from gcc_envs.datasets.table import rows_to_table, write_parquet


def encode_row(row: dict[str, Any]) -> bytes:
    """One line of ``steps.jsonl``."""
    return (json.dumps(row, separators=(",", ":")) + "\n").encode()


class EpisodeFiles:
    """Creates ``folder`` and writes the episode into it, step by step."""

    def __init__(self, folder: Path, meta: dict[str, Any], fsync: bool = False) -> None:
        self.folder = folder
        self.meta = meta
        self.fsync = fsync
        self.frames = folder / FRAMES
        self.frames.mkdir(parents=True)
        self.n_frames = 0
        self.lines: list[bytes] = []
        write_meta(folder, meta)
        self.jsonl = open(folder / STEPS_JSONL, "ab")

    def row(self, line: bytes) -> None:
        """Append one row (an :func:`encode_row` line) and flush it to the OS."""
        self.jsonl.write(line)
        self.jsonl.flush()
        if self.fsync:
            os.fsync(self.jsonl.fileno())
        self.lines.append(line)

    def frame(self, bgr: np.ndarray) -> None:
        """Write the next frame (OpenCV channel order) atomically."""
        write_bgr(self.frames / frame_name(self.n_frames), bgr)
        self.n_frames += 1

    def finish(self, result: dict[str, Any]) -> None:
        """Steps table to Parquet, ``meta.json`` complete with ``result``, JSON lines removed."""
        self.jsonl.close()
        rows = [json.loads(line) for line in self.lines]
        write_parquet(rows_to_table(rows, self.meta["info_keys"]), self.folder / STEPS_PARQUET)
        self.meta = {**self.meta, "complete": True, "result": result}
        write_meta(self.folder, self.meta)
        os.remove(self.folder / STEPS_JSONL)

    def abandon(self) -> None:
        """Stop writing and leave the episode as a cut-short one (readable from its rows)."""
        self.jsonl.close()
