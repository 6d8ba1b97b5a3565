"""Reset time of the Cradle software twins (target: median <= 15 s on a 2-core machine).

Run: ``python benchmarks/perf_apps_reset.py [--repeats N] [--suite chrome ...]``.
Every twin id is made once and reset ``N`` times on seeds 0..N-1: each reset ends the last
episode (its programs, servers and home) and sets the task up afresh on the env's display
(new home, seeded content, servers, the program up to its window). As a reference measured
in the same run, a bare xterm started up to its window on the same kind of display. Prints
per task the median and the slowest reset, the setup part, and the median's ratio to the
reference; exits 1 when a median exceeds the target.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time

import gymnasium as gym

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs.apps.software.suite_env import live_only
from gcc_envs.registration import specs

#: The software twins are the suites made by this env factory.
FACTORY = "gcc_envs.apps.software.suite_env:make_software_env"

TARGET_S = 15.0


def reference(repeats: int) -> float:
    """Median seconds to start an xterm up to its mapped window on a fresh session."""
    import numpy as np

    from gcc_envs.apps.episode import EpisodeDesktop
    from gcc_envs.backends.desktop.backend import DesktopBackend

    backend = DesktopBackend(screen_size=(1280, 800), pause="none")
    out = []
    try:
        backend.reset(np.random.default_rng(0), {})
        for seed in range(repeats):
            t0 = time.perf_counter()
            episode = EpisodeDesktop(backend, np.random.default_rng(seed))
            episode.launch(["xterm", "-T", f"ref{seed}"], window=f"^ref{seed}$")
            out.append(time.perf_counter() - t0)
            episode.close()
            backend.retarget(None)
    finally:
        backend.close()
    return statistics.median(out)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--suite", action="append", help="only these suites (chrome, outlook, ...)")
    args = p.parse_args()
    ref = reference(args.repeats) if shutil.which("xterm") else float("nan")
    print(f"reference: xterm up to its window, median {ref:.2f} s")
    print(
        f"{'task':38s} {'program':12s} {'median s':>9s} {'max s':>7s} {'setup s':>8s} {'x ref':>6s}"
    )
    worst = 0.0
    for suite in specs().values():
        if getattr(suite, "env_class", None) != FACTORY:
            continue
        if args.suite and suite.key not in args.suite:
            continue
        missing = [p for p in suite.programs if shutil.which(p) is None and not p.startswith("/")]
        for row in suite.tasks:
            env_id = row.env_id(suite.title)
            if row.key in live_only(suite):
                print(f"{env_id:38s} live-only (no Linux twin)")
                continue
            if missing:
                print(f"{env_id:38s} skipped: {', '.join(missing)} missing")
                continue
            env = gym.make(env_id)
            times, setups = [], []
            try:
                for seed in range(args.repeats):
                    t0 = time.perf_counter()
                    _, info = env.reset(seed=seed)
                    times.append(time.perf_counter() - t0)
                    setups.append(info["setup_s"])
            finally:
                env.close()
            med = statistics.median(times)
            worst = max(worst, med)
            print(f"{env_id:38s} {suite.programs[0]:12s} {med:9.2f} {max(times):7.2f} "
                  f"{statistics.median(setups):8.2f} {med / ref:6.1f}")  # fmt: skip
    print(
        f"slowest median {worst:.2f} s; target <= {TARGET_S:.0f} s: "
        f"{'met' if worst <= TARGET_S else 'NOT met'}"
    )
    return 0 if worst <= TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
