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


def test_domain_table_has_osworld_s_groups_and_counts_what_did_not_run_as_failures() -> None:
    rows = [
        {"domain": "os", "score": 1.0},
        {"domain": "chrome", "score": 0.0, "unsupported": "needs an account"},
        {"domain": "chrome", "score": 1.0},
    ]
    table = domain_table(rows)
    assert "| chrome | 50.0 % (2) | 1 / 0 |" in table and "| os | 100.0 % (1) | 0 / 0 |" in table
    assert "| **all** | 66.7 % (3) | 1 / 0 |" in table
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


@pytest.mark.parametrize("offline", [False, True])
def test_support_names_what_stops_each_task_without_running_any(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    offline: bool,
) -> None:
    monkeypatch.setenv("GCC_OSWORLD_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "tasks" / "os"
    folder.mkdir(parents=True)
    url = "https://files.example.org/a.txt"
    task = {"id": "download-task", "instruction": "Read a.txt.", "config": [{"type": "download",
            "parameters": {"files": [{"url": url, "path": "/home/user/a.txt"}]}}],
            "evaluator": {"func": "exact_match", "result": {"type": "vm_file", "path": "/home/user/a.txt",
                          "dest": "a.txt"}, "expected": {"type": "rule", "rules": {"expected": "x"}}}}  # fmt: skip
    (folder / "download-task.json").write_text(json.dumps(task))
    account = {**task, "id": "loginxyz-task", "config": [{"type": "login", "parameters": {}}]}
    (folder / "loginxyz-task.json").write_text(json.dumps(account))
    args = ["osworld", "support", str(tmp_path / "tasks")] + (["--offline"] if offline else [])
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "os/loginxyz: account:" in out
    assert ("os/download: network:" in out and url in out) is offline
    assert "| os | 2 | 1 (50 %) | 0 (0 %) |" in out
