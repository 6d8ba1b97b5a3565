"""The steps table: one row per step, as JSON lines while recording and Parquet at episode end.

Columns (``steps.parquet``; ``steps.jsonl`` holds the same rows as JSON objects):

| column | type | what |
|---|---|---|
| ``step`` | int64 | 0-based step index; the observation after it is frame ``step + 1`` |
| ``game_time`` | float64 | ``info["game_time"]`` after the step (None when the env has none) |
| ``wall_s`` | float64 | wall-clock seconds the step took |
| ``wall_time`` | float64 | Unix time when the step returned |
| ``action_kind`` | string | ``space``, ``code``, ``events`` or ``program`` (see ``encoding``) |
| ``action`` | string | the action as given, JSON |
| ``events`` | string | ``info["events"]``: the input events actually sent, with game times ``t``, JSON |
| ``reward`` | float64 | |
| ``terminated``, ``truncated`` | bool | |
| one per info key | inferred | bool, int64, float64 or string when every value has that type, else JSON text |

Columns stored as JSON text are listed in the Parquet schema metadata (``gcc_json_columns``)
and decoded by :func:`table_to_rows`, so both files read back to the same rows.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gcc_envs.datasets.encoding import encode_action, jsonable
from gcc_envs.errors import DataError, MissingExtraError

CORE_COLUMNS = (
    "step",
    "game_time",
    "wall_s",
    "wall_time",
    "action_kind",
    "action",
    "events",
    "reward",
    "terminated",
    "truncated",
)
JSON_CORE = ("action", "events")
#: The column of the checksum of the frame after each step (written by the recorder).
FRAME_B2 = "frame_b2"
_META_KEY = b"gcc_json_columns"


def pyarrow() -> Any:
    """Import ``pyarrow`` or say which extra brings it."""
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise MissingExtraError("pyarrow", "dataset") from None
    return pyarrow


def step_row(
    step: int,
    action: Any,
    reward: float,
    terminated: bool,
    truncated: bool,
    info: Mapping[str, Any],
    wall_s: float,
    wall_time: float,
    info_keys: Sequence[str],
) -> dict[str, Any]:
    """One row of the steps table, JSON-ready."""
    kind, value = encode_action(action)
    game_time = info.get("game_time")
    row: dict[str, Any] = {
        "step": int(step),
        "game_time": None if game_time is None else float(game_time),
        "wall_s": float(wall_s),
        "wall_time": float(wall_time),
        "action_kind": kind,
        "action": value,
        # Event dicts are JSON-ready (Event.to_dict plus a float "t"): no deep conversion.
        "events": list(info.get("events") or ()),
        "reward": float(reward),
        "terminated": bool(terminated),
        "truncated": bool(truncated),
    }
    for key in info_keys:
        row[key] = jsonable(info.get(key))
    return row


def _column(pa: Any, values: list[Any]) -> tuple[Any, bool]:
    """An Arrow array for ``values`` and whether it holds JSON text."""
    present = [v for v in values if v is not None]
    kinds = {type(v) for v in present}
    try:
        if not present:
            return pa.array(values, pa.null()), False
        if kinds == {bool}:
            return pa.array(values, pa.bool_()), False
        if kinds == {int}:
            return pa.array(values, pa.int64()), False
        if kinds <= {int, float}:
            return pa.array(values, pa.float64()), False
        if kinds == {str}:
            return pa.array(values, pa.string()), False
    except (pa.ArrowInvalid, OverflowError):
        pass
    return pa.array([None if v is None else json.dumps(v) for v in values], pa.string()), True


def rows_to_table(rows: Sequence[Mapping[str, Any]], info_keys: Sequence[str]) -> Any:
    """The steps table of ``rows`` (made by :func:`step_row`) as a ``pyarrow.Table``."""
    pa = pyarrow()
    types = {
        "step": pa.int64(),
        "game_time": pa.float64(),
        "wall_s": pa.float64(),
        "wall_time": pa.float64(),
        "action_kind": pa.string(),
        "reward": pa.float64(),
        "terminated": pa.bool_(),
        "truncated": pa.bool_(),
    }
    arrays, names, json_cols = [], [], list(JSON_CORE)
    for name in CORE_COLUMNS:
        values = [r.get(name) for r in rows]
        if name in JSON_CORE:
            arrays.append(pa.array([json.dumps(v) for v in values], pa.string()))
        else:
            arrays.append(pa.array(values, types[name]))
        names.append(name)
    for key in info_keys:
        array, is_json = _column(pa, [r.get(key) for r in rows])
        arrays.append(array)
        names.append(key)
        if is_json:
            json_cols.append(key)
    if rows and all(FRAME_B2 in r for r in rows):  # the frames' checksums (see ``checksums``)
        arrays.append(pa.array([r[FRAME_B2] for r in rows], pa.string()))
        names.append(FRAME_B2)
    table = pa.Table.from_arrays(arrays, names=names)
    return table.replace_schema_metadata({_META_KEY: json.dumps(json_cols).encode()})


def table_to_rows(table: Any) -> list[dict[str, Any]]:
    """The rows of a steps table, JSON columns decoded."""
    meta = table.schema.metadata or {}
    try:
        json_cols = set(json.loads(meta.get(_META_KEY, b"[]")))
        cols = table.to_pydict()
        n = table.num_rows
        rows: list[dict[str, Any]] = [{} for _ in range(n)]
        for name, values in cols.items():
            decode = name in json_cols
            for row, v in zip(rows, values):
                row[name] = json.loads(v) if decode and v is not None else v
    except (TypeError, ValueError, RecursionError) as e:  # JSON errors are ValueErrors
        raise DataError(f"the steps table does not decode: {type(e).__name__}: {e}") from None
    return rows


def write_parquet(table: Any, path: Path) -> None:
    """Write ``table`` to ``path`` atomically (temporary name, then rename)."""
    pa = pyarrow()
    tmp = path.with_name(f".{path.name}.tmp")
    pa.parquet.write_table(table, tmp)
    os.replace(tmp, path)


def read_parquet(path: Path) -> Any:
    return pyarrow().parquet.read_table(path)
