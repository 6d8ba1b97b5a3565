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
    frames: str = "zstd",
    background: bool = True,
    **make_kwargs: Any,
) -> list[dict[str, Any]]:
    """Record one episode per seed into ``out``; return what the env gave, step by step."""
    env = RecordTrajectory(
        gym.make(env_id, obs_size=size, max_episode_steps=steps, **make_kwargs),
        out,
        policy_name=policy if isinstance(policy, str) else "script",
        frames=frames,
        background=background,
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


def as_cut_short(full: Any, folder: Path, rows: int, torn: int | None = None) -> Path:
    """A copy of the complete episode ``full`` in ``folder`` as its recorder would have left it
    if killed after ``rows`` steps (plus ``torn`` bytes of the next row, a torn write)."""
    import json
    import shutil

    from gcc_envs.datasets.checksums import seal_row
    from gcc_envs.datasets.meta import read_meta, write_meta

    cut = folder / full.path.name
    shutil.copytree(full.path, cut)
    (cut / "steps.parquet").unlink()
    lines, seal = [], ""
    for row in full.steps[: rows + (1 if torn else 0)]:
        line = seal_row((json.dumps(row) + "\n").encode(), seal)
        seal = line[-35:-3].decode()
        lines.append(line)
    if torn:
        lines[-1] = lines[-1][:torn]
    (cut / "steps.jsonl").write_bytes(b"".join(lines))
    meta = read_meta(cut)
    for key in ("n_steps", "files"):
        meta.pop(key)
    write_meta(cut, {**meta, "complete": False, "result": None})
    if (cut / "frames.zst").exists():  # at most one frame ahead of its row
        data, at = (cut / "frames.zst").read_bytes(), 0
        for _ in range(rows + 2):
            at += 4 + int.from_bytes(data[at : at + 4], "little")
        (cut / "frames.zst").write_bytes(data[:at])
        return cut
    for i in range(rows + 2, len(full) + 1):
        (cut / "frames" / f"{i:06d}.png").unlink()
    return cut
