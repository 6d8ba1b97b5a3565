"""Learning runs of a suite (``[[learning]]``): what an agent learns, measured on held-out tasks.

A learning run has a store (empty, or a copy of ``store`` given as a folder), a policy that
learns into it (FRIDAY), and ``splits`` in order, one per app or game, each with a train part —
a curriculum ``objective`` with ``episodes`` (``gcc-gym learn``), or train tasks given as env
ids × ``seeds`` that the policy attempts with a writable store — and a ``held_out`` part (env
ids × seeds, evaluated with the store read-only)::

    [[learning]]
    name = "friday-games"
    policy = "friday"
    endpoint = "fake:games"        # a loopback fake (agents.friday.fake_endpoint), or omit
    kwargs = { obs_size = [90, 160] }
    policy_kwargs = { model = "gpt-4o" }   # base_url, api_key_env for a real endpoint
    max_steps = 10
    [[learning.split]]
    name = "stardew"
    train = { env = "GCC/Stardew-Shopping", objective = "leaving the house", episodes = 2 }
    held_out = { env = "GCC/Stardew-Shopping", seeds = [0, 1] }

A part on ``GCC/OSWorld`` may list task files (``tasks = ["friday_tasks/sheet-1.json"]``, paths
relative to the suite file): each is reset with ``options={"task": path}`` for each seed.

The protocol: every split's held-out tasks with the initial store (``before``); then for each
split in order, its training (``learn``) and its held-out tasks again (``after``); at the end,
the earlier splits' held-out tasks once more (``final``: forgetting is after − final). Every
episode is a line of ``DIR/learning.jsonl`` with its env verdict, the critic's, and its calls,
tokens and cost; the store ends in ``DIR/stores/<run>``. Learning runs are sequential (the store
is their state) and run in the driver; ``--resume`` skips the ones recorded as finished.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gcc_envs.errors import DataError, GCCError

LEARNING = "learning.jsonl"
KEYS = frozenset({"name", "policy", "store", "endpoint", "kwargs", "policy_kwargs", "max_steps",
                  "split"})  # fmt: skip
USAGE = ("calls", "prompt_tokens", "completion_tokens", "cost_usd")


@dataclass(frozen=True)
class Part:
    """Env ids × seeds (held-out or train tasks), or a curriculum objective × episodes."""

    env: tuple[str, ...]
    seeds: tuple[int, ...] = ()
    objective: str | None = None
    episodes: int = 0
    #: OSWorld task files (absolute paths), each run with every seed; empty: the env's own task.
    tasks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Split:
    name: str
    train: Part
    held_out: Part


@dataclass(frozen=True)
class LearningRun:
    name: str
    policy: str
    splits: tuple[Split, ...]
    store: str | None = None
    endpoint: str | None = None
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    policy_kwargs: Mapping[str, Any] = field(default_factory=dict)
    max_steps: int | None = None


def parse_learning(path: str, tables: Any) -> tuple[LearningRun, ...]:
    """The ``[[learning]]`` tables of suite ``path``, validated."""
    if not isinstance(tables, list):
        raise DataError(f"{path}: 'learning' must be [[learning]] tables")
    return tuple(_run(path, i, t) for i, t in enumerate(tables))


def _tasks(where: str, key: str, p: dict[str, Any], base: Path) -> tuple[str, ...]:
    """A part's ``tasks``: existing task files, relative to ``base`` (the suite's folder)."""
    tasks = p.get("tasks", [])
    if not (isinstance(tasks, list) and all(isinstance(t, str) and t for t in tasks)):
        raise DataError(f"{where}: {key!r} 'tasks' must be a list of task-file paths")
    found = tuple(str((base / t).resolve()) for t in tasks)
    missing = [t for t, f in zip(tasks, found) if not Path(f).is_file()]
    if missing:
        raise DataError(f"{where}: {key!r} lists task files that are not there: {missing}")
    return found


def _run(path: str, i: int, t: Any) -> LearningRun:
    where = f"{path}: learning {i + 1}"
    if not isinstance(t, dict):
        raise DataError(f"{where}: expected a table")
    where = f"{path}: learning {t.get('name', i + 1)!r}"
    bad = set(t) - KEYS
    if bad:
        raise DataError(f"{where}: unknown keys {sorted(bad)}; known: {sorted(KEYS)}")
    for key in ("name", "policy"):
        if not isinstance(t.get(key), str) or not t[key]:
            raise DataError(f"{where}: {key!r} must be a non-empty string")
    if t["policy"] != "friday":
        raise DataError(f"{where}: only policy 'friday' learns (got {t['policy']!r})")
    endpoint = t.get("endpoint")
    if endpoint is not None and not (isinstance(endpoint, str) and endpoint.startswith("fake:")):
        raise DataError(f"{where}: 'endpoint' is 'fake:NAME'; a real one goes in policy_kwargs")
    splits = t.get("split")
    if not isinstance(splits, list) or not splits:
        raise DataError(f"{where}: needs [[learning.split]] tables (train and held_out)")
    parsed = tuple(_split(where, s, Path(path).parent) for s in splits)
    names = [s.name for s in parsed]
    if len(set(names)) != len(names):
        raise DataError(f"{where}: split names must be unique: {names}")
    for key in ("kwargs", "policy_kwargs"):
        if not isinstance(t.get(key, {}), dict):
            raise DataError(f"{where}: {key!r} must be a table")
    max_steps = t.get("max_steps")
    if max_steps is not None and not (isinstance(max_steps, int) and max_steps > 0):
        raise DataError(f"{where}: 'max_steps' must be a positive integer")
    return LearningRun(t["name"], t["policy"], parsed, t.get("store"), endpoint,
                       dict(t.get("kwargs", {})), dict(t.get("policy_kwargs", {})), max_steps)  # fmt: skip


def _split(where: str, s: Any, base: Path) -> Split:
    if not isinstance(s, dict) or set(s) != {"name", "train", "held_out"}:
        raise DataError(f"{where}: a split is a table of 'name', 'train' and 'held_out'")
    where = f"{where}, split {s['name']!r}"
    train = _part(where, "train", s["train"], base)
    held = _part(where, "held_out", s["held_out"], base)
    if held.objective is not None:
        raise DataError(f"{where}: 'held_out' gives env and seeds, not an objective")
    return Split(str(s["name"]), train, held)


def _part(where: str, key: str, p: Any, base: Path) -> Part:
    if not isinstance(p, dict):
        raise DataError(f"{where}: {key!r} must be a table")
    env = p.get("env")
    env = (env,) if isinstance(env, str) else env
    if not (isinstance(env, list | tuple) and env and all(isinstance(e, str) for e in env)):
        raise DataError(f"{where}: {key!r} needs 'env': an id or a list of them")
    if "objective" in p:
        n = p.get("episodes")
        if set(p) - {"env", "objective", "episodes", "seed"} or not isinstance(n, int) or n < 1:
            raise DataError(f"{where}: {key!r} with an objective takes env, episodes (>= 1), seed")
        return Part(tuple(env), (int(p.get("seed", 0)),), str(p["objective"]), n)
    seeds = p.get("seeds")
    if set(p) - {"env", "seeds", "tasks"} or not (
        isinstance(seeds, list) and seeds and all(isinstance(x, int) for x in seeds)
    ):
        raise DataError(f"{where}: {key!r} needs 'seeds', a list of integers (or an objective)")
    return Part(tuple(env), tuple(seeds), tasks=_tasks(where, key, p, base))


# ---- running the protocol


def finished(out: Path) -> set[str]:
    """The learning runs recorded as finished in ``out``."""
    return {r["run"] for r in read_learning(out) if r.get("stage") == "done"}


def read_learning(out: str | Path) -> list[dict[str, Any]]:
    """The lines of ``learning.jsonl`` of the last attempt of each run (torn lines skipped)."""
    path = Path(out) / LEARNING
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and "run" in row and "attempt" in row:
            rows.append(row)
    last = {r["run"]: r["attempt"] for r in rows}
    return [r for r in rows if r["attempt"] == last[r["run"]]]


@contextmanager
def _endpoint(run: LearningRun) -> Iterator[dict[str, Any]]:
    if run.endpoint is None:
        yield {}
        return
    from agents.friday.fake_endpoint import serve

    with serve(run.endpoint.removeprefix("fake:")) as (base_url, token_env):
        yield {"base_url": base_url, "api_key_env": token_env}


def run_learning(run: LearningRun, out: Path, suite: str) -> None:
    """Run the protocol of ``run``, appending its lines to ``out/learning.jsonl``."""
    from agents.friday import Store

    store = out / "stores" / run.name
    if store.exists():
        shutil.rmtree(store)
    if run.store:
        shutil.copytree(run.store, store)
    Store.open(store)
    attempt = f"{time.time():.3f}"
    log = (out / LEARNING).open("a")

    def write(row: dict[str, Any]) -> None:
        log.write(json.dumps({"suite": suite, "run": run.name, "attempt": attempt, **row}) + "\n")
        log.flush()

    try:
        with _endpoint(run) as endpoint:
            kw = {**run.policy_kwargs, **endpoint}
            for s in run.splits:
                _held_out(run, s, store, kw, "before", write)
            for s in run.splits:
                _train(run, s, store, kw, write)
                _held_out(run, s, store, kw, "after", write)
            for s in run.splits[:-1]:
                _held_out(run, s, store, kw, "final", write)
        tools = Store.open(store, readonly=True).tools
        write({"stage": "done", "tools": sorted(tools), "store_bytes": _bytes(store)})
    finally:
        log.close()


def _bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _env(run: LearningRun, env_id: str) -> Any:
    import gymnasium as gym

    import gcc_envs  # noqa: F401  (registers the ids)
    from agents.bench.worker import _tuples

    kwargs = _tuples(dict(run.kwargs))
    if run.max_steps is not None:
        kwargs["max_episode_steps"] = run.max_steps
    return gym.make(env_id, disable_env_checker=True, **kwargs)


def _policy(run: LearningRun, env: Any, store: Path, kw: Mapping[str, Any], readonly: bool) -> Any:
    from agents.friday import FridayPolicy

    return FridayPolicy(env, store=store, store_readonly=readonly, **kw)


def _rollout(
    env: Any, policy: Any, seed: int, name: str, task: str | None = None
) -> tuple[dict[str, Any], int, Any]:
    """One episode (of task file ``task``, if given): the env's last info, the steps, and the
    policy's account of it."""
    obs, info = env.reset(seed=seed, options=None if task is None else {"task": task})
    policy.reset(info, episode=name)
    steps, done = 0, False
    while not done:
        obs, _, term, trunc, info = env.step(policy.act(obs, info))
        steps, done = steps + 1, term or trunc
    return info, steps, policy.episode_info()


