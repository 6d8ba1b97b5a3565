"""How varied the Cradle software twins' tasks are: per task, the number of distinct variants
100 seeds draw and the collision rate (the share of seed pairs that draw the same variant),
from the tasks' ``choose`` steps alone — no display, no program.

Run: ``python benchmarks/apps_variants.py [--suite chrome ...] [--seeds 100] [--max 0.01]``.
Prints one row per task (every suite the software env factory makes, so a new suite is covered
the day it is registered) and exits 1 when a task's rate is above ``--max``.
``tests/apps/test_app_variants.py`` asserts the same bound.
"""

from __future__ import annotations

import argparse
import sys

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs.apps.software import fairness
from gcc_envs.apps.software.suite_env import live_only
from gcc_envs.registration import specs

#: The software twins are the suites made by this env factory.
FACTORY = "gcc_envs.apps.software.suite_env:make_software_env"
#: The largest collision rate a task may have.
MAX_RATE = fairness.MAX_COLLISION


def twin_rows(suites: list[str] | None = None) -> list[tuple[str, object]]:
    """``(env_id, task row)`` of every software twin task (of ``suites`` when given)."""
    out = []
    for suite in specs().values():
        if getattr(suite, "env_class", None) != FACTORY or (suites and suite.key not in suites):
            continue
        for row in suite.tasks:
            if row.key not in live_only(suite) and row.registered:
                out.append((row.env_id(suite.title), row))
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", nargs="*", help="only these suites (chrome, outlook, ...)")
    p.add_argument("--seeds", type=int, default=100, help="seeds 0..N-1 are drawn")
    p.add_argument("--max", type=float, default=MAX_RATE, help="the largest rate allowed")
    args = p.parse_args()
    seeds = range(args.seeds)
    print(f"{'task':38s} {'variants':>8s} {'collision':>9s}")
    worst = []
    for env_id, row in twin_rows(args.suite):
        picks = [fairness.variant(fairness.draw_task(row, s)) for s in seeds]
        rate = fairness.collision_rate(row, seeds)
        flag = "" if rate <= args.max else "  ABOVE"
        print(f"{env_id:38s} {len(set(picks)):8d} {rate:9.3f}{flag}")
        if rate > args.max:
            worst.append(env_id)
    print(f"{len(worst)} task(s) above {args.max}: {', '.join(worst)}" if worst else "all ok")
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
