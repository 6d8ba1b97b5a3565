import json

import pytest

from agents.cli import main


def test_list_prints_every_id_with_its_card_line(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for env_id in ("GCC/Stardew-FarmClearup", "GCC/Stardew-Cultivation", "GCC/Stardew-Shopping"):
        line = next(line for line in out.splitlines() if line.startswith(env_id))
        assert "Stardew Valley" in line and "—" in line


def test_list_renders_placeholders_and_markup_and_tells_every_id_apart(capsys):
    assert main(["list"]) == 0
    rows = [line.split(None, 1) for line in capsys.readouterr().out.splitlines()]
    texts = [text for _, text in rows]
    assert not any("$" in t or "``" in t or ":class:" in t for t in texts)
    assert len(set(texts)) == len(texts)  # ids sharing a card differ by their task
    by_id = dict(rows)
    assert "'<phrase>'" in by_id["GCC/Desktop-SaveText"]
    assert "Linux twin" in by_id["GCC/Chrome-DarkMode"]  # a card, not the factory's docstring
    assert "one day" in by_id["GCC/DealersLife2-Day"]  # the task class's own instruction
    osworld = [text for env_id, text in rows if env_id.startswith("GCC/OSWorld-")]
    assert osworld and all(" — " in t and len(t.split(" — ")[1]) > 10 for t in osworld)


def test_train_help_gives_every_option_a_text_and_its_default():
    import argparse

    from agents.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser = sub.choices["train"]
    text = " ".join(parser.format_help().split())
    for action in parser._actions:
        assert action.help, f"{action.option_strings or action.dest} has no help text"
    for default in ("(default: ppo)", "(default: 100000)", "(default: 2)", "(default: auto)"):
        assert default in text


def test_every_command_has_one_handler_from_its_own_module():
    import argparse

    from agents.cli import build_parser
    from agents.commands import MODULES

    def leaves(parser):
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            yield parser
        for sub in subs:
            for child in sub.choices.values():
                yield from leaves(child)

    commands = list(leaves(build_parser()))
    assert len(commands) >= len(MODULES) + 4  # bench+report, osworld's four
    owners = set()
    for parser in commands:
        handler = parser.get_default("handler")
        assert callable(handler), f"{parser.prog} has no handler"
        owners.add(handler.__module__)
    assert owners == set(MODULES)


def test_train_table_prints_timesteps_as_whole_numbers():
    from agents.sb3.cli import format_history

    row = {"success_rate": 0.5, "mean_return": 1.0, "mean_progress": 0.25}
    table = format_history(row, [{"timesteps": 4096.0, "wall_s": 3.0, **row}])
    assert " 4096 " in table and "4096.0" not in table


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
        assert r["env_id"] == "GCC/Stardew-Shopping-v1" and r["policy"] == "random"
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
