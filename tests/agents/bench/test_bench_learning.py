"""Learning runs in ``gcc-gym bench``: the table's math (paired difference, its SE, forgetting,
the cost sums), the suite file's checks, and the shipped FRIDAY suite end to end against its
loopback fake endpoint (a few seconds)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from agents.bench.learning_tables import (
    cost_table,
    forgetting,
    learning_table,
    paired,
    usage_table,
)
from agents.bench.suite import parse_suite
from agents.cli import main
from gcc_envs.errors import DataError

SUITE = Path(__file__).parents[3] / "benchmarks" / "suites" / "friday.toml"
OFFICE = SUITE.with_name("friday_office.toml")


def _row(stage: str, split: str, seed: int, success: bool, **kw: Any) -> dict[str, Any]:
    usage = {"calls": 2, "prompt_tokens": 100, "completion_tokens": 10, "cost_usd": 0.5}
    return {"run": "r", "stage": stage, "split": split, "env_id": "GCC/X", "seed": seed,
            "game": "X", "success": success, **usage, **kw}  # fmt: skip


def test_difference_is_paired_by_task_with_its_standard_error() -> None:
    before = {("E", i): s for i, s in enumerate([False, False, False, True])}
    after = {("E", i): s for i, s in enumerate([True, True, False, True])}
    d = paired(before, after)
    # differences 1, 1, 0, 0: mean 0.5, sd sqrt(1/3), SE sd/2
    assert d.n == 4 and d.mean == 0.5 and math.isclose(d.se, math.sqrt(1 / 3) / 2, abs_tol=1e-4)
    assert paired({("E", 0): False}, {("E", 0): True}).mean == 1.0
    assert math.isnan(paired({("E", 0): False}, {("E", 0): True}).se)  # one task: no SE
    assert paired(before, {("F", 0): True}).n == 0  # no task in common: nothing to compare


def test_forgetting_is_success_after_learning_minus_at_the_end() -> None:
    after = {("E", 0): True, ("E", 1): True, ("E", 2): False}
    assert forgetting(
        after, {("E", 0): False, ("E", 1): True, ("E", 2): False}
    ).mean == pytest.approx(1 / 3)
    assert forgetting(after, after).mean == 0.0
    assert forgetting(
        after, {("E", 0): True, ("E", 1): True, ("E", 2): True}
    ).mean == pytest.approx(-1 / 3)
    assert forgetting(after, {}).n == 0  # the last split has no "final": shown as "-"


def test_tables_from_rows() -> None:
    rows = [_row("before", "a", 0, False), _row("before", "a", 1, False),
            _row("before", "b", 0, True),
            _row("curriculum", "a", 0, False),
            _row("learn", "a", 100, False, tools_kept=["t1"]),
            _row("after", "a", 0, True), _row("after", "a", 1, False),
            _row("learn", "b", 100, True, tools_kept=["t2"]),
            _row("after", "b", 0, True),
            _row("final", "a", 0, False), _row("final", "a", 1, False),
            {"run": "r", "stage": "done", "tools": ["t1", "t2"], "store_bytes": 99}]  # fmt: skip
    table = learning_table(rows)
    a, b = table.rows
    assert a[:5] == ("r", "a", "X", "friday", 2)
    assert (a[5].k, a[5].n, a[6].k, a[6].n) == (0, 2, 1, 2)
    assert a[7].mean == 0.5 and a[8].mean == 0.5  # learned one of two, then forgot it
    assert b[7].mean == 0.0 and b[8].n == 0
    cost = {r[1]: r for r in cost_table(rows).rows}
    assert cost["a"][2:] == (1, 4, 220, 1.0, 1, "t1")  # the curriculum's request counts too
    assert cost["(store)"][2:] == (2, 6, 330, 1.5, 2, "99 bytes")
    usage = {r[1]: r for r in usage_table(rows).rows}
    assert usage["evaluation"][2] == 8 and usage["learning"][2] == 2
    assert usage["learning"][3].mean == 2 and usage["learning"][4].mean == 110


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('policy = "random"', "only policy 'friday' learns"),
        ('endpoint = "http://x"', "'endpoint' is 'fake:NAME'"),
        ("[[learning.split]]\nname = \"s\"\ntrain = { env = \"E\" }\nheld_out = { env = \"E\", seeds = [0] }",
         "'train' needs 'seeds'"),
    ],
)  # fmt: skip
def test_bad_learning_tables_are_refused(extra: str, message: str) -> None:
    text = f'[[learning]]\nname = "l"\n{extra}\n'
    if "policy" not in extra:
        text = text.replace('name = "l"', 'name = "l"\npolicy = "friday"')
    if "split" not in extra:
        text += '[[learning.split]]\nname = "s"\ntrain = { env = "E", seeds = [1] }\n'
        text += 'held_out = { env = "E", seeds = [0] }\n'
    with pytest.raises(DataError, match=message):
        parse_suite(text, "s.toml")


def test_friday_suite_runs_the_protocol_and_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("openai")
    pytest.importorskip("matplotlib")
    out = tmp_path / "run"
    assert main(["bench", str(SUITE), "--out", str(out), "--quiet"]) == 0
    rows = [json.loads(x) for x in (out / "learning.jsonl").read_text().splitlines()]
    stages = [(r["stage"], r.get("split")) for r in rows]
    assert stages == [("before", "stardew")] * 2 + [("before", "dealers-life-2")] * 2 + [
        ("curriculum", "stardew"), ("learn", "stardew"), ("learn", "stardew"),
        ("after", "stardew"), ("after", "stardew"), ("learn", "dealers-life-2"),
        ("after", "dealers-life-2"), ("after", "dealers-life-2"),
        ("final", "stardew"), ("final", "stardew"), ("done", None)]  # fmt: skip
    assert rows[-1]["tools"] == ["leave_house", "open_the_shop"]
    assert all(r["calls"] > 0 and r["prompt_tokens"] > 0 for r in rows[:-1])
    # held-out episodes ran read-only: before learning nothing was retrieved, after it was
    assert (out / "stores" / "friday-games" / "tools" / "leave_house.json").exists()
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Held-out success before and after learning" in printed
    assert "Forgetting" in printed and "LMM use per episode" in printed
    assert (out / "report" / "learning.png").stat().st_size > 0
    assert (out / "report" / "learning.csv").read_text().startswith("Run,Split,Game,Policy")
    # a second run on the same folder refuses; --resume skips the finished learning run
    assert main(["bench", str(SUITE), "--out", str(out), "--quiet"]) == 2
    assert main(["bench", str(SUITE), "--out", str(out), "--quiet", "--resume"]) == 0
    assert len((out / "learning.jsonl").read_text().splitlines()) == len(rows)


def test_a_part_lists_task_files_relative_to_the_suite(tmp_path: Path) -> None:
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "a.json").write_text("{}")
    base = ('[[learning]]\nname = "l"\npolicy = "friday"\n[[learning.split]]\nname = "s"\n'
            'train = { env = "GCC/OSWorld", objective = "o", episodes = 1 }\n')  # fmt: skip
    suite = parse_suite(
        base + 'held_out = { env = "GCC/OSWorld", seeds = [0], tasks = ["tasks/a.json"] }\n',
        str(tmp_path / "s.toml"),
    )
    (part,) = [s.held_out for s in suite.learning[0].splits]
    assert part.tasks == (str((tmp_path / "tasks" / "a.json").resolve()),)
    with pytest.raises(DataError, match=r"task files that are not there: \['tasks/b.json'\]"):
        parse_suite(
            base + 'held_out = { env = "GCC/OSWorld", seeds = [0], tasks = ["tasks/b.json"] }\n',
            str(tmp_path / "s.toml"),
        )


@pytest.mark.desktop
@pytest.mark.slow
def test_office_suite_shows_the_learned_tool_turning_held_out_failures_into_successes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """friday_office.toml: held-out spreadsheet and slides tasks fail with the empty store and
    succeed after practice, where the stand-in model wrote write_cell (openpyxl) and
    write_title (python-pptx), both run in the sandbox."""
    import shutil

    from gcc_envs.sandbox import bwrap_missing

    pytest.importorskip("openai")
    pytest.importorskip("openpyxl")
    pytest.importorskip("pptx")
    if bwrap_missing() is not None or shutil.which("Xvfb") is None:
        pytest.skip("needs bubblewrap and Xvfb")
    out = tmp_path / "run"
    assert main(["bench", str(OFFICE), "--out", str(out), "--quiet"]) == 0
    rows = [json.loads(x) for x in (out / "learning.jsonl").read_text().splitlines()]
    held = {(r["stage"], r["task"]): r["success"] for r in rows if "task" in r}
    tasks = ("sheet-total", "sheet-revenue", "sheet-name", "sheet-month", "slides-review",
             "slides-roadmap")  # fmt: skip
    assert all(held[("before", t)] is False for t in tasks)
    assert all(held[("after", t)] is True for t in tasks)
    assert held[("final", "sheet-total")] is True  # nothing forgotten
    learned = [r for r in rows if r["stage"] == "learn"]
    assert learned[0]["tools_kept"] == ["write_cell"] and learned[0]["success"] is True
    assert learned[2]["tools_kept"] == ["write_title"] and learned[2]["success"] is True
    assert sorted(rows[-1]["tools"]) == ["write_cell", "write_title"]
