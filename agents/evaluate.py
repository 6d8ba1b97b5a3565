"""Run policies on envs and collect episode records (``gcc-gym run``)."""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym

from agents import make_policy
from gcc_envs.errors import MissingExtraError


@dataclass
class EpisodeRecord:
    env_id: str
    seed: int
    policy: str
    success: bool
    steps: int
    ret: float
    game_time: float
    wall_time: float
    progress: float
    invalid_actions: int
    failure: str | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    video: str | None = None
    #: What the policy reports about the episode (an LMM policy's calls, tokens and cost).
    policy_info: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["return"] = d.pop("ret")
        return d


def run_episode(env: gym.Env, policy: Any, seed: int) -> EpisodeRecord:
    """Roll out one episode of ``policy`` on ``env`` from ``seed``."""
    t0 = time.perf_counter()
    obs, info = env.reset(seed=seed)
    policy.reset(info)
    ret, steps, done = 0.0, 0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(policy.act(obs, info))
        ret += float(reward)
        steps += 1
        done = terminated or truncated
    spec = env.spec
    return EpisodeRecord(
        env_id=spec.id if spec else type(env.unwrapped).__name__,
        seed=seed,
        policy=policy.name,
        success=bool(info.get("success", False)),
        steps=steps,
        ret=round(ret, 6),
        game_time=round(float(info["game_time"]), 3),
        wall_time=round(time.perf_counter() - t0, 3),
        progress=round(float(info["progress"]), 4),
        invalid_actions=int(info["invalid_actions"]),
        failure=info.get("failure"),
        metrics={k: float(v) for k, v in info.get("metrics", {}).items()},
        policy_info=dict(getattr(policy, "last_info", {}).get("episode_usage", {})),
    )


def make_eval_env(
    env_id: str,
    policy_name: str,
    env_kwargs: dict[str, Any] | None = None,
    video_dir: Path | None = None,
    video_prefix: str = "episode",
    record: Path | None = None,
) -> gym.Env:
    """``gym.make`` plus what the policy needs (Cradle: video chunks), an MP4 per episode, and
    with ``record`` a trajectory dataset there."""
    env = gym.make(env_id, render_mode="rgb_array" if video_dir else None, **(env_kwargs or {}))
    if record is not None:
        from wrappers.record_trajectory import RecordTrajectory

        env = RecordTrajectory(env, record, policy_name=policy_name)
    if policy_name == "cradle":
        # Cradle reflects on the video of the last action, not only on its last frame
        from wrappers import ChunkVideo

        env = ChunkVideo(env, max_frames=8, as_list=True)
    if video_dir is not None:
        try:
            import moviepy  # noqa: F401
        except ImportError:
            env.close()
            raise MissingExtraError("moviepy", "video") from None
        env = gym.wrappers.RecordVideo(
            env,
            video_folder=str(video_dir),
            episode_trigger=lambda _: True,
            name_prefix=video_prefix,
            disable_logger=True,
        )
    return env


def evaluate(
    env_id: str,
    policy_name: str,
    seeds: Iterable[int],
    out_dir: Path | None = None,
    env_kwargs: dict[str, Any] | None = None,
    policy_kwargs: dict[str, Any] | None = None,
    video: bool = True,
    progress: bool = True,
    record: Path | None = None,
) -> list[EpisodeRecord]:
    """Run ``policy_name`` on ``env_id`` once per seed; write results (and videos) to ``out_dir``.

    With ``record`` every episode is also written there as a trajectory dataset
    (:mod:`gcc_envs.datasets`: ``gcc-gym replay`` and ``export`` read it).
    """
    seeds = list(seeds)
    slug = env_id.replace("/", "-")
    video_dir = out_dir / "videos" if video and out_dir is not None else None
    env = make_eval_env(env_id, policy_name, env_kwargs, video_dir, f"{slug}-{policy_name}", record)
    policy = make_policy(policy_name, env, **(policy_kwargs or {}))
    records = []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(seeds), desc=f"{slug} {policy_name}", unit="ep")
    try:
        for i, seed in enumerate(seeds):
            rec = run_episode(env, policy, seed)
            if video and out_dir is not None:
                rec.video = str(Path("videos") / f"{slug}-{policy_name}-episode-{i}.mp4")
            records.append(rec)
            if bar is not None:
                bar.update(1)
                bar.set_postfix(success=sum(r.success for r in records))
    finally:
        if bar is not None:
            bar.close()
        policy.close()
        env.close()
    return records


def write_results(records: list[EpisodeRecord], out_dir: Path) -> None:
    """``results.json`` (a list of episode records) and ``results.csv``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = [r.to_json() for r in records]
    (out_dir / "results.json").write_text(json.dumps(rows, indent=2))
    flat = []
    for row in rows:
        row = dict(row)
        for k, v in row.pop("metrics").items():
            row[f"metric.{k}"] = v
        for k, v in row.pop("policy_info").items():
            row[f"policy.{k}"] = v if isinstance(v, (int, float, str)) else json.dumps(v)
        flat.append(row)
    cols: list[str] = []
    for row in flat:
        cols += [c for c in row if c not in cols]
    with open(out_dir / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(flat)


def format_table(records: list[EpisodeRecord]) -> str:
    """A plain-text table of episodes plus a summary line per env and policy."""
    metric_names = sorted({k for r in records for k in r.metrics})
    head = [
        "env",
        "policy",
        "seed",
        "success",
        "steps",
        "return",
        "game_s",
        "progress",
        *metric_names,
    ]
    rows = [
        [
            r.env_id,
            r.policy,
            str(r.seed),
            "yes" if r.success else "no",
            str(r.steps),
            f"{r.ret:.2f}",
            f"{r.game_time:.1f}",
            f"{r.progress:.2f}",
            *(f"{r.metrics.get(m, float('nan')):g}" for m in metric_names),
        ]
        for r in records
    ]
    widths = [
        max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(head)
    ]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)) for row in rows]
    groups: dict[tuple[str, str], list[EpisodeRecord]] = {}
    for r in records:
        groups.setdefault((r.env_id, r.policy), []).append(r)
    for (env_id, pol), rs in groups.items():
        n = len(rs)
        lines.append(
            f"{env_id} {pol}: success {sum(r.success for r in rs)}/{n}, "
            f"mean steps {sum(r.steps for r in rs) / n:.1f}, "
            f"mean return {sum(r.ret for r in rs) / n:.2f}"
        )
    return "\n".join(lines)
