"""Ray's fixed cost per ``gcc-gym bench`` command: what two workers pay before and after the
episodes, with a Ray the command starts and with a running cluster.

Run: ``python benchmarks/perf_ray_overhead.py [--repeat 3] [--workers 2]`` (needs the ``bench``
extra: Ray). Each try is a fresh Python process doing what the bench runner does around the
episodes: import Ray and start it (``ray.init`` with the runner's settings) or attach to a
loopback cluster started once here; start the worker actors and wait until each answers; then
stop (``ray.shutdown``). It prints the seconds of each part per try, next to the seconds of a
bare ``python -c pass`` as the reference measured in the same run. Set against a suite's
one-worker time, it says how short a suite can be and still halve on two workers.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

TRY = """
import json, logging, os, sys, time
t0 = time.perf_counter()
import ray
from agents.bench.runner import _loopback
from agents.bench.worker import EpisodeActor
address, workers = sys.argv[1] or None, int(sys.argv[2])
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
if address is None:
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING, object_store_memory=128 * 1024**2)
else:
    ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING,
             **_loopback(address))
t1 = time.perf_counter()
remote = ray.remote(num_cpus=1, max_restarts=0, scheduling_strategy="SPREAD")(EpisodeActor)
actors = [remote.remote() for _ in range(workers)]
ray.get([a.where.remote() for a in actors])
t2 = time.perf_counter()
for a in actors:
    ray.kill(a)
ray.shutdown()
t3 = time.perf_counter()
print(json.dumps({"start": t1 - t0, "actors": t2 - t1, "stop": t3 - t2}))
"""


def one(address: str | None, workers: int, env: dict[str, str]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", TRY, address or "", str(workers)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    if done.returncode != 0:
        raise SystemExit(f"a try failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bare() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    from agents.bench.cluster import LoopbackCluster

    print(f"cores: {os.cpu_count()}, load average at start: {os.getloadavg()[0]:.2f}")
    print(f"reference: a bare python process {bare():.2f} s")
    with LoopbackCluster(nodes=1, cpus=args.workers) as cluster:
        env = {**os.environ, **cluster.env}
        for name, address in (("own Ray", None), ("running cluster", cluster.address)):
            totals = []
            for r in range(args.repeat):
                t = one(address, args.workers, env)
                totals.append(sum(t.values()))
                parts = "  ".join(f"{k} {v:.2f} s" for k, v in t.items())
                print(f"  {name:<16} try {r + 1}: {parts}  total {totals[-1]:.2f} s", flush=True)
            print(f"{name}: best total {min(totals):.2f} s for {args.workers} workers")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
