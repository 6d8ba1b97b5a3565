"""The code fuzzer (benchmarks/fuzz_code.py): nothing runs, crashes, hangs or steps too long."""

from __future__ import annotations

import builtins
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "fuzz_code.py"


def fuzzer():
    spec = importlib.util.spec_from_file_location("fuzz_code", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_watch_sees_code_being_run():
    calls: list[str] = []
    with fuzzer().watched(calls):
        builtins.eval("1 + 1")
        importlib.import_module("json")  # already imported: no __import__ call
        __import__("os")
    assert calls == ["builtins.eval", "builtins.__import__"]


@pytest.mark.slow
def test_hostile_code_runs_nothing_and_never_crashes_hangs_or_runs_long():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--inputs", "4000", "--steps", "100", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert counts["tried"] == 4000 and counts["accepted"] > 100 and counts["stepped"] == 100
    assert counts["executed"] == counts["crashed"] == counts["hung"] == counts["long"] == 0
