"""Reading trajectory datasets: :func:`load` → :class:`Episode` objects with lazy frames::

import gcc_envs.datasets as gd

for ep in gd.load("runs/demos"):  # a dataset folder, or one episode folder
    print(ep.env_id, ep.seed, len(ep), ep.rewards.sum(), ep.frames[0].shape)
    for row in ep.steps:          # dicts: action, events, reward, info columns, ...
        ...
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.datasets.frames import Frames, count_frames
from gcc_envs.datasets.meta import FRAMES, META, STEPS_JSONL, STEPS_PARQUET, read_meta
from gcc_envs.datasets.table import read_parquet, rows_to_table, table_to_rows
from gcc_envs.errors import DataError


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Rows of a ``steps.jsonl``; a torn last line (the process was killed) is dropped."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").split("\n")
    rows = []
    for i, line in enumerate(lines):
        if not line:
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if i == len(lines) - 1:  # no newline after it: the write was cut short
                break
            raise DataError(f"{path}: line {i + 1} is not JSON (file damaged)") from None
    return rows


class Episode:
    """One recorded episode: ``meta``, the steps table and lazily read ``frames``.

    ``frames[0]`` is the reset observation and ``frames[i + 1]`` the one after step ``i``.
    An episode whose recording was cut short (``complete`` is False) holds the steps written
    before the cut.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.meta: dict[str, Any] = read_meta(self.path)
        parquet = self.path / STEPS_PARQUET
        if parquet.exists():
            self.complete = True
            self.table = read_parquet(parquet)
        else:
            self.complete = False
            rows = _read_jsonl(self.path / STEPS_JSONL)
            self.table = rows_to_table(rows, self.meta.get("info_keys", []))
        shape = tuple(self.meta["frames"]["shape"])
        n_frames = count_frames(self.path / FRAMES)
        if n_frames == 0:
            raise DataError(f"{self.path}: no frames (not even the reset observation)")
        if self.table.num_rows > n_frames - 1:
            if self.complete:
                raise DataError(
                    f"{self.path}: {self.table.num_rows} steps but {n_frames} frames "
                    "(frames were removed?)"
                )
            self.table = self.table.slice(0, n_frames - 1)
        self.frames = Frames(self.path / FRAMES, self.table.num_rows + 1, shape)

    # ---------------------------------------------------------------- convenient views
    @cached_property
    def steps(self) -> list[dict[str, Any]]:
        """The steps table as dicts (``action`` and ``events`` decoded from JSON)."""
        return table_to_rows(self.table)

    @property
    def env_id(self) -> str | None:
        return self.meta.get("env_id")

    @property
    def seed(self) -> int | None:
        return self.meta.get("seed")

    @property
    def actions(self) -> list[Any]:
        return [s["action"] for s in self.steps]

    @property
    def events(self) -> list[list[dict[str, Any]]]:
        """Per step, the input events actually sent (dicts with game time ``t``)."""
        return [s["events"] for s in self.steps]

    @property
    def rewards(self) -> np.ndarray:
        return np.asarray(self.table.column("reward").to_numpy(), dtype=np.float64)

    def __len__(self) -> int:
        return self.table.num_rows

    def __repr__(self) -> str:
        state = "complete" if self.complete else "cut short"
        return f"Episode({self.path.name}, {self.env_id}, {len(self)} steps, {state})"


def episode_folders(path: str | os.PathLike[str]) -> list[Path]:
    """The episode folders at ``path``: itself if it is one, else its ``episode-*`` children."""
    p = Path(path)
    if (p / META).exists():
        return [p]
    if not p.is_dir():
        raise DataError(f"{p}: no such dataset folder")
    found = sorted(c for c in p.iterdir() if c.name.startswith("episode-") and (c / META).exists())
    if not found:
        raise DataError(f"{p}: no episodes (folders episode-*/ with {META})")
    return found


def load(path: str | os.PathLike[str]) -> Iterator[Episode]:
    """Iterate over the episodes of a dataset folder, or the one episode of an episode folder."""
    folders = episode_folders(path)  # a bad path fails here, not at the first next()
    return (Episode(f) for f in folders)
