"""Reading trajectory datasets: :func:`load` → :class:`Episode` objects with lazy frames::

import gcc_envs.datasets as gd

for ep in gd.load("runs/demos"):  # a dataset folder, or one episode folder
    print(ep.env_id, ep.seed, len(ep), ep.rewards.sum(), ep.frames[0].shape)
    for row in ep.steps:          # dicts: action, events, reward, info columns, ...
        ...

Every way a damaged episode can fail is a :class:`DataError` naming the file. With
``verify=True`` (the default) the checksums (``checksums``) are checked too: ``meta.json``'s
seal, ``steps.parquet``'s digest, every row's seal and every frame file (each frame read again
later is checked again); ``verify=False`` skips them for speed and keeps the structural checks
(step counts against ``meta.json``, step numbers, frame counts and shapes).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.datasets.checksums import digest, file_digest, open_row
from gcc_envs.datasets.frame_stream import STREAM, StreamFrames, StreamReader
from gcc_envs.datasets.frames import Frames, count_frames, frame_name
from gcc_envs.datasets.meta import FRAMES, META, STEPS_JSONL, STEPS_PARQUET, read_meta
from gcc_envs.datasets.table import (
    CORE_COLUMNS,
    FRAME_B2,
    pyarrow,
    read_parquet,
    rows_to_table,
    table_to_rows,
)
from gcc_envs.errors import DataError


def _read_jsonl(path: Path, sealed: bool, verify: bool) -> list[dict[str, Any]]:
    """Rows of a ``steps.jsonl``; only a torn last line (the writer was killed) is dropped."""
    if not path.exists():
        return []
    try:
        data = path.read_bytes()
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None
    if b"\x00" in data:
        raise DataError(f"{path}: holds NUL bytes (damaged, e.g. after a power loss)")
    lines = data.split(b"\n")
    rows: list[dict[str, Any]] = []
    seal = ""
    for i, line in enumerate(lines):
        last = i == len(lines) - 1  # no newline after it: maybe cut short by a kill
        if not line:
            if last:
                break
            raise DataError(f"{path}: line {i + 1} is empty (file damaged)")
        try:
            if sealed:
                row, seal = open_row(line, seal) if verify else (_json_row(line), "")
            else:
                row = _json_row(line)
        except DataError as e:
            if last:
                break  # a torn write: the step it held never returned
            raise DataError(f"{path}: line {i + 1}: {e}") from None
        rows.append(row)
    return rows


def _json_row(line: bytes) -> dict[str, Any]:
    import json

    try:
        row = json.loads(line)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise DataError("row is not JSON") from None
    if not isinstance(row, dict):
        raise DataError("row is not a JSON object")
    return row


class Episode:
    """One recorded episode: ``meta``, the steps table and lazily read ``frames``.

    ``frames[0]`` is the reset observation and ``frames[i + 1]`` the one after step ``i``.
    An episode whose recording was cut short (``complete`` is False) holds the steps written
    before the cut. ``verify`` checks the checksums (see the module docs).
    """

    def __init__(self, path: str | os.PathLike[str], verify: bool = True) -> None:
        self.path = Path(path)
        self.meta: dict[str, Any] = read_meta(self.path, verify)
        version = self.meta.get("format_version", 0)
        sealed = version >= 2
        if sealed:
            self.complete = bool(self.meta.get("complete"))
        else:  # version 1: a steps.parquet meant complete
            self.complete = (self.path / STEPS_PARQUET).exists()
        if self.complete:
            self.table = self._parquet(verify and sealed)
        else:
            rows = _read_jsonl(self.path / STEPS_JSONL, sealed, verify)
            self.table = self._rows_table(rows)
        self._check_steps()
        shape = tuple(self.meta["frames"]["shape"])
        stream = (
            StreamReader(self.path / STREAM, shape)
            if self.meta["frames"].get("encoding") == "zstd"
            else None
        )
        n_frames = len(stream) if stream is not None else count_frames(self.path / FRAMES)
        n_rows = self.table.num_rows
        if n_frames == 0:
            raise DataError(f"{self.path}: no frames (not even the reset observation)")
        if n_rows > n_frames - 1:
            if self.complete or sealed:  # the writer saves a step's frame before its row
                raise DataError(
                    f"{self.path / FRAMES}: {n_rows} steps but {n_frames} frames "
                    "(frames were removed?)"
                )
            self.table = self.table.slice(0, n_frames - 1)
        elif sealed and n_frames > n_rows + (1 if self.complete else 2):
            raise DataError(f"{self.path}: {n_frames} frames for {n_rows} steps (rows were lost?)")
        digests: list[str | None] = [None] * (self.table.num_rows + 1)
        if sealed and verify:
            digests = [self.meta["frames"].get("reset_b2"), *self._frame_digests()]
            self._check_frames(digests, stream)
        self.frames: Frames | StreamFrames = (
            StreamFrames(stream, self.table.num_rows + 1, digests)
            if stream is not None
            else Frames(self.path / FRAMES, self.table.num_rows + 1, shape, digests)
        )

    # ---------------------------------------------------------------- loading
    def _parquet(self, verify: bool) -> Any:
        path = self.path / STEPS_PARQUET
        if not path.exists():
            raise DataError(
                f"{path}: missing, though {META} says the episode is complete "
                f"({self.meta.get('n_steps', '?')} steps)"
            )
        if verify:
            want = self.meta["files"].get(STEPS_PARQUET)
            if file_digest(path) != want:
                raise DataError(f"{path}: checksum does not match {META} (file damaged)")
        try:
            table = read_parquet(path)
        except Exception as e:  # noqa: BLE001 - pyarrow raises many types for bad files
            raise DataError(f"{path}: not a readable Parquet file ({type(e).__name__})") from None
        n = self.meta.get("n_steps")
        if n is not None and table.num_rows != n:
            raise DataError(f"{path}: {table.num_rows} steps, but {META} says {n}")
        return table

    def _rows_table(self, rows: list[dict[str, Any]]) -> Any:
        try:
            return rows_to_table(rows, self.meta.get("info_keys", []))
        except (TypeError, ValueError, OverflowError) as e:  # pyarrow's ArrowInvalid is one
            raise DataError(f"{self.path / STEPS_JSONL}: rows of the wrong types ({e})") from None

    def _check_steps(self) -> None:
        where = self.path / (STEPS_PARQUET if self.complete else STEPS_JSONL)
        missing = [c for c in CORE_COLUMNS if c not in self.table.column_names]
        if missing:
            raise DataError(f"{where}: no column(s) {missing}")
        pa = pyarrow()
        column = self.table.column("step")
        if not pa.types.is_integer(column.type):
            raise DataError(f"{where}: the step column holds {column.type}, not integers")
        steps = column.to_numpy(zero_copy_only=False)
        if not np.array_equal(steps, np.arange(len(steps))):
            raise DataError(f"{where}: steps are not numbered 0, 1, 2, ... (rows lost or moved)")

    def _frame_digests(self) -> list[str | None]:
        if self.table.num_rows == 0:
            return []  # killed before its first row: the reset frame alone
        if FRAME_B2 not in self.table.column_names:
            raise DataError(f"{self.path}: the steps carry no frame checksums ({FRAME_B2})")
        return list(self.table.column(FRAME_B2).to_pylist())

    def _check_frames(self, digests: list[str | None], stream: StreamReader | None) -> None:
        for i, want in enumerate(digests):
            if stream is not None:
                if not isinstance(want, str) or digest(stream.payload(i)) != want:
                    raise DataError(
                        f"{stream.path}: frame {i}'s checksum does not match its row "
                        "(damaged or swapped)"
                    )
                continue
            path = self.path / FRAMES / frame_name(i)
            try:
                data = path.read_bytes()
            except OSError:
                raise DataError(f"{path}: missing or unreadable frame") from None
            if not isinstance(want, str) or digest(data) != want:
                raise DataError(f"{path}: checksum does not match its row (damaged or swapped)")

    # ---------------------------------------------------------------- convenient views
    @cached_property
    def steps(self) -> list[dict[str, Any]]:
        """The steps table as dicts (``action`` and ``events`` decoded from JSON)."""
        try:
            return table_to_rows(self.table)
        except DataError as e:
            raise DataError(f"{self.path}: {e}") from None

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


def load(path: str | os.PathLike[str], verify: bool = True) -> Iterator[Episode]:
    """Iterate over the episodes of a dataset folder, or the one episode of an episode folder.

    ``verify=False`` skips the checksums (faster; structure is still checked).
    """
    folders = episode_folders(path)  # a bad path fails here, not at the first next()
    return (Episode(f, verify) for f in folders)
