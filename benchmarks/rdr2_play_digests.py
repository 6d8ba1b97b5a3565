"""Digests of RDR2 random play: every frame, reward and progress, per mission and frame size.

Run: ``python benchmarks/rdr2_play_digests.py [--steps N] [--seed S]`` on two commits (a
worktree of the older one, with ``PYTHONPATH`` pointing at it) and compare the lines: equal
digests mean the speed work left every observation and every reward as it was.
``--write PATH`` also writes them as JSON (``tests/games/rdr2/data/play_digests.json``, which
``tests/games/rdr2/test_play_digests.py`` recomputes, with and without ``GCC_NO_JIT=1``). Actions are
the seeded action space's samples (keys, buttons, mouse, scroll; pauses and resumes
included), episodes reset as they end. 720p runs fewer steps than the small sizes.
"""

from __future__ import annotations

import argparse
import hashlib
import json

import gymnasium as gym

import gcc_envs  # noqa: F401  (registers the ids)

SIZES = ((84, 84), (96, 160), (720, 1280))


def digest(env_id: str, size: tuple[int, int], steps: int, seed: int) -> str:
    env = gym.make(env_id, obs_size=size)
    h = hashlib.sha256()
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    h.update(obs.tobytes())
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        h.update(obs.tobytes())
        h.update(repr((reward, terminated, truncated, info.get("progress"))).encode())
        if terminated or truncated:
            obs, _ = env.reset()
            h.update(obs.tobytes())
    env.close()
    return h.hexdigest()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=1500, help="steps at 84x84 and 96x160")
    p.add_argument("--steps-720p", type=int, default=150)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--write", help="also write the digests here (JSON)")
    args = p.parse_args()
    rows = []
    for mission in (1, 2, 3):
        env_id = f"GCC/RDR2-Mission{mission}"
        for size in SIZES:
            steps = args.steps_720p if size == (720, 1280) else args.steps
            d = digest(env_id, size, steps, args.seed)
            print(f"{env_id} {size[1]}x{size[0]} {steps} steps {d}")
            rows.append({"env_id": env_id, "size": list(size), "steps": steps,
                         "seed": args.seed, "digest": d})  # fmt: skip
    if args.write:
        with open(args.write, "w") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
