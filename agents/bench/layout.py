"""Tables printed in a terminal of any width (80 columns when piped), no number ever cut.

:func:`fit` splits a table too wide for the terminal into parts that each repeat its first
:data:`KEYS` columns (the env or task, and the policy); those text columns fold (wrap inside a
word) down to :data:`MIN_TEXT` where needed, every other column keeps its cells whole and its
header wraps at spaces; other text columns (an error message) fold likewise. ``report.md``
keeps each table whole.
"""

from __future__ import annotations

from typing import Any

from agents.bench.tables import Table
from gcc_envs.errors import MissingExtraError

#: Columns each part of a split table repeats (the env or task, and the policy).
KEYS = 2
#: The narrowest a key column is folded to.
MIN_TEXT = 12
#: A table of at most FEW rows that needs more than PARTS parts prints transposed.
PARTS, FEW = 2, 4


def cell(value: Any) -> str:
    """A cell as text (``None`` → ``-``).

    >>> from agents.bench.tables import Rate
    >>> cell(None), cell(0.123456), cell(Rate(1, 2))
    ('-', '0.123', '0.50 [0.09, 0.91]')
    """
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def _longest_word(text: str) -> int:
    return max((len(w) for w in text.split()), default=1)


def _chrome(n: int) -> int:
    """The characters a rich table's borders and padding take around ``n`` columns."""
    return 3 * n + 1


def is_text(table: Table, i: int) -> bool:
    """Whether column ``i`` is words (folded where needed) rather than figures (kept whole)."""
    values = [row[i] for row in table.rows if row[i] is not None]
    return bool(values) and all(isinstance(v, str) and any(c.isalpha() for c in v) for v in values)


def fit(table: Table, width: int = 80, keys: int = KEYS) -> list[tuple[Table, list[int]]]:
    """``table`` as parts that each fit ``width`` terminal columns, with each column's width.

    >>> t = Table("t", "T", ("env", "policy", *"abcdefghij"), (("GCC/X", "random", *range(10)),))
    >>> [len(part.columns) for part, _ in fit(t, 40)]
    [7, 7]
    """
    cells = [[cell(v) for v in row] for row in table.rows]

    def need(i: int) -> int:  # the cells unbroken, the header at its longest word
        return max([_longest_word(table.columns[i]), *(len(r[i]) for r in cells)])

    def least(i: int) -> int:  # figures whole; words folded down to MIN_TEXT
        return min(need(i), max(MIN_TEXT, _longest_word(table.columns[i]))) if text[i] else need(i)

    text = [is_text(table, i) for i in range(len(table.columns))]
    key_cols = [0] if table.columns else []  # the first, and the next where it is words
    key_cols += [i for i in range(1, min(keys, len(table.columns))) if text[i]][: keys - 1]
    key_w = [need(i) for i in key_cols]
    rest = [i for i in range(len(table.columns)) if i not in key_cols]
    widest = max((least(i) + 3 for i in rest), default=0)
    squeeze = max(0, sum(key_w) + _chrome(len(key_cols)) + widest - width)
    for j in sorted(range(len(key_cols)), key=lambda j: -key_w[j]):  # fold the widest key first
        cut = min(squeeze, max(0, key_w[j] - MIN_TEXT))
        key_w[j] -= cut
        squeeze -= cut
    base = sum(key_w) + _chrome(len(key_cols))
    parts: list[list[int]] = []
    used = width
    for i in rest:
        if not parts or used + least(i) + 3 > width:
            parts.append([])
            used = base
        parts[-1].append(i)
        used += least(i) + 3
    out = []
    for n, part in enumerate(parts or [[]]):
        widths = [least(i) for i in part]
        slack = width - base - sum(w + 3 for w in widths)
        for j, i in enumerate(part):  # room left goes to the part's words
            grow = min(slack, need(i) - widths[j])
            widths[j] += grow
            slack -= grow
        cols = key_cols + part
        title = table.title if n == 0 else f"{table.title} (part {n + 1} of {len(parts)})"
        columns = tuple(table.columns[i] for i in cols)
        rows = tuple(tuple(row[i] for i in cols) for row in table.rows)
        out.append((Table(table.name, title, columns, rows), key_w + widths))
    return out


def transposed(table: Table) -> Table:
    """Rows as columns (a table of many metrics and few rows); the first two cells of each
    row (task, policy) head its column.

    >>> transposed(Table("t", "T", ("task", "policy", "a", "b"), (("GCC/X", "p", 1, 2),))).rows
    (('a', 1), ('b', 2))
    """
    heads = tuple(" ".join(cell(v).rpartition("/")[2] for v in row[:KEYS]) for row in table.rows)
    rows = tuple(
        (c, *(row[i] for row in table.rows)) for i, c in enumerate(table.columns) if i >= KEYS
    )
    return Table(table.name, table.title, ("", *heads), rows)


def layout(table: Table, width: int) -> tuple[list[tuple[Table, list[int]]], int]:
    """The parts to print and how many key columns each has: a table that would need more
    than :data:`PARTS` parts and has at most :data:`FEW` rows prints transposed."""
    parts = fit(table, width)
    if len(parts) > PARTS and len(table.rows) <= FEW:
        return fit(transposed(table), width, keys=1), 1
    return parts, KEYS


def print_rich(tables: list[Table], console: Any = None) -> None:
    """Print ``tables`` with rich, each fitted to the console's width (:func:`layout`)."""
    try:
        from rich import box
        from rich.console import Console
        from rich.table import Table as RichTable
    except ImportError:
        raise MissingExtraError("rich", "bench") from None
    console = console or Console()
    for t in tables:
        parts, _ = layout(t, console.width)
        for part, widths in parts:
            rt = RichTable(title=part.title, title_justify="left", box=box.SQUARE)
            for i, (c, w) in enumerate(zip(part.columns, widths)):
                rt.add_column(
                    c,
                    justify="left" if i == 0 or is_text(part, i) else "right",
                    min_width=w,
                    max_width=w,
                    overflow="fold",
                )
            for row in part.rows:
                rt.add_row(*(cell(v) for v in row))
            console.print(rt)
