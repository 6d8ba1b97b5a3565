"""numba's cache for RDR2's kernels goes to the user's cache folder, with a note when cold."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

SCRIPT = """
import numpy as np
from gcc_envs.games.rdr2.sim import geometry, jit
free = jit.compiled(geometry._cells_free)
walls = np.zeros((4, 4), np.uint8)
print(free(walls, np.zeros((4, 4), np.int8), 1.0, 2.0, 2.0, 0.5, 0))
"""


def _run(tmp: Path) -> subprocess.CompletedProcess[str]:
    # (the kernels compile whatever GCC_NO_JIT the test run itself has)
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "GCC_NO_JIT")}
    env["XDG_CACHE_HOME"] = str(tmp)
    return subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120
    )


def test_kernels_cache_in_the_user_cache_dir_and_say_so_only_when_cold(tmp_path):
    first = _run(tmp_path)
    assert first.returncode == 0 and first.stdout.strip() == "True", first.stderr
    assert "compiling RDR2's render kernels" in first.stderr and str(tmp_path) in first.stderr
    assert list((tmp_path / "gcc-gym" / "numba").glob("sim_*/geometry._cells_free-*.nbi"))
    second = _run(tmp_path)
    assert second.returncode == 0 and "compiling" not in second.stderr, second.stderr
