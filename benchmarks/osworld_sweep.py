"""Every bundled OSWorld task through ``GCC/OSWorld``: its scripted solution, and doing nothing.

Run: ``python benchmarks/osworld_sweep.py [--out table.json]`` (needs the README's OSWorld
install line; about 10 minutes on 2 cores). It runs ``tests/osworld/test_tasks.py`` with
``OSWORLD_TASKS=all`` (CI runs a sample of it) and prints, per domain, the tasks, how many
scripted solutions scored 1, how many "do nothing" episodes scored 0, the unsupported ones,
and the median setup time.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", help="also keep the per-task rows (JSON) here")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(args.out or Path(tmp) / "table.json").resolve()
        env = {**os.environ, "OSWORLD_TASKS": "all", "OSWORLD_TABLE": str(table)}
        cmd = [sys.executable, "-m", "pytest", "-q", "-rfs", "tests/osworld/test_tasks.py"]
        rc = subprocess.call(cmd, cwd=ROOT, env=env)
        rows = json.loads(table.read_text()) if table.exists() else {}
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
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
