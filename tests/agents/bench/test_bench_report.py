"""``gcc-gym report``: tables per env × policy and per game with standard errors, CSV, PNGs."""

from __future__ import annotations

import csv
import itertools
import json
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.bench import BenchConfig, load_suite, run_suite
from agents.bench.report import csv_rows, report, to_markdown
from agents.bench.tables import (
    Rate,
    Stat,
    all_tables,
    efficiency_table,
    group_table,
    stat,
    success_table,
    summary_table,
)
from agents.cli import main

SMOKE = Path(__file__).resolve().parents[3] / "benchmarks" / "suites" / "smoke.toml"
PNG = b"\x89PNG\r\n\x1a\n"
SEEDS = itertools.count()
#: Plots need matplotlib, printed tables rich (the bench extra).
plots = pytest.mark.skipif(
    find_spec("matplotlib") is None, reason="matplotlib missing (pip install 'gcc-gym[bench]')"
)
printed = pytest.mark.skipif(
    find_spec("rich") is None, reason="rich missing (pip install 'gcc-gym[bench]')"
)


def rec(task: str | None, policy: str, success: bool, steps: int, **extra) -> dict:
    info = {"game": "Game", "difficulty": extra.pop("difficulty", ""), "parent": "", **extra}
    if task and ":" in task:
        info["parent"] = task.partition(":")[0]
    return {
        "key": f"{task}|{policy}|{steps}",
        "run": extra.pop("run", "r"),
        "seed": extra.pop("seed", next(SEEDS)),  # each its own instance unless told
        "env_id": "GCC/Game-M",
        "task": task,
        "policy": policy,
        "status": extra.pop("status", "ok"),
        "success": success,
        "steps": steps,
        "return": float(success),
        "progress": float(success),
        "metrics": extra.pop("metrics", {"reached": float(success)}),
        "policy_info": extra.pop("policy_info", {}),
        "config": {"task_info": info, "suite": {"name": "t"}},
    }


def test_stat_gives_the_mean_and_its_standard_error() -> None:
    assert stat([1, 0, 1, 0], binary=True) == Stat(0.5, 0.25, 4)
    assert stat([2.0, 4.0, 6.0]) == Stat(4.0, round(2 / 3**0.5, 4), 3)
    assert str(stat([5.0])) == "5" and str(stat([])) == "-"


def test_success_table_lists_checkpoints_with_difficulty_and_the_missions_total() -> None:
    records = [
        rec("m:a", "scripted", True, 4, difficulty="easy"),
        rec("m:a", "scripted", True, 6, difficulty="easy"),
        rec("m:b", "scripted", False, 9, difficulty="hard"),
        rec("m:b", "scripted", True, 7, difficulty="hard"),
        rec("m:a", "random", False, 50, difficulty="easy"),
        rec("m:b", "random", False, 50, difficulty="hard"),
        rec("m:b", "random", True, 1, difficulty="hard", status="error"),  # a failure
    ]
    t = success_table(records, "Game")
    assert t.columns == (
        "task",
        "difficulty",
        "scripted success",
        "scripted rate",
        "random success",
        "random rate",
    )
    rows = {row[0]: row for row in t.rows}
    assert rows["m:a"][1:4] == ("easy", "2/2", Rate(2, 2))
    assert rows["m:b"][2:6] == ("1/2", Rate(1, 2), "0/2", Rate(0, 2))  # the error counts
    assert rows["m (all)"][2] == "3/4"
    assert str(Rate(2, 2)) == "1.00 [0.34, 1.00]"  # not ± 0 at n/n
    assert [row[0] for row in t.rows] == ["m:a", "m:b", "m (all)"]


def test_summary_counts_failed_episodes_in_the_rate_by_class_with_lmm_cost_and_efficiency() -> None:
    usage = {"calls": 4, "prompt_tokens": 900, "completion_tokens": 100, "cost_usd": 0.02}
    records = [
        rec(None, "cradle", True, 10, expected_steps=5, policy_info=usage),
        rec(None, "cradle", False, 20, expected_steps=5, policy_info={**usage, "cost_usd": 0.04}),
        rec(None, "cradle", False, 0, status="error"),
    ]
    (row,) = summary_table(records).rows
    cols = summary_table(records).columns
    got = dict(zip(cols, row))
    assert got["episodes"] == 3 and got["crashed"] == 1 and got["success"] == "1/3"
    assert got["success rate"] == Rate(1, 3) and "refused" not in got  # no refused episode
    assert got["efficiency"] == stat([0.5, 0.0])  # a failure counts 0
    assert got["cost USD"] == stat([0.02, 0.04]) and got["tokens"] == stat([1000, 1000])


