"""A benchmark suite file (TOML): named runs of env × policy × seeds, read into frozen data.

A suite is a list of ``[[run]]`` tables; an optional ``[suite]`` table names it and an optional
``[defaults]`` table gives keys every run inherits (tables such as ``kwargs`` merge key by key)::

    [suite]
    name = "smoke"

    [defaults]
    seeds = { start = 0, count = 2 }

    [[run]]
    name = "stardew-scripted"
    env = "GCC/Stardew-*"          # a registered id, a glob over the ids, or a list of them
    policy = "scripted"            # random | scripted | sb3 | cradle
    [run.kwargs]                   # passed to gym.make
    obs_size = [90, 160]
    [run.policy_kwargs]            # passed to the policy (model path, endpoint, budget, ...)

Keys of a run: ``name``, ``env``, ``policy`` (required); ``seeds`` (a list, or
``{ start = S, count = N }``) or ``episodes = N`` with ``seed = S`` (first seed, default 0);
``kwargs``, ``policy_kwargs``, ``max_steps`` (the step limit), ``per_task`` (run each checkpoint
of a mission alone, as ``gcc-gym run --per-task``), ``video`` (an MP4 per episode), ``repeats``
(run each env × seed this many times, default 1: the report then gives pass@k, pass^k and how
often a task's outcome flips between repeats).

A suite may also hold ``[[learning]]`` runs (:mod:`agents.bench.learning`): a store that a policy
learns into over train splits, measured on held-out tasks before and after (and for forgetting).

Seeds given as ``{ start, count }`` or ``episodes`` stay a ``range`` (nothing is materialised:
a typo such as ``count = 1000000000`` is caught by the size check before anything runs).

>>> suite = parse_suite('''
... [[run]]
... name = "a"
... env = "GCC/Stardew-Shopping"
... policy = "random"
... episodes = 3
... seed = 10
... ''', "inline.toml")
>>> suite.runs[0].seeds
range(10, 13)
"""

from __future__ import annotations

import fnmatch
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gcc_envs.core.toml_data import Entry, tomllib
from gcc_envs.errors import DataError

RUN_KEYS = frozenset(
    {
        "name",
        "env",
        "policy",
        "seeds",
        "seed",
        "episodes",
        "kwargs",
        "policy_kwargs",
        "max_steps",
        "per_task",
        "video",
        "repeats",
    }
)
#: Keys whose tables merge with ``[defaults]`` key by key rather than replacing it.
MERGED = ("kwargs", "policy_kwargs")


@dataclass(frozen=True)
class Run:
    """One named run: an env id or glob (or a tuple of them), a policy, seeds and settings."""

    name: str
    env: str | tuple[str, ...]
    policy: str
    #: A tuple (a list in the file) or a ``range`` (``{ start, count }`` or ``episodes``).
    seeds: Sequence[int]
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    policy_kwargs: Mapping[str, Any] = field(default_factory=dict)
    max_steps: int | None = None
    per_task: bool = False
    video: bool = False
    #: Times each env × seed runs (the same env seed; see :mod:`agents.bench.plan`).
    repeats: int = 1


@dataclass(frozen=True)
class Suite:
    """A parsed suite file: its name, its runs, and the text's digest (for the records)."""

    name: str
    path: str
    sha256: str
    runs: tuple[Run, ...]
    #: ``[[learning]]`` runs (:mod:`agents.bench.learning`): a store, train and held-out splits.
    learning: tuple[Any, ...] = ()


def load_suite(path: str | Path) -> Suite:
    """Read and validate a suite file; errors name the file, the run and the problem."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise DataError(f"cannot read suite file {path}: {e}") from e
    return parse_suite(text, str(path))


def parse_suite(text: str, path: str) -> Suite:
    """Parse suite TOML ``text`` (``path`` names it in errors and records)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{path}: not valid TOML: {e}") from e
    unknown = set(data) - {"suite", "defaults", "run", "learning"}
    if unknown:
        raise DataError(
            f"{path}: unknown top-level keys {sorted(unknown)}; use [suite], [defaults], [[run]] and [[learning]]"
        )
    meta = data.get("suite", {})
    defaults = data.get("defaults", {})
    tables = data.get("run", [])
    if not isinstance(meta, dict) or not isinstance(defaults, dict):
        raise DataError(f"{path}: [suite] and [defaults] must be tables")
    from agents.bench.learning import parse_learning

    learning = parse_learning(path, data.get("learning", []))
    if not isinstance(tables, list) or not (tables or learning):
        raise DataError(
            f"{path}: no [[run]] tables; a suite needs at least one run (or [[learning]] run)"
        )
    bad = set(defaults) - RUN_KEYS
    if bad:
        raise DataError(f"{path}: [defaults]: unknown keys {sorted(bad)}")
    runs = tuple(_run(path, i, _merge(defaults, t), t) for i, t in enumerate(tables))
    names = [r.name for r in runs] + [r.name for r in learning]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise DataError(f"{path}: run names must be unique; repeated: {twice}")
    name = meta.get("name", Path(path).stem)
    if not isinstance(name, str) or not name:
        raise DataError(f"{path}: [suite] name must be a non-empty string")
    return Suite(name, path, hashlib.sha256(text.encode()).hexdigest(), runs, learning)


