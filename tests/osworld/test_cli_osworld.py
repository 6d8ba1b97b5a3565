"""``gcc-gym osworld run`` writes per-task results and a per-domain table."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from solutions import SOLUTIONS

from agents.cli import main
from agents.osworld_cli import domain_table

pytestmark = [pytest.mark.desktop]


def test_domain_table_has_osworld_s_groups() -> None:
    rows = [
        {"domain": "os", "score": 1.0},
        {"domain": "chrome", "score": 0.0},
        {"domain": "chrome", "score": 1.0},
    ]
    table = domain_table(rows)
    assert "| chrome | 50.0 % (2) |" in table and "| os | 100.0 % (1) |" in table
    assert "| OS | Office | Daily | Professional | Workflow | Overall |" in table
    assert table.splitlines()[-1] == "| 100.0 % (1) | – | 50.0 % (2) | – | – | 66.7 % (3) |"


def test_run_writes_results_and_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("Xvfb") is None or shutil.which("xterm") is None:
        pytest.skip("needs Xvfb, openbox and xterm")
    scripts = tmp_path / "scripts.json"
    scripts.write_text(json.dumps({k: SOLUTIONS[k] for k in ("e0df059f", "3720f614")}))
    out = tmp_path / "out"
    code = main(["osworld", "run", "e0df059f", "3720f614", "c288e301", "--policy", f"replay:{scripts}",
                 "--out", str(out), "--quiet"])  # fmt: skip
    assert code == 0
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [(r["task_id"][:8], r["score"]) for r in records] == [
        ("e0df059f", 1.0),
        ("3720f614", 1.0),
        ("c288e301", 0.0),
    ]
    assert all(r["setup_s"] >= 0 and r["steps"] >= 1 for r in records)
    table = (out / "table.md").read_text()
    assert "| os | 50.0 % (2) |" in table and "| chrome | 100.0 % (1) |" in table
    assert "Overall" in capsys.readouterr().out
