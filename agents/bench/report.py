"""``gcc-gym report DIR``: a suite run's tables as Markdown and CSV files, printed with rich.

Writes into ``DIR/report/``: ``report.md`` (every table, whole), one CSV per table (a ``Stat``
column ``x`` becomes ``x`` and ``x_se``, a ``Rate`` column ``x``, ``x_lo`` and ``x_hi``, so
spreadsheets get numbers) and the PNG plots (:mod:`agents.bench.plots`). The terminal gets the
same tables fitted to its width (:mod:`agents.bench.layout`: 80 columns when piped, no number
cut).

Records come from :meth:`ResultsFile.read`, the reader ``--resume`` uses: the lines it skips
(torn, wrong-typed, duplicate, another suite's) are warned about and listed in ``report.md``.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

from agents.bench.layout import cell, print_rich
from agents.bench.learning import read_learning
from agents.bench.learning_tables import learning_plot, learning_tables
from agents.bench.plots import write_plots
from agents.bench.records import Problem, ResultsFile
from agents.bench.schema import CLASSES, episode_class
from agents.bench.tables import Rate, Stat, Table, all_tables, file_name, relabel
from gcc_envs.errors import GCCError

__all__ = ["cell", "csv_rows", "headline", "load_records", "print_rich", "report", "to_markdown"]


def to_markdown(table: Table) -> str:
    """A GitHub-flavoured Markdown table under a heading."""
    lines = [f"### {table.title}", "", "| " + " | ".join(table.columns) + " |"]
    lines.append("|" + "|".join("---" for _ in table.columns) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(cell(v).replace("|", "\\|") for v in row) + " |")
    return "\n".join(lines) + "\n"


def csv_rows(table: Table) -> tuple[list[str], list[list[Any]]]:
    """Header and rows with each :class:`Stat` column split into mean and SE, each
    :class:`Rate` column into the rate and its interval's bounds."""
    stats = {i for row in table.rows for i, v in enumerate(row) if isinstance(v, Stat)}
    rates = {i for row in table.rows for i, v in enumerate(row) if isinstance(v, Rate)}
    head: list[str] = []
    for i, c in enumerate(table.columns):
        head += [c, f"{c}_se"] if i in stats else [c, f"{c}_lo", f"{c}_hi"] if i in rates else [c]
    body = []
    for row in table.rows:
        out: list[Any] = []
        for i, v in enumerate(row):
            if i in rates:
                r = v if isinstance(v, Rate) and v.n else None
                out += ["", "", ""] if r is None else [r.rate, *(round(x, 4) for x in r.interval)]
            elif i in stats:
                s = v if isinstance(v, Stat) else None
                out += ["" if s is None or s.n == 0 else s.mean]
                out += ["" if s is None or math.isnan(s.se) else s.se]
            else:
                out.append("" if v is None else v)
        body.append(out)
    return head, body


def write_csv(table: Table, path: Path) -> None:
    head, body = csv_rows(table)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(body)


def load_records(out_dir: str | Path) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The records that count (:meth:`ResultsFile.read`) and the lines left out."""
    results = ResultsFile(out_dir)
    if not results.path.exists():
        raise GCCError(f"{results.path} does not exist; run gcc-gym bench SUITE --out {out_dir}")
    read = results.read()
    records = list(read.records.values())
    if not records:
        skipped = f" ({len(read.problems)} lines skipped)" if read.problems else ""
        raise GCCError(f"{results.path} holds no valid records yet{skipped}")
    return records, read.problems


def headline(records: list[dict[str, Any]], problems: list[Problem]) -> str:
    """What the report is of: the episodes by class, and the lines of the file left out."""
    classes = dict.fromkeys(CLASSES, 0)
    for r in records:
        classes[episode_class(r)] += 1
    text = f"{len(records)} episodes: " + ", ".join(f"{n} {c}" for c, n in classes.items()) + "."
    if problems:
        text += f"\n\n{len(problems)} lines of results.jsonl skipped:\n\n"
        text += "\n".join(f"- {p}" for p in problems)
    return text + "\n"


def report(
    out_dir: str | Path, plots: bool = True, show: bool = True
) -> tuple[list[Table], list[Path]]:
    """Write (and print) the tables and plots of the run in ``out_dir``; the files written."""
    learned = read_learning(out_dir)
    try:
        loaded, problems = load_records(out_dir)
    except GCCError:
        if not learned:  # a suite of learning runs only has no episode records
            raise
        loaded, problems = [], []
    records = relabel(loaded)
    tables = (all_tables(records) if records else []) + learning_tables(learned)
    folder = Path(out_dir) / "report"
    folder.mkdir(parents=True, exist_ok=True)
    suite = records[0].get("config", {}).get("suite", {}).get("name", "") if records else ""
    suite = suite or (learned[0].get("suite", "") if learned else "")
    said = headline(records, problems) if records else ""
    if learned:
        said += f"{sum(r['stage'] in ('before', 'after', 'final', 'learn') for r in learned)} "
        said += "learning-run episodes (learning.jsonl).\n"
    head = f"# Results of suite {suite}\n\n{said}\n"
    md = folder / "report.md"
    md.write_text(head + "\n".join(to_markdown(t) for t in tables))
    files = [md]
    for t in tables:
        path = folder / f"{file_name(t.name)}.csv"
        write_csv(t, path)
        files.append(path)
    if plots:
        files += write_plots(records, folder) if records else []
        plot = learning_plot(learned, folder)
        files += [plot] if plot is not None else []
    if show:
        print(said)
        print_rich(tables)
    return tables, files
