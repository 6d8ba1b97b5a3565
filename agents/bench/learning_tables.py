"""The tables and plot of a suite's learning runs (``DIR/learning.jsonl``, :mod:`.learning`).

Per learning run and split (an app or game): held-out success before learning, after learning
its split, the difference with its standard error, and forgetting (after − final: success on
the split's held-out tasks right after learning it, minus at the end, after the later splits
were learned). Differences are *paired*: the same env × seed before and after, so the SE is
the SE of the mean of the per-task differences (NaN, shown without ``±``, for one task).
Then what learning cost (calls, tokens, dollars, tools kept) and the calls, tokens and cost per
episode of each stage (curriculum request, learning episode, evaluation episode).

>>> before = {("E", 0): False, ("E", 1): False, ("E", 2): True}
>>> after = {("E", 0): True, ("E", 1): False, ("E", 2): True}
>>> str(paired(before, after))
'0.333 ± 0.33'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agents.bench.stats import Stat, rate, stat
from agents.bench.tables import Table

Key = tuple[str, str | None, int]
EVAL = ("before", "after", "final")


def outcomes(rows: Sequence[Mapping[str, Any]], stage: str) -> dict[Key, bool]:
    """Held-out success per (env id, task file, seed) at ``stage`` (task: None for the env's own)."""
    return {
        (r["env_id"], r.get("task"), r["seed"]): bool(r["success"])
        for r in rows
        if r["stage"] == stage
    }


def paired(first: Mapping[Key, bool], then: Mapping[Key, bool]) -> Stat:
    """Mean and SE of ``then − first`` over the tasks both have (paired by env × seed)."""
    keys = [k for k in first if k in then]
    return stat([float(then[k]) - float(first[k]) for k in keys])


def forgetting(after: Mapping[Key, bool], final: Mapping[Key, bool]) -> Stat:
    """Success lost on a split's held-out tasks by the later learning: after − final, paired
    (positive: forgotten; 0: kept; no tasks: ``n == 0``, shown as ``-``).

    >>> str(forgetting({("E", 0): True, ("E", 1): True}, {("E", 0): False, ("E", 1): True}))
    '0.5 ± 0.5'
    """
    return paired(final, after)


def _splits(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    seen: dict[tuple[str, str], None] = {}
    for r in rows:
        if "split" in r:
            seen[(r["run"], r["split"])] = None
    return list(seen)


def _of(rows: Sequence[Mapping[str, Any]], run: str, split: str) -> list[Mapping[str, Any]]:
    return [r for r in rows if r["run"] == run and r.get("split") == split]


def _games(rows: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(dict.fromkeys(str(r.get("game", "")) for r in rows if r.get("game")))


def learning_table(rows: Sequence[Mapping[str, Any]]) -> Table:
    """Held-out success before and after learning, the paired difference, forgetting."""
    out = []
    for run, split in _splits(rows):
        mine = _of(rows, run, split)
        before, after, final = (outcomes(mine, s) for s in EVAL)
        out.append((run, split, _games(mine), "friday", len(after), rate(before.values()),
                    rate(after.values()), paired(before, after), forgetting(after, final)))  # fmt: skip
    return Table("learning", "Held-out success before and after learning (per split)",
                 ("Run", "Split", "Game", "Policy", "Tasks", "Before", "After", "Δ ± SE",
                  "Forgetting"), tuple(out))  # fmt: skip


def _sum(rows: Sequence[Mapping[str, Any]], key: str) -> float:
    return sum(float(r.get(key) or 0) for r in rows)


def cost_table(rows: Sequence[Mapping[str, Any]]) -> Table:
    """What learning cost per split (curriculum and practice), and the store at the end."""
    out: list[tuple[Any, ...]] = []
    for run, split in _splits(rows):
        spent = [r for r in _of(rows, run, split) if r["stage"] in ("learn", "curriculum")]
        kept = sorted({t for r in spent for t in r.get("tools_kept") or ()})
        out.append((run, split, sum(r["stage"] == "learn" for r in spent), int(_sum(spent, "calls")),
                    int(_sum(spent, "prompt_tokens") + _sum(spent, "completion_tokens")),
                    round(_sum(spent, "cost_usd"), 4), len(kept), ", ".join(kept) or "-"))  # fmt: skip
    for r in rows:
        if r.get("stage") == "done":
            spent = [
                x for x in rows if x["run"] == r["run"] and x["stage"] in ("learn", "curriculum")
            ]
            out.append((r["run"], "(store)", sum(x["stage"] == "learn" for x in spent),
                        int(_sum(spent, "calls")),
                        int(_sum(spent, "prompt_tokens") + _sum(spent, "completion_tokens")),
                        round(_sum(spent, "cost_usd"), 4), len(r["tools"]),
                        f"{r['store_bytes']} bytes"))  # fmt: skip
    return Table("learning_cost", "Spent learning, and the store (tools kept)",
                 ("Run", "Split", "Episodes", "Calls", "Tokens", "Cost $", "Tools", "Kept"),
                 tuple(out))  # fmt: skip


def usage_table(rows: Sequence[Mapping[str, Any]]) -> Table:
    """Calls, tokens and cost per curriculum request, learning episode and evaluation episode."""
    out = []
    for run in dict.fromkeys(r["run"] for r in rows):
        for name, stages in (("curriculum", ("curriculum",)), ("learning", ("learn",)),
                             ("evaluation", EVAL)):  # fmt: skip
            mine = [r for r in rows if r["run"] == run and r["stage"] in stages]
            if not mine:
                continue
            tokens = [float(r["prompt_tokens"]) + float(r["completion_tokens"]) for r in mine]
            out.append((run, name, len(mine), stat(float(r["calls"]) for r in mine),
                        stat(tokens), stat(float(r["cost_usd"]) for r in mine)))  # fmt: skip
    return Table("learning_usage", "LMM use per episode (mean ± SE)",
                 ("Run", "Stage", "Episodes", "Calls", "Tokens", "Cost $"), tuple(out))  # fmt: skip


def learning_tables(rows: Sequence[Mapping[str, Any]]) -> list[Table]:
    if not rows:
        return []
    return [learning_table(rows), cost_table(rows), usage_table(rows)]


def learning_plot(rows: Sequence[Mapping[str, Any]], folder: Path) -> Path | None:
    """``learning.png``: per split, held-out success before, after and at the end (± SE)."""
    from agents.bench.plots import bars

    splits = _splits(rows)
    if not splits:
        return None
    series: dict[str, list[tuple[float, float]]] = {s: [] for s in EVAL}
    for run, split in splits:
        mine = _of(rows, run, split)
        for s in EVAL:
            st = stat(outcomes(mine, s).values(), binary=True)
            series[s].append((st.mean if st.n else 0.0, st.se if st.n else float("nan")))
    names = [
        f"{run}/{split}" if len({r for r, _ in splits}) > 1 else split for run, split in splits
    ]
    return bars("Held-out success before / after learning / at the end", "success", names, series,
                folder / "learning.png", ylim=(0.0, 1.25))  # fmt: skip
