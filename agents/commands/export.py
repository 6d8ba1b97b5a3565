"""``gcc-gym export``: a recorded dataset as a Minari dataset."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("export", help="export a recorded dataset (to Minari)")
    p.set_defaults(handler=run)
    p.add_argument("dir", help="a dataset folder (or one episode folder)")
    p.add_argument(
        "--minari", required=True, metavar="ID", help="Minari dataset id, e.g. gcc/demo-v0"
    )
    p.add_argument(
        "--actions",
        default="auto",
        choices=["auto", "space", "code", "events"],
        help="actions as space members or as the JSON event log (auto: space when possible)",
    )
    p.add_argument("--data-format", default="arrow", choices=["arrow", "hdf5", "parquet"])


def run(args: argparse.Namespace) -> int:
    from gcc_envs.datasets import export_minari

    ds = export_minari(args.dir, args.minari, actions=args.actions, data_format=args.data_format)
    kind = type(ds.action_space).__name__
    print(
        f"Minari dataset {args.minari}: {ds.total_episodes} episodes, {ds.total_steps} steps, "
        f"actions {kind}"
    )
    return 0
