"""Reports that state reliability: intervals, repeats (pass@k, pass^k, flips), classes, width."""

from __future__ import annotations

import io
import json
import re
from importlib.util import find_spec
from pathlib import Path

import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.bench import BenchConfig, parse_suite, run_suite
from agents.bench.layout import cell, print_rich
from agents.bench.reliability import pass_at, pass_hat, repeats_table
from agents.bench.report import report
from agents.bench.tables import Rate, all_tables, wilson

printed = pytest.mark.skipif(find_spec("rich") is None, reason="rich missing (bench extra)")


def rec(env: str, seed: int, success: bool, policy: str = "agent", **extra) -> dict:
    return {
        "key": f"{env}|{policy}|{seed}|{extra.pop('repeat', 0)}",
        "run": "r",
        "env_id": env,
        "task": None,
        "policy": policy,
        "seed": seed,
        "status": extra.pop("status", "ok"),
        "success": success,
        "steps": 5,
        "return": float(success),
        "progress": float(success),
        "metrics": extra.pop("metrics", {}),
        "config": {"task_info": {"game": "Game"}, "suite": {"name": "s"}},
        **extra,
    }


def test_wilson_interval_is_not_zero_wide_at_none_or_all() -> None:
    assert wilson(0, 10)[0] == 0.0 and 0.25 < wilson(0, 10)[1] < 0.35
    assert 0.65 < wilson(10, 10)[0] < 0.75 and wilson(10, 10)[1] == 1.0
    lo, hi = wilson(5, 10)
    assert lo < 0.5 < hi and round(lo + hi, 6) == 1.0


def test_pass_at_k_and_pass_hat_k_are_the_unbiased_estimators() -> None:
    assert pass_at(3, 0, 3) == 0.0 and pass_at(3, 1, 3) == 1.0
    assert pass_hat(3, 2, 3) == 0.0 and pass_hat(3, 3, 3) == 1.0
    assert pass_at(4, 2, 2) == pytest.approx(1 - 1 / 6) and pass_hat(4, 2, 2) == 1 / 6


def test_repeats_table_gives_pass_k_and_flip_rate_per_task_counting_crashes() -> None:
    records = [
        # task A: seed 0 always succeeds, seed 1 flips (the crash counts as a failure)
        *(rec("A", 0, True, repeat=r) for r in range(3)),
        rec("A", 1, True, repeat=0),
        rec("A", 1, False, repeat=1),
        rec("A", 1, False, repeat=2, status="error", error_class="crashed"),
        # task B: never
        *(rec("B", s, False, repeat=r) for s in (0, 1) for r in range(3)),
    ]
    t = repeats_table(records)
    assert t is not None
    rows = {row[0]: dict(zip(t.columns, row)) for row in t.rows}
    a = rows["A"]
    assert (a["instances"], a["k"], a["success rate"]) == (2, 3, Rate(4, 6))
    assert (a["pass@k"], a["pass^k"], a["flip rate"]) == (1.0, 0.5, "1/2")
    assert (rows["B"]["pass@k"], rows["B"]["pass^k"], rows["B"]["flip rate"]) == (0, 0, "0/2")
    assert rows["(all)"]["success rate"] == Rate(4, 12) and rows["(all)"]["flip rate"] == "1/4"
    assert repeats_table([rec("A", 0, True), rec("A", 1, True)]) is None  # no repeats


def wide_records() -> list[dict]:
    usage = {"calls": 12, "prompt_tokens": 123456, "completion_tokens": 7890, "cost_usd": 0.1234}
    out = []
    for i, env in enumerate(["GCC/Stardew-FarmClearup-v0", "GCC/RDR2-Mission3-v0"]):
        for seed in range(3):
            metrics = {f"metric_{m}": 1234.5678 * (m + seed) for m in range(20)}  # transposed
            out.append(
                rec(
                    env,
                    seed,
                    seed != 1,
                    policy="cradle [gpt-4o-2024-08-06]",
                    policy_info=usage,
                    metrics=metrics,
                )
            )
        out.append(rec(env, 3, False, status="error", error_class="refused", error="x" * 300))
        out.append(rec(env, 4, False, unsupported="needs the network", repeat=i))
    return out


@printed
def test_every_table_fits_80_columns_and_keeps_every_number_whole() -> None:
    from rich.console import Console

    tables = all_tables(wide_records())
    buf = io.StringIO()
    print_rich(tables, Console(file=buf, width=80, color_system=None))
    text = buf.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text and "metric_19" in text and "(part 2 of" in text
    flat = re.sub(r"\s+", " ", text)
    for t in tables:
        for row in t.rows:
            for i, v in enumerate(row):
                if isinstance(v, (int, float)) or str(v)[:1].isdigit():
                    assert cell(v) in flat, (t.name, t.columns[i], cell(v))


TWICE = """
[suite]
name = "repeats"
[defaults]
kwargs = { obs_size = [90, 160] }
[[run]]
name = "shop"
env = "GCC/Stardew-Shopping"
policy = "random"
seeds = [0, 1]
repeats = 2
max_steps = 3
[[run]]
name = "broken"
env = "GCC/Stardew-Shopping"
policy = "scripted"
seeds = [0]
repeats = 2
kwargs = { no_such_kwarg = 1 }
"""


@printed
def test_a_report_on_a_run_with_repeats_gives_intervals_pass_k_flips_and_failures_by_class(
    tmp_path: Path, capsys
) -> None:
    path = tmp_path / "suite.toml"
    path.write_text(TWICE)
    out = tmp_path / "out"
    summary = run_suite(parse_suite(TWICE, str(path)), out, BenchConfig(progress=False))
    assert (summary.total, summary.ok, summary.errors) == (6, 4, 2)
    recs = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    shop = [r for r in recs if r["run"] == "shop"]
    assert [r["key"].rpartition("|")[2] for r in shop] == ["0", "r1", "1", "r1"]
    seeds = [r["config"]["policy_kwargs"]["seed"] for r in shop]
    assert seeds[0] == 0 and seeds[2] == 1 and len(set(seeds)) == 4  # the policy's differ
    assert {r["config"]["env_kwargs"]["obs_size"][0] for r in shop} == {90}
    broken = [r for r in recs if r["run"] == "broken"]
    assert {r["error_class"] for r in broken} == {"refused"}

    tables, _ = report(out, plots=False, show=True)
    names = [t.name for t in tables]
    assert names[:3] == ["summary", "failures", "repeats"]
    by = {t.name: t for t in tables}
    got = {row[1]: dict(zip(by["summary"].columns, row)) for row in by["summary"].rows}
    assert got["scripted"]["episodes"] == 2 and got["scripted"]["refused"] == 2  # counted
    assert got["scripted"]["success rate"] == Rate(0, 2) and got["random"]["refused"] == 0
    assert by["failures"].rows[0][:4] == ("refused", "GCC/Stardew-Shopping", "scripted", 2)
    rows = {row[1]: dict(zip(by["repeats"].columns, row)) for row in by["repeats"].rows}
    assert rows["random"]["k"] == 2 and rows["random"]["instances"] == 2
    assert rows["scripted"]["flip rate"] == "0/1"
    md = (out / "report" / "report.md").read_text()
    assert "6 episodes: 4 ok, 0 crashed, 2 refused, 0 unsupported." in md
    assert "pass^k" in md and "| 0/4 | 0.00 [0.00, 0.49] |" in md  # 0/4 with its interval
    shown = capsys.readouterr().out
    assert "pass^k" in shown and "refused" in shown
