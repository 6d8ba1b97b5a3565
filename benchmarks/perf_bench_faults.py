"""``gcc-gym bench`` on two Ray nodes, with a worker and then the driver killed mid-suite.

Run: ``python benchmarks/perf_bench_faults.py [--suite smoke]`` (needs the ``bench`` extra:
Ray). Every step is a fresh ``gcc-gym bench`` process as a researcher starts it:

1. ``--workers 1`` in-process: the reference records;
2. a Ray head and a second node (``ray start``, each its own raylet, on loopback addresses),
   the suite given ``--address`` and ``--workers 2``: episodes per node id, and whether every
   outcome equals the reference's (lockstep envs with seeded policies must give the same);
3. the same with the worker process of the first recorded episode SIGKILLed while the suite
   runs: episodes retried, every episode recorded once, outcomes still the reference's;
4. ``--workers 1`` with the driver SIGKILLed after a few records, then ``--resume``: how many
   episodes the resumed run ran, and whether anything recorded before the kill was lost.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

SUITES = Path(__file__).resolve().parent / "suites"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def records(out: Path) -> list[dict]:
    path = out / "results.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def outcomes(out: Path) -> dict[str, tuple]:
    return {
        r["key"]: (r["status"], r.get("success"), r.get("steps"), r.get("return"))
        for r in records(out)
    }


def cli(suite: Path, out: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "agents.cli", "bench", str(suite), "--out", str(out), *args]


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[3:])} failed:\n{done.stderr[-3000:]}")
    return time.perf_counter() - t0, summary(done.stdout)


def summary(stdout: str) -> str:
    """The ``N episodes: ran ...`` line (Ray may print a dead worker's notice first)."""
    return next((x for x in stdout.splitlines() if " episodes: ran " in x), stdout[-500:])


def wait_records(out: Path, n: int, proc: subprocess.Popen[str]) -> list[dict]:
    while proc.poll() is None:
        recs = records(out)
        if len(recs) >= n:
            return recs
        time.sleep(0.05)
    raise SystemExit(f"the suite ended before {n} records: {proc.communicate()[1][-2000:]}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", default="smoke", help="a suite of benchmarks/suites/")
    p.add_argument("--kill-after", type=int, default=3, help="records before the driver dies")
    args = p.parse_args()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from agents.bench.cluster import LoopbackCluster

    suite = SUITES / f"{args.suite}.toml"
    tmp = Path(tempfile.mkdtemp(prefix="gcc-faults-"))
    print(f"suite {suite.name}, cores {os.cpu_count()}, load {load()}, folder {tmp}")
    wall, line = run(cli(suite, tmp / "one", "--quiet"), dict(os.environ))
    ref = outcomes(tmp / "one")
    print(f"1. --workers 1 in-process: {wall:.1f} s; {line}")

    with LoopbackCluster(nodes=2, cpus=1) as cluster:
        env = {**os.environ, **cluster.env}
        two = cli(suite, tmp / "two", "--quiet", "--address", cluster.address, "--workers", "2")
        wall, line = run(two, env)
        nodes = Counter(r["worker"]["node_id"][:8] for r in records(tmp / "two"))
        same = outcomes(tmp / "two") == ref
        print(f"2. two nodes ({cluster.address}): {wall:.1f} s; {line}")
        print(f"   episodes per node id: {dict(nodes)}; same outcomes: {'yes' if same else 'NO'}")

        out = tmp / "killed-worker"
        proc = subprocess.Popen(
            cli(suite, out, "--quiet", "--address", cluster.address, "--workers", "2"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        first = wait_records(out, 1, proc)[0]
        os.kill(first["worker"]["pid"], signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=1800)
        recs = records(out)
        keys = Counter(r["key"] for r in recs)
        print(
            f"3. worker pid {first['worker']['pid']} SIGKILLed after its first record: exit "
            f"{proc.returncode}; {summary(stdout) if stdout else stderr[-500:]}"
        )
        print(
            f"   {len(recs)} records of {len(ref)} episodes, each once: "
            f"{'yes' if set(keys.values()) == {1} and len(keys) == len(ref) else 'NO'}; "
            f"attempts {dict(Counter(r['attempts'] for r in recs))}; same outcomes: "
            f"{'yes' if outcomes(out) == ref else 'NO'}"
        )

    out = tmp / "killed-driver"
    proc = subprocess.Popen(
        cli(suite, out, "--quiet"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    wait_records(out, args.kill_after, proc)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    before = outcomes(out)
    wall, line = run(cli(suite, out, "--quiet", "--resume"), dict(os.environ))
    after = outcomes(out)
    kept = all(after.get(k) == v for k, v in before.items())
    print(f"4. driver SIGKILLed with {len(before)} records; --resume: {wall:.1f} s; {line}")
    print(
        f"   {len(after)} of {len(ref)} episodes recorded; the {len(before)} before the kill "
        f"kept: {'yes' if kept else 'NO'}; same outcomes: {'yes' if after == ref else 'NO'}"
    )
    print(f"load at end: {load()}")


if __name__ == "__main__":
    main()
