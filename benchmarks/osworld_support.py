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
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gcc_envs.osworld.cache import DownloadCache  # noqa: E402
from gcc_envs.osworld.support import KINDS, Support, support  # noqa: E402
from gcc_envs.osworld.taskfile import load_task  # noqa: E402
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
    if args.tasks:
        sources = expand(args.tasks)
    else:
        from gcc_envs.osworld.bundled import BUNDLED

        sources = [t for _, t, _ in BUNDLED]
    cached = DownloadCache.from_env().has
    rows = []
    for source in sources:
        task = load_task(source)
        on, off = support(task, online=True), support(task, online=False, cached=cached)
        rows.append((task, on, off))
    by_domain: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for task, on, off in rows:
        row = by_domain[task.domain]
        row[0] += 1
        row[1] += on.runs
        row[2] += off.runs
    print("| domain | tasks | run online | run offline |\n|---|---|---|---|")
    total = [0, 0, 0]
    for domain in sorted(by_domain):
        n, a, b = by_domain[domain]
        total = [total[0] + n, total[1] + a, total[2] + b]
        print(f"| {domain} | {n} | {a} | {b} |")
    n, a, b = total
    print(
        f"| **all** | {n} | {a} ({100 * a / max(n, 1):.1f} %) | {b} ({100 * b / max(n, 1):.1f} %) |"
    )
    for label, pick in (("online", 1), ("offline", 2)):
        kinds = collections.Counter(r[pick].kind for r in rows if r[pick].kind)
        print(
            f"\nstopped first by ({label}): "
            + ", ".join(f"{k} {kinds[k]}" for k in KINDS if k in kinds)
        )
    parts = collections.Counter(x for r in rows for x in set(_parts(r[1])))
    print(
        "\nmissing parts by tasks stopped (online): "
        + ", ".join(f"{k} {v}" for k, v in parts.most_common(25))
    )
    if args.json:
        Path(args.json).write_text(json.dumps(
            [{"task": t.id, "domain": t.domain, "online": on.reasons, "offline": off.reasons} for t, on, off in rows],
            indent=1))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
