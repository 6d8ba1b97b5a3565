"""``gcc-gym train``: an SB3 agent on a lockstep simulator, flags parsed into a :class:`TrainConfig`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from agents.commands.options import DefaultsFormatter
from gcc_envs.errors import GCCError


def _threads(text: str) -> int | None:
    if text == "auto":
        return None
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 'auto' or a whole number >= 0, got {text!r}")
    return value


def add_parser(sub: Any) -> None:
    t = sub.add_parser(
        "train",
        help="train an SB3 agent on a lockstep simulator (sb3 extra)",
        description="Train a Stable-Baselines3 agent on a lockstep simulator; write model.zip, "
        "gcc_train.json (what gcc-gym run --policy sb3 reads) and evaluations.json.",
        formatter_class=DefaultsFormatter,
    )
    t.set_defaults(handler=run)
    t.add_argument("env_id", help="a simulator id, e.g. GCC/Stardew-FarmClearup (gcc-gym list)")
    t.add_argument("--algo", default="ppo", choices=["ppo", "a2c", "dqn"], help="SB3 algorithm")
    t.add_argument("--steps", type=int, default=100_000, help="environment steps to train for")
    t.add_argument("--envs", type=int, default=2, help="env worker processes (SubprocVecEnv)")
    t.add_argument("--out", default="runs/train", help="folder for the model and evaluations")
    t.add_argument(
        "--obs-size",
        type=int,
        nargs=2,
        default=(84, 84),
        metavar=("H", "W"),
        help="observation size in pixels (default: 84 84)",
    )
    t.add_argument(
        "--action",
        default="skills",
        choices=["skills", "flat"],
        help="skills: Discrete grid of skill calls; flat: MultiDiscrete action mode",
    )
    t.add_argument("--frame-stack", type=int, default=1, help="frames stacked per observation")
    t.add_argument(
        "--shaping",
        type=float,
        help="reward per unit of progress (learning variant; default: the env's)",
    )
    t.add_argument(
        "--grid",
        help='skill grid as JSON, e.g. \'{"use_tool": {}, "move_up": '
        "{\"duration\": [0.5]}}' (default: the game's grid)",
    )
    t.add_argument("--seed", type=int, default=0, help="seed of the model and the env workers")
    t.add_argument(
        "--eval-every", type=int, default=20_000, help="evaluate the model every this many steps"
    )
    t.add_argument(
        "--eval-episodes", type=int, default=10, help="episodes per evaluation (fresh seeds)"
    )
    t.add_argument(
        "--torch-threads",
        type=_threads,
        default=None,
        metavar="N|auto",
        help="torch threads; auto: the cores left after one per env worker, at least 1, or "
        "OMP_NUM_THREADS when set; 0: torch's default, a thread per core (default: auto)",
    )
    t.add_argument("--quiet", action="store_true", help="no progress bar")


def format_history(baseline: dict[str, float], history: list[dict[str, Any]]) -> str:
    """The evaluations as a table: the random baseline, then one row per evaluation.

    >>> print(format_history({"success_rate": 0, "mean_return": 0.5, "mean_progress": 0.1},
    ...     [{"timesteps": 4096, "wall_s": 11.6, "success_rate": 0.2, "mean_return": 1.25,
    ...       "mean_progress": 0.4}]))
     timesteps   wall_s  success   return  progress
        random        0     0.00    0.500     0.100
          4096       12     0.20    1.250     0.400
    """
    lines = [f"{'timesteps':>10} {'wall_s':>8} {'success':>8} {'return':>8} {'progress':>9}"]
    for row in [{"timesteps": "random", "wall_s": 0.0, **baseline}, *history]:
        steps = row["timesteps"]
        steps = steps if isinstance(steps, str) else f"{int(steps)}"
        lines.append(
            f"{steps:>10} {row['wall_s']:>8.0f} {row['success_rate']:>8.2f} "
            f"{row['mean_return']:>8.3f} {row['mean_progress']:>9.3f}"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from agents.sb3.train import TrainConfig, train

    try:
        grid = json.loads(args.grid) if args.grid else None
    except json.JSONDecodeError as e:
        raise GCCError(f"--grid is not JSON: {e}") from None
    cfg = TrainConfig(
        env_id=args.env_id,
        out=args.out,
        algo=args.algo,
        steps=args.steps,
        envs=args.envs,
        obs_size=tuple(args.obs_size),
        action=args.action,
        frame_stack=args.frame_stack,
        seed=args.seed,
        eval_every=args.eval_every,
        eval_episodes=args.eval_episodes,
        env_kwargs={} if args.shaping is None else {"shaping": args.shaping},
        grid=grid,
        torch_threads=args.torch_threads,
    )
    path = train(cfg, progress=not args.quiet)
    history = json.loads((Path(args.out) / "evaluations.json").read_text())
    baseline = json.loads((Path(args.out) / "random_baseline.json").read_text())
    print(format_history(baseline, history))
    print(f"model: {path}")
    return 0
