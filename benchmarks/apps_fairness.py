"""Whether the Cradle software twins are fair tests, as the paper's table: per task the
scripted policy's success rate over held-out seeds, its average steps (and their spread) and
efficiency (expected human steps / steps), next to doing nothing, a random policy and an
open-loop replay of seed 0's input.

Run: ``python benchmarks/apps_fairness.py [--suite outlook ...] [--seeds 5] [--baseline 2]``.
Per task: the scripted policy on seed 0 (its input is kept), then on the held-out seeds
1..``--seeds``; doing nothing is the checker's score right after each of those resets; the
random policy (8 actions, then DONE) and the replay of seed 0's input run on the first
``--baseline`` held-out seeds whose choices differ from seed 0's. One virtual display per
suite. Prints one row per task and exits 1 when a scripted run fails or a baseline succeeds.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys

import gymnasium as gym

import agents
import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs.apps.software import fairness
from gcc_envs.apps.software.suite_env import live_only
from gcc_envs.registration import specs

#: The software twins are the suites made by this env factory.
FACTORY = "gcc_envs.apps.software.suite_env:make_software_env"


def differing_seeds(env: gym.Env, like: dict[str, str], n: int, start: int = 1) -> list[int]:
    """The first ``n`` seeds from ``start`` on whose choices differ from ``like``."""
    out: list[int] = []
    seed = start
    while len(out) < n and seed < start + 200:
        seed = fairness.other_seed(env, like, range(seed, start + 200))
        out.append(seed)
        seed += 1
    return out


def task_row(env: gym.Env, seeds: int, baseline: int) -> tuple[str, bool]:
    """One task's figures as a table row, and whether it is a fair test."""
    scripted = agents.make_policy("scripted", env)
    first = fairness.run_policy(env, scripted, seed=0)
    runs = [fairness.run_policy(env, scripted, seed=s) for s in range(1, seeds + 1)]
    nothing = [r.start_score for r in [first, *runs]]
    others = differing_seeds(env, first.chosen, baseline)
    rand = agents.make_policy("random", env, seed=0)
    randoms = [fairness.random_episode(env, rand, seed=s) for s in others]
    replays = [fairness.replay(env, first.inputs, seed=s) for s in others]
    ok = [r.success for r in runs]
    steps = [r.steps for r in runs if r.success]
    eff = [r.info.get("metrics", {}).get("efficiency", 0.0) for r in runs]
    mean = statistics.mean(steps) if steps else float("nan")
    sd = statistics.pstdev(steps) if steps else float("nan")
    fair = (
        first.success
        and all(ok)
        and not any(s >= 1.0 for s in nothing)
        and not any(r.success for r in randoms + replays)
    )
    row = (
        f"{sum(ok)}/{len(ok):<3d} {mean:6.1f} {sd:5.1f} {statistics.mean(eff):5.2f}  "
        f"{'ok' if first.success else 'FAIL':4s}  "
        f"{sum(s >= 1.0 for s in nothing)}/{len(nothing):<3d} "
        f"{sum(r.success for r in randoms)}/{len(randoms):<3d} "
        f"{sum(r.success for r in replays)}/{len(replays):<3d} "
        f"{','.join(map(str, others))}"
    )
    return row, fair


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", action="append", help="only these suites (chrome, outlook, ...)")
    p.add_argument("--task", action="append", help="only these task keys")
    p.add_argument("--seeds", type=int, default=5, help="held-out seeds for the scripted runs")
    p.add_argument("--baseline", type=int, default=2, help="seeds for random and replay")
    args = p.parse_args()
    from gcc_envs.backends.desktop.display import VirtualDisplay

    print(
        f"{'task':38s} {'scripted':8s} {'steps':>6s} {'sd':>5s} {'eff':>5s}  seed0 "
        f"{'nothing':7s} {'random':6s} {'replay':6s} on seeds"
    )
    all_fair = True
    for suite in specs().values():
        if getattr(suite, "env_class", None) != FACTORY:
            continue
        if args.suite and suite.key not in args.suite:
            continue
        missing = [p for p in suite.programs if shutil.which(p) is None and not p.startswith("/")]
        display = None
        try:
            for row in suite.tasks:
                env_id = row.env_id(suite.title)
                if args.task and row.key not in args.task:
                    continue
                if row.key in live_only(suite) or not row.script:
                    print(f"{env_id:38s} no twin or no script")
                    continue
                if missing:
                    print(f"{env_id:38s} skipped: {', '.join(missing)} missing")
                    continue
                if display is None:
                    display = VirtualDisplay(suite.desktop["screen_size"])
                env = gym.make(env_id, display=display.name)
                try:
                    line, fair = task_row(env, args.seeds, args.baseline)
                finally:
                    env.close()
                all_fair &= fair
                print(f"{env_id:38s} {line}", flush=True)
        finally:
            if display is not None:
                display.close()
    print("all fair" if all_fair else "NOT all fair: see the rows above")
    return 0 if all_fair else 1


if __name__ == "__main__":
    sys.exit(main())
