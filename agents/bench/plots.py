"""PNG plots of a suite run (matplotlib, ``bench`` extra): success per task, LMM cost.

``success_<game>.png``: per game, a bar per task and policy with its standard error (the
paper's per-task success figure), and ``success_<game>_groups.png`` per group where the tasks
have groups (OSWorld's domains); ``cost.png``: cost per episode for the policies that report
LMM usage (``policy_info.cost_usd``), per task and policy. Figures are built on an Agg canvas
of their own, so nothing touches pyplot's global state or needs a display.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.bench.tables import file_name, games, label, of_game, policies, stat, task_info
from gcc_envs.errors import MissingExtraError


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingExtraError("matplotlib", "bench") from None
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def bars(
    title: str,
    ylabel: str,
    tasks: Sequence[str],
    series: dict[str, list[tuple[float, float]]],
    path: Path,
    ylim: tuple[float, float] | None = None,
    labels: dict[str, list[str]] | None = None,
) -> Path:
    """Grouped bars: one group per task, one bar (mean, SE) per series, optionally labelled."""
    import numpy as np

    fig = _figure(max(6.0, 0.9 * len(tasks) * max(1, len(series)) / 2 + 2), 4.5)
    ax = fig.add_subplot()
    x = np.arange(len(tasks))
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        means = [m for m, _ in values]
        errs = [0.0 if e != e else e for _, e in values]  # NaN (one episode): no bar
        offset = (i - (len(series) - 1) / 2) * width
        rects = ax.bar(x + offset, means, width, yerr=errs, capsize=3, label=name)
        if labels is not None:
            ax.bar_label(rects, labels[name], padding=2, fontsize=8)
    ax.set_xticks(x, [t.rpartition("/")[2] for t in tasks], rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if ylim is None:  # room above the bars for the legend
        top = max((m + (0.0 if e != e else e) for v in series.values() for m, e in v), default=1)
        ylim = (0.0, 1.25 * top if top > 0 else 1.0)
    ax.set_ylim(*ylim)
    ax.legend(loc="upper center", ncols=max(1, len(series)), frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.savefig(path)
    return path


def group_of(rec: dict[str, Any]) -> str:
    return task_info(rec).get("group") or ""


def success_plot(
    records: Sequence[dict[str, Any]], game: str, folder: Path, by_group: bool = False
) -> Path | None:
    """Success rate bars per task (or, ``by_group``, per group: OSWorld's domains)."""
    recs = [r for r in of_game(records, game) if r.get("status") == "ok"]
    key = group_of if by_group else label
    if by_group:
        recs = [r for r in recs if group_of(r)]
    if not recs:
        return None
    tasks = list(dict.fromkeys(key(r) for r in recs))
    series: dict[str, list[tuple[float, float]]] = {}
    counts: dict[str, list[str]] = {}
    for p in policies(recs):
        series[p], counts[p] = [], []
        for t in tasks:
            s = stat(
                (bool(r["success"]) for r in recs if key(r) == t and r["policy"] == p),
                binary=True,
            )
            series[p].append((0.0, 0.0) if s.n == 0 else (s.mean, s.se))
            counts[p].append("" if s.n == 0 else f"{round(s.mean * s.n)}/{s.n}")
    what = "group" if by_group else "task"
    path = folder / f"success_{file_name(game)}{'_groups' if by_group else ''}.png"
    return bars(
        f"{game}: success rate per {what} (± SE)",
        "success rate",
        tasks,
        series,
        path,
        (0.0, 1.25),
        counts,
    )


def cost_plot(records: Sequence[dict[str, Any]], folder: Path) -> Path | None:
    recs = [
        r for r in records if r.get("status") == "ok" and "cost_usd" in (r.get("policy_info") or {})
    ]
    if not recs:
        return None
    tasks = list(dict.fromkeys(label(r) for r in recs))
    series = {}
    for p in policies(recs):
        series[p] = []
        for t in tasks:
            s = stat(
                float(r["policy_info"]["cost_usd"])
                for r in recs
                if label(r) == t and r["policy"] == p
            )
            series[p].append((0.0, 0.0) if s.n == 0 else (s.mean, s.se))
    return bars(
        "LMM cost per episode (± SE)", "USD per episode", tasks, series, folder / "cost.png"
    )


def write_plots(records: Sequence[dict[str, Any]], folder: Path) -> list[Path]:
    """Every plot the records allow; the PNGs written."""
    out = [success_plot(records, g, folder, by) for g in games(records) for by in (False, True)]
    out.append(cost_plot(records, folder))
    return [p for p in out if p is not None]
