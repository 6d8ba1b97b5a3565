"""Whether the Cradle software twins are fair tests, as the paper's table: per task the
scripted policy's success rate over held-out seeds, its average steps (and their spread) and
efficiency (expected human steps / steps), next to doing nothing, a random policy, an
open-loop replay of the scripted input on random seed pairs, and the task's collision rate
(the share of 100 seeds' pairs that draw the same variant).

Run: ``python benchmarks/apps_fairness.py [--suite chrome outlook ...] [--seeds 5]
[--pairs 20] [--baseline 2] [--first 7000] [--jobs 1]``. Per task: the scripted policy on the
held-out seeds ``--first``.. (its input is kept); doing nothing is the checker's score right
after each of those resets; the random policy (8 actions, then DONE) runs on ``--baseline`` seeds;
the replay sends a scripted run's input open loop on ``--pairs`` random (source, target)
pairs — the source one of the scripted seeds, the target any held-out seed, whatever their
choices (two seeds may share a variant: that is what the replay must not exploit). One virtual
display per task; ``--jobs`` runs that many tasks at once (a task mostly waits on its programs,
so tasks in parallel finish sooner than the cores alone suggest). Prints one block of rows per
suite and exits 1 when a scripted run fails, doing nothing or a random run succeeds, or replays
succeed on more than 5 % of the pairs.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from typing import Any

import gymnasium as gym

import agents
import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs.apps.software import fairness
from gcc_envs.apps.software.suite_env import live_only
from gcc_envs.registration import specs

#: The software twins are the suites made by this env factory.
FACTORY = "gcc_envs.apps.software.suite_env:make_software_env"
#: The largest share of random pairs on which a replay may succeed.
MAX_REPLAY = 0.05
#: Replay targets are drawn from this many seeds after ``--first``.
TARGETS = 10_000


def task_row(env: gym.Env, args: argparse.Namespace) -> tuple[str, bool]:
    """One task's figures as a table row, and whether it is a fair test."""
    scripted = agents.make_policy("scripted", env)
    seeds = range(args.first, args.first + args.seeds)
    runs = {s: fairness.run_policy(env, scripted, seed=s) for s in seeds}
    nothing = [r.start_score for r in runs.values()]
    sources = [s for s, r in runs.items() if r.success] or list(seeds)
    pairs = fairness.random_pairs(args.pairs, range(args.first, args.first + TARGETS),
                                  rng_seed=args.first, sources=sources)  # fmt: skip
    replays = [fairness.replay(env, runs[a].inputs, seed=b) for a, b in pairs]
    shared = sum(runs[a].chosen == r.chosen for (a, _), r in zip(pairs, replays, strict=True))
    rand = agents.make_policy("random", env, seed=0)
    randoms = [fairness.random_episode(env, rand, seed=args.first + TARGETS + k)
               for k in range(args.baseline)]  # fmt: skip
    ok = [r.success for r in runs.values()]
    steps = [r.steps for r in runs.values() if r.success]
    eff = [r.info.get("metrics", {}).get("efficiency", 0.0) for r in runs.values()]
    mean = statistics.mean(steps) if steps else float("nan")
    sd = statistics.pstdev(steps) if steps else float("nan")
    won = sum(r.success for r in replays)
    collision = fairness.collision_rate(env.unwrapped.task_spec, range(100))
    fair = (
        all(ok)
        and not any(s >= 1.0 for s in nothing)
        and not any(r.success for r in randoms)
        and won <= MAX_REPLAY * len(replays)
    )
    failed = [
        f"{s} (score {r.score:.2f} after {r.steps} steps{''.join('; ' + e for e in r.errors)})"
        for s, r in runs.items()
        if not r.success
    ]
    row = (
        f"{sum(ok)}/{len(ok):<3d} {mean:6.1f} {sd:5.1f} {statistics.mean(eff):5.2f}  "
        f"{sum(s >= 1.0 for s in nothing)}/{len(nothing):<3d} "
        f"{sum(r.success for r in randoms)}/{len(randoms):<3d} "
        f"{won}/{len(replays):<3d} {shared:6d} {collision:9.3f}"
        + (f"  failed on {', '.join(failed)}" if failed else "")
    )
    return row, fair


HEADER = (
    f"{'task':38s} {'scripted':8s} {'steps':>6s} {'sd':>5s} {'eff':>5s}  "
    f"{'nothing':7s} {'random':6s} {'replay':6s} {'shared':>6s} {'collision':>9s}"
)


def suite_tables(args: argparse.Namespace, out: Any = sys.stdout) -> bool:
    """Every software twin suite (or ``args.suite``'s), one block of rows each, written to
    ``out`` as the rows end (with ``args.jobs`` > 1, tasks run in that many processes at once);
    whether every task measured is a fair test."""
    from concurrent.futures import ProcessPoolExecutor

    blocks = []  # per suite: the suite and, per task, its id and None (to measure) or a note
    for suite in specs().values():
        if getattr(suite, "env_class", None) != FACTORY:
            continue
        if args.suite and suite.key not in args.suite:
            continue
        missing = [p for p in suite.programs if shutil.which(p) is None and not p.startswith("/")]
        rows = []
        for row in suite.tasks:
            env_id = row.env_id(suite.title)
            if args.task and row.key not in args.task:
                continue
            if row.key in live_only(suite) or not row.script:
                rows.append((env_id, "no twin or no script"))
            elif missing:
                rows.append((env_id, f"skipped: {', '.join(missing)} missing"))
            else:
                rows.append((env_id, None))
        blocks.append((suite, rows))
    all_fair = True
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        jobs = {
            env_id: pool.submit(_measure, suite.key, env_id, args)
            for suite, rows in blocks
            for env_id, note in rows
            if note is None and pool is not None
        }
        for suite, rows in blocks:
            print(f"\n{suite.key}\n{HEADER}", file=out, flush=True)
            for env_id, note in rows:
                if note is None:
                    job = jobs.get(env_id)
                    note, fair = job.result() if job else _measure(suite.key, env_id, args)
                    all_fair &= fair
                print(f"{env_id:38s} {note}", file=out, flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    return all_fair


def _measure(suite_key: str, env_id: str, args: argparse.Namespace) -> tuple[str, bool]:
    """One task's row and whether it is fair, on a virtual display of its own."""
    from gcc_envs.backends.desktop.display import VirtualDisplay

    display = VirtualDisplay(specs()[suite_key].desktop["screen_size"])
    try:
        env = gym.make(env_id, display=display.name)
        try:
            return task_row(env, args)
        finally:
            env.close()
    finally:
        display.close()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", nargs="*", help="only these suites (chrome, outlook, ...)")
    p.add_argument("--task", nargs="*", help="only these task keys")
    p.add_argument("--seeds", type=int, default=5, help="held-out seeds for the scripted runs")
    p.add_argument("--pairs", type=int, default=20, help="random seed pairs for the replay")
    p.add_argument("--baseline", type=int, default=2, help="seeds for the random policy")
    p.add_argument("--first", type=int, default=7000, help="the first held-out seed")
    p.add_argument("--jobs", type=int, default=1, help="tasks measured in parallel processes")
    return p


def main() -> int:
    all_fair = suite_tables(parser().parse_args())
    print("all fair" if all_fair else "NOT all fair: see the rows above")
    return 0 if all_fair else 1


if __name__ == "__main__":
    sys.exit(main())
