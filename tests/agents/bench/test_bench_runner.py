"""``gcc-gym bench`` in-process: records with their whole config, resume, errors, kill, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.bench import BenchConfig, parse_suite, run_suite
from agents.bench.records import ResultsFile
from agents.cli import main
from gcc_envs.errors import GCCError

QUICK = """
[suite]
name = "quick"
[[run]]
name = "clear"
env = "GCC/Stardew-FarmClearup"
policy = "scripted"
seeds = [0, 1]
kwargs = { obs_size = [90, 160] }
[[run]]
name = "shop-random"
env = "GCC/Stardew-Shopping"
policy = "random"
seeds = [0, 1]
max_steps = 8
kwargs = { obs_size = [90, 160] }
"""


def write(tmp_path: Path, text: str, name: str = "suite.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def outcome(rec: dict) -> tuple:
    return (rec["success"], rec["steps"], rec["return"], rec["progress"], rec["metrics"])


def test_every_record_carries_the_whole_resolved_config(tmp_path: Path) -> None:
    path = write(tmp_path, QUICK)
    out = tmp_path / "out"
    summary = run_suite(parse_suite(path.read_text(), str(path)), out, BenchConfig(progress=False))
    assert (summary.total, summary.ran, summary.ok, summary.errors) == (4, 4, 4, 0)
    recs = records(out)
    assert [r["key"] for r in recs] == [
        "clear|GCC/Stardew-FarmClearup||0",
        "clear|GCC/Stardew-FarmClearup||1",
        "shop-random|GCC/Stardew-Shopping||0",
        "shop-random|GCC/Stardew-Shopping||1",
    ]
    first, last = recs[0], recs[-1]
    assert first["status"] == "ok" and first["success"] is True and first["attempts"] == 1
    cfg = first["config"]
    assert cfg["env_id"] == "GCC/Stardew-FarmClearup" and cfg["seed"] == 0
    assert first["versioned_id"] == "GCC/Stardew-FarmClearup-v1"
    assert cfg["env_kwargs"] == {"obs_size": [90, 160]}
    assert cfg["policy"] == "scripted" and cfg["policy_kwargs"] == {"seed": 0, "privileged": True}
    assert cfg["suite"]["name"] == "quick" and len(cfg["suite"]["sha256"]) == 64
    assert cfg["versions"]["gymnasium"] and cfg["versions"]["python"]
    assert "git" in cfg and cfg["task_info"]["game"] == "Stardew"
    assert last["steps"] == 8 and last["config"]["env_kwargs"]["max_episode_steps"] == 8
    assert first["worker"]["pid"] == os.getpid() and first["wall_time"] > 0
    assert (out / "suite.toml").read_text() == QUICK


def test_a_second_run_into_the_same_folder_needs_resume(tmp_path: Path) -> None:
    path = write(tmp_path, QUICK)
    suite = parse_suite(path.read_text(), str(path))
    run_suite(suite, tmp_path / "out", BenchConfig(progress=False))
    with pytest.raises(GCCError, match="--resume"):
        run_suite(suite, tmp_path / "out", BenchConfig(progress=False))
    again = run_suite(suite, tmp_path / "out", BenchConfig(resume=True, progress=False))
    assert (again.skipped, again.ran) == (4, 0)


def test_resume_refuses_results_recorded_with_other_settings(tmp_path: Path) -> None:
    path = write(tmp_path, QUICK)
    run_suite(
        parse_suite(path.read_text(), str(path)), tmp_path / "out", BenchConfig(progress=False)
    )
    changed = QUICK.replace("max_steps = 8", "max_steps = 9")
    with pytest.raises(GCCError, match="other settings"):
        run_suite(parse_suite(changed, str(path)), tmp_path / "out", BenchConfig(resume=True))


def test_an_episode_that_raises_is_recorded_as_an_error_and_the_suite_goes_on(
    tmp_path: Path,
) -> None:
    text = QUICK.replace(
        "kwargs = { obs_size = [90, 160] }\n[[run]]", "kwargs = { no_such_kwarg = 1 }\n[[run]]", 1
    )
    path = write(tmp_path, text)
    out = tmp_path / "out"
    summary = run_suite(parse_suite(text, str(path)), out, BenchConfig(progress=False))
    assert (summary.ok, summary.errors) == (2, 2)
    bad = records(out)[0]
    assert bad["status"] == "error" and "no_such_kwarg" in bad["error"]
    assert "Traceback" in bad["traceback"]
    # --resume alone keeps the errors; --retry-errors runs them again
    assert run_suite(parse_suite(text, str(path)), out, BenchConfig(resume=True)).ran == 0
    fixed = run_suite(
        parse_suite(text, str(path)), out, BenchConfig(resume=True, retry_errors=True)
    )
    assert fixed.ran == 2 and len(ResultsFile(out).load()) == 4


def test_a_torn_last_line_is_skipped_and_healed_before_resuming(tmp_path: Path) -> None:
    path = write(tmp_path, QUICK)
    suite = parse_suite(path.read_text(), str(path))
    out = tmp_path / "out"
    run_suite(suite, out, BenchConfig(progress=False))
    lines = (out / "results.jsonl").read_text().splitlines(keepends=True)
    (out / "results.jsonl").write_text("".join(lines[:2]) + lines[2][:40])  # killed mid-write
    assert len(ResultsFile(out).load()) == 2
    again = run_suite(suite, out, BenchConfig(resume=True, progress=False))
    assert again.ran == 2 and len(ResultsFile(out).load()) == 4
    assert outcome(records(out)[0]) == outcome(json.loads(lines[0]))


SLOW = """
[suite]
name = "slow"
[[run]]
name = "rdr2"
env = "GCC/RDR2-Mission3"
policy = "scripted"
seeds = { start = 0, count = 6 }
kwargs = { obs_size = [90, 160] }
"""


def _interruptible() -> None:
    """In the child before it starts: Ctrl-C as a terminal sends it. A shell that runs the
    tests in the background hands its children SIGINT ignored, and Python keeps an inherited
    SIG_IGN (no KeyboardInterrupt at all)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def bench_cli(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "agents.cli", "bench", *args, "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )


def wait_for_records(out: Path, n: int, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (out / "results.jsonl").exists() and len(ResultsFile(out).load()) >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError(f"fewer than {n} records after {timeout} s")


@pytest.mark.slow
def test_a_killed_driver_resumes_running_only_the_unfinished_episodes(tmp_path: Path) -> None:
    path = write(tmp_path, SLOW)
    out = tmp_path / "out"
    proc = bench_cli(str(path), "--out", str(out))
    wait_for_records(out, 2, proc)
    proc.kill()  # SIGKILL: no cleanup at all
    proc.communicate()
    before = records(out)
    assert 2 <= len(before) < 6
    resumed = subprocess.run(
        [
            sys.executable,
            "-m",
            "agents.cli",
            "bench",
            str(path),
            "--out",
            str(out),
            "--resume",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert f"{len(before)} already recorded" in resumed.stdout
    after = records(out)
    assert after[: len(before)] == before  # nothing recorded was lost or rewritten
    assert sorted(r["key"] for r in after) == sorted(
        f"rdr2|GCC/RDR2-Mission3||{s}" for s in range(6)
    )
    sessions = {r["session"] for r in after[len(before) :]}
    assert len(sessions) == 1 and sessions.isdisjoint({r["session"] for r in before})


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_keeping_every_record_and_says_how_to_resume(tmp_path: Path) -> None:
    # enough episodes that the suite cannot end between the first record and the signal
    path = write(tmp_path, SLOW.replace("count = 6", "count = 60"))
    out = tmp_path / "out"
    proc = bench_cli(str(path), "--out", str(out))
    wait_for_records(out, 1, proc)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr[-2000:]
    assert "--resume" in stdout and "Traceback" not in stderr
    kept = ResultsFile(out).load()
    assert 1 <= len(kept) < 60 and all(r["status"] == "ok" for r in kept.values())


def test_cli_bench_then_report(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, QUICK)
    out = tmp_path / "out"
    assert main(["bench", str(path), "--out", str(out), "--quiet"]) == 0
    assert "4 episodes: ran 4 (4 ok, 0 errors" in capsys.readouterr().out
    assert main(["report", str(out), "--quiet", "--no-plots"]) == 0
    assert (out / "report" / "report.md").is_file()
    assert main(["bench", str(path), "--out", str(out), "--quiet"]) == 2  # needs --resume
    assert "--resume" in capsys.readouterr().err


def test_cli_run_selects_runs_by_name_and_resume_adds_the_others(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, QUICK)
    out = tmp_path / "out"
    assert main(["bench", str(path), "--out", str(out), "--quiet", "--run", "shop-*"]) == 0
    assert "2 episodes: ran 2 (2 ok" in capsys.readouterr().out
    assert {r["run"] for r in records(out)} == {"shop-random"}
    assert main(["bench", str(path), "--out", str(out), "--quiet", "--resume"]) == 0
    assert "4 episodes: ran 2 (2 ok, 0 errors, 0 retried after a worker died), 2 already" in (
        capsys.readouterr().out
    )
    assert main(["bench", str(path), "--out", str(out), "--run", "nope"]) == 2
    assert "no run is named 'nope'" in capsys.readouterr().err


def test_more_than_one_worker_without_ray_names_the_extra(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    path = write(tmp_path, QUICK)
    with pytest.raises(GCCError, match=r"gcc-gym\[bench\]"):
        run_suite(
            parse_suite(path.read_text(), str(path)),
            tmp_path / "out",
            BenchConfig(workers=2, progress=False),
        )


def test_a_cradle_run_records_lmm_calls_tokens_and_cost_and_the_report_plots_cost(
    tmp_path: Path, monkeypatch
) -> None:
    pytest.importorskip("openai")
    pytest.importorskip("matplotlib", reason="the report's plots need the bench extra")
    from agents.bench.report import report
    from agents.cradle.testing import FakeOpenAI

    monkeypatch.setenv("OPENAI_API_KEY", "test-token")
    server = FakeOpenAI(token="test-token").start()
    try:
        server.default = "Reason: head south.\nAction:\n```python\nmove_down(duration=0.25)\n```"
        text = f"""
[[run]]
name = "cradle-fused"
env = "GCC/Stardew-Shopping"
policy = "cradle"
seeds = [0]
max_steps = 4
kwargs = {{ obs_size = [180, 320] }}
policy_kwargs = {{ base_url = "{server.base_url}", model = "gpt-4o", config = {{ fused = true }} }}
"""
        path = write(tmp_path, text)
        out = tmp_path / "out"
        summary = run_suite(parse_suite(text, str(path)), out, BenchConfig(progress=False))
        requests = len(server.chat_requests())
    finally:
        server.stop()
    (rec,) = records(out)
    assert summary.ok == 1, rec.get("traceback")
    usage = rec["policy_info"]
    assert usage["calls"] == requests == 4  # fused: one request per step
    assert usage["prompt_tokens"] > 0 and usage["cost_usd"] > 0
    assert rec["config"]["policy_kwargs"]["config"] == {"fused": True}
    tables, files = report(out, show=False)
    assert "cost USD" in tables[0].columns and out / "report" / "cost.png" in files
