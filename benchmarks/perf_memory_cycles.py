"""Memory over make/reset/close cycles (target: RSS slope <= 0.5 MB/cycle after 5 cycles).

Run: ``python benchmarks/perf_memory_cycles.py [--cycles N] [--ids ID ...] [--every]``.
For one id per suite (each simulator, the toy game of ``tests/specs``, each desktop-app twin
suite, a bundled OSWorld task) a fresh Python process (so that one id's leftovers do not land in
another's figures) runs ``N`` cycles (default 50) of ``gym.make(id)``, ``env.reset(seed=i)``,
``env.close()``, dropping the env each time, and after each cycle reads its own resident memory (``VmRSS`` of ``/proc/self/status``), its thread count
(``/proc/self/task``), its open file descriptors (``/proc/self/fd``) and how many child
processes it has left. Nothing forces a garbage collection: what the program keeps between
cycles, the benchmark sees. Prints per id the RSS after cycle 1, after cycle 5 and at the end,
the slope of RSS over cycles 6..N in MB/cycle, threads, fds and children after cycle 5 and at
the end, and seconds per cycle; ``met`` when the slope is at most 0.5 MB/cycle. The slope judged
is Theil-Sen's (the median of the slopes between every two cycles): one sample caught in the
middle of a transient allocation (seen: +18.8 MB at one cycle of CapCut, gone at the next) moves
a least-squares slope by up to 0.57 MB/cycle when it is the last sample, and Theil-Sen's not at
all; the least-squares slope is printed beside it (``lsq``).
``--every`` also prints each cycle's figures. Exits 1 when an id misses the target.

An id whose programs are missing here (``SuiteSpec.programs``) is skipped with the reason.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import gymnasium as gym

import gcc_envs  # noqa: F401 - registers the ids

TARGET_MB_PER_CYCLE = 0.5
#: Cycles left out of the slope: imports, first-use caches and the allocator's warm-up.
WARMUP = 5

IDS = (
    "GCC/Stardew-FarmClearup",  # the four simulators
    "GCC/RDR2-Mission1",
    "GCC/DealersLife2-Week",
    "GCC/Skylines-BuildCity",
    "GCC/Toy-ReachCorner",  # the toy game (tests/specs)
    "GCC/Chrome-OpenLastClosedPage",  # the five desktop-app twin suites
    "GCC/Outlook-SendHelloFriend",
    "GCC/Feishu-SendHiToCradle",
    "GCC/Meitu-ApplyFilter",
    "GCC/CapCut-TrimFirstAndLast",
    "GCC/OSWorld-os-3ce045a0",  # a bundled OSWorld task (one this desktop supports)
)


@dataclass
class Sample:
    rss_mb: float
    threads: int
    fds: int
    children: int
    seconds: float


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def children() -> int:
    """Live child processes of this process (zombies included: they are left too)."""
    me, n = str(os.getpid()), 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[1] == me:
            n += 1
    return n


def sample(seconds: float) -> Sample:
    return Sample(rss_mb(), len(os.listdir("/proc/self/task")), len(os.listdir("/proc/self/fd")),
                  children(), seconds)  # fmt: skip


def slope(values: list[float]) -> float:
    """Least-squares slope of ``values`` against their index."""
    n = len(values)
    if n < 2:
        return float("nan")
    mx, my = (n - 1) / 2, sum(values) / n
    sxy = sum((i - mx) * (v - my) for i, v in enumerate(values))
    sxx = sum((i - mx) ** 2 for i in range(n))
    return sxy / sxx


def robust_slope(values: list[float]) -> float:
    """Theil-Sen slope: the median of the slopes between every two of ``values``.

    >>> robust_slope([1.0, 2.0, 3.0, 40.0, 5.0])
    1.0
    """
    pairs = [
        (values[j] - values[i]) / (j - i)
        for i in range(len(values))
        for j in range(i + 1, len(values))
    ]
    return statistics.median(pairs) if pairs else float("nan")


def cycles(env_id: str, n: int, every: bool = False, **make_kwargs: object) -> list[Sample]:
    """``n`` make/reset/close cycles of ``env_id``; the process's figures after each."""
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        env = gym.make(env_id, disable_env_checker=True, **make_kwargs)
        try:
            env.reset(seed=i)
        finally:
            env.close()
        del env
        out.append(sample(time.perf_counter() - t0))
        if every:
            s = out[-1]
            print(f"  {i + 1:3d} rss {s.rss_mb:8.1f} MB  threads {s.threads:3d}  fds {s.fds:4d}  "
                  f"children {s.children:3d}  {s.seconds:6.2f} s", flush=True)  # fmt: skip
    return out


