"""BLAKE2 checksums of a recorded episode: per frame, per row, per file, and of ``meta.json``.

* every frame file's digest is kept with the step it follows (``frame_b2`` in its row; the
  reset frame's in ``meta["frames"]["reset_b2"]``), so a damaged, swapped or replaced frame is
  found when it is read;
* every ``steps.jsonl`` line is sealed with ``row_b2``, a digest of the line chained to the one
  before it, so a changed, blanked, dropped or reordered row is found (only the torn last line
  of a killed recorder is dropped, as it must be);
* ``steps.parquet``'s digest is in ``meta["files"]`` and ``meta.json`` carries ``meta_b2``, a
  digest of its own canonical JSON without that key.

>>> line = seal_row(b'{"step":0}\\n', "")
>>> open_row(line, "")[0]
{'step': 0}
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from gcc_envs.errors import DataError

SIZE = 16  #: digest bytes (32 hex characters)
_SEAL = re.compile(rb',"row_b2":"([0-9a-f]{32})"\}\n?\Z')


def digest(data: bytes | memoryview) -> str:
    return hashlib.blake2b(data, digest_size=SIZE).hexdigest()


def file_digest(path: Path) -> str:
    """The digest of a file's bytes; :class:`DataError` if it cannot be read."""
    try:
        return digest(path.read_bytes())
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None


def seal_row(line: bytes, previous: str) -> bytes:
    """An ``encode_row`` line with ``row_b2`` appended: the digest of ``previous`` + the line."""
    body = line.rstrip(b"\n")
    if not body.endswith(b"}") or body == b"{}":
        raise DataError(f"not a row line: {line[:80]!r}")
    sealed = digest(previous.encode() + body)
    return body[:-1] + f',"row_b2":"{sealed}"}}\n'.encode()


def open_row(line: bytes, previous: str) -> tuple[dict[str, Any], str]:
    """The row of a sealed line and its seal; :class:`DataError` if the seal does not match."""
    m = _SEAL.search(line)
    if m is None:
        raise DataError("row has no row_b2 seal")
    body = line[: m.start()] + b"}"
    if digest(previous.encode() + body) != m.group(1).decode():
        raise DataError("row_b2 does not match the row (changed, or rows dropped or reordered)")
    try:
        row = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise DataError("row is not JSON") from None
    if not isinstance(row, dict):
        raise DataError("row is not a JSON object")
    return row, m.group(1).decode()


def meta_digest(meta: dict[str, Any]) -> str:
    """The digest of ``meta`` without its ``meta_b2`` (sorted keys, compact)."""
    rest = {k: v for k, v in meta.items() if k != "meta_b2"}
    return digest(json.dumps(rest, sort_keys=True, separators=(",", ":")).encode())
