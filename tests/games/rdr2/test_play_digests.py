"""Seeded random play of every mission gives the frames, rewards and progress it gave when
``data/play_digests.json`` was written — with numba's kernels and with the numpy path.

The file is the output of ``python benchmarks/rdr2_play_digests.py --steps 200 --steps-720p 20
--write tests/games/rdr2/data/play_digests.json``. A change meant to alter what RDR2 shows or
does regenerates it deliberately, after a look at the 1280x720 frames before and after; a
speed change must leave it as it is.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DIGESTS = Path(__file__).parent / "data" / "play_digests.json"
REGENERATE = (
    "if the change is meant to alter what RDR2 shows or does, look at the 1280x720 frames "
    "before and after, then regenerate: python benchmarks/rdr2_play_digests.py --steps 200 "
    f"--steps-720p 20 --write {DIGESTS.relative_to(ROOT)}"
)


def _rows() -> list[dict]:
    return json.loads(DIGESTS.read_text())


def _digest_script() -> object:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import rdr2_play_digests
    finally:
        sys.path.pop(0)
    return rdr2_play_digests


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r['env_id'][4:]}-{r['size'][1]}")
def test_seeded_play_matches_the_committed_digest(row: dict) -> None:
    script = _digest_script()
    got = script.digest(row["env_id"], tuple(row["size"]), row["steps"], row["seed"])
    assert got == row["digest"], REGENERATE


def test_the_numpy_path_plays_the_same_frames() -> None:
    """``GCC_NO_JIT=1`` (the path a default install without numba takes) gives the same
    digests at 84x84, in a fresh process (the switch is read when a kernel is first asked)."""
    rows = [r for r in _rows() if tuple(r["size"]) == (84, 84)]
    code = (
        "import json, sys; sys.path.insert(0, 'benchmarks'); import rdr2_play_digests as d; "
        f"rows = {json.dumps(rows)}; "
        "print(json.dumps([d.digest(r['env_id'], tuple(r['size']), r['steps'], r['seed']) "
        "for r in rows]))"
    )
    env = {**os.environ, "GCC_NO_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=300, check=True,
    )  # fmt: skip
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == [r["digest"] for r in rows], REGENERATE