def growth(samples: list[Sample]) -> float:
    """MB per cycle over the cycles after the warm-up (Theil-Sen)."""
    return robust_slope([s.rss_mb for s in samples[WARMUP:]])


def missing(env_id: str) -> str | None:
    """Why ``env_id`` cannot run here (not registered, its suite's programs absent), or None."""
    if env_id not in gym.registry:
        return "not registered"
    from gcc_envs.registration import spec_of

    programs = getattr(spec_of(env_id), "programs", ())
    absent = [p for p in programs if not p.startswith("/") and shutil.which(p) is None]
    return f"{', '.join(absent)} missing" if absent else None


def register_toy() -> None:
    """The toy game lives in the tests' specs; register them as a test session does."""
    tests = Path(__file__).resolve().parent.parent / "tests"
    if "GCC/Toy-ReachCorner" not in gym.registry and tests.is_dir():
        sys.path.insert(0, str(tests))
        import register_test_specs  # noqa: F401 - registers tests/specs on import


def run_child(env_id: str, n: int, every: bool) -> list[Sample]:
    """The cycles of ``env_id`` in a fresh interpreter running this file with ``--child``."""
    argv = [sys.executable, __file__, "--child", env_id, "--cycles", str(n)]
    done = subprocess.run(argv + (["--every"] if every else []), stdout=subprocess.PIPE,
                          text=True, check=False)  # fmt: skip
    lines = done.stdout.splitlines()
    if done.returncode or not lines:
        raise SystemExit(f"{env_id}: the child process failed (exit {done.returncode})")
    if lines[:-1]:
        print("\n".join(lines[:-1]), flush=True)
    return [Sample(**row) for row in json.loads(lines[-1])]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cycles", type=int, default=50)
    p.add_argument("--ids", nargs="+", default=list(IDS))
    p.add_argument("--every", action="store_true", help="print each cycle's figures")
    p.add_argument("--child", help=argparse.SUPPRESS)  # one id, in this process, JSON out
    args = p.parse_args(argv)
    if args.cycles < WARMUP + 3:
        p.error(f"--cycles must be at least {WARMUP + 3} (a slope over cycles {WARMUP + 1}..N)")
    register_toy()
    if args.child:
        samples = cycles(args.child, args.cycles, every=args.every)
        print(json.dumps([asdict(x) for x in samples]))
        return 0
    rows = []
    for env_id in args.ids:
        why = missing(env_id)
        if why is not None:
            print(f"{env_id}: skipped ({why})", flush=True)
            continue
        if args.every:
            print(env_id, flush=True)
        samples = run_child(env_id, args.cycles, args.every)
        rows.append((env_id, samples, growth(samples)))
    print(f"\n{args.cycles} make/reset/close cycles per id, each id in a fresh process; slope "
          f"over cycles {WARMUP + 1}..{args.cycles}, target <= {TARGET_MB_PER_CYCLE} MB/cycle")  # fmt: skip
    print(f"{'id':32s} {'rss1':>6s} {'rss5':>6s} {'rssN':>6s} {'MB/cyc':>7s} {'lsq':>7s} {'thr 5>N':>8s} "
          f"{'fds 5>N':>8s} {'kids 5>N':>8s} {'s/cyc':>6s}  target")  # fmt: skip
    worst = 0.0
    for env_id, s, g in rows:
        a, z = s[WARMUP - 1], s[-1]
        worst = max(worst, g)
        print(f"{env_id:32s} {s[0].rss_mb:6.1f} {a.rss_mb:6.1f} {z.rss_mb:6.1f} {g:7.3f} "
              f"{slope([x.rss_mb for x in s[WARMUP:]]):7.3f} "
              f"{f'{a.threads}>{z.threads}':>8s} {f'{a.fds}>{z.fds}':>8s} "
              f"{f'{a.children}>{z.children}':>8s} "
              f"{sum(x.seconds for x in s) / len(s):6.2f}  "
              f"{'met' if g <= TARGET_MB_PER_CYCLE else 'NOT met'}")  # fmt: skip
    return 0 if worst <= TARGET_MB_PER_CYCLE else 1


if __name__ == "__main__":
    sys.exit(main())
