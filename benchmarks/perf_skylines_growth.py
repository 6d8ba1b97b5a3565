"""Cities: Skylines simulator speed: the growth simulation of a finished city, and env steps/s.

Run: ``python benchmarks/perf_skylines_growth.py [--seeds N] [--steps N]``.

1. **Growth.** For each seed, the scripted planner's city is built on the simulator's state
   (through the game's rules), then the env's end-of-episode growth runs: ``growth_weeks``
   weeks of ``GCC/Skylines-BuildCity`` and ``GCC/Skylines-Block``, plus the final frame at
   84×84 and 1280×720. Target: under 1 s at any observation size (worst seed printed).
2. **Steps/s** (``--steps`` > 0): random actions from the seeded action space, resets
   included, best of 3, single core, at 84×84 and 1280×720, with MiniGrid-Empty-8x8 +
   RGBImgObsWrapper measured in the same run. Targets (``GAME.perf``): ≥ 2× MiniGrid at 84×84,
   ≥ 60 steps/s at 1280×720.
"""

from __future__ import annotations

import argparse
import os
import time

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

import gcc_envs  # noqa: E402, F401  (registers the ids)
from agents.scripted.skylines_blueprint import blueprint  # noqa: E402
from gcc_envs.errors import MissingExtraError  # noqa: E402
from gcc_envs.games.skylines import GAME  # noqa: E402
from gcc_envs.games.skylines.sim import SkylinesSim, rules  # noqa: E402
from gcc_envs.games.skylines.tasks import make_task  # noqa: E402

cv2.setNumThreads(1)


def built_city(scenario: str, seed: int) -> SkylinesSim:
    """A simulator holding the planner's finished city (built with the game's rules)."""
    sim = SkylinesSim()
    sim.reset(np.random.default_rng(seed), {"scenario": scenario})
    s = sim.state
    for step in blueprint(s):
        tool = s.data.tools[step.tool]
        if tool.kind == "line":
            p = rules.preview_line(s, tool, *step.cells)
        elif tool.kind == "building":
            p = rules.preview_building(s, tool, step.cells[0])
        else:
            p = rules.preview_area(s, tool, *step.cells)
        rules.build(s, p)
    return sim


def growth_seconds(task: str, seed: int, size: tuple[int, int]) -> tuple[float, float]:
    """(seconds, max population) of the end-of-episode growth and the final frame."""
    sim = built_city(make_task(task).scenario, seed)
    t = make_task(task)
    t0 = time.perf_counter()
    t.finish(sim.state)
    sim.render(*size)
    return time.perf_counter() - t0, sim.state.max_population


def steps_per_second(env: gym.Env, steps: int, seed: int = 0, repeats: int = 3) -> float:
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
    return steps_per_second(RGBImgObsWrapper(gym.make("MiniGrid-Empty-8x8-v0")), steps)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--steps", type=int, default=3000, help="random steps at 84x84 (0: skip)")
    p.add_argument("--big-steps", type=int, default=600, help="random steps at 1280x720")
    args = p.parse_args()
    print(f"{'task':<12}{'size':>10}{'worst s':>10}{'mean s':>9}{'max pop':>9}  target < 1 s")
    for spec in GAME.tasks:
        for size in ((84, 84), (720, 1280)):
            runs = [growth_seconds(spec.key, seed, size) for seed in range(args.seeds)]
            worst = max(r[0] for r in runs)
            mean = sum(r[0] for r in runs) / len(runs)
            pop = min(r[1] for r in runs)
            print(
                f"{spec.name:<12}{f'{size[1]}x{size[0]}':>10}{worst:>10.3f}{mean:>9.3f}{pop:>9.0f}"
                f"  {'met' if worst < 1.0 else 'MISSED'}"
            )
    if args.steps <= 0:
        return
    ref = minigrid_reference(args.steps)
    print(f"reference MiniGrid-Empty-8x8-v0 + RGBImgObsWrapper (64x64): {ref:,.0f} steps/s")
    perf = GAME.perf
    for spec in GAME.tasks:
        env_id = spec.env_id(GAME.title)
        for size, n in (((84, 84), args.steps), ((720, 1280), args.big_steps)):
            env = gym.make(env_id, obs_size=size)
            sps = steps_per_second(env, n)
            env.close()
            if size == (84, 84):
                ok, target = (
                    sps >= (perf.minigrid_ratio_84 or 0) * ref,
                    f"≥ {perf.minigrid_ratio_84}x",
                )
            else:
                ok, target = sps >= (perf.steps_per_s_720p or 0), f"≥ {perf.steps_per_s_720p}/s"
            print(
                f"{env_id:<26}{f'{size[1]}x{size[0]}':>10}{sps:>10,.0f}{sps / ref:>8.2f}x"
                f"  {target} {'met' if ok else 'MISSED'}"
            )


if __name__ == "__main__":
    main()
