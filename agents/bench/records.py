"""``DIR/results.jsonl``: one JSON record per episode, each carrying its whole resolved config.

As BALROG does, every record embeds everything needed to rerun it (the suite and its digest,
env id and kwargs, policy and settings, seed, package versions, git commit), so a results file
read alone says what was run. Records are appended and synced one line at a time: a driver
killed mid-write loses at most the line it was writing; :meth:`ResultsFile.read` skips such a
line (anywhere in the file) and :meth:`ResultsFile.heal` cuts a torn last line off before a
resumed run appends.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from agents.bench.plan import Episode
from agents.bench.schema import problem, suite_name
from agents.bench.suite import Suite
from gcc_envs.errors import GCCError
from gcc_envs.registration import versioned_id

log = logging.getLogger(__name__)

RESULTS = "results.jsonl"
#: The suite a results folder belongs to (name, path, digest), written by its first run.
SUITE_META = "suite.json"
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
    """The record of ``episode``: identity, outcome (``result``), worker and full config.

    The identity is the suite's (the episode's ``env_id`` as the suite names it, its seed):
    the outcome's own ``env_id`` (the versioned id the env reports) does not replace it, so
    episodes that ran and episodes that could not start group together in the report.
    """
    identity = {
        "key": episode.key,
        "run": episode.run,
        "env_id": episode.env_id,
        "versioned_id": versioned_id(episode.env_id),  # the version the figures belong to
        "task": episode.task,
        "policy": episode.policy,
        "seed": episode.seed,
        "attempts": attempts,
    }
    return {
        **identity,
        **{k: v for k, v in result.items() if k not in identity},
        "config": {**episode.config(), **ctx},
        "digest": episode.digest(),
        "session": session,
        "finished_at": time.time(),
    }


@dataclass(frozen=True)
class Problem:
    """A line of ``results.jsonl`` left out: its number (from 1), its kind and why."""

    line: int
    #: ``torn`` (not JSON: a write cut short), ``wrong-typed`` (not of the record schema),
    #: ``duplicate`` (its episode already has a record that counts) or ``foreign`` (another
    #: suite's record).
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.kind}: {self.detail}; skipped"


@dataclass
class Results:
    """What :meth:`ResultsFile.read` found: the record that counts per key, and the problems."""

    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    #: The suite the records are of (the expected one, or the folder's).
    suite: str | None = None


class ResultsFile:
    """Append-only JSONL of records, read back as the record that counts per key.

    :meth:`read` is the one reader (``--resume`` and ``gcc-gym report`` both use it): a line
    that is not JSON (torn), not of the :mod:`~agents.bench.schema` (wrong-typed), another
    suite's (foreign) or a second record of an episode whose first one did not fail
    (duplicate) is skipped with a warning naming the line; an episode recorded as an error and
    run again (``--retry-errors``) counts by its later record.
    """

    def __init__(self, out_dir: str | Path) -> None:
        self.path = Path(out_dir) / RESULTS
        self.meta = Path(out_dir) / SUITE_META

    def folder_suite(self) -> str | None:
        """The suite the folder was created for (``suite.json``, written by the first run)."""
        try:
            name = json.loads(self.meta.read_text()).get("name")
        except (OSError, ValueError, AttributeError):
            return None
        return name if isinstance(name, str) else None

    def claim(self, suite: Suite) -> None:
        """Mark the folder as ``suite``'s (a run of another suite then refuses it)."""
        owner = self.folder_suite()
        if owner is not None and owner != suite.name:
            raise GCCError(
                f"{self.path.parent} holds results of suite {owner!r}, not {suite.name!r}; "
                "choose a new --out"
            )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if owner is None:
            meta = {"name": suite.name, "path": suite.path, "sha256": suite.sha256}
            self.meta.write_text(json.dumps(meta) + "\n")

    def read(self, suite: str | None = None, warn: bool = True) -> Results:
        """Every record that counts, by key, and the lines left out (logged as warnings).

        ``suite``: the suite the records must be of; by default the folder's (or, in a folder
        from before ``suite.json``, the one most records name).
        """
        out = Results()
        if not self.path.exists():
            return out
        decoded: list[tuple[int, Any]] = []
        for i, line in enumerate(self.path.read_bytes().split(b"\n"), 1):
            if not line.strip():
                continue
            try:
                decoded.append((i, json.loads(line)))
            except ValueError:
                out.problems.append(Problem(i, "torn", f"not JSON ({line[:30]!r}...)"))
        valid: list[tuple[int, dict[str, Any]]] = []
        for i, rec in decoded:
            why = problem(rec)
            if why is None:
                valid.append((i, rec))
            else:
                out.problems.append(Problem(i, "wrong-typed", why))
        names = Counter(suite_name(r) for _, r in valid)
        out.suite = suite or self.folder_suite() or (names.most_common(1)[0][0] if names else None)
        lines: dict[str, int] = {}
        for i, rec in valid:
            theirs = suite_name(rec)
            if out.suite is not None and theirs != out.suite:
                detail = f"a record of suite {theirs!r}, not {out.suite!r} ({rec['key']})"
                out.problems.append(Problem(i, "foreign", detail))
                continue
            old = out.records.get(rec["key"])
            if old is not None and old["status"] == "ok":
                detail = f"episode {rec['key']} already recorded on line {lines[rec['key']]}"
                out.problems.append(Problem(i, "duplicate", detail))
                continue
            out.records[rec["key"]] = rec
            lines[rec["key"]] = i
        out.problems.sort(key=lambda p: p.line)
        if warn:
            for p in out.problems:
                log.warning("%s %s", self.path, p)
        return out

    def load(self) -> dict[str, dict[str, Any]]:
        """The record that counts of each key (:meth:`read`'s records)."""
        return self.read().records

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
