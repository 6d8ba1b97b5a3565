"""The env core's cost per step on the fake simulator, against the simulator's own work.

Run: ``python benchmarks/perf_core.py [--steps N] [--rounds R] [--against GITREF]``.

Each row is ``GCCEnv`` over ``SimBackend(FakeSim(), (84, 84))`` stepping random actions
sampled from its seeded action space before the clock starts (``state`` mode with the absolute
and the camera mouse, and ``event`` mode), in µs per step. Beside it, the reference measured
in the same round: the fake simulator alone doing what each step makes it do (advance one
tick, render one 84×84 frame), so the ratio says how many times the simulator's own work the
whole step costs, whatever the machine's load.

``--against main`` (any git ref) also runs the same rows on that ref's ``gcc_envs`` (taken
with ``git archive`` into a temporary folder, run in a subprocess), interleaved with this
tree's rounds, and prints before/after µs per step and their ratio: the median over the rounds,
each round's two runs a few seconds apart. Everything runs in one thread.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(var, "1")

SIZE = (84, 84)
#: (row name, GCCEnv keyword arguments)
ROWS: tuple[tuple[str, dict[str, str]], ...] = (
    ("state, absolute mouse", {"action_mode": "state"}),
    ("state, camera mouse", {"action_mode": "state", "mouse": "camera"}),
    ("event", {"action_mode": "event"}),
)


def _env(**kwargs: str):  # imported late: a worker imports the tree its PYTHONPATH names
    from gcc_envs.backends.sim import SimBackend
    from gcc_envs.core.env import GCCEnv
    from gcc_envs.core.task import Task, TaskStatus
    from gcc_envs.testing import FAKE_KEYS, FakeSim

    class Roam(Task):
        """Never decided: only the agent's DONE or FAIL ends an episode."""

        name = "Roam"
        max_steps = 10**9

        def evaluate(self, probe: object) -> TaskStatus:
            return TaskStatus(progress=0.0)

    return GCCEnv(SimBackend(FakeSim(), SIZE), Roam(), keys=FAKE_KEYS, **kwargs)


def us_per_step(steps: int, kwargs: dict[str, str], repeats: int = 3) -> float:
    """Best of ``repeats`` timed runs of ``steps`` pre-sampled actions, in µs per step."""
    env = _env(**kwargs)
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(steps)]
    best = float("inf")
    for _ in range(repeats):
        env.reset(seed=0)
        t0 = time.perf_counter()
        for a in actions:
            _, _, term, trunc, _ = env.step(a)
            if term or trunc:  # event mode's DONE and FAIL end the episode
                env.reset()
        best = min(best, (time.perf_counter() - t0) / steps * 1e6)
    return best


def sim_us_per_step(steps: int, repeats: int = 3) -> float:
    """The fake simulator alone: one tick and one 84×84 frame per step (best of ``repeats``)."""
    import numpy as np

    from gcc_envs.testing import FakeSim

    sim = FakeSim()
    sim.reset(np.random.default_rng(0))
    sim.key_down("w")
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(steps):
            sim.advance(0.25)
            sim.render(*SIZE)
        best = min(best, (time.perf_counter() - t0) / steps * 1e6)
    return best


def measure(steps: int) -> dict[str, float]:
    out = {"sim alone": sim_us_per_step(steps)}
    for name, kwargs in ROWS:
        out[name] = us_per_step(steps, kwargs)
    return out


def _tree_at(ref: str, into: Path) -> Path:
    """``gcc_envs`` as it is at git ``ref``, unpacked under ``into``."""
    root = Path(__file__).resolve().parents[1]
    archive = into / "tree.tar"
    try:
        subprocess.run(
            ["git", "-C", str(root), "archive", "-o", str(archive), ref, "gcc_envs"],
            check=True,
            capture_output=True,
        )
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"--against {ref}: git archive failed ({e}); run from a git checkout")  # noqa: B904
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def _worker(steps: int, tree: Path | None) -> dict[str, float]:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), env.get("PYTHONPATH", "")])
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--steps", str(steps)]
    done = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=5000)
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (with --against)")
    p.add_argument("--against", help="a git ref whose gcc_envs is measured beside this tree")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        print(json.dumps(measure(args.steps)))
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if not args.against:
        got = measure(args.steps)
        sim = got["sim alone"]
        print(f"load average at start {load:.2f}; {args.steps} steps, best of 3")
        print(f"{'row':<24}{'µs/step':>10}{'x sim alone':>13}")
        for name, us in got.items():
            print(f"{name:<24}{us:>10.1f}{us / sim:>13.2f}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        tree = _tree_at(args.against, Path(tmp))
        now: list[dict[str, float]] = []
        then: list[dict[str, float]] = []
        for _ in range(args.rounds):
            then.append(_worker(args.steps, tree))
            now.append(_worker(args.steps, None))
    print(
        f"load average at start {load:.2f}; {args.steps} steps, best of 3 per round, "
        f"median of {args.rounds} interleaved rounds"
    )
    print(f"{'row':<24}{args.against + ' µs':>12}{'this µs':>10}{'speed-up':>10}")
    for name in now[0]:
        a = statistics.median(r[name] for r in then)
        b = statistics.median(r[name] for r in now)
        ratio = statistics.median(t[name] / n[name] for t, n in zip(then, now))
        print(f"{name:<24}{a:>12.1f}{b:>10.1f}{ratio:>9.2f}x")


if __name__ == "__main__":
    main()