def select(suite: Suite, patterns: Sequence[str]) -> Suite:
    """``suite`` with only the runs whose names match one of ``patterns`` (globs), in file order
    (``gcc-gym bench --run``); a pattern that matches no run is an error.

    >>> s = parse_suite('[[run]]\\nname="a-x"\\nenv="E"\\npolicy="random"\\nseeds=[0]', "s.toml")
    >>> [r.name for r in select(s, ["a-*"]).runs]
    ['a-x']
    """
    if not patterns:
        return suite
    names = [r.name for r in suite.runs]
    names += [r.name for r in suite.learning]
    for p in patterns:
        if not fnmatch.filter(names, p):
            raise DataError(f"{suite.path}: no run is named {p!r}; runs: {names}")

    def chosen(r: Any) -> bool:
        return any(fnmatch.fnmatchcase(r.name, p) for p in patterns)

    runs = tuple(r for r in suite.runs if chosen(r))
    return replace(suite, runs=runs, learning=tuple(r for r in suite.learning if chosen(r)))


def _merge(defaults: dict[str, Any], table: Any) -> dict[str, Any]:
    if not isinstance(table, dict):
        return table
    out = {**defaults, **table}
    for key in MERGED:
        if isinstance(defaults.get(key), dict) and isinstance(table.get(key), dict):
            out[key] = {**defaults[key], **table[key]}
    if "seeds" in table or "episodes" in table:  # a run's own seeds replace the defaults'
        for key in ("seeds", "episodes", "seed"):
            if key not in table:
                out.pop(key, None)
    return out


def _run(path: str, index: int, t: Any, own: Any) -> Run:
    name = own.get("name") if isinstance(own, dict) else None
    e = Entry(path, f"run {name!r}" if isinstance(name, str) else f"run {index + 1}", t)
    e.known(RUN_KEYS)
    for key in ("name", "policy"):
        if not e.get(key, str):
            e.fail(f"field {key!r} must be a non-empty string")
    env = e.get("env", (str, list))
    if not (isinstance(env, str) and env) and not _strings(env):
        e.fail(f"field 'env' must be a non-empty string or a list of them, got {env!r}")
    return Run(
        name=t["name"],
        env=env if isinstance(env, str) else tuple(env),
        policy=t["policy"],
        seeds=_seeds(e),
        kwargs=dict(e.get("kwargs", dict, {})),
        policy_kwargs=dict(e.get("policy_kwargs", dict, {})),
        max_steps=e.int("max_steps", None, lo=1),
        per_task=e.get("per_task", bool, False),
        video=e.get("video", bool, False),
        repeats=e.int("repeats", 1, lo=1),
    )


def _strings(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, str) and x for x in v)


def _positive(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _seeds(e: Entry) -> Sequence[int]:
    t = e.table
    if "seeds" in t and "episodes" in t:
        e.fail("give 'seeds' or 'episodes' (with 'seed'), not both")
    if "episodes" in t:
        n, first = t["episodes"], t.get("seed", 0)
        if not _positive(n) or not _int(first):
            e.fail("'episodes' must be a positive integer and 'seed' an integer")
        return range(first, first + n)
    if "seed" in t:
        e.fail("'seed' (the first seed) goes with 'episodes'")
    seeds = t.get("seeds")
    if isinstance(seeds, dict):
        if set(seeds) != {"start", "count"} or not (
            _int(seeds["start"]) and _positive(seeds["count"])
        ):
            e.fail("'seeds' as a table is { start = S, count = N }, N > 0")
        return range(seeds["start"], seeds["start"] + seeds["count"])
    if isinstance(seeds, list) and seeds and all(_int(s) for s in seeds):
        if len(set(seeds)) != len(seeds):
            e.fail(f"'seeds' lists a seed twice: {seeds}")
        return tuple(seeds)
    return e.fail(
        "needs 'seeds' (a list of integers or { start = S, count = N }) or "
        f"'episodes', got {seeds!r}"
    )
