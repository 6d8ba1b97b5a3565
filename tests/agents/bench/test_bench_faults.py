"""``gcc-gym bench`` survives mistakes: oversized suites, two runs on one folder, bad records."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.bench import BenchConfig, parse_suite, run_suite
from agents.bench.lock import OutLock
from agents.bench.records import ResultsFile
from agents.bench.report import report
from agents.cli import main
from gcc_envs.errors import DataError, GCCError

TINY = """
[suite]
name = "tiny"
[[run]]
name = "shop"
env = "GCC/Stardew-Shopping"
policy = "random"
seeds = [0, 1, 2, 3]
max_steps = 3
kwargs = { obs_size = [90, 160] }
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "suite.toml"
    path.write_text(text)
    return path


def test_an_oversized_suite_is_refused_before_anything_is_built(tmp_path: Path, capsys) -> None:
    huge = TINY.replace("seeds = [0, 1, 2, 3]", "seeds = { start = 0, count = 1000000000 }")
    path = write(tmp_path, huge)
    suite = parse_suite(huge, str(path))
    tracemalloc.start()
    try:
        with pytest.raises(DataError, match=r"1,000,000,000 episodes.*--max-episodes"):
            run_suite(suite, tmp_path / "out", BenchConfig(progress=False))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * 1024**2  # counted, not materialised (a plan of 1e9 episodes: > 20 GB)
    assert not (tmp_path / "out").exists()
    assert main(["bench", str(path), "--out", str(tmp_path / "out")]) == 2
    assert "--max-episodes 1000000000" in capsys.readouterr().err


def test_max_episodes_sets_the_limit(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, TINY)
    out = str(tmp_path / "out")
    assert main(["bench", str(path), "--out", out, "--quiet", "--max-episodes", "3"]) == 2
    assert "4 episodes, more than the limit of 3" in capsys.readouterr().err
    assert main(["bench", str(path), "--out", out, "--quiet", "--max-episodes", "4"]) == 0


HOLD = """
import sys, time
from agents.bench.lock import OutLock
OutLock(sys.argv[1]).acquire()
print("held", flush=True)
time.sleep(600)
"""


def test_a_second_run_on_a_folder_refuses_naming_the_first_until_it_is_gone(
    tmp_path: Path, capsys, caplog
) -> None:
    path = write(tmp_path, TINY)
    out = tmp_path / "out"
    first = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert first.stdout is not None and first.stdout.readline() == "held\n"
        assert main(["bench", str(path), "--out", str(out), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert f"pid {first.pid} on {socket.gethostname()}" in err and "in use" in err
        assert not (out / "results.jsonl").exists()  # nothing ran
    finally:
        first.send_signal(signal.SIGKILL)  # dies holding the lock: the lock goes stale
        first.wait()
    assert main(["bench", str(path), "--out", str(out), "--quiet"]) == 0
    assert f"taking over the lock of a run that is gone (pid {first.pid}" in caplog.text
    assert len(ResultsFile(out).load()) == 4 and OutLock(out).owner() is None  # released


def test_two_runs_in_one_process_on_one_folder_cannot_both_hold_it(tmp_path: Path) -> None:
    with OutLock(tmp_path):
        with pytest.raises(GCCError, match=f"pid {os.getpid()}"):
            OutLock(tmp_path).acquire()
    with OutLock(tmp_path):  # free again once released
        pass


def test_a_folder_of_another_suite_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, TINY)
    run_suite(parse_suite(TINY, str(path)), tmp_path / "out", BenchConfig(progress=False))
    other = parse_suite(TINY.replace('name = "tiny"', 'name = "other"'), str(path))
    with pytest.raises(GCCError, match="holds results of suite 'tiny'"):
        run_suite(other, tmp_path / "out", BenchConfig(resume=True, progress=False))


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, Path]:
    """A finished run of TINY: its suite file and its folder (copy it before changing it)."""
    root = tmp_path_factory.mktemp("recorded")
    path = write(root, TINY)
    run_suite(parse_suite(TINY, str(path)), root / "out", BenchConfig(progress=False))
    return path, root / "out"


def corrupt(kind: str, lines: list[str]) -> tuple[list[str], int, int]:
    """``lines`` with one bad line of ``kind``; its line number and how many episodes then
    lack a valid record (a resume runs them)."""
    second = json.loads(lines[1])
    if kind == "torn":  # killed mid-write, then a later run appended after a newline
        return [lines[0], lines[1][:50] + "\n", *lines[2:]], 2, 1
    if kind == "wrong-typed":
        return [lines[0], json.dumps({**second, "steps": "three"}) + "\n", *lines[2:]], 2, 1
    if kind == "duplicate":  # a second run on the folder recorded the episode again
        return [*lines, lines[1]], len(lines) + 1, 0
    assert kind == "foreign"  # a record of another suite's run
    cfg = {**second["config"], "suite": {**second["config"]["suite"], "name": "other"}}
    return [*lines, json.dumps({**second, "config": cfg}) + "\n"], len(lines) + 1, 0


@pytest.mark.parametrize("kind", ["torn", "wrong-typed", "duplicate", "foreign"])
def test_a_bad_record_is_skipped_alike_by_resume_and_report_naming_its_line(
    recorded, tmp_path: Path, kind: str, caplog
) -> None:
    path, base = recorded
    out = tmp_path / "out"
    shutil.copytree(base, out)
    lines = (out / "results.jsonl").read_text().splitlines(keepends=True)
    bad, line, missing = corrupt(kind, lines)
    (out / "results.jsonl").write_text("".join(bad))

    read = ResultsFile(out).read()
    assert [(p.line, p.kind) for p in read.problems] == [(line, kind)]
    assert len(read.records) == 4 - missing
    _, files = report(out, plots=False, show=False)
    md = (out / "report" / "report.md").read_text()
    assert f"- line {line}: {kind}:" in md and f"{4 - missing} episodes:" in md
    assert f"line {line}: {kind}" in caplog.text  # warned

    suite = parse_suite(TINY, str(path))
    resumed = run_suite(suite, out, BenchConfig(resume=True, progress=False))
    assert (resumed.ran, resumed.skipped) == (missing, 4 - missing)
    again = ResultsFile(out).read()  # the bad line stays, skipped the same way
    assert [(p.line, p.kind) for p in again.problems] == [(line, kind)]
    assert len(again.records) == 4
    report(out, plots=False, show=False)
    assert run_suite(suite, out, BenchConfig(resume=True, progress=False)).ran == 0
