"""The test folders collect in any grouping: named together on one command line (as a person
runs two of them; their ``conftest.py`` files once clashed), they collect with no error and as
many tests as ``tests/`` does as one folder."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _collect(*paths: Path) -> int:
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--collect-only", *map(str, paths)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    found = re.search(r"(\d+) tests? collected", out.stdout)
    assert found, out.stdout[-500:]
    return int(found.group(1))


@pytest.mark.slow
def test_every_test_folder_collects_together_with_every_other() -> None:
    folders = sorted(p for p in TESTS.iterdir() if p.is_dir() and any(p.glob("test_*.py")))
    assert len(folders) >= 10
    files = sorted(TESTS.glob("test_*.py"))
    assert _collect(*folders, *files) == _collect(TESTS)
