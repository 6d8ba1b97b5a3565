"""Suite wall time with 1 and 2 workers: ``gcc-gym bench`` as a researcher runs it.

Run: ``python benchmarks/perf_bench_scale.py [--repeat N] [--suites smoke stardew_scripted]``
(needs the ``bench`` extra: Ray). For each suite in ``benchmarks/suites/`` it times, in the
same run and alternating, fresh ``gcc-gym bench SUITE --out TMP --quiet`` processes:

- ``--workers 1``: in-process, no Ray (the reference);
- ``--workers 2``: a local Ray started and stopped by the command (all of Ray's start-up in it);
- ``--workers 2 --address``: a Ray cluster already running (started once here, 2 CPUs), the
  way a shared or remote cluster is used.

It prints each wall time (best of ``--repeat``: the machine is shared, the least disturbed run
counts; every run is printed), the ratios against ``--workers 1`` with the target (≤ 0.6), the
load average around each run, and whether every mode recorded the same outcomes (lockstep envs
with seeded policies must).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SUITES = Path(__file__).resolve().parent / "suites"
TARGET = 0.6


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def outcomes(out: Path) -> dict[str, tuple]:
    recs = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return {
        r["key"]: (r["status"], r.get("success"), r.get("steps"), r.get("return")) for r in recs
    }


def bench(suite: Path, args: list[str], env: dict[str, str]) -> tuple[float, dict[str, tuple]]:
    out = Path(tempfile.mkdtemp(prefix="gcc-bench-"))
    try:
        t0 = time.perf_counter()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "agents.cli",
                "bench",
                str(suite),
                "--out",
                str(out),
                "--quiet",
                *args,
            ],
            capture_output=True,
            text=True,
            env=env,
        )
        wall = time.perf_counter() - t0
        if done.returncode != 0:
            raise SystemExit(f"gcc-gym bench {' '.join(args)} failed:\n{done.stderr[-3000:]}")
        return wall, outcomes(out)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--suites", nargs="+", default=["smoke", "stardew_scripted"])
    args = p.parse_args()
    # started in the background by a shell, SIGINT comes ignored: let Ctrl-C stop the runs
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from agents.bench.cluster import LoopbackCluster

    print(f"cores: {os.cpu_count()}, load average at start: {load()}")
    with LoopbackCluster(nodes=1, cpus=2) as cluster:
        env = {**os.environ, **cluster.env}
        modes = {
            "workers 1 (in-process)": [],
            "workers 2 (own Ray)": ["--workers", "2"],
            "workers 2 (running cluster)": ["--workers", "2", "--address", cluster.address],
        }
        for name in args.suites:
            suite = SUITES / f"{name}.toml"
            times: dict[str, list[float]] = {m: [] for m in modes}
            results: dict[str, dict[str, tuple]] = {}
            n = 0
            for r in range(args.repeat):
                for mode, extra in modes.items():
                    before = load()
                    wall, res = bench(suite, extra, env)
                    times[mode].append(wall)
                    results.setdefault(mode, res)
                    n = len(res)
                    print(
                        f"  {name} run {r + 1} {mode:<28} {wall:7.1f} s   "
                        f"(load {before} -> {load()})",
                        flush=True,
                    )
            ref = min(times["workers 1 (in-process)"])
            same = all(res == results["workers 1 (in-process)"] for res in results.values())
            print(f"{name}: {n} episodes, same outcomes in every mode: {'yes' if same else 'NO'}")
            for mode in modes:
                best = min(times[mode])
                ratio = best / ref
                verdict = (
                    ""
                    if mode.startswith("workers 1")
                    else (
                        f"  ratio {ratio:.2f} (target <= {TARGET}: "
                        f"{'met' if ratio <= TARGET else 'MISSED'})"
                    )
                )
                print(f"  {mode:<28} best {best:7.1f} s{verdict}")
    print(f"load average at end: {load()}")


if __name__ == "__main__":
    main()
