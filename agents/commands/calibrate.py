"""``gcc-gym calibrate``: a camera-mouse game's mouse pixels per degree of turn."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "calibrate", help="measure a camera-mouse game's mouse pixels per degree of turn"
    )
    p.set_defaults(handler=run)
    p.add_argument("env_id")
    p.add_argument("--hfov", type=float, default=90.0, help="horizontal field of view (deg)")
    p.add_argument(
        "--moves", type=int, nargs="+", default=[20, -20, 40, -40, 60, -60], metavar="PX"
    )
    p.add_argument("--obs-size", type=int, nargs=2, metavar=("H", "W"))
    p.add_argument("--seed", type=int, default=0)


def run(args: argparse.Namespace) -> int:
    import gymnasium as gym

    import gcc_envs  # noqa: F401  (registers the ids)
    from agents.calibrate import calibrate

    env_kwargs: dict = {}
    if args.obs_size:
        env_kwargs["obs_size"] = tuple(args.obs_size)
    env = gym.make(args.env_id, **env_kwargs)
    try:
        cal = calibrate(env, args.hfov, moves=args.moves, seed=args.seed)
    finally:
        env.close()
    for px, shift, deg in cal.samples:
        print(f"mouse {px:+5d} px -> picture {shift:+8.2f} px -> {deg:6.2f} deg")
    print(
        f"pixels per degree: {cal.pixels_per_degree:.3f} at width {cal.width} "
        f"(fit rms {cal.rms_deg:.3f} deg, {len(cal.samples)} moves)"
    )
    return 0
