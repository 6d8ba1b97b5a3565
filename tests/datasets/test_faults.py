"""SIGKILL of the recorder, its writer process or both (benchmarks/fault_recording.py)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "fault_recording.py"


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killed_recordings_lose_no_returned_step_and_stay_readable():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--runs", "2", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    for mode, f in figures.items():
        assert f["steps"] > 0 and f["unreadable"] == f["crashed"] == f["hung"] == 0, mode
    assert figures["recorder"]["lost"] == figures["inline"]["lost"] == 0
    assert figures["writer"]["silent"] == 0  # the recorder raised DataError within a second
