"""Helpers for the dataset tests: record small Stardew datasets (72×128 frames)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import gymnasium as gym

import gcc_envs  # noqa: F401  (registers the ids)
from agents import make_policy
from wrappers.record_trajectory import RecordTrajectory

SIZE = (72, 128)


def record(
    out: Path,
    seeds: Iterable[int | None],
    *,
    env_id: str = "GCC/Stardew-FarmClearup",
    policy: str | Callable[[int], Any] = "random",
    steps: int = 12,
    size: tuple[int, int] = SIZE,
    **make_kwargs: Any,
) -> list[dict[str, Any]]:
    """Record one episode per seed into ``out``; return what the env gave, step by step."""
    env = RecordTrajectory(
        gym.make(env_id, obs_size=size, max_episode_steps=steps, **make_kwargs),
        out,
        policy_name=policy if isinstance(policy, str) else "script",
    )
    pol = make_policy(policy, env, seed=0) if isinstance(policy, str) else None
    log = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        ep: dict[str, Any] = {"frames": [obs], "actions": [], "infos": [], "rewards": []}
        if pol is not None:
            pol.reset(info)
        done, t = False, 0
        while not done:
            action = pol.act(obs, info) if pol is not None else policy(t)  # type: ignore[operator]
            obs, reward, terminated, truncated, info = env.step(action)
            ep["frames"].append(obs)
            ep["actions"].append(action)
            ep["infos"].append(info)
            ep["rewards"].append(float(reward))
            done, t = terminated or truncated, t + 1
        log.append(ep)
    env.close()
    return log
