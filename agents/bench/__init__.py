"""Benchmarks at scale: suite files, ``gcc-gym bench`` (in-process or on Ray), ``gcc-gym report``.

>>> from agents.bench import parse_suite
>>> parse_suite('[[run]]\\nname="r"\\nenv="GCC/Stardew-*"\\npolicy="random"\\nseeds=[0]', "s").runs[0].env
'GCC/Stardew-*'
"""

from agents.bench.plan import Episode, expand
from agents.bench.runner import BenchConfig, BenchSummary, run_suite
from agents.bench.suite import Run, Suite, load_suite, parse_suite

__all__ = [
    "BenchConfig",
    "BenchSummary",
    "Episode",
    "Run",
    "Suite",
    "expand",
    "load_suite",
    "parse_suite",
    "run_suite",
]
