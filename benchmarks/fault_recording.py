"""SIGKILL during recording: the recorder, its writer process, or both, at random moments.

Run: ``python benchmarks/fault_recording.py [--runs N] [--seed S] [--json]`` (needs the
``dataset`` extra). Each run starts a recorder process (``RecordTrajectory`` over
``GCC/Stardew-FarmClearup`` at 72×128, a seeded random policy, 30-step episodes) that prints a
line for every step ``env.step`` returned, kills it with SIGKILL after a random number of steps
(5 to 120, so inside any of the first four episodes) and then loads the dataset:

* ``recorder`` — SIGKILL to the recorder alone: its writer process finishes what it was handed;
  **lost** counts returned steps missing from disk (must be 0);
* ``inline`` — the same with ``background=False`` (the recorder writes itself; must be 0);
* ``writer`` — SIGKILL to the writer process: the recorder must raise ``DataError`` within a
  second (**silent** counts runs where it did not; **noticed_ms** is the slowest); the steps
  returned until then may be lost (**lost**), but they are reported and what is on disk loads;
* ``both`` — SIGKILL to the process group, recorder and writer at once: what was still in the
  pipe is lost (documented in ``gcc_envs.datasets.writer``); **lost** reports how many steps.

For every run **unreadable** counts episodes whose files fail to load (must be 0, in every mode),
**crashed** any error that is not a ``DataError``, **hung** processes that did not finish in 60 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path
from typing import Any

CHILD = textwrap.dedent(
    """
    import sys, time
    import gymnasium as gym
    import gcc_envs
    from wrappers.record_trajectory import RecordTrajectory
    from gcc_envs.errors import DataError

    out, background = sys.argv[1], sys.argv[2] == "1"
    env = RecordTrajectory(
        gym.make("GCC/Stardew-FarmClearup", obs_size=(72, 128), max_episode_steps=30),
        out, policy_name="random", background=background,
    )
    writer = env._writer._process
    print("writer", writer._proc.pid if writer is not None else 0, flush=True)
    env.action_space.seed(0)
    try:
        for ep in range(100):
            env.reset(seed=ep)
            done, t = False, 0
            while not done:
                *_, terminated, truncated, _ = env.step(env.action_space.sample())
                done = terminated or truncated
                print("step", ep, t, time.monotonic(), flush=True)
                t += 1
    except DataError as e:
        print("error", time.monotonic(), str(e).replace("\\n", " "), flush=True)
        sys.exit(3)
    """
)
MODES = ("recorder", "inline", "writer", "both")


def gone(pid: int, timeout_s: float = 60.0) -> bool:
    """Wait until process ``pid`` (an orphaned writer finishing its input) has exited."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return True
        if stat[stat.rindex(")") + 2] in "ZX":  # exited, not yet reaped
            return True
        time.sleep(0.05)
    return False


def one_run(mode: str, kill_after: int, tmp: Path) -> dict[str, int]:
    from gcc_envs.datasets import Episode, episode_folders
    from gcc_envs.errors import DataError

    out = tmp / f"{mode}-{kill_after}"
    background = "0" if mode == "inline" else "1"
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(out), background],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None
    counts: Counter[str] = Counter()
    returned: Counter[int] = Counter()  # steps returned per episode
    writer_pid = int(proc.stdout.readline().split()[1])
    seen, after_kill, kill_at, noticed = 0, 0, None, None
    for line in proc.stdout:  # every line is a step env.step returned (before any kill)
        word, *rest = line.split()
        if not line.endswith("\n"):  # torn: the child died printing it
            if word == "step" and len(rest) >= 3:  # its step had returned
                returned[int(rest[0])] += 1
            break
        if word == "error":
            noticed = float(rest[0])
            break
        returned[int(rest[0])] += 1
        if kill_at is not None and float(rest[2]) > kill_at:
            after_kill += 1  # returned after the kill (the child runs ahead of this reader)
        seen += 1
        if seen == kill_after and kill_at is None:
            kill_at = time.monotonic()
            if mode in ("recorder", "inline"):
                os.kill(proc.pid, signal.SIGKILL)
            elif mode == "writer":
                os.kill(writer_pid, signal.SIGKILL)
            else:
                os.killpg(proc.pid, signal.SIGKILL)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        counts["hung"] += 1
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    if mode == "writer" and (noticed is None or kill_at is None or noticed - kill_at > 1.0):
        counts["silent"] += 1  # the recorder went on without saying for more than a second
        print(f"# silent: {after_kill} steps after the writer was killed", file=sys.stderr)
    elif mode == "writer":
        counts["noticed_ms"] = max(counts["noticed_ms"], round(1000 * (noticed - kill_at)))
    if writer_pid and not gone(writer_pid):
        counts["hung"] += 1
    try:
        listed = {p.name: p for p in episode_folders(out)}  # folders with a meta.json
    except DataError:
        listed = {}
    for ep, n in sorted(returned.items()):
        folder = listed.get(f"episode-{ep:06d}-seed-{ep}")
        try:
            on_disk = len(Episode(folder)) if folder is not None else 0
        except DataError as e:
            counts["unreadable"] += 1
            print(f"# unreadable ({mode}, kill after {kill_after}): {e}", file=sys.stderr)
            continue
        except Exception as e:  # noqa: BLE001 - what the benchmark counts
            counts["crashed"] += 1
            print(f"# crashed ({mode}): {type(e).__name__}: {e}", file=sys.stderr)
            continue
        if on_disk < n:
            counts["lost"] += n - on_disk
    counts["steps"] += sum(returned.values())
    return dict(counts)


def run(runs: int, seed: int, modes: tuple[str, ...] = MODES) -> dict[str, dict[str, int]]:
    rng = random.Random(seed)
    out: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in modes:
            total: Counter[str] = Counter()
            for _ in range(runs):
                counts = one_run(mode, rng.randrange(5, 121), Path(tmp))
                worst = max(total.get("noticed_ms", 0), counts.pop("noticed_ms", 0))
                total.update(counts)
                total["noticed_ms"] = worst
            keys = ("steps", "lost", "unreadable", "crashed", "hung", "silent")
            if mode == "writer":
                keys += ("noticed_ms",)
            out[mode] = {"runs": runs, **{k: total.get(k, 0) for k in keys}}
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=20, help="runs per mode")
    p.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args()
    figures: dict[str, Any] = run(args.runs, args.seed, tuple(args.modes))
    if args.json:
        print(json.dumps(figures))
        return
    for mode, f in figures.items():
        print(f"{mode:>9}: " + ", ".join(f"{k} {v}" for k, v in f.items()))


if __name__ == "__main__":
    main()
