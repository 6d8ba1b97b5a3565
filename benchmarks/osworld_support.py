"""Which OSWorld tasks this machine can run, and what stops the others — without running any.

Run: ``python benchmarks/osworld_support.py [TASKS ...] [--json OUT]``. ``TASKS`` are task
files, folders or OSWorld index files (``test_all.json``); default: the bundled tasks. For
every task, :func:`gcc_envs.osworld.support.support` is asked twice — with the network, and
offline with the file cache as it is — and the script prints a table by domain (tasks, how
many run online, offline), the count of tasks each kind of obstacle stops first, and the
evaluator parts and setup steps that stop the most tasks (what to build next).
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.osworld_cli import cmd_support, support_rows  # noqa: E402
from gcc_envs.osworld.bundled import BUNDLED  # noqa: E402
from gcc_envs.osworld.support import Support  # noqa: E402
from gcc_envs.osworld.taskset import expand  # noqa: E402


def _parts(s: Support) -> list[str]:
    """The missing evaluator parts and setup steps a task names."""
    out = []
    for kind, reason in s.found:
        if kind != "part":
            continue
        m = re.search(r"lacks: (.*)$", reason)
        if m:
            out += [p.strip() for p in m.group(1).split(",")]
        m = re.search(r"setup step '([^']+)'", reason)
        if m:
            out.append(f"step {m.group(1)}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tasks", nargs="*", help="task files, folders, index files (default: bundled)")
    p.add_argument("--json", help="write every task's verdicts here")
    args = p.parse_args(argv)
    cmd_support(argparse.Namespace(tasks=args.tasks, offline=False, json=args.json, quiet=True))
    sources = expand(args.tasks) if args.tasks else [t for _, t, _ in BUNDLED]
    parts = collections.Counter(x for _, on, _ in support_rows(sources) for x in set(_parts(on)))
    print("\nmissing parts by tasks stopped (online): " + ", ".join(f"{k} {v}" for k, v in parts.most_common(25)))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
