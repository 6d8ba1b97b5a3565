"""A store you can hold in your hand: FRIDAY's tools and memories as a folder of plain files.

::

    DIR/friday-store.json        {"format": 1}
    DIR/tools/<name>.json        name, description, signature, language, source (file name),
                                 score, provenance {task, episode, model}
    DIR/tools/<name>.py|.sh|.txt the tool's source text
    DIR/memory/profile.json      the user profile: {"key": "value", ...} (written by a person)
    DIR/memory/facts.json        {"facts": [{"app", "fact", "provenance"}]}

:meth:`Store.open` validates every file and names the file in its error. Snapshot or reset a
store by copying its folder. A read-only store (``--store-readonly``) is never written.
Writes are atomic (a temporary file, then a rename), so a crash leaves the old file or the new.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from agents.friday.memory import Declarative, Fact
from agents.friday.tools import NAME, Provenance, Tool, ToolError, make_tool
from gcc_envs.errors import DataError, GCCError

FORMAT = 1
MARKER = "friday-store.json"
_SUFFIXES = {".py": "python", ".sh": "bash", ".txt": "calls"}
_MAX_FILE = 1_000_000


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read_json(path: Path) -> Any:
    try:
        if path.stat().st_size > _MAX_FILE:
            raise DataError(f"{path}: larger than {_MAX_FILE:,} bytes")
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise DataError(f"{path}: cannot be read ({e})") from None
    except json.JSONDecodeError as e:
        raise DataError(f"{path}: not JSON ({e})") from None


def _provenance(raw: Any, path: Path) -> Provenance:
    if raw is None:
        return Provenance()
    if not isinstance(raw, dict) or not all(
        isinstance(raw.get(k, ""), str) for k in ("task", "episode", "model")
    ):
        raise DataError(f"{path}: provenance must be an object of text task, episode and model")
    return Provenance(raw.get("task", ""), raw.get("episode", ""), raw.get("model", ""))


def tool_from_files(path: Path) -> Tool:
    """The tool described by ``tools/<name>.json`` and its source file."""
    d = _read_json(path)
    if not isinstance(d, dict):
        raise DataError(f"{path}: a tool file is a JSON object")
    name = d.get("name")
    if name != path.stem or not isinstance(name, str) or not NAME.fullmatch(name):
        raise DataError(f"{path}: 'name' must be the file's name {path.stem!r}, got {name!r:.60}")
    language = d.get("language")
    source_name = d.get("source")
    want = next((f"{name}{s}" for s, lang in _SUFFIXES.items() if lang == language), None)
    if want is None:
        raise DataError(f"{path}: 'language' must be python, bash or calls, got {language!r:.40}")
    if source_name != want:
        raise DataError(f"{path}: 'source' must be {want!r} (beside it), got {source_name!r:.80}")
    score = d.get("score")
    if score is not None and (
        isinstance(score, bool) or not isinstance(score, int) or not 0 <= score <= 10
    ):
        raise DataError(f"{path}: 'score' must be a whole number 0-10 or null, got {score!r:.40}")
    description = d.get("description", "")
    if not isinstance(description, str):
        raise DataError(f"{path}: 'description' must be text")
    src = path.with_name(want)
    try:
        source = src.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise DataError(f"{src}: the tool's source cannot be read ({e})") from None
    try:
        # calls tools are checked against the env's skills when offered; here their syntax
        tool = make_tool(language, source, name, description, check=False, score=score,
                         provenance=_provenance(d.get("provenance"), path))  # fmt: skip
    except ToolError as e:
        raise DataError(f"{src}: {e}") from None
    return tool


def tool_json(tool: Tool) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "signature": tool.signature,
            "language": tool.language, "source": f"{tool.name}{tool.suffix}", "score": tool.score,
            "provenance": asdict(tool.provenance)}  # fmt: skip


class Store:
    """Tools and declarative memory, in memory and (with ``path``) in a folder."""

    def __init__(self, path: Path | None = None, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        self.tools: dict[str, Tool] = {}
        self.memory = Declarative()

    @classmethod
    def open(cls, path: str | Path, readonly: bool = False, create: bool = True) -> Store:
        """The store in folder ``path`` (validated); an empty one is made there when ``path``
        does not exist or is an empty folder, ``create`` is true and the store is writable."""
        path = Path(path)
        store = cls(path, readonly)
        if not path.exists() or (path.is_dir() and not any(path.iterdir())):
            if readonly or not create:
                raise DataError(f"{path}: no FRIDAY store there (make one with gcc-gym learn)")
            _write(path / MARKER, json.dumps({"format": FORMAT}) + "\n")
            return store
        marker = _read_json(path / MARKER) if (path / MARKER).exists() else None
        if not isinstance(marker, dict) or marker.get("format") != FORMAT:
            raise DataError(f"{path / MARKER}: not a FRIDAY store of format {FORMAT} "
                            f"(missing or {marker!r:.60})")  # fmt: skip
        for f in sorted((path / "tools").glob("*.json")):
            tool = tool_from_files(f)
            store.tools[tool.name] = tool
        store.memory = cls._load_memory(path / "memory")
        return store

    @staticmethod
    def _load_memory(folder: Path) -> Declarative:
        mem = Declarative()
        p = folder / "profile.json"
        if p.exists():
            d = _read_json(p)
            if not isinstance(d, dict) or not all(isinstance(v, str) for v in d.values()):
                raise DataError(f"{p}: the profile is a JSON object of text values")
            mem.profile = dict(d)
        p = folder / "facts.json"
        if p.exists():
            d = _read_json(p)
            facts = d.get("facts") if isinstance(d, dict) else None
            if not isinstance(facts, list):
                raise DataError(f'{p}: expected {{"facts": [...]}}')
            for i, f in enumerate(facts):
                if not (isinstance(f, dict) and isinstance(f.get("fact"), str)
                        and isinstance(f.get("app", ""), str)):  # fmt: skip
                    raise DataError(f"{p}: facts[{i}] must be an object with text 'fact' and 'app'")
                mem.facts.append(
                    Fact(f.get("app", ""), f["fact"], _provenance(f.get("provenance"), p))
                )
        return mem

    def __iter__(self) -> Iterator[Tool]:
        return iter(self.tools.values())

    def _writable(self) -> None:
        if self.readonly:
            raise GCCError("the FRIDAY store is read-only (--store-readonly): nothing is learned")

    def add_tool(self, tool: Tool) -> None:
        """Keep ``tool`` (replacing one of the same name) and write it to the folder."""
        self._writable()
        old = self.tools.get(tool.name)
        self.tools[tool.name] = tool
        if self.path is None:
            return
        folder = self.path / "tools"
        _write(folder / f"{tool.name}{tool.suffix}", tool.source)
        _write(folder / f"{tool.name}.json", json.dumps(tool_json(tool), indent=2) + "\n")
        if old is not None and old.suffix != tool.suffix:
            (folder / f"{old.name}{old.suffix}").unlink(missing_ok=True)

    def add_fact(self, fact: Fact) -> bool:
        self._writable()
        if not self.memory.add_fact(fact):
            return False
        if self.path is not None:
            facts = {"facts": [f.to_json() for f in self.memory.facts]}
            _write(self.path / "memory" / "facts.json", json.dumps(facts, indent=2) + "\n")
        return True
