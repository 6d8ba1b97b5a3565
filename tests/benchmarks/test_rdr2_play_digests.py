"""``benchmarks/rdr2_play_digests.py``: a run's digest is a function of what the run shows."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "rdr2_play_digests.py"


def _module():
    spec = importlib.util.spec_from_file_location("rdr2_play_digests", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["rdr2_play_digests"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_the_same_play_gives_the_same_digest_and_other_play_another():
    mod = _module()
    a = mod.digest("GCC/RDR2-Mission1", (84, 84), 30, seed=3)
    assert a == mod.digest("GCC/RDR2-Mission1", (84, 84), 30, seed=3)
    assert a != mod.digest("GCC/RDR2-Mission1", (84, 84), 30, seed=4)
    assert a != mod.digest("GCC/RDR2-Mission1", (84, 84), 31, seed=3)
    assert a != mod.digest("GCC/RDR2-Mission1", (96, 160), 30, seed=3)
