"""``DIR/results.jsonl``: one JSON record per episode, each carrying its whole resolved config.

As BALROG does, every record embeds everything needed to rerun it (the suite and its digest,
env id and kwargs, policy and settings, seed, package versions, git commit), so a results file
read alone says what was run. Records are appended and synced one line at a time: a driver
killed mid-write loses at most the line it was writing; :meth:`ResultsFile.load` skips such a
torn last line and :meth:`ResultsFile.heal` cuts it off before a resumed run appends. A key recorded twice (an error rerun) counts by its last record.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import subprocess
import time
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

from agents.bench.plan import Episode
from agents.bench.suite import Suite
from gcc_envs.errors import DataError

log = logging.getLogger(__name__)

RESULTS = "results.jsonl"
#: Distributions whose versions go into every record (those installed).
PACKAGES = (
    "gcc-gym",
    "gymnasium",
    "numpy",
    "opencv-python-headless",
    "ray",
    "stable-baselines3",
    "torch",
    "openai",
)


def versions() -> dict[str, str]:
    """Python's and the installed :data:`PACKAGES`' versions."""
    out = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return out


def git_commit() -> dict[str, Any] | None:
    """The commit of the gcc-gym checkout this runs from, and whether it has local changes."""
    here = Path(__file__).resolve().parent
    try:
        sha = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        if sha.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return {"commit": sha.stdout.strip(), "dirty": bool(dirty.stdout.strip())}


def context(suite: Suite) -> dict[str, Any]:
    """The part of every record's config shared by the whole suite run."""
    return {
        "suite": {"name": suite.name, "path": suite.path, "sha256": suite.sha256},
        "versions": versions(),
        "git": git_commit(),
    }


def make_record(
    episode: Episode, result: dict[str, Any], attempts: int, ctx: dict[str, Any], session: str
) -> dict[str, Any]:
    """The record of ``episode``: identity, outcome (``result``), worker and full config."""
    return {
        "key": episode.key,
        "run": episode.run,
        "env_id": episode.env_id,
        "task": episode.task,
        "policy": episode.policy,
        "seed": episode.seed,
        "attempts": attempts,
        **result,
        "config": {**episode.config(), **ctx},
        "digest": episode.digest(),
        "session": session,
        "finished_at": time.time(),
    }


class ResultsFile:
    """Append-only JSONL of records, read back as the last record per key."""

    def __init__(self, out_dir: str | Path) -> None:
        self.path = Path(out_dir) / RESULTS

    def records(self) -> Iterator[dict[str, Any]]:
        """Every complete record in file order (a torn last line is skipped with a warning)."""
        if not self.path.exists():
            return
        lines = self.path.read_text().split("\n")
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                if i >= len(lines) - 2:  # the last line, cut short by a killed driver
                    log.warning("%s: skipping a torn last line", self.path)
                    continue
                raise DataError(f"{self.path}: line {i + 1} is not JSON") from None
            if not isinstance(rec, dict) or "key" not in rec:
                raise DataError(f"{self.path}: line {i + 1} is not an episode record")
            yield rec

    def load(self) -> dict[str, dict[str, Any]]:
        """The last record of each key."""
        return {r["key"]: r for r in self.records()}

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as one line, flushed and synced before returning."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps(record, default=str) + "\n"
        with open(self.path, "a") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    def heal(self) -> None:
        """Cut a torn last line (a driver killed mid-write) so appends start on a fresh line."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            log.warning("%s: removing a torn last line", self.path)
            with open(self.path, "rb+") as f:
                f.truncate(data.rfind(b"\n") + 1)
