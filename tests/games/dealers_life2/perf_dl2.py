"""Speed of the Dealer's Life 2 envs vs MiniGrid-Empty-8x8 + RGBImgObsWrapper, same run.

Run: ``python tests/games/dealers_life2/perf_dl2.py [--steps N]`` (minigrid: the dev extra).
Same method as ``benchmarks/perf_sim.py``: random actions from the seeded action space,
resets included, best of 3 runs, one core. Targets (``GAME.perf``): >= 3x MiniGrid at 84x84,
>= 150 steps/s at 1280x720.
"""

from __future__ import annotations

import argparse
import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import gymnasium as gym  # noqa: E402

import gcc_envs  # noqa: E402, F401
from gcc_envs.games.dealers_life2 import GAME  # noqa: E402

cv2.setNumThreads(1)


def main() -> None:
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    from benchmarks.perf_sim import minigrid_reference, steps_per_second

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=3000)
    p.add_argument("--big-steps", type=int, default=600)
    args = p.parse_args()
    ref = minigrid_reference(args.steps)
    print(f"MiniGrid-Empty-8x8-v0 + RGBImgObsWrapper: {ref:,.0f} steps/s")
    for t in GAME.tasks:
        env_id = t.env_id(GAME.title)
        for size, n in (((84, 84), args.steps), ((720, 1280), args.big_steps)):
            env = gym.make(env_id, obs_size=size)
            sps = steps_per_second(env, n)
            env.close()
            if size == (84, 84):
                goal = f"x{sps / ref:.2f} MiniGrid (target x{GAME.perf.minigrid_ratio_84})"
            else:
                goal = f"target {GAME.perf.steps_per_s_720p}/s"
            print(f"{env_id:<24}{size[1]}x{size[0]:<6}{sps:>10,.0f} steps/s  {goal}")


if __name__ == "__main__":
    main()
