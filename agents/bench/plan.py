"""A suite's runs expanded into episodes: one env id (or checkpoint) × policy × seed each.

Globs expand over the registered ids, ``per_task`` runs over a mission's checkpoints (as
``gcc-gym run --per-task``), and every episode carries its fully resolved settings: the kwargs
``gym.make`` gets, the policy's kwargs (with the seed it gets), and what the game's spec says
about the task (difficulty, expected steps, the task it is part of) for the report.

A run with ``repeats = k`` runs each env × seed k times: repeat 0 is keyed and seeded as a run
without repeats; repeat r > 0 keeps the env's seed (the same task instance) and appends
``|rR`` to the key; a seeded policy gets :func:`policy_seed` (seed, r), so its repeats differ
as an LMM's sampled repeats do.

:func:`count` gives a suite's number of episodes by arithmetic (no episode is built), so
:func:`check_size` refuses a suite past a limit before anything is materialised.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from agents.bench.suite import Run, Suite
from gcc_envs.errors import DataError

#: Policies whose constructor takes ``seed``; an episode's policy gets the episode's seed.
SEEDED_POLICIES = ("random", "scripted", "sb3")
#: Episodes a suite may have unless ``--max-episodes`` says more (the largest bundled suite has
#: a few hundred; a typo such as ``count = 1000000000`` must not take the machine down).
MAX_EPISODES = 10_000


@dataclass(frozen=True)
class Episode:
    """One episode to run, with everything needed to run it anywhere (it travels to workers)."""

    #: Unique within a suite: ``run|env_id|task|seed``; the results file is keyed by it.
    key: str
    run: str
    env_id: str
    #: The checkpoint (``task=`` kwarg) of a per-task run, or None.
    task: str | None
    policy: str
    seed: int
    env_kwargs: Mapping[str, Any]
    policy_kwargs: Mapping[str, Any]
    video: bool = False
    #: From the game's spec: ``game`` (the ids' title), ``difficulty``, ``expected_steps``,
    #: ``parent`` (the mission a checkpoint belongs to), ``group`` (an OSWorld domain).
    task_info: Mapping[str, Any] = field(default_factory=dict)
    #: Which repeat of its env × seed this is (0 for the first; see ``repeats``).
    repeat: int = 0

    def config(self) -> dict[str, Any]:
        """The resolved settings as JSON data (secrets in policy kwargs masked)."""
        d = asdict(self)
        d["policy_kwargs"] = redact(d["policy_kwargs"])
        if not self.repeat:  # as recorded before repeats existed (resumes keep their digests)
            del d["repeat"]
        return json.loads(json.dumps(d, default=str))

    def digest(self) -> str:
        """A hash of the settings, so a resumed run can tell the suite file changed."""
        text = json.dumps(self.config(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def redact(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """Mask values of keys that look like credentials (``api_key``, ``token``, ...)."""
    words = ("key", "token", "secret", "password")
    return {
        k: "***" if any(w in k.lower() for w in words) and k != "api_key_env" else v
        for k, v in kwargs.items()
    }


def policy_seed(seed: int, repeat: int) -> int:
    """The seed a seeded policy gets in ``repeat`` of env seed ``seed`` (``seed`` itself first).

    >>> policy_seed(3, 0), policy_seed(3, 1) == policy_seed(3, 1) != policy_seed(3, 2)
    (3, True)
    """
    if repeat == 0:
        return seed
    digest = hashlib.sha256(f"{seed}:{repeat}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


def registered_ids() -> list[str]:
    """Every registered ``GCC/...`` id."""
    import gcc_envs

    return list(gcc_envs.env_ids())


def expand_env(pattern: str, ids: list[str]) -> list[str]:
    """The ids ``pattern`` names: itself when registered, else the ids the glob matches.

    >>> expand_env("GCC/A-*", ["GCC/A-x", "GCC/B-y", "GCC/A-z"])
    ['GCC/A-x', 'GCC/A-z']
    """
    if pattern in ids:
        return [pattern]
    return [i for i in ids if fnmatch.fnmatchcase(i, pattern)]


def task_info(env_id: str, task: str | None) -> dict[str, Any]:
    """What the id's spec says about its task (or checkpoint ``task``), for the tables: the
    game's title, the task's difficulty, the steps a person needs, the task it is part of and
    the family it is reported under (an OSWorld domain)."""
    from gcc_envs.registration import spec_of, task_of

    spec = spec_of(env_id)
    row = task_of(env_id) if task is None else spec.task(task)
    return {
        "game": spec.title,
        "difficulty": row.difficulty if row is not None else "",
        "expected_steps": row.expected_steps if row is not None else None,
        "parent": row.parent if row is not None else "",
        "group": row.group if row is not None else "",
    }


def run_env_ids(suite: Suite, run: Run, ids: list[str]) -> list[str]:
    """The registered ids ``run`` names (its env patterns expanded, in order, once each)."""
    env_ids: dict[str, None] = {}
    for pattern in (run.env,) if isinstance(run.env, str) else run.env:
        matched = expand_env(pattern, ids)
        if not matched:
            raise DataError(
                f"{suite.path}: run {run.name!r}: env {pattern!r} matches no registered id "
                "(gcc-gym list shows them)"
            )
        env_ids.update(dict.fromkeys(matched))
    return list(env_ids)


def count(suite: Suite, ids: list[str] | None = None) -> int:
    """How many episodes ``suite`` has: ids × checkpoints × seeds × repeats per run, by
    arithmetic (seed ranges are never materialised)."""
    ids = registered_ids() if ids is None else ids
    total = 0
    for run in suite.runs:
        for env_id in run_env_ids(suite, run, ids):
            tasks = 1
            if run.per_task:
                from agents.per_task import subtasks_of

                tasks = len(subtasks_of(env_id, dict(run.kwargs)))
            total += tasks * len(run.seeds) * run.repeats
    return total


def check_size(suite: Suite, max_episodes: int = MAX_EPISODES, ids: list[str] | None = None) -> int:
    """The number of episodes of ``suite``; a :class:`DataError` past ``max_episodes``."""
    n = count(suite, ids)
    if n > max_episodes:
        biggest = max(suite.runs, key=lambda r: len(r.seeds) * r.repeats)
        raise DataError(
            f"{suite.path}: the suite has {n:,} episodes, more than the limit of "
            f"{max_episodes:,} (run {biggest.name!r} alone has {len(biggest.seeds):,} seeds × "
            f"{biggest.repeats} repeats); check its seeds, or pass --max-episodes {n} to run "
            "them all"
        )
    return n


def expand(suite: Suite, ids: list[str] | None = None) -> list[Episode]:
    """Every episode of ``suite``, in file order (run, env, checkpoint, seed, repeat)."""
    ids = registered_ids() if ids is None else ids
    out: list[Episode] = []
    for run in suite.runs:
        for env_id in run_env_ids(suite, run, ids):
            out += _episodes(run, env_id)
    keys = [e.key for e in out]
    if len(set(keys)) != len(keys):
        raise DataError(f"{suite.path}: two runs give the same episode; rename one")
    return out


def _episodes(run: Run, env_id: str) -> list[Episode]:
    kwargs = dict(run.kwargs)
    if run.max_steps is not None:
        kwargs["max_episode_steps"] = run.max_steps
    tasks: list[str | None] = [None]
    limit = None
    if run.per_task:
        from agents.per_task import steps_per_task, subtasks_of

        tasks = list(subtasks_of(env_id, kwargs))
        limit = steps_per_task(env_id)
    out = []
    for task in tasks:
        env_kwargs = dict(kwargs)
        info = task_info(env_id, task)
        if task is not None:
            env_kwargs["task"] = task
            if limit is not None:  # a checkpoint alone gets one task's limit, not the mission's
                env_kwargs.setdefault("max_episode_steps", limit)
        for seed, repeat in ((s, r) for s in run.seeds for r in range(run.repeats)):
            policy_kwargs = dict(run.policy_kwargs)
            if run.policy in SEEDED_POLICIES:
                policy_kwargs.setdefault("seed", policy_seed(seed, repeat))
            if run.policy == "scripted":
                policy_kwargs.setdefault("privileged", True)  # as gcc-gym run
            suffix = f"|r{repeat}" if repeat else ""
            out.append(
                Episode(
                    key=f"{run.name}|{env_id}|{task or ''}|{seed}{suffix}",
                    run=run.name,
                    env_id=env_id,
                    task=task,
                    policy=run.policy,
                    seed=seed,
                    env_kwargs=env_kwargs,
                    policy_kwargs=policy_kwargs,
                    video=run.video,
                    task_info=info,
                    repeat=repeat,
                )
            )
    return out
