"""Lockstep simulator throughput: steps/s of each Stardew env vs. MiniGrid, single core.

Run: ``python benchmarks/perf_sim.py [--steps N]`` (needs the ``bench`` extra for MiniGrid).
Prints steps/s of every ``GCC/Stardew-*`` env at 84×84 and 1280×720 (random actions from the
seeded action space, resets included; best of 3 runs each) and the ratio against MiniGrid's
``MiniGrid-Empty-8x8-v0`` with ``RGBImgObsWrapper`` (64×64 pixels) measured in the same run.
Targets: ≥ 3× MiniGrid at 84×84, ≥ 100 steps/s at 1280×720.
"""

from __future__ import annotations

import argparse
import os
import time

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import gymnasium as gym  # noqa: E402

import gcc_envs  # noqa: E402
from gcc_envs.errors import MissingExtraError  # noqa: E402

cv2.setNumThreads(1)


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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=3000)
    p.add_argument("--big-steps", type=int, default=600, help="steps at 1280x720")
    args = p.parse_args()
    ref = minigrid_reference(args.steps)
    print(f"reference MiniGrid-Empty-8x8-v0 + RGBImgObsWrapper (64x64): {ref:,.0f} steps/s")
    print(f"{'env':<28}{'size':>10}{'steps/s':>12}{'x MiniGrid':>12}  target")
    for env_id in gcc_envs.env_ids("sim"):
        for size, n, target in (
            ((84, 84), args.steps, "≥ 3x"),
            ((720, 1280), args.big_steps, "≥ 100/s"),
        ):
            env = gym.make(env_id, obs_size=size)
            sps = steps_per_second(env, n)
            env.close()
            ok = sps >= 3 * ref if size == (84, 84) else sps >= 100
            print(
                f"{env_id:<28}{f'{size[1]}x{size[0]}':>10}{sps:>12,.0f}{sps / ref:>12.2f}"
                f"  {target} {'met' if ok else 'MISSED'}"
            )


if __name__ == "__main__":
    main()
