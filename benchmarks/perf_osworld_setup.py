"""Setup time of each bundled OSWorld task: ``env.reset`` until its programs are up and painted.

Run: ``python benchmarks/perf_osworld_setup.py [--tasks ID ...] [--json out.json]`` (needs the
Debian packages of the README's OSWorld line and code-server). One ``GCC/OSWorld`` env, one
Xvfb display; each reset makes a fresh home, starts the session bus, runs the task's setup
steps (launching Chromium, VLC, GIMP, LibreOffice, code-server...) and waits until the screen
stops changing. Prints the setup seconds of every task (``info["setup_s"]``) and of the whole
reset, then the median and max. Target: median ≤ 10 s on a 2-core machine.

For reference, OSWorld's own runner (``lib_run_single.run_single_example``) sleeps 60 s after
``env.reset`` ("wait for the environment to be ready") on top of reverting a VM snapshot, and
its setup controller sleeps 5 s after launching Chrome; a task file's own ``sleep`` steps run
here as written (the Impress task sleeps 10 s in its setup script).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tasks", nargs="*", help="bundled ids (default: all 44)")
    p.add_argument("--json", help="write the rows here")
    args = p.parse_args(argv)

    import gymnasium as gym

    import gcc_envs  # noqa: F401 - registers the ids
    from gcc_envs.osworld.bundled import BUNDLED

    rows = []
    tasks = args.tasks or [(d, t) for d, t, _ in BUNDLED]
    env = gym.make("GCC/OSWorld", disable_env_checker=True)
    try:
        env.reset(options={"task": BUNDLED[0][1]})  # the display starts once, not per task
        for item in tasks:
            task = item[1] if isinstance(item, tuple) else item
            t0 = time.perf_counter()
            _, info = env.reset(options={"task": task})
            reset_s = time.perf_counter() - t0
            row = {"task": info["task_id"][:8], "domain": info["domain"],
                   "setup_s": round(info["setup_s"], 2), "reset_s": round(reset_s, 2),
                   "note": info.get("unsupported", info.get("setup_error", ""))[:40]}  # fmt: skip
            rows.append(row)
            print(f"{row['domain']:>20} {row['task']}  setup {row['setup_s']:6.2f} s  "
                  f"reset {row['reset_s']:6.2f} s  {row['note']}", flush=True)  # fmt: skip
    finally:
        env.close()
    setup = [r["setup_s"] for r in rows if not r["note"]]
    med, worst = statistics.median(setup), max(setup)
    print(f"\nsetup over {len(setup)} supported tasks: median {med:.2f} s, max {worst:.2f} s "
          f"(target median <= 10 s: {'met' if med <= 10 else 'NOT met'})")  # fmt: skip
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "median_s": med, "max_s": worst}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
