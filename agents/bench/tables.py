"""Tables of a suite's results: per env × policy, and per game as the paper lays them out.

Pure functions of the records (``results.jsonl``): nothing here makes an env or names a game.
A game's tables come from what its records carry: ``config.task_info`` (the game's title, each
task's difficulty, the mission a checkpoint belongs to, the steps a person needs) and the
``metrics`` its env reports in ``info["metrics"]`` (RDR2's checkpoints reached, Dealer's Life 2's
deal metrics, Skylines' city metrics...), and ``task_info.group`` (OSWorld's domains).

Success rates count every episode: one that crashed, was refused or is unsupported
(:func:`agents.bench.schema.episode_class`) is a failure in the denominator, listed by class in
the summary and in the failures table; they come with a Wilson 95 % interval (:class:`Rate`),
which is not zero-wide at 0/n or n/n. Steps, returns and metrics are over the episodes that
ran (:mod:`agents.bench.stats`). Runs with repeats get pass@k, pass^k and flip rates
(:mod:`agents.bench.reliability`).

>>> str(Rate(0, 10)), summary_table([]).title.split(" per ")[0]
('0.00 [0.00, 0.28]', 'Success (rate [95 % CI])')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from agents.bench.schema import CLASSES, episode_class
from agents.bench.stats import Rate, Stat, rate, stat, wilson

__all__ = ["Rate", "Stat", "Table", "all_tables", "rate", "stat", "wilson"]


def succeeded(rec: dict[str, Any]) -> bool:
    """Whether the episode succeeded (an episode that did not run did not)."""
    return rec.get("status") == "ok" and bool(rec.get("success"))


@dataclass(frozen=True)
class Table:
    """A titled table whose cells are text, numbers or :class:`Stat`."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


def label(rec: dict[str, Any]) -> str:
    """What a row names: the checkpoint of a per-task run, else the env id."""
    return rec.get("task") or rec["env_id"]


def task_info(rec: dict[str, Any]) -> dict[str, Any]:
    return dict(rec.get("config", {}).get("task_info", {}))


def efficiency(rec: dict[str, Any]) -> float | None:
    """Expected steps (a person's) over the steps taken, as Cradle's software tasks report; 0
    for a failed episode (as the suites' envs count it: giving up early is not efficient);
    None where the spec gives no expected steps."""
    expected = task_info(rec).get("expected_steps")
    if not expected or not rec.get("steps"):
        return None
    return float(expected) / float(rec["steps"]) if rec.get("success") else 0.0


def _groups(records: Iterable[dict[str, Any]], *keys: str) -> dict[tuple[Any, ...], list[dict]]:
    out: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in records:
        k = tuple(label(r) if key == "label" else r.get(key) for key in keys)
        out.setdefault(k, []).append(r)
    return out


def _cost(rec: dict[str, Any]) -> float | None:
    v = (rec.get("policy_info") or {}).get("cost_usd")
    return None if v is None else float(v)


def summary_table(records: Sequence[dict[str, Any]]) -> Table:
    """One row per env (or checkpoint) × policy: episodes, success over all of them with its
    interval, steps, progress, return, cost (over those that ran) and the episodes of each
    failure class (columns of classes no episode is in are left out)."""
    rows = []
    for (name, policy), recs in _groups(records, "label", "policy").items():
        ok = [r for r in recs if r.get("status") == "ok"]
        eff = [e for e in map(efficiency, ok) if e is not None]
        costs = [c for c in map(_cost, ok) if c is not None]
        usage = [r.get("policy_info") or {} for r in ok]
        calls = [u["calls"] for u in usage if "calls" in u]
        tokens = [
            u.get("prompt_tokens", 0) + u.get("completion_tokens", 0)
            for u in usage
            if "prompt_tokens" in u
        ]
        classes = Counter(episode_class(r) for r in recs)
        rows.append(
            (
                name,
                policy,
                len(recs),
                f"{sum(map(succeeded, recs))}/{len(recs)}",
                rate(map(succeeded, recs)),
                stat(r["steps"] for r in ok),
                stat(r["progress"] for r in ok),
                stat(r["return"] for r in ok),
                stat(eff) if eff else None,
                stat(calls) if calls else None,
                stat(tokens) if tokens else None,
                stat(costs) if costs else None,
                *(classes[c] for c in CLASSES[1:]),
            )
        )
    return _drop_zero(
        Table(
            "summary",
            "Success (rate [95 % CI]) per env × policy over every episode; steps, progress and "
            "return (mean ± SE) over those that ran",
            (
                "env",
                "policy",
                "episodes",
                "success",
                "success rate",
                "steps",
                "progress",
                "return",
                "efficiency",
                "LMM calls",
                "tokens",
                "cost USD",
                *CLASSES[1:],
            ),
            tuple(rows),
        ),
        CLASSES[1:],
    )


