"""``benchmarks/perf_sim.py`` measures every simulator a spec names, with its targets."""

from __future__ import annotations

from bench_scripts import load

from gcc_envs.core.spec import GameSpec, PerfTargets
from gcc_envs.registration import specs


def test_every_registered_simulator_id_is_measured_with_its_specs_targets():
    perf = load("perf_sim")
    got = {g.title: (set(g.ids), g.perf) for g in perf.sim_games()}
    want = {
        s.title: ({t.env_id(s.title) for t in s.tasks if t.registered}, s.perf)
        for s in specs().values()
        if isinstance(s, GameSpec) and s.simulator is not None
    }
    assert got == want and got


def test_targets_are_judged_against_the_reference_of_the_same_run():
    perf = load("perf_sim")
    targets = PerfTargets(minigrid_ratio_84=1.2, steps_per_s_720p=60.0)
    assert perf._verdict(1300.0, 1000.0, perf.SMALL, targets).endswith(" met")
    assert perf._verdict(1100.0, 1000.0, perf.SMALL, targets).endswith("NOT MET")
    assert perf._verdict(59.0, 1000.0, perf.BIG, targets).endswith("NOT MET")
    assert perf._verdict(59.0, 1000.0, perf.BIG, PerfTargets()) == "no target"