def test_metrics_tables_group_tasks_by_what_they_report_and_csv_splits_mean_and_se() -> None:
    records = [
        rec("shop", "scripted", True, 3, metrics={"bought": 5.0, "money": 400.0}),
        rec("shop", "scripted", True, 3, metrics={"bought": 3.0, "money": 450.0}),
        rec("farm", "scripted", True, 3, metrics={"cleared": 20.0}),
    ]
    tables = {t.name: t for t in all_tables(records)}
    assert set(tables) == {"summary", "Game_success", "Game_metrics_shop", "Game_metrics_farm"}
    shop = tables["Game_metrics_shop"]
    assert shop.columns == ("task", "policy", "episodes", "bought", "money")
    assert shop.rows[0][3] == stat([5.0, 3.0])
    head, body = csv_rows(shop)
    assert head == ["task", "policy", "episodes", "bought", "bought_se", "money", "money_se"]
    assert body[0][3:5] == [4.0, 1.0]
    md = to_markdown(shop)
    assert "| shop | scripted | 2 | 4 ± 1 | 425 ± 25 |" in md


@plots
def test_group_table_gives_success_per_domain_and_over_all_of_them(tmp_path: Path) -> None:
    records = [
        rec("a1", "random", True, 3, group="chrome"),
        rec("a2", "random", False, 15, group="chrome"),
        rec("b1", "random", False, 15, group="os"),
        rec("b1", "cradle", True, 4, group="os"),
        rec("b2", "random", True, 2, group="os", status="error"),  # a failure
    ]
    t = group_table(records, "Game")
    assert t.columns == (
        "group",
        "tasks",
        "random success",
        "random rate",
        "cradle success",
        "cradle rate",
    )
    rows = {row[0]: row[1:] for row in t.rows}
    assert list(rows) == ["chrome", "os", "(all)"]
    assert rows["chrome"][:4] == (2, "1/2", Rate(1, 2), "-")
    assert rows["os"][:4] == (2, "0/2", Rate(0, 2), "1/1")
    assert rows["(all)"][:3] == (4, "1/4", Rate(1, 4))
    assert group_table([rec("a1", "random", True, 3)], "Game") is None  # no groups, no table
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    _, files = report(tmp_path, show=False)
    plot = tmp_path / "report" / "success_Game_groups.png"
    assert plot in files and plot.read_bytes().startswith(PNG)
    assert "Game_groups" in {t.name for t in all_tables(records)}


def test_efficiency_table_gives_success_steps_and_a_persons_steps_over_the_steps() -> None:
    records = [
        rec("send", "cradle", True, 4, expected_steps=2),
        rec("send", "cradle", True, 8, expected_steps=2),
        rec("send", "random", False, 30, expected_steps=2),
    ]
    t = efficiency_table(records, "Game")
    got = {row[1]: dict(zip(t.columns, row)) for row in t.rows}
    assert got["cradle"]["success"] == "2/2" and got["cradle"]["steps"] == stat([4, 8])
    assert got["cradle"]["efficiency"] == stat([0.5, 0.25]) and got["cradle"]["expected"] == 2
    assert got["random"]["success rate"] == Rate(0, 1)
    assert got["random"]["efficiency"].mean == 0.0  # failed: 0, not 2/30
    assert efficiency_table([rec("a", "random", True, 3)], "Game") is None


@pytest.mark.slow  # 16 s: runs the smoke suite first
@plots
@printed
def test_report_on_a_smoke_run_writes_tables_csv_and_png_plots(tmp_path: Path, capsys) -> None:
    out = tmp_path / "run"
    run_suite(load_suite(SMOKE), out, BenchConfig(progress=False))
    assert main(["report", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Stardew: success per task and policy" in printed and "RDR2" in printed
    folder = out / "report"
    md = (folder / "report.md").read_text()
    assert "| GCC/Stardew-FarmClearup | scripted | 2 | 2/2 | 1.00 [0.34, 1.00] |" in md
    with open(folder / "summary.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 7 and {"success rate_lo", "success rate_hi", "steps_se"} <= set(rows[0])
    for name in ("success_Stardew.png", "success_RDR2.png"):
        data = (folder / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 10_000
    assert not (folder / "cost.png").exists()  # no LMM policy ran


@plots
def test_report_plots_lmm_cost_per_episode(tmp_path: Path) -> None:
    usage = {"calls": 4, "prompt_tokens": 900, "completion_tokens": 100}
    records = [
        rec(None, "cradle", True, 10, policy_info={**usage, "cost_usd": 0.01 * i})
        for i in range(1, 4)
    ]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    _, files = report(tmp_path, show=False)
    cost = tmp_path / "report" / "cost.png"
    assert cost in files and cost.read_bytes().startswith(PNG)


def test_report_of_a_folder_without_results_is_an_error(tmp_path: Path, capsys) -> None:
    assert main(["report", str(tmp_path)]) == 2
    assert "gcc-gym bench" in capsys.readouterr().err


@pytest.mark.parametrize("missing", ["matplotlib", "rich"])
def test_report_without_the_bench_extra_names_it(tmp_path: Path, monkeypatch, missing) -> None:
    (tmp_path / "results.jsonl").write_text(json.dumps(rec(None, "random", True, 3)) + "\n")
    for name in [m for m in list(sys.modules) if m.split(".")[0] == missing]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, missing, None)
    from gcc_envs.errors import MissingExtraError

    with pytest.raises(MissingExtraError, match=r"gcc-gym\[bench\]"):
        report(tmp_path, plots=True, show=True)
