"""Lockstep simulator throughput on one core: steps/s of every simulator env vs. MiniGrid.

Run: ``python benchmarks/perf_sim.py [--steps N] [--rounds R] [--big-steps N] [--only TITLE]``
(MiniGrid comes with the ``bench`` or ``dev`` extra). For every game with a simulator (each
``GameSpec`` of ``gcc_envs.registration.SPECS`` that names one, and any added with
``register_spec``) and each of its registered ids, it prints steps/s at 84×84 and 1280×720,
with random actions sampled from the seeded action space before the clock starts, resets
included. Beside each 84×84 row: MiniGrid's ``MiniGrid-Empty-8x8-v0`` with ``RGBImgObsWrapper``
(64×64 pixels), measured in the same run in short rounds interleaved with the game's (MiniGrid
``N`` steps, then the game ``N`` steps, ``R`` times); the row shows the median of each and is
judged by the median of the rounds' ratios, so a machine whose load changes from second to
second still judges each game fairly. 1280×720 rows are the best of 3 runs. Each of the game's
``PerfTargets`` is shown as met or not met. Everything runs in one thread (numeric libraries,
numba and OpenCV set to one); ``--pin`` also pins the process to one CPU (on a shared machine
that CPU may be the busy one). A new game appears the day its spec lands.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

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


def _sampled(env: gym.Env, steps: int, seed: int) -> list[Any]:
    env.action_space.seed(seed)
    return [env.action_space.sample() for _ in range(steps)]


def _timed(env: gym.Env, actions: list[Any], seed: int) -> float:
    """Steps/s of one run of ``actions`` from a fresh reset (resets inside it included)."""
    env.reset(seed=seed)
    t0 = time.perf_counter()
    for a in actions:
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            env.reset()
    return len(actions) / (time.perf_counter() - t0)


def steps_per_second(env: gym.Env, steps: int, seed: int = 0, repeats: int = 3) -> float:
    """Best of ``repeats`` timed runs (the machine is shared: the best run is the least disturbed)."""
    actions = _sampled(env, steps, seed)
    return max(_timed(env, actions, seed) for _ in range(repeats))


def _minigrid() -> gym.Env:
    try:
        import minigrid  # noqa: F401
        from minigrid.wrappers import RGBImgObsWrapper
    except ImportError:
        raise MissingExtraError("minigrid", "bench") from None
    return RGBImgObsWrapper(gym.make("MiniGrid-Empty-8x8-v0"))


def minigrid_reference(steps: int) -> float:
    return steps_per_second(_minigrid(), steps)


@dataclass(frozen=True)
class Paired:
    """A game's rounds interleaved with MiniGrid's: medians of steps/s and of the ratios."""

    sps: float
    minigrid: float
    ratio: float


def interleaved(env: gym.Env, reference: gym.Env, steps: int, rounds: int, seed: int = 0) -> Paired:
    """``rounds`` times: ``steps`` of ``reference`` (MiniGrid), then ``steps`` of ``env``."""
    ours, theirs = _sampled(env, steps, seed), _sampled(reference, steps, seed)
    _timed(env, ours[: max(1, steps // 10)], seed)  # warm-up: caches, compiled kernels
    pairs = []
    for _ in range(rounds):
        ref = _timed(reference, theirs, seed)
        pairs.append((_timed(env, ours, seed), ref))
    return Paired(
        statistics.median(p[0] for p in pairs),
        statistics.median(p[1] for p in pairs),
        statistics.median(p[0] / p[1] for p in pairs),
    )


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
    p.add_argument("--steps", type=int, default=600, help="steps per round at 84x84 (and MiniGrid)")
    p.add_argument("--rounds", type=int, default=7, help="interleaved rounds per 84x84 row")
    p.add_argument("--big-steps", type=int, default=300, help="steps at 1280x720")
    p.add_argument("--only", action="append", help="game titles to run (default: all)")
    p.add_argument("--pin", action="store_true", help="pin the process to one CPU")
    args = p.parse_args()
    cv2.setNumThreads(1)
    where = _pin_one_core() if args.pin else "one thread, not pinned"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    games = [g for g in sim_games() if not args.only or g.title in args.only]
    reference = _minigrid()
    rows = []
    for game in games:
        for env_id in game.ids:
            env = gym.make(env_id, obs_size=SMALL)
            paired = interleaved(env, reference, args.steps, args.rounds)
            env.close()
            rows.append((game, env_id, SMALL, paired.sps, paired))
            env = gym.make(env_id, obs_size=BIG)
            rows.append((game, env_id, BIG, steps_per_second(env, args.big_steps), None))
            env.close()
    print(f"{where}; load average at start {load:.2f}")
    print(
        "reference MiniGrid-Empty-8x8-v0 + RGBImgObsWrapper (64x64), in "
        f"{args.rounds} rounds of {args.steps} steps interleaved with each 84x84 row's; "
        "steps/s and ratio are medians over the rounds"
    )
    print(f"{'env':<30}{'size':>10}{'steps/s':>10}{'MiniGrid':>10}{'ratio':>8}  target")
    for game, env_id, size, sps, paired in rows:
        if paired is not None:  # judged by the median ratio: the reference it implies
            mg, ratio, ref = f"{paired.minigrid:,.0f}", f"{paired.ratio:.2f}", sps / paired.ratio
        else:
            mg, ratio, ref = "", "", float("nan")
        print(
            f"{env_id:<30}{f'{size[1]}x{size[0]}':>10}{sps:>10,.0f}{mg:>10}{ratio:>8}"
            f"  {_verdict(sps, ref, size, game.perf)}"
        )


if __name__ == "__main__":
    main()
