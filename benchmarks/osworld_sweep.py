"""Every bundled OSWorld task through ``GCC/OSWorld``: its scripted solution, and doing nothing.

Run: ``python benchmarks/osworld_sweep.py [--out table.json] [--workers N]`` (needs the
README's OSWorld install line; about 10 minutes on 2 cores). It runs
``tests/osworld/test_tasks.py`` with ``OSWORLD_TASKS=all`` (CI runs a sample of it; ``--workers
N`` spreads it over N pytest-xdist workers, each with its own env and displays) and prints, per
domain, the tasks, how many scripted solutions scored 1, how many "do nothing" episodes scored
0, the unsupported ones, and the median setup time.

Then throughput: the reset (setup) time's median and p95 with and without the task files' own
``sleep`` steps (target: median ≤ 3 s, p95 ≤ 10 s without them), each policy's median episode
(reset to verdict) and the tasks per hour N workers give at that pace, and the whole sweep's
tasks per hour (each task run twice: scripted and nothing).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", help="also keep the per-task rows (JSON) here")
    p.add_argument("--workers", type=int, default=1, help="pytest-xdist workers (default 1)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(args.out or Path(tmp) / "table.json").resolve()
        env = {**os.environ, "OSWORLD_TASKS": "all", "OSWORLD_TABLE": str(table)}
        cmd = [sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:cacheprovider"]
        if args.workers > 1:
            cmd += ["-n", str(args.workers)]
        t0 = time.perf_counter()
        rc = subprocess.call([*cmd, "tests/osworld/test_tasks.py"], cwd=ROOT, env=env)
        wall = time.perf_counter() - t0
        rows = {}
        for part in [table, *table.parent.glob(f"{table.name}.gw*")]:
            if part.exists():
                rows.update(json.loads(part.read_text()))
        if args.out and rows:
            table.write_text(json.dumps(rows, indent=1))
    by: dict[str, list[dict]] = collections.defaultdict(list)
    for row in rows.values():
        by[row["domain"]].append(row)
    print("| domain | tasks | scripted 1 | nothing 0 | unsupported | median setup s |")
    print("|---|---|---|---|---|---|")
    for domain in sorted(by):
        rs = by[domain]
        solved = sum(r["scripted"] == 1.0 for r in rs)
        idle = sum(r["nothing"] == 0.0 for r in rs)
        unsupported = sum("unsupported" in r for r in rs)
        setup = statistics.median(r["setup_s"] for r in rs)
        print(f"| {domain} | {len(rs)} | {solved} | {idle} | {unsupported} | {setup:.1f} |")
    print(f"\n{len(rows)} tasks recorded; pytest exit status {rc}")
    if rows:
        print(throughput(list(rows.values()), wall, args.workers))
    return rc


def _p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20, method="inclusive")[-1] if len(xs) > 1 else xs[0]


def throughput(rows: list[dict], wall_s: float, workers: int) -> str:
    """The throughput lines: reset times, each policy's episode pace, the sweep's rate."""
    setup = [r["setup_s"] for r in rows]
    bare = [max(0.0, r["setup_s"] - r.get("sleep_s", 0.0)) for r in rows]
    lines = [
        f"workers {workers}; sweep wall {wall_s / 60:.1f} min",
        f"reset median {statistics.median(setup):.2f} s, p95 {_p95(setup):.2f} s; without the "
        f"task files' sleep steps median {statistics.median(bare):.2f} s, p95 {_p95(bare):.2f} s",
    ]
    for policy in ("scripted", "nothing"):
        pace = [r[f"{policy}_s"] for r in rows if f"{policy}_s" in r]
        if pace:
            per_hour = workers * 3600 / statistics.mean(pace)
            lines.append(
                f"{policy}: {len(pace)} episodes, median {statistics.median(pace):.1f} s, "
                f"mean {statistics.mean(pace):.1f} s -> {per_hour:.0f} tasks/hour at {workers} "
                f"worker(s)"
            )
    lines.append(f"sweep: {len(rows)} tasks (scripted + nothing each) -> "
                 f"{len(rows) * 3600 / wall_s:.0f} tasks/hour")  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
