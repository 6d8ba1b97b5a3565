"""Reading TOML data tables (game content, task tables) with errors that name the file, the entry
and the problem.

Shared by every simulator's loader and suite table; a game subclasses :class:`Entry` for its own
field kinds.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 (the one fallback: other modules import it from here)
    import tomli as tomllib


from gcc_envs.errors import DataError

RGB = tuple[int, int, int]


class Entry:
    """Reads fields of one TOML table, raising DataError that names file and entry."""

    def __init__(self, file: str, entry: str, table: Any) -> None:
        self.file, self.entry = file, entry
        if not isinstance(table, dict):
            self.fail(f"expected a table, got {type(table).__name__}")
        self.table: dict[str, Any] = table

    def fail(self, problem: str) -> Any:
        raise DataError(f"{self.file}: {self.entry}: {problem}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if key not in self.table:
            if default is ...:
                self.fail(f"missing required field {key!r}")
            return default
        value = self.table[key]
        if isinstance(value, bool) and kind in (int, (int, float)):
            self.fail(f"field {key!r} must be {_kind_name(kind)}, got {value!r}")
        if not isinstance(value, kind):
            self.fail(f"field {key!r} must be {_kind_name(kind)}, got {value!r}")
        return value

    def int(self, key: str, default: Any = ..., lo: int | None = None) -> int:
        value = self.get(key, int, default)
        if value is not None and lo is not None and value < lo:
            self.fail(f"field {key!r} must be >= {lo}, got {value}")
        return value

    def color(self, key: str) -> RGB:
        value = self.get(key, list)
        if len(value) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in value):
            self.fail(f"field {key!r} must be three integers 0-255, got {value!r}")
        return (value[0], value[1], value[2])

    def known(self, keys: Any) -> None:
        """Refuse fields other than ``keys`` (a typo is an error, not a silent default)."""
        unknown = set(self.table) - set(keys)
        if unknown:
            self.fail(f"unknown field(s) {sorted(unknown)}; known: {sorted(keys)}")

    def choices(self, key: str, options: Any, default: Any = ...) -> list[Any]:
        """A list whose every item is one of ``options``."""
        value = self.get(key, list, default)
        bad = [v for v in value if v not in options]
        if bad:
            self.fail(f"field {key!r} lists {bad!r}; each must be one of {sorted(options)}")
        return value

    def choice(self, key: str, options: Any, default: Any = ...) -> Any:
        value = self.get(key, str, default)
        if value is not None and value not in options:
            self.fail(f"field {key!r} is {value!r}; expected one of {sorted(options)}")
        return value

    def clock(self, key: str) -> int | None:
        text = self.get(key, str, None)
        if text is None:
            return None
        hours, _, mins = text.partition(":")
        if not (hours.isdigit() and mins.isdigit() and len(mins) == 2 and int(mins) < 60):
            self.fail(f"field {key!r} must be a time like '9:00', got {text!r}")
        return int(hours) * 60 + int(mins)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    if isinstance(kind, tuple):
        return " or ".join(k.__name__ for k in kind)
    return {
        "str": "a string",
        "int": "an integer",
        "bool": "true or false",
        "list": "a list",
        "dict": "a table",
    }.get(kind.__name__, kind.__name__)


def read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise DataError(f"{path.name}: file not found in {path.parent}") from None
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{path.name}: not valid TOML: {e}") from None


def entries(file: str, doc: dict[str, Any], key: str, kind: type[Entry] | None = None) -> list[Any]:
    """The array of tables ``[[key]]`` of ``doc``, each as an ``Entry`` (or ``kind``)."""
    kind = kind or Entry
    raw = doc.get(key, [])
    if not isinstance(raw, list):
        raise DataError(f"{file}: {key!r} must be an array of tables ([[{key}]])")
    out = []
    for i, table in enumerate(raw):
        name = None
        if isinstance(table, dict):
            name = table.get("name") or table.get("id") or table.get("kind")
        out.append(kind(file, f"{key} #{i + 1}" + (f" ({name!r})" if name else ""), table))
    return out
