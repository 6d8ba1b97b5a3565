"""``gcc-gym``: list envs and run policies on them.

It sits on top of every package (envs, wrappers, agents), which is why it lives in ``agents``.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path

from gcc_envs.errors import GCCError


def _card_line(env_id: str) -> str:
    from gcc_envs.registration import ENVS, GAMES, load

    row = next(r for r in ENVS if r.id == env_id)
    cls = load(GAMES[row.game].env_class)
    doc = inspect.getdoc(cls) or ""
    first = doc.splitlines()[0] if doc else ""
    task = getattr(cls, "TASKS", {}).get(row.task)
    return f"{first} — {task.name}: {task.instruction}" if task is not None else first


def cmd_list(args: argparse.Namespace) -> int:
    import gcc_envs

    for env_id in gcc_envs.env_ids():
        print(f"{env_id:<28} {_card_line(env_id)}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    import gcc_envs  # noqa: F401  (registers the ids)
    from agents.evaluate import evaluate, format_table, write_results

    out = Path(args.out)
    env_kwargs: dict = {"time_mode": args.time_mode}
    if args.obs_size:
        env_kwargs["obs_size"] = tuple(args.obs_size)
    if args.action_mode:
        env_kwargs["action_mode"] = args.action_mode
    policy_kwargs: dict = {"seed": args.seed}
    if args.policy == "scripted":
        policy_kwargs["privileged"] = not args.no_privileged
    seeds = range(args.seed, args.seed + args.episodes)
    records = evaluate(
        args.env_id,
        args.policy,
        seeds,
        out,
        env_kwargs,
        policy_kwargs,
        video=not args.no_video,
        progress=not args.quiet,
    )
    write_results(records, out)
    print(format_table(records))
    print(
        f"results: {out / 'results.json'}, {out / 'results.csv'}"
        + ("" if args.no_video else f", videos in {out / 'videos'}")
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gcc-gym", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list registered env ids with their cards' first lines")
    r = sub.add_parser("run", help="run a policy on an env for some episodes")
    r.add_argument("env_id")
    r.add_argument("--policy", default="scripted", choices=["random", "scripted"])
    r.add_argument("--episodes", type=int, default=5)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--out", default="runs/latest")
    r.add_argument("--obs-size", type=int, nargs=2, metavar=("H", "W"))
    r.add_argument("--time-mode", default="lockstep", choices=["lockstep", "paused", "realtime"])
    r.add_argument("--action-mode", choices=["state", "event"])
    r.add_argument("--no-video", action="store_true", help="skip the MP4 per episode")
    r.add_argument(
        "--no-privileged",
        action="store_true",
        help="scripted policy may not read the simulator's state",
    )
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return {"list": cmd_list, "run": cmd_run}[args.command](args)
    except GCCError as e:
        print(f"gcc-gym: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
