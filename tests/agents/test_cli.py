import json

import pytest

from agents.cli import main


def test_list_prints_every_id_with_its_card_line(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for env_id in ("GCC/Stardew-FarmClearup", "GCC/Stardew-Cultivation", "GCC/Stardew-Shopping"):
        line = next(line for line in out.splitlines() if line.startswith(env_id))
        assert "Stardew Valley" in line and "—" in line


def test_run_writes_results_table_csv_and_videos(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(
        [
            "run",
            "GCC/Stardew-Shopping",
            "--policy",
            "random",
            "--episodes",
            "2",
            "--seed",
            "7",
            "--obs-size",
            "72",
            "128",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    records = json.loads((out / "results.json").read_text())
    assert [r["seed"] for r in records] == [7, 8]
    for r in records:
        assert {
            "env_id",
            "seed",
            "policy",
            "success",
            "steps",
            "return",
            "game_time",
            "metrics",
        } <= set(r)
        assert r["env_id"] == "GCC/Stardew-Shopping-v0" and r["policy"] == "random"
        assert r["steps"] == 100 and r["success"] is False
        assert (out / r["video"]).stat().st_size > 1000
    csv_lines = (out / "results.csv").read_text().splitlines()
    assert len(csv_lines) == 3 and "metric.seeds_bought" in csv_lines[0]
    table = capsys.readouterr().out
    assert "success 0/2" in table


def test_run_reports_bad_arguments_as_errors(capsys):
    with pytest.raises(SystemExit):
        main(["run", "GCC/Stardew-Shopping", "--policy", "telepathy"])
    code = main(
        [
            "run",
            "GCC/Stardew-Shopping",
            "--policy",
            "random",
            "--episodes",
            "1",
            "--no-video",
            "--out",
            "unused",
            "--obs-size",
            "5",
            "5",
            "--quiet",
        ]
    )
    assert code == 2
    assert "obs_size" in capsys.readouterr().err
