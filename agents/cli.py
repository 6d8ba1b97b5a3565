"""``gcc-gym``: list envs, run policies on them, replay and export recorded datasets.

It sits on top of every package (envs, wrappers, agents), which is why it lives in ``agents``.
Each subcommand is a module of :mod:`agents.commands` (see there).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from agents.commands import MODULES
from gcc_envs.errors import GCCError


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gcc-gym", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name in MODULES:
        importlib.import_module(name).add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except GCCError as e:
        print(f"gcc-gym: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader left (gcc-gym list | head): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
