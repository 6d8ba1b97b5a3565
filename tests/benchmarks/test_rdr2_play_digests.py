"""``benchmarks/rdr2_play_digests.py``: a run's digest is a function of what the run shows."""

from __future__ import annotations

from bench_scripts import load


def test_the_same_play_gives_the_same_digest_and_other_play_another():
    mod = load("rdr2_play_digests")
    a = mod.digest("GCC/RDR2-Mission1", (84, 84), 30, seed=3)
    assert a == mod.digest("GCC/RDR2-Mission1", (84, 84), 30, seed=3)
    assert a != mod.digest("GCC/RDR2-Mission1", (84, 84), 30, seed=4)
    assert a != mod.digest("GCC/RDR2-Mission1", (84, 84), 31, seed=3)
    assert a != mod.digest("GCC/RDR2-Mission1", (96, 160), 30, seed=3)