def _usage(info: Mapping[str, Any]) -> dict[str, Any]:
    return {k: info.get(k, 0) for k in USAGE}


def _held_out(run: LearningRun, s: Split, store: Path, kw: Mapping[str, Any], stage: str,
              write: Any) -> None:  # fmt: skip
    for env_id in s.held_out.env:
        env = _env(run, env_id)
        try:
            for task, seed in _episodes(s.held_out):
                policy = _policy(run, env, store, kw, readonly=True)
                name = f"{stage}-{s.name}-{_task_name(task)}{seed}"
                try:
                    info, steps, used = _rollout(env, policy, seed, name, task)
                finally:
                    policy.close()
                write({"stage": stage, "split": s.name, "env_id": env_id, "seed": seed,
                       **({"task": Path(task).stem} if task else {}),
                       "game": _game(env_id), "success": bool(info.get("success", False)),
                       "critic_success": bool(used["critic_success"]), "steps": steps,
                       **_usage(used)})  # fmt: skip
        finally:
            env.close()


def _train(run: LearningRun, s: Split, store: Path, kw: Mapping[str, Any], write: Any) -> None:
    from agents.friday.learn import learn

    part = s.train
    for env_id in part.env:
        env = _env(run, env_id)
        policy = _policy(run, env, store, kw, readonly=False)
        try:
            if part.objective is not None:
                rep = learn(env, policy, part.objective, part.episodes, part.seeds[0])
                write({"stage": "curriculum", "split": s.name, "env_id": env_id,
                       "game": _game(env_id), **_usage(rep.curriculum_usage)})  # fmt: skip
                for ep in rep.episodes:
                    write({"stage": "learn", "split": s.name, "env_id": env_id,
                           "seed": part.seeds[0] + ep.episode, "game": _game(env_id),
                           "success": ep.env_success, "critic_success": ep.critic_success,
                           "steps": ep.steps, "tools_kept": ep.tools_kept, **_usage(ep.usage)})  # fmt: skip
                continue
            for task, seed in _episodes(part):
                name = f"learn-{s.name}-{_task_name(task)}{seed}"
                info, steps, used = _rollout(env, policy, seed, name, task)
                write({"stage": "learn", "split": s.name, "env_id": env_id, "seed": seed,
                       **({"task": Path(task).stem} if task else {}),
                       "game": _game(env_id), "success": bool(info.get("success", False)),
                       "critic_success": bool(used["critic_success"]), "steps": steps,
                       "tools_kept": used["tools_kept"], **_usage(used)})  # fmt: skip
        finally:
            policy.close()
            env.close()


def _episodes(part: Part) -> list[tuple[str | None, int]]:
    """A part's (task file or None, seed) pairs, in order."""
    return [(task, seed) for task in (part.tasks or (None,)) for seed in part.seeds]


def _task_name(task: str | None) -> str:
    """A task file's name without its suffix, and a dash ("" for the env's own task)."""
    return f"{Path(task).stem}-" if task else ""


def _game(env_id: str) -> str:
    try:
        from gcc_envs.registration import spec_of

        return spec_of(env_id).title
    except (GCCError, KeyError, AttributeError):
        return env_id
