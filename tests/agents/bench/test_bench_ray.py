"""``gcc-gym bench`` on Ray: a head and a second node (own raylets) on loopback addresses.

One cluster serves the whole module: two nodes of one CPU each, so two workers land one per
node. Episodes are lockstep and seeded, so they give the same results wherever they run.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from agents.bench import BenchConfig, parse_suite, run_suite

ray = pytest.importorskip("ray")

from agents.bench.cluster import LoopbackCluster  # noqa: E402

pytestmark = pytest.mark.slow

SUITE = """
[suite]
name = "ray"
[[run]]
name = "clear"
env = "GCC/Stardew-FarmClearup"
policy = "scripted"
seeds = [0, 1, 2]
kwargs = { obs_size = [90, 160] }
[[run]]
name = "rdr2"
env = "GCC/RDR2-Mission3"
policy = "scripted"
seeds = [0, 1, 2]
kwargs = { obs_size = [90, 160] }
"""


def reset_auth() -> None:
    """Make this process's Ray read the token settings again (set after ``import ray``)."""
    from ray._private.authentication_test_utils import reset_auth_token_state

    reset_auth_token_state()


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[LoopbackCluster, list[str]]]:
    with LoopbackCluster(nodes=2, cpus=1) as c:
        with pytest.MonkeyPatch.context() as mp:
            for k, v in c.env.items():
                mp.setenv(k, v)
            reset_auth()
            ray.init(
                address=c.address,
                _node_ip_address=c.ip(0),
                log_to_driver=False,
                logging_level="WARNING",
            )
            try:
                yield c, c.wait_nodes(ray)
            finally:
                ray.shutdown()
        reset_auth()


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def outcomes(out: Path) -> dict[str, tuple]:
    return {
        r["key"]: (r["success"], r["steps"], r["return"], r["progress"], r["metrics"])
        for r in records(out)
    }


def suite_file(tmp_path: Path) -> Path:
    path = tmp_path / "suite.toml"
    path.write_text(SUITE)
    return path


def test_a_two_node_run_uses_both_nodes_and_matches_the_single_process_run(
    cluster, tmp_path: Path
) -> None:
    c, node_ids = cluster
    path = suite_file(tmp_path)
    here = tmp_path / "here"
    run_suite(parse_suite(SUITE, str(path)), here, BenchConfig(progress=False))
    # the CLI as a researcher types it, a separate driver given the cluster's address
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agents.cli",
            "bench",
            str(path),
            "--out",
            str(tmp_path / "ray"),
            "--address",
            c.address,
            "--workers",
            "2",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **c.env},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    recs = records(tmp_path / "ray")
    assert len(recs) == 6 and all(r["status"] == "ok" for r in recs)
    assert {r["worker"]["node_id"] for r in recs} == set(node_ids)  # both nodes ran episodes
    assert outcomes(tmp_path / "ray") == outcomes(here)


def test_a_worker_killed_mid_episode_costs_only_a_retry(cluster, tmp_path: Path) -> None:
    path = suite_file(tmp_path)
    out = tmp_path / "out"
    seen: list[str] = []
    timers: list[threading.Timer] = []

    def kill_one(episode, attempt, worker) -> None:
        seen.append(episode.key)
        if len(seen) == 4:  # the 4th episode handed out: kill its worker once it has started
            t = threading.Timer(0.3, os.kill, (worker["pid"], signal.SIGKILL))
            t.start()
            timers.append(t)

    summary = run_suite(
        parse_suite(SUITE, str(path)), out, BenchConfig(workers=2, progress=False), kill_one
    )
    for t in timers:
        t.join()
    recs = records(out)
    assert (summary.ok, summary.errors, summary.retried) == (6, 0, 1)
    assert len(recs) == 6 and len({r["key"] for r in recs}) == 6
    assert sorted(r["attempts"] for r in recs) == [1, 1, 1, 1, 1, 2]
    assert all(r["status"] == "ok" for r in recs)


def test_an_episode_whose_worker_dies_twice_is_recorded_as_an_error(
    cluster, tmp_path: Path
) -> None:
    path = suite_file(tmp_path)
    out = tmp_path / "out"
    target = "rdr2|GCC/RDR2-Mission3||1"

    def kill_target(episode, attempt, worker) -> None:
        if episode.key == target:
            os.kill(worker["pid"], signal.SIGKILL)

    summary = run_suite(
        parse_suite(SUITE, str(path)), out, BenchConfig(workers=2, progress=False), kill_target
    )
    by_key = {r["key"]: r for r in records(out)}
    assert (summary.ok, summary.errors) == (5, 1) and len(by_key) == 6
    assert by_key[target]["status"] == "error" and by_key[target]["attempts"] == 2
    assert "worker lost 2 times" in by_key[target]["error"]


@pytest.mark.desktop
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
def test_desktop_workers_each_run_their_own_display(cluster, tmp_path: Path) -> None:
    text = """
[[run]]
name = "desktop"
env = "GCC/Desktop"
policy = "random"
seeds = [0, 1, 2, 3]
max_steps = 3
"""
    path = tmp_path / "desktop.toml"
    path.write_text(text)
    out = tmp_path / "out"
    summary = run_suite(parse_suite(text, str(path)), out, BenchConfig(workers=2, progress=False))
    recs = records(out)
    assert summary.ok == 4, [r.get("error") for r in recs]
    assert len({r["worker"]["pid"] for r in recs}) == 2  # two workers, a display each


def test_a_killed_driver_leaves_no_ray_process_behind(tmp_path: Path) -> None:
    """SIGKILL the driver of a local Ray run: everything it started is gone within 10 s (its
    supervisor stops Ray), and Ray printed no token-auth warning."""
    import time

    from agents.bench.localray import children_of

    path = tmp_path / "suite.toml"
    path.write_text(SUITE.replace("seeds = [0, 1, 2]", "seeds = { start = 0, count = 40 }"))
    out = tmp_path / "out"
    driver = subprocess.Popen(
        [sys.executable, "-m", "agents.cli", "bench", str(path), "--out", str(out)]
        + ["--workers", "2", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 240
    started: list[int] = []  # the supervisor, Ray's head, raylet, its agents (and workers)
    agents = {"ray::DashboardAgent", "ray::RuntimeEnvAgent"}  # what a killed ray.init left
    while not agents <= {name(p) for p in started}:
        assert driver.poll() is None, driver.communicate()[1][-2000:]
        assert time.monotonic() < deadline, "Ray did not start within 240 s"
        time.sleep(0.2)
        started = children_of(driver.pid)
    driver.kill()
    _, stderr = driver.communicate()
    gone = time.monotonic() + 10
    while time.monotonic() < gone and any(alive(p) for p in started):
        time.sleep(0.2)
    assert [p for p in started if alive(p)] == []
    assert "Token authentication" not in stderr


def name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
    except OSError:
        return ""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"
