"""``gcc-gym play``: play an env yourself in a window."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("play", help="play an env yourself in a window (play extra: pygame)")
    p.set_defaults(handler=run)
    p.add_argument("env_id")
    p.add_argument("--seed", type=int, default=0, help="first episode's seed (then +1 each)")
    p.add_argument("--record", metavar="DIR", help="write the session as a dataset here")
    p.add_argument(
        "--state-file", metavar="PATH", help="publish the simulator's state as JSON each step"
    )
    p.add_argument("--fps", type=float, default=30.0, help="steps per second")
    p.add_argument("--max-seconds", type=float, help="end the session after this many seconds")
    p.add_argument("--obs-size", type=int, nargs=2, metavar=("H", "W"))
    p.add_argument("--title", help="window title (default: gcc-gym play ENV_ID: instruction)")
    p.add_argument("--pause-on-blur", action="store_true", help="freeze game time while unfocused")
    p.add_argument("--pause-key", metavar="KEY", help="key that toggles a PAUSED screen")
    p.add_argument(
        "--keep-final", action="store_true", help="keep an ended episode on screen (no reset)"
    )


def run(args: argparse.Namespace) -> int:
    from agents.play import play

    env_kwargs: dict = {}
    if args.obs_size:
        env_kwargs["obs_size"] = tuple(args.obs_size)
    steps = play(
        args.env_id,
        seed=args.seed,
        fps=args.fps,
        record=args.record,
        state_file=args.state_file,
        max_seconds=args.max_seconds,
        env_kwargs=env_kwargs,
        title=args.title,
        pause_on_blur=args.pause_on_blur,
        pause_key=args.pause_key,
        keep_final=args.keep_final,
    )
    print(f"played {steps} steps" + (f"; recorded in {args.record}" if args.record else ""))
    return 0
