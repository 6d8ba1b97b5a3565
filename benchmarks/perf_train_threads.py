"""``gcc-gym train`` wall time with its torch-thread default, against ``OMP_NUM_THREADS=1`` and
against torch's own default (a thread per core, what ``train`` used before), on an idle
machine and with a CPU hog on every core.

Run: ``python benchmarks/perf_train_threads.py [--steps 1024] [--repeat 2]`` (needs the ``sb3``
extra). Each try is a fresh ``gcc-gym train GCC/Stardew-FarmClearup --algo ppo --envs 2``
process; the three settings run interleaved, their order rotated each time, inside each
condition of each repeat (idle, then hog: one busy-loop process per usable core, started here
and stopped after the condition's tries). It prints the median seconds of each (whole process,
and the training's own ``wall_s`` from ``evaluations.json``) and the ratios new/OMP1 and
old/OMP1; the target is new/OMP1 <= 1.1 in both conditions. "Idle" is whatever else the
machine runs: on a shared machine say so beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from agents.sb3.threads import usable_cores

SETTINGS = {
    "new": ({}, []),  # gcc-gym's default: --torch-threads auto
    "omp1": ({"OMP_NUM_THREADS": "1"}, []),
    "old": ({}, ["--torch-threads", "0"]),  # torch's default threads
}
HOG = "while True:\n    pass\n"


def one(setting: str, steps: int, envs: int, out: Path) -> tuple[float, float]:
    extra_env, flags = SETTINGS[setting]
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env.update(extra_env)
    cmd = [
        sys.executable, "-m", "agents.cli", "train", "GCC/Stardew-FarmClearup",
        "--algo", "ppo", "--steps", str(steps), "--envs", str(envs), "--eval-every",
        str(10 * steps), "--eval-episodes", "1", "--quiet", "--out", str(out), *flags,
    ]  # fmt: skip
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{setting} failed:\n{done.stderr[-3000:]}")
    history = json.loads((out / "evaluations.json").read_text())
    return wall, float(history[-1]["wall_s"])


def start_hog(n: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(n)]


def stop_hog(hogs: list[subprocess.Popen]) -> None:
    for p in hogs:
        p.kill()
    for p in hogs:
        p.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=1024)
    ap.add_argument("--envs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--hogs", type=int, default=usable_cores(), help="busy loops in 'hog'")
    args = ap.parse_args()
    names = list(SETTINGS)
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the hogs, print the table
    try:
        run_all(args, names, times)
    finally:
        table(args, names, times)


def run_all(args: argparse.Namespace, names: list[str], times: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.repeat):
            for cond in ("idle", "hog"):
                hogs = start_hog(args.hogs) if cond == "hog" else []
                try:
                    order = names[rep % 3 :] + names[: rep % 3]
                    for setting in order:
                        out = Path(tmp) / f"{cond}-{setting}-{rep}"
                        t = one(setting, args.steps, args.envs, out)
                        times.setdefault((cond, setting), []).append(t)
                        print(f"rep {rep} {cond:<4} {setting:<4} process {t[0]:6.1f} s, "
                              f"train {t[1]:6.1f} s", flush=True)  # fmt: skip
                finally:
                    stop_hog(hogs)


def table(args: argparse.Namespace, names: list[str], times: dict) -> None:
    print(f"\ncores {usable_cores()}, steps {args.steps}, envs {args.envs}, "
          f"repeat {args.repeat}, hog {args.hogs} busy loops; median seconds")  # fmt: skip
    print(f"{'condition':<9} {'setting':<5} {'process':>8} {'/omp1':>6} {'train':>7} "
          f"{'/omp1':>6} {'n':>3}")  # fmt: skip
    for cond in ("idle", "hog"):
        if (cond, "omp1") not in times:
            continue
        ref = statistics.median(t[0] for t in times[(cond, "omp1")])
        ref_train = statistics.median(t[1] for t in times[(cond, "omp1")])
        for setting in [n for n in names if (cond, n) in times]:
            n = len(times[(cond, setting)])
            proc = statistics.median(t[0] for t in times[(cond, setting)])
            train = statistics.median(t[1] for t in times[(cond, setting)])
            print(f"{cond:<9} {setting:<5} {proc:8.1f} {proc / ref:6.2f} {train:7.1f} "
                  f"{train / ref_train:6.2f} {n:>3}")  # fmt: skip


if __name__ == "__main__":
    main()
