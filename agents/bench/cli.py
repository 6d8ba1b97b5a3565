"""The ``gcc-gym bench`` and ``gcc-gym report`` subcommands (hooked into :mod:`agents.cli`)."""

from __future__ import annotations

import argparse
import signal
from typing import Any

from agents.bench.plan import MAX_EPISODES


def cmd_bench(args: argparse.Namespace) -> int:
    from agents.bench import BenchConfig, load_suite, run_suite
    from agents.bench.suite import select

    def stop(signum: int, frame: Any) -> None:  # a scheduler's SIGTERM stops as Ctrl-C does
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        config = BenchConfig(
            workers=args.workers,
            address=args.address,
            resume=args.resume,
            retry_errors=args.retry_errors,
            progress=not args.quiet,
            max_episodes=args.max_episodes,
        )
        suite = select(load_suite(args.suite), args.run or ())
        summary = run_suite(suite, args.out, config)
    finally:
        signal.signal(signal.SIGTERM, previous)
    recorded = summary.skipped + summary.ran
    print(
        f"{summary.total} episodes: ran {summary.ran} ({summary.ok} ok, {summary.errors} errors, "
        f"{summary.retried} retried after a worker died), {summary.skipped} already recorded"
    )
    print(f"results: {summary.results}")
    if suite.learning:
        print(f"learning runs: {', '.join(r.name for r in suite.learning)} "
              f"({summary.results.parent / 'learning.jsonl'})")  # fmt: skip
    if summary.interrupted:
        print(
            f"interrupted: {recorded} of {summary.total} episodes recorded; to run the rest: "
            f"gcc-gym bench {args.suite} --out {args.out} --resume"
            + "".join(f" --run '{r}'" for r in args.run or ())
        )
        return 130
    print(f"tables and plots: gcc-gym report {args.out}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from agents.bench.report import report

    _, files = report(args.dir, plots=not args.no_plots, show=not args.quiet)
    kinds = ", ".join(
        f"{sum(f.suffix == s for f in files)} {s[1:].upper()}" for s in (".csv", ".png")
    )
    print(f"written to {files[0].parent}: report.md (every table, whole), {kinds}")
    return 0


def add_parser(sub: Any) -> None:
    """Add ``bench`` and ``report`` to the ``gcc-gym`` subparsers."""
    b = sub.add_parser("bench", help="run a suite file of env × policy × seed episodes")
    b.set_defaults(handler=cmd_bench)
    b.add_argument("suite", help="a suite TOML file, e.g. benchmarks/suites/smoke.toml")
    b.add_argument("--out", required=True, help="folder of results.jsonl (and the report)")
    b.add_argument(
        "--workers",
        type=int,
        default=1,
        help="episodes at a time; 1 runs in this process, more use Ray (bench extra); "
        "0: one per CPU of the cluster (or of this machine)",
    )
    b.add_argument(
        "--address",
        help="an existing Ray cluster: auto, HOST:PORT, or ray://HOST:10001 (default: a local "
        "Ray with --workers CPUs)",
    )
    b.add_argument(
        "--run",
        action="append",
        metavar="NAME",
        help="only the runs of this name (a glob; repeat for more), e.g. --run '*-random'",
    )
    b.add_argument("--resume", action="store_true", help="run only the unrecorded episodes")
    b.add_argument(
        "--retry-errors", action="store_true", help="with --resume, rerun episodes that errored"
    )
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.add_argument(
        "--max-episodes",
        type=int,
        default=MAX_EPISODES,
        metavar="N",
        help="refuse a suite of more episodes, before anything runs (default: %(default)s)",
    )
    r = sub.add_parser("report", help="tables (Markdown, CSV) and PNG plots of a bench run")
    r.set_defaults(handler=cmd_report)
    r.add_argument("dir", help="the --out folder of gcc-gym bench")
    r.add_argument("--no-plots", action="store_true", help="tables only (no matplotlib)")
    r.add_argument("--quiet", action="store_true", help="write the files without printing")
