"""Lockstep simulator throughput on one core: steps/s of every simulator env vs. MiniGrid.

Run: ``python benchmarks/perf_sim.py [--steps N] [--big-steps N] [--only TITLE]`` (MiniGrid
comes with the ``bench`` or ``dev`` extra). For every game with a simulator (each ``GameSpec``
of ``gcc_envs.registration.SPECS`` that names one, and any added with ``register_spec``) and
each of its registered ids, it prints steps/s at 84×84 and
1280×720, with random actions sampled from the seeded action space before the clock starts,
resets included, best of 3 runs. Beside them: MiniGrid's ``MiniGrid-Empty-8x8-v0`` with
``RGBImgObsWrapper`` (64×64 pixels) measured in the same run, right before each 84×84 row (the
row's ratio is against that run, so a machine whose load changes mid-run judges each game
fairly), and each of the game's ``PerfTargets`` as met or not met. Everything runs in one
thread (numeric libraries and OpenCV set to one); ``--pin`` also pins the process to one CPU
(on a shared machine that CPU may be the busy one). A new game appears the day its spec lands.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import gymnasium as gym  # noqa: E402

import gcc_envs  # noqa: E402, F401  (registers the ids)
from gcc_envs import registration  # noqa: E402
from gcc_envs.core.spec import GameSpec, PerfTargets  # noqa: E402
from gcc_envs.errors import MissingExtraError  # noqa: E402

SMALL = (84, 84)
BIG = (720, 1280)


@dataclass(frozen=True)
class SimGame:
    title: str
    ids: tuple[str, ...]
    perf: PerfTargets


def sim_games() -> Iterator[SimGame]:
    """Every game with a simulator (``gcc_envs.registration.specs()``), its ids and targets."""
    for spec in registration.specs().values():
        if isinstance(spec, GameSpec) and spec.simulator is not None:
            ids = tuple(t.env_id(spec.title) for t in spec.tasks if t.registered)
            yield SimGame(spec.title, ids, spec.perf)


def steps_per_second(env: gym.Env, steps: int, seed: int = 0, repeats: int = 3) -> float:
    """Best of ``repeats`` timed runs (the machine is shared: the best run is the least disturbed)."""
    env.action_space.seed(seed)
    actions = [env.action_space.sample() for _ in range(steps)]
    best = 0.0
    for _ in range(repeats):
        env.reset(seed=seed)
        t0 = time.perf_counter()
        for a in actions:
            _, _, term, trunc, _ = env.step(a)
            if term or trunc:
                env.reset()
        best = max(best, steps / (time.perf_counter() - t0))
    return best


def minigrid_reference(steps: int) -> float:
    try:
        import minigrid  # noqa: F401
        from minigrid.wrappers import RGBImgObsWrapper
    except ImportError:
        raise MissingExtraError("minigrid", "bench") from None
    env = RGBImgObsWrapper(gym.make("MiniGrid-Empty-8x8-v0"))
    return steps_per_second(env, steps)


def _verdict(sps: float, ref: float, size: tuple[int, int], perf: PerfTargets) -> str:
    if size == SMALL and perf.minigrid_ratio_84 is not None:
        want = perf.minigrid_ratio_84
        return f"≥ {want:g}x {'met' if sps >= want * ref else 'NOT MET'}"
    if size == BIG and perf.steps_per_s_720p is not None:
        want = perf.steps_per_s_720p
        return f"≥ {want:g}/s {'met' if sps >= want else 'NOT MET'}"
    return "no target"


def _pin_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to cpu {cpu}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=3000, help="steps at 84x84 (and MiniGrid)")
    p.add_argument("--big-steps", type=int, default=300, help="steps at 1280x720")
    p.add_argument("--only", action="append", help="game titles to run (default: all)")
    p.add_argument("--pin", action="store_true", help="pin the process to one CPU")
    args = p.parse_args()
    cv2.setNumThreads(1)
    where = _pin_one_core() if args.pin else "one thread, not pinned"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    games = [g for g in sim_games() if not args.only or g.title in args.only]
    ref0 = minigrid_reference(args.steps)
    rows = []
    for game in games:
        for env_id in game.ids:
            for size, n in ((SMALL, args.steps), (BIG, args.big_steps)):
                # MiniGrid again right before each 84x84 row: the ratio that row is judged
                # by compares runs a few seconds apart, whatever else the machine does
                near = minigrid_reference(args.steps) if size == SMALL else None
                env = gym.make(env_id, obs_size=size)
                rows.append((game, env_id, size, steps_per_second(env, n), near))
                env.close()
    ref1 = minigrid_reference(args.steps)
    print(f"{where}; load average at start {load:.2f}")
    print(
        f"reference MiniGrid-Empty-8x8-v0 + RGBImgObsWrapper (64x64): {ref0:,.0f} steps/s "
        f"before the games, {ref1:,.0f} after; each 84x84 row against MiniGrid run just before"
    )
    print(f"{'env':<30}{'size':>10}{'steps/s':>10}{'MiniGrid':>10}{'ratio':>8}  target")
    for game, env_id, size, sps, near in rows:
        ref = near if near is not None else max(ref0, ref1)
        mg = f"{near:,.0f}" if near is not None else ""
        print(
            f"{env_id:<30}{f'{size[1]}x{size[0]}':>10}{sps:>10,.0f}{mg:>10}{sps / ref:>8.2f}"
            f"  {_verdict(sps, ref, size, game.perf)}"
        )


if __name__ == "__main__":
    main()
