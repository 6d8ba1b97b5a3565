"""``gcc-gym run`` for a newcomer: refused nonsense, one-line errors, help with defaults, --record."""

from __future__ import annotations

import argparse
import json

import pytest

from agents.cli import build_parser, main


@pytest.mark.parametrize("episodes", ["0", "-1", "two"])
def test_run_refuses_episodes_below_one(episodes, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["run", "GCC/Stardew-Shopping", "--episodes", episodes, "--out", str(tmp_path)])
    assert stop.value.code == 2 and ">= 1" in capsys.readouterr().err
    assert not (tmp_path / "results.json").exists()


def test_a_misspelled_env_id_is_one_line_with_the_suggestion(capsys, tmp_path):
    code = main(["run", "GCC/Stardew-Cultivaton", "--episodes", "1", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "Did you mean: `Stardew-Cultivation`" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def run_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["run"]


def test_every_run_option_has_help_and_shows_its_default():
    parser = run_parser()
    text = parser.format_help()
    for action in parser._actions:
        assert action.help, f"{action.option_strings or action.dest} has no help text"
        has_default = action.default not in (None, False, argparse.SUPPRESS)
        if action.option_strings and has_default:
            assert f"(default: {action.default})" in " ".join(text.split()), action.dest
    assert "(default: 5)" in text and "(default: runs/latest)" in text


def test_run_record_writes_a_dataset_that_replay_accepts(tmp_path, capsys):
    from gcc_envs.datasets import load

    data = tmp_path / "data"
    code = main([
        "run", "GCC/Stardew-FarmClearup", "--policy", "random", "--episodes", "2",
        "--obs-size", "72", "128", "--no-video", "--quiet", "--out", str(tmp_path / "run"),
        "--record", str(data),
    ])  # fmt: skip
    assert code == 0 and f"dataset in {data}" in capsys.readouterr().out
    records = json.loads((tmp_path / "run" / "results.json").read_text())
    episodes = list(load(data))
    assert [len(e) for e in episodes] == [r["steps"] for r in records]
    assert [e.seed for e in episodes] == [0, 1] and all(e.complete for e in episodes)
    assert main(["replay", str(episodes[1].path), "--quiet"]) == 0
    assert "identical to the recording" in capsys.readouterr().out


def test_run_without_moviepy_skips_videos_with_a_note_unless_asked(tmp_path, capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "moviepy", None)  # as in a base install
    argv = ["run", "GCC/Stardew-Shopping", "--policy", "random", "--episodes", "1"]
    argv += ["--obs-size", "36", "64", "--quiet", "--out", str(tmp_path)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "no videos: moviepy is missing" in captured.err and "videos in" not in captured.out
    assert not (tmp_path / "videos").exists()
    assert main([*argv, "--video"]) == 2  # asked for: the extra is named
    assert "pip install -e '.[video]'" in capsys.readouterr().err
