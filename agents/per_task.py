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
    """Checkpoint task → difficulty (``"easy"``/``"hard"``/``""``) of a mission env.

    Read from ``env.unwrapped.subtasks`` / ``subtask_difficulty`` when the env has them, else
    from its task's checkpoint rows (``task.mission`` and ``task.rows`` with ``name`` and
    ``difficulty``, as RDR2's missions have).
    """
    kwargs = {k: v for k, v in (env_kwargs or {}).items() if k != "task"}
    env = gym.make(env_id, **kwargs)
    try:
        base = env.unwrapped
        tasks = tuple(getattr(base, "subtasks", ()) or ())
        difficulty = dict(getattr(base, "subtask_difficulty", {}) or {})
        task = getattr(base, "task", None)
        rows = getattr(task, "rows", ())
        if not tasks and rows and hasattr(task, "mission"):
            tasks = tuple(f"{task.mission}:{r.name}" for r in rows)
            difficulty = {f"{task.mission}:{r.name}": getattr(r, "difficulty", "") for r in rows}
    finally:
        env.close()
    if not tasks:
        raise GCCError(f"{env_id} has no checkpoints to run one by one (drop --per-task)")
    return {t: str(difficulty.get(t, "")) for t in tasks}


def steps_per_task(env_id: str) -> int | None:
    """The step limit of one checkpoint task (the env class's ``steps_per_task``), if any."""
    from gcc_envs.registration import GAMES, load

    game = gym.spec(env_id).kwargs.get("game")
    return getattr(load(GAMES[game].env_class), "steps_per_task", None) if game in GAMES else None


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
