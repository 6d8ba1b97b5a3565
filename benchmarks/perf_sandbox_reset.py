"""Reset time with and without the episode sandbox: this tree against a base revision, in one run.

Run: ``python benchmarks/perf_sandbox_reset.py --base REV [--repeats N] [--osworld N]``.
``REV`` is a git revision of this repository from before the sandbox (it is checked out into a
temporary worktree). For each env — the Chrome, Outlook and Meitu (GIMP) twins and the first
``N`` bundled OSWorld tasks — a child process of the base tree and one of this tree are run in
turn (base, this, base, this...), each making the env once and resetting it ``--repeats`` times
(OSWorld: once per task). Prints the median reset of each side and their ratio.

The base tree's episode programs that are Python modules (the twins' local servers) import
this tree's modules (the episode environment does not carry ``PYTHONPATH``); the programs
being timed — Chromium, Thunderbird, GIMP, the OSWorld tasks' apps — are the same binaries.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TWINS = ("GCC/Chrome-OpenLastClosedPage", "GCC/Outlook-EmptyJunk", "GCC/Meitu-ApplyFilter")

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import gymnasium as gym
import gcc_envs
env_id, repeats, tasks = sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
env = gym.make(env_id, disable_env_checker=True)
out = []
for i in range(len(tasks) or repeats):
    options = {"task": tasks[i]} if tasks else None
    t0 = time.perf_counter()
    _, info = env.reset(seed=i, options=options)
    out.append(time.perf_counter() - t0)
    assert "setup_error" not in info, info["setup_error"]
env.close()
print(json.dumps(out))
"""


def measure(root: Path, env_id: str, repeats: int, tasks: list[str]) -> list[float]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), env_id, str(repeats),
                           json.dumps(tasks)], capture_output=True, text=True, env=env,
                          timeout=1800, check=False)  # fmt: skip
    if done.returncode:
        raise SystemExit(f"{env_id} on {root}: {done.stderr[-1500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", required=True, help="git revision from before the sandbox")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--osworld", type=int, default=8, help="how many bundled OSWorld tasks")
    p.add_argument("--rounds", type=int, default=2, help="base/this alternations per env")
    args = p.parse_args()
    here = Path(__file__).resolve().parents[1]
    from gcc_envs.osworld.bundled import BUNDLED

    tasks = [task_id for _, task_id, _ in BUNDLED][: args.osworld]
    rows = [(env_id, []) for env_id in TWINS] + [("GCC/OSWorld", tasks)]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", str(base),
                        args.base], check=True, capture_output=True)  # fmt: skip
        try:
            print("| env | base median s | sandboxed median s | ratio | resets each |")
            print("|---|---|---|---|---|")
            for env_id, env_tasks in rows:
                times: dict[str, list[float]] = {"base": [], "this": []}
                for _ in range(args.rounds):
                    for side, root in (("base", base), ("this", here)):
                        times[side] += measure(root, env_id, args.repeats, env_tasks)
                b, t = statistics.median(times["base"]), statistics.median(times["this"])
                print(f"| {env_id} | {b:.2f} | {t:.2f} | {t / b:.2f} | {len(times['this'])} |",
                      flush=True)  # fmt: skip
        finally:
            subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(base)],
                           check=False, capture_output=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