def _drop_zero(table: Table, columns: Sequence[str]) -> Table:
    """``table`` without those of ``columns`` that are 0 in every row."""
    drop = {
        i for i, c in enumerate(table.columns) if c in columns and not any(r[i] for r in table.rows)
    }
    keep = [i for i in range(len(table.columns)) if i not in drop]
    return Table(
        table.name,
        table.title,
        tuple(table.columns[i] for i in keep),
        tuple(tuple(r[i] for i in keep) for r in table.rows),
    )


def _seeds(seeds: list[Any]) -> str:
    """Seeds as a short list, each once (``0 1 2 ...`` past eight)."""
    once = list(dict.fromkeys(seeds))
    return " ".join(map(str, once[:8])) + (" ..." if len(once) > 8 else "")


def failures_table(records: Sequence[dict[str, Any]]) -> Table | None:
    """The episodes that crashed, were refused or are unsupported, by class, env × policy and
    error (its first line), with their seeds; None when every episode ran."""
    groups: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for r in records:
        cls = episode_class(r)
        if cls == "ok":
            continue
        why = r.get("error") or r.get("unsupported") or r.get("setup_error") or ""
        groups.setdefault(
            (cls, label(r), r["policy"], why.splitlines()[0][:200] if why else ""), []
        ).append(r)
    if not groups:
        return None
    order = {c: i for i, c in enumerate(CLASSES)}
    rows = [
        (
            cls,
            name,
            policy,
            len(rs),
            _seeds([r["seed"] for r in rs]),
            why,
        )
        for (cls, name, policy, why), rs in sorted(groups.items(), key=lambda kv: order[kv[0][0]])
    ]
    return Table(
        "failures",
        "Episodes that did not run to their end, by class (each a failure in the rates)",
        ("class", "env", "policy", "episodes", "seeds", "why"),
        tuple(rows),
    )


def games(records: Sequence[dict[str, Any]]) -> list[str]:
    """The games (ids' titles) in the records, in order of first appearance."""
    seen: dict[str, None] = {}
    for r in records:
        seen.setdefault(task_info(r).get("game") or r["env_id"], None)
    return list(seen)


def of_game(records: Sequence[dict[str, Any]], game: str) -> list[dict[str, Any]]:
    return [r for r in records if (task_info(r).get("game") or r["env_id"]) == game]


