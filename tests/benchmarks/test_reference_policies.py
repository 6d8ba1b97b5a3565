"""The reference table's rows: every task played alone, a mission by its checkpoints, and a
variant that only measures shown by its progress, not as a failure."""

from __future__ import annotations

from bench_scripts import load

from gcc_envs.registration import specs


def test_rows_are_the_tasks_played_alone_and_measures_are_marked() -> None:
    rp = load("reference_policies")
    rows = {(t.game, t.task): t for t in rp.targets()}
    stardew = specs()["stardew"]
    # a task with only a measuring variant under it is a row itself, beside the variant
    assert rows[("stardew", "farm_clearup")].scored
    assert not rows[("stardew", "farm_clearup:count")].scored
    # a mission's rows are its checkpoints, not the mission
    rdr2 = specs()["rdr2"]
    assert ("rdr2", "mission1") not in rows
    assert {t.key for t in rdr2.subtasks("mission1")} <= {k for g, k in rows if g == "rdr2"}
    assert {t.key for t in stardew.tasks} == {k for g, k in rows if g == "stardew"}


def test_a_measure_row_shows_its_progress_not_a_failure() -> None:
    rp = load("reference_policies")
    t = next(t for t in rp.targets(["stardew"]) if not t.scored)
    p = {"success": 0, "episodes": 5, "mean_steps": 100.0, "mean_progress": 0.62, "failures": {}}
    policies = dict.fromkeys(rp.POLICIES, p)
    row = {"target": rp.asdict(t), "policies": policies, "blind_call": None,
           "distinct_sequences": 5}  # fmt: skip
    table = rp.markdown([row], [1, 2, 3, 4, 5], "")
    line = next(x for x in table.splitlines() if "farm_clearup:count" in x)
    assert "62 % of it" in line and "0/5" not in line
    assert "### stardew" in table
