"""``gcc-gym run --per-task``: run each checkpoint of a mission alone and tabulate success.

A mission env (``GCC/RDR2-Mission1``) lists its checkpoints as single tasks
(``env.unwrapped.subtasks``, e.g. ``"mission1:protect_dutch"``) with a difficulty each
(``env.unwrapped.subtask_difficulty``). Each one is run as its own env (``task=`` kwarg) for
the same seeds, and the table shows successes per checkpoint, as the Cradle paper's figure of
per-task success rates does.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import gymnasium as gym

from agents.evaluate import EpisodeRecord, evaluate
from gcc_envs.errors import GCCError


def subtasks_of(env_id: str, env_kwargs: dict[str, Any] | None = None) -> dict[str, str]:
    """Checkpoint task → difficulty (``"easy"``/``"hard"``/``""``) of a mission env, from its
    game's task table (the rows whose parent is the id's task)."""
    from gcc_envs.core.spec import GameSpec
    from gcc_envs.registration import spec_of

    spec, task = spec_of(env_id), (env_kwargs or {}).get("task") or _task_key(env_id)
    rows = spec.subtasks(task) if isinstance(spec, GameSpec) else ()
    if not rows:
        raise GCCError(f"{env_id} has no checkpoints to run one by one (drop --per-task)")
    return {t.key: t.difficulty for t in rows}


def _task_key(env_id: str) -> str:
    return str((gym.spec(env_id).kwargs or {}).get("task", ""))


def steps_per_task(env_id: str) -> int | None:
    """The step limit of one checkpoint task of the id's mission (its task table's), if any."""
    from gcc_envs.core.spec import GameSpec
    from gcc_envs.registration import spec_of

    spec = spec_of(env_id)
    rows = spec.subtasks(_task_key(env_id)) if isinstance(spec, GameSpec) else ()
    return rows[0].max_steps if rows else None


def evaluate_per_task(
    env_id: str,
    policy_name: str,
    seeds: Iterable[int],
    out_dir: Path | None = None,
    env_kwargs: dict[str, Any] | None = None,
    policy_kwargs: dict[str, Any] | None = None,
    video: bool = False,
    progress: bool = True,
) -> dict[str, list[EpisodeRecord]]:
    """Records per checkpoint task, each run alone with ``task=<checkpoint>``."""
    seeds = list(seeds)
    out: dict[str, list[EpisodeRecord]] = {}
    tasks = subtasks_of(env_id, env_kwargs)
    limit = steps_per_task(env_id)
    for task in tasks:
        kwargs = {**(env_kwargs or {}), "task": task}
        if limit is not None:
            # a mission's own limit covers all its checkpoints; one alone gets the task's limit
            kwargs.setdefault("max_episode_steps", limit)
        sub = None if out_dir is None else out_dir / task.replace(":", "-")
        out[task] = evaluate(
            env_id, policy_name, seeds, sub, kwargs, policy_kwargs, video=video, progress=progress
        )
    return out


def format_per_task(
    results: dict[str, list[EpisodeRecord]], difficulty: dict[str, str] | None = None
) -> str:
    """One row per checkpoint: difficulty, successes / episodes, rate, mean steps."""
    difficulty = difficulty or {}
    head = ("checkpoint", "difficulty", "success", "rate", "mean_steps")
    rows = []
    for task, recs in results.items():
        n = len(recs)
        ok = sum(r.success for r in recs)
        rows.append(
            (
                task,
                difficulty.get(task, "") or "-",
                f"{ok}/{n}",
                f"{ok / n:.0%}" if n else "-",
                f"{sum(r.steps for r in recs) / n:.1f}" if n else "-",
            )
        )
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines)