def policies(records: Sequence[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(r["policy"] for r in records))


def success_table(records: Sequence[dict[str, Any]], game: str) -> Table:
    """A game's tasks (rows, with difficulty) × policies (columns): successes and rate ± SE.

    Checkpoints of one mission are followed by the mission's total over them (the paper's
    per-task figure and its per-domain table both read this way).
    """
    recs = of_game(records, game)
    pols = policies(recs)
    tasks = list(dict.fromkeys(label(r) for r in recs))
    parent_of = {label(r): task_info(r).get("parent") or "" for r in recs}
    difficulty = {label(r): task_info(r).get("difficulty") or "" for r in recs}

    def cells(rows: list[dict[str, Any]]) -> list[Any]:
        return _rates(rows, pols)

    body: list[tuple[Any, ...]] = []
    for i, task in enumerate(tasks):
        body.append((task, difficulty[task], *cells([r for r in recs if label(r) == task])))
        parent = parent_of[task]
        last = i + 1 == len(tasks) or parent_of[tasks[i + 1]] != parent
        members = [t for t in tasks if parent_of[t] == parent]
        if parent and last and len(members) > 1:
            body.append((f"{parent} (all)", "", *cells([r for r in recs if label(r) in members])))
    columns = ["task", "difficulty"]
    for p in pols:
        columns += [f"{p} success", f"{p} rate"]
    return Table(
        f"{game}_success",
        f"{game}: success per task and policy (rate [95 % CI], every episode counted)",
        tuple(columns),
        tuple(body),
    )


def _rates(recs: Sequence[dict[str, Any]], pols: Sequence[str]) -> list[Any]:
    """Per policy: successes as ``k/n`` and the rate with its interval (every episode counts)."""
    out: list[Any] = []
    for p in pols:
        mine = [succeeded(r) for r in recs if r["policy"] == p]
        out += [f"{sum(mine)}/{len(mine)}" if mine else "-", rate(mine)]
    return out


def group_table(records: Sequence[dict[str, Any]], game: str) -> Table | None:
    """A suite's families (``task_info.group``: OSWorld's domains) × policies: tasks, successes
    and rate ± SE, then all of them (the OSWorld paper's per-domain table); None without groups.
    """
    recs = of_game(records, game)
    group = {id(r): task_info(r).get("group") or "" for r in recs}
    names = list(dict.fromkeys(g for g in group.values() if g))
    if not names:
        return None
    pols = policies(of_game(records, game))
    rows = []
    for name in [*names, None]:
        mine = [r for r in recs if name is None or group[id(r)] == name]
        tasks = len({label(r) for r in mine})
        rows.append((name or "(all)", tasks, *_rates(mine, pols)))
    columns = ["group", "tasks"]
    for p in pols:
        columns += [f"{p} success", f"{p} rate"]
    return Table(
        f"{game}_groups",
        f"{game}: success per group (domain) and policy (rate [95 % CI])",
        tuple(columns),
        tuple(rows),
    )


def efficiency_table(records: Sequence[dict[str, Any]], game: str) -> Table | None:
    """Per task × policy where the spec gives a person's steps: success, steps ± SE and
    efficiency ± SE (Cradle's software table); None when no task gives them."""
    recs = [r for r in of_game(records, game) if r.get("status") == "ok"]
    if not any(task_info(r).get("expected_steps") for r in recs):
        return None
    rows = []
    for (task, policy), rs in _groups(recs, "label", "policy").items():
        eff = [e for e in map(efficiency, rs) if e is not None]
        rows.append(
            (
                task,
                policy,
                len(rs),
                *_rates(rs, [policy]),
                stat(r["steps"] for r in rs),
                task_info(rs[0]).get("expected_steps"),
                stat(eff) if eff else None,
            )
        )
    return Table(
        f"{game}_efficiency",
        f"{game}: success, steps and efficiency (a person's steps / steps) per task and policy",
        (
            "task",
            "policy",
            "episodes",
            "success",
            "success rate",
            "steps",
            "expected",
            "efficiency",
        ),
        tuple(rows),
    )


def metrics_tables(records: Sequence[dict[str, Any]], game: str) -> list[Table]:
    """A game's metrics (as its env reports them) per task × policy, mean ± SE.

    Tasks that report the same metrics share a table (a mission's checkpoints, a game's one
    task), so each task family reads as the paper's per-game table of metrics does.
    """
    recs = [r for r in of_game(records, game) if r.get("status") == "ok"]
    families: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for r in recs:
        families.setdefault(tuple(r.get("metrics") or {}), []).append(r)
    out = []
    for names, family in families.items():
        if not names:
            continue
        rows = [
            (task, policy, len(rs), *(stat(r["metrics"][m] for r in rs) for m in names))
            for (task, policy), rs in _groups(family, "label", "policy").items()
        ]
        tasks = list(dict.fromkeys(label(r) for r in family))
        suffix = "" if len(families) == 1 else "_" + tasks[0].rpartition("/")[2]
        what = ", ".join(t.rpartition("/")[2] for t in tasks[:3]) + (
            " ..." if len(tasks) > 3 else ""
        )
        out.append(
            Table(
                f"{game}_metrics{suffix}",
                f"{game} ({what}): the game's metrics per task and policy (mean ± SE)",
                ("task", "policy", "episodes", *names),
                tuple(rows),
            )
        )
    return out


def without_empty_columns(table: Table) -> Table:
    """The table without the columns that are empty (``None`` or ``""``) in every row."""
    keep = [
        i
        for i in range(len(table.columns))
        if any(row[i] not in (None, "") for row in table.rows) or not table.rows
    ]
    return Table(
        table.name,
        table.title,
        tuple(table.columns[i] for i in keep),
        tuple(tuple(row[i] for i in keep) for row in table.rows),
    )


def relabel(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records whose policy names their run too where two runs use one policy on one env
    (``cradle`` twice, with two models, becomes ``cradle [run-a]`` and ``cradle [run-b]``).

    >>> a = {"env_id": "E", "policy": "cradle", "run": "a"}
    >>> [r["policy"] for r in relabel([a, {**a, "run": "b"}, {**a, "env_id": "F"}])]
    ['cradle [a]', 'cradle [b]', 'cradle']
    """
    runs: dict[tuple[str, str], set[str]] = {}
    for r in records:
        runs.setdefault((label(r), r["policy"]), set()).add(r.get("run", ""))
    return [
        {**r, "policy": f"{r['policy']} [{r.get('run', '')}]"}
        if len(runs[(label(r), r["policy"])]) > 1
        else r
        for r in records
    ]


def all_tables(records: Sequence[dict[str, Any]]) -> list[Table]:
    """The summary, the failures by class, the repeats' reliability, then each game's success
    table, its per-group and efficiency tables where its tasks give groups or a person's steps,
    and its metrics tables."""
    from agents.bench.reliability import repeats_table

    out = [summary_table(records)]
    out += [t for t in (failures_table(records), repeats_table(records)) if t is not None]
    for game in games(records):
        out.append(success_table(records, game))
        extra = (group_table(records, game), efficiency_table(records, game))
        out += [t for t in extra if t is not None]
        out += metrics_tables(records, game)
    return [without_empty_columns(t) for t in out]


def file_name(name: str) -> str:
    """A name safe as a file name (``GCC/X`` → ``GCC-X``).

    >>> file_name("GCC/Stardew-Cultivation: scripted")
    'GCC-Stardew-Cultivation-scripted'
    """
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name)
