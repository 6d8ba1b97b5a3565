"""``benchmarks/replay_pairs.py``: another seed's recorded input, replayed open loop."""

from __future__ import annotations

import pytest
from bench_scripts import load


def test_a_source_replays_its_own_win_and_is_left_out_of_its_pairs(capsys) -> None:
    mod = load("replay_pairs")
    rp = mod.rp
    t = mod._target("mission1:hitch_horse")
    ep = rp.scripted(t, (90, 160), 1, privileged=True)
    assert ep.success and ep.events
    assert rp.replay(t, (90, 160), 1, ep.events).success  # open loop reproduces its own run
    mod.main(["--task", "mission1:hitch_horse", "--sources", "1", "--targets", "1-3",
              "--obs", "90x160"])  # fmt: skip
    out = capsys.readouterr().out
    won = out.splitlines()[0].split("replay won ")[1].split(" pairs")[0]
    assert won.endswith("/2") and int(won[:-2]) <= 2  # seed 1 on itself is not a pair


def test_an_unknown_task_is_refused_by_name() -> None:
    with pytest.raises(SystemExit, match="no game task 'mission1:hitch_hors'"):
        load("replay_pairs").main(["--task", "mission1:hitch_hors"])
