"""``gcc-gym report DIR``: a suite run's tables as Markdown and CSV files, printed with rich.

Writes into ``DIR/report/``: ``report.md`` (every table), one CSV per table (a ``Stat``
column ``x`` becomes ``x`` and ``x_se``, so spreadsheets get numbers) and the PNG plots
(:mod:`agents.bench.plots`).
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path
from typing import Any

from agents.bench.records import ResultsFile
from agents.bench.tables import Stat, Table, all_tables, relabel
from gcc_envs.errors import GCCError, MissingExtraError

#: Tables with more columns than this and at most FEW rows print transposed (files keep them).
WIDE, FEW = 8, 4


def cell(value: Any) -> str:
    """A cell as text (``None`` → ``-``)."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def to_markdown(table: Table) -> str:
    """A GitHub-flavoured Markdown table under a heading."""
    lines = [f"### {table.title}", "", "| " + " | ".join(table.columns) + " |"]
    lines.append("|" + "|".join("---" for _ in table.columns) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(cell(v).replace("|", "\\|") for v in row) + " |")
    return "\n".join(lines) + "\n"


def csv_rows(table: Table) -> tuple[list[str], list[list[Any]]]:
    """Header and rows with each :class:`Stat` column split into mean and SE."""
    stats = {i for row in table.rows for i, v in enumerate(row) if isinstance(v, Stat)}
    head: list[str] = []
    for i, c in enumerate(table.columns):
        head += [c, f"{c}_se"] if i in stats else [c]
    body = []
    for row in table.rows:
        out: list[Any] = []
        for i, v in enumerate(row):
            if i in stats:
                s = v if isinstance(v, Stat) else None
                out += ["" if s is None or s.n == 0 else s.mean]
                out += ["" if s is None or math.isnan(s.se) else s.se]
            else:
                out.append("" if v is None else v)
        body.append(out)
    return head, body


def file_name(name: str) -> str:
    """A name safe as a file name (``GCC/X`` → ``GCC-X``)."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name)


def write_csv(table: Table, path: Path) -> None:
    head, body = csv_rows(table)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(body)


def print_rich(tables: list[Table]) -> None:
    try:
        from rich.console import Console
        from rich.table import Table as RichTable
    except ImportError:
        raise MissingExtraError("rich", "bench") from None
    console = Console()
    for t in tables:
        if len(t.columns) > WIDE and len(t.rows) <= FEW:
            t = transposed(t)
        rt = RichTable(title=t.title, title_justify="left")
        for i, c in enumerate(t.columns):
            rt.add_column(c, justify="left" if i < 2 else "right", no_wrap=i == 0)
        for row in t.rows:
            rt.add_row(*(cell(v) for v in row))
        console.print(rt)


def transposed(table: Table) -> Table:
    """Rows as columns (a wide metrics table printed in a terminal); the first two columns
    (task, policy) become the header."""
    heads = tuple(" ".join(cell(v).rpartition("/")[2] for v in row[:2]) for row in table.rows)
    rows = tuple(
        (c, *(row[i] for row in table.rows)) for i, c in enumerate(table.columns) if i >= 2
    )
    return Table(table.name, table.title, ("", *heads), rows)


def load_records(out_dir: str | Path) -> list[dict[str, Any]]:
    results = ResultsFile(out_dir)
    if not results.path.exists():
        raise GCCError(f"{results.path} does not exist; run gcc-gym bench SUITE --out {out_dir}")
    records = list(results.load().values())
    if not records:
        raise GCCError(f"{results.path} holds no records yet")
    return records


def report(
    out_dir: str | Path, plots: bool = True, show: bool = True
) -> tuple[list[Table], list[Path]]:
    """Write (and print) the tables and plots of the run in ``out_dir``; the files written."""
    records = relabel(load_records(out_dir))
    tables = all_tables(records)
    folder = Path(out_dir) / "report"
    folder.mkdir(parents=True, exist_ok=True)
    suite = records[0].get("config", {}).get("suite", {}).get("name", "")
    n_err = sum(r.get("status") != "ok" for r in records)
    head = f"# Results of suite {suite}\n\n{len(records)} episodes, {n_err} errors.\n\n"
    md = folder / "report.md"
    md.write_text(head + "\n".join(to_markdown(t) for t in tables))
    files = [md]
    for t in tables:
        path = folder / f"{file_name(t.name)}.csv"
        write_csv(t, path)
        files.append(path)
    if plots:
        from agents.bench.plots import write_plots

        files += write_plots(records, folder)
    if show:
        print_rich(tables)
    return tables, files
