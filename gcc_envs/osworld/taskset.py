"""Many OSWorld tasks named at once: task files, folders of them, OSWorld's index files.

:func:`expand` turns what a user names into task sources for ``load_task``, in order and
without repeats: a task file; a folder (every ``*.json`` under it that is a task file, sorted
by domain folder and name); an index in the shape of OSWorld's ``test_all.json``
(``{"<domain>": ["<id>", ...]}``), whose tasks are looked up in the index's folder as
``<domain>/<id>.json``, ``examples/<domain>/<id>.json`` or ``tasks/<domain>/<id>.json``
(OSWorld keeps them in ``evaluation_examples/examples/``); or a bundled task's id.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from gcc_envs.errors import DataError

#: Where an index's tasks are looked for, relative to the index's folder.
INDEX_ROOTS = (".", "examples", "tasks")


def expand(sources: Iterable[str | Path]) -> list[str]:
    """The task sources (paths or bundled ids) that ``sources`` name, each once."""
    seen: dict[str, None] = {}
    for source in sources:
        for item in _one(source):
            seen.setdefault(item, None)
    return list(seen)


def _one(source: str | Path) -> Iterator[str]:
    path = Path(source)
    if path.is_dir():
        files = [f for f in sorted(path.rglob("*.json")) if _is_task(f)]
        if not files:
            raise DataError(f"{path}: no OSWorld task files in this folder")
        yield from (str(f) for f in files)
    elif path.is_file() and _index(path) is not None:
        yield from _from_index(path, _index(path) or {})
    elif path.suffix == ".json" and not path.exists():
        raise DataError(f"{path}: no such task file or index")
    else:
        yield str(source)


def _read(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None


def _is_task(path: Path) -> bool:
    data = _read(path)
    return isinstance(data, dict) and "instruction" in data and "evaluator" in data


def _index(path: Path) -> dict[str, list[str]] | None:
    data = _read(path)
    if not isinstance(data, dict) or not data or "instruction" in data:
        return None
    if all(isinstance(v, list) and all(isinstance(i, str) for i in v) for v in data.values()):
        return data
    return None


def _from_index(path: Path, index: dict[str, list[str]]) -> Iterator[str]:
    missing = []
    for domain, ids in index.items():
        for task_id in ids:
            found = next(
                (f for root in INDEX_ROOTS if (f := path.parent / root / domain / f"{task_id}.json").is_file()),
                None,
            )  # fmt: skip
            if found is None:
                missing.append(f"{domain}/{task_id}")
            else:
                yield str(found)
    if missing:
        raise DataError(
            f"{path}: {len(missing)} task(s) of the index are not beside it "
            f"(looked in {', '.join(INDEX_ROOTS)} for <domain>/<id>.json), first: {missing[0]}"
        )
