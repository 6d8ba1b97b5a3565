"""``gcc-gym bench`` on two Ray nodes, with a worker and then the driver killed mid-suite.

Run: ``python benchmarks/perf_bench_faults.py [--suite smoke]`` (needs the ``bench`` extra:
Ray). Every step is a fresh ``gcc-gym bench`` process as a researcher starts it:

1. ``--workers 1`` in-process: the reference records;
2. a Ray head and a second node (``ray start``, each its own raylet, on loopback addresses),
   the suite given ``--address`` and ``--workers 2``: episodes per node id, and whether every
   outcome equals the reference's (lockstep envs with seeded policies must give the same);
3. the same with the worker process of the first recorded episode SIGKILLed while the suite
   runs: episodes retried, every episode recorded once, outcomes still the reference's;
4. ``--workers 1`` with the driver SIGKILLed after a few records, then ``--resume``: how many
   episodes the resumed run ran, and whether anything recorded before the kill was lost.

``--mistakes`` runs instead the mistakes a person makes (no Ray needed but for the last):

5. a suite of 10^9 seeds (a typo) against the same suite of 4: the refusal's wall time and the
   process's peak RSS for each, alternating;
6. two ``gcc-gym bench`` started together on one ``--out``: exit codes, records, duplicates;
7. each bad line (torn, wrong-typed, duplicate, foreign) in a finished run's results: what
   ``--resume`` and ``report`` say and do, and the next ``--resume``;
8. a ``--workers 2`` driver SIGKILLed once its local Ray runs: Ray processes left after 10 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

SUITES = Path(__file__).resolve().parent / "suites"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def records(out: Path) -> list[dict]:
    path = out / "results.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def outcomes(out: Path) -> dict[str, tuple]:
    return {
        r["key"]: (r["status"], r.get("success"), r.get("steps"), r.get("return"))
        for r in records(out)
    }


def cli(suite: Path, out: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "agents.cli", "bench", str(suite), "--out", str(out), *args]


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[3:])} failed:\n{done.stderr[-3000:]}")
    return time.perf_counter() - t0, summary(done.stdout)


def summary(stdout: str) -> str:
    """The ``N episodes: ran ...`` line (Ray may print a dead worker's notice first)."""
    return next((x for x in stdout.splitlines() if " episodes: ran " in x), stdout[-500:])


def wait_records(out: Path, n: int, proc: subprocess.Popen[str]) -> list[dict]:
    while proc.poll() is None:
        recs = records(out)
        if len(recs) >= n:
            return recs
        time.sleep(0.05)
    raise SystemExit(f"the suite ended before {n} records: {proc.communicate()[1][-2000:]}")


TINY = """
[suite]
name = "tiny"
[[run]]
name = "shop"
env = "GCC/Stardew-Shopping"
policy = "random"
seeds = SEEDS
max_steps = 3
kwargs = { obs_size = [90, 160] }
"""


def timed(cmd: list[str]) -> tuple[float, int, int, str]:
    """Wall seconds, peak RSS (MB), exit code and stderr's last line of ``cmd``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    last = err.strip().splitlines()[-1] if err.strip() else ""
    return time.perf_counter() - t0, usage.ru_maxrss // 1024, proc.returncode, last


def mistakes(tmp: Path, repeat: int) -> None:
    huge, small = tmp / "huge.toml", tmp / "small.toml"
    huge.write_text(TINY.replace("SEEDS", "{ start = 0, count = 1000000000 }"))
    small.write_text(TINY.replace("SEEDS", "[0, 1, 2, 3]"))
    floor = [sys.executable, "-c", "import gcc_envs, agents.cli"]  # the CLI's imports alone
    for i in range(repeat):  # alternating: the refusal costs the same whatever the size
        for name, suite, extra in (("10^9 seeds", huge, []), ("4 seeds", small, ["3"])):
            flags = ["--max-episodes", *extra] if extra else []
            wall, rss, rc, last = timed(cli(suite, tmp / f"refused{i}", *flags))
            print(f"5. {name:10} refused: {wall:.2f} s, peak RSS {rss} MB, exit {rc}: {last[:90]}")
        wall, rss, rc, _ = timed(floor)
        print(f"5. imports alone (gcc_envs, agents.cli): {wall:.2f} s, peak RSS {rss} MB")

    out = tmp / "two"
    procs = [
        subprocess.Popen(
            cli(small, out, "--quiet"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    ends = [p.communicate() for p in procs]
    keys = Counter(r["key"] for r in records(out))
    print(
        f"6. two runs on one --out: exits {[p.returncode for p in procs]}; {sum(keys.values())} "
        f"records, {sum(keys.values()) - len(keys)} duplicates; the refused one said: "
        f"{next((e[1].strip().splitlines()[-1] for e in ends if e[1].strip()), '')[:140]}"
    )

    base = tmp / "base"
    subprocess.run(cli(small, base, "--quiet"), check=True, capture_output=True)
    lines = (base / "results.jsonl").read_text().splitlines(keepends=True)
    second = json.loads(lines[1])
    foreign = {**second, "config": {**second["config"], "suite": {"name": "other"}}}
    bad = {
        "torn": [lines[0], lines[1][:50] + "\n", *lines[2:]],
        "wrong-typed": [lines[0], json.dumps({**second, "steps": "3"}) + "\n", *lines[2:]],
        "duplicate": [*lines, lines[1]],
        "foreign": [*lines, json.dumps(foreign) + "\n"],
    }
    report = [sys.executable, "-m", "agents.cli", "report", "--no-plots", "--quiet"]
    for kind, text in bad.items():
        out = tmp / kind
        shutil.copytree(base, out)
        (out / "results.jsonl").write_text("".join(text))
        r1 = subprocess.run([*report, str(out)], capture_output=True, text=True)
        res = subprocess.run(cli(small, out, "--quiet", "--resume"), capture_output=True, text=True)
        r2 = subprocess.run([*report, str(out)], capture_output=True, text=True)
        again = subprocess.run(
            cli(small, out, "--quiet", "--resume"), capture_output=True, text=True
        )
        warn = next((x for x in r1.stderr.splitlines() if "skipped" in x), "no warning")
        print(
            f"7. {kind:11} report exit {r1.returncode}, resume exit {res.returncode} "
            f"({summary(res.stdout)[:40]}), report exit {r2.returncode}, next resume "
            f"({summary(again.stdout)[:40]}); warned: {warn.rpartition('results.jsonl ')[2][:70]}"
        )

    from agents.bench.localray import children_of

    out = tmp / "killed-ray"
    mid = tmp / "mid.toml"
    mid.write_text(TINY.replace("SEEDS", "{ start = 0, count = 200 }"))
    driver = subprocess.Popen(
        cli(mid, out, "--quiet", "--workers", "2"), stderr=subprocess.PIPE, text=True
    )
    started: list[int] = []
    while not any(_name(p).startswith("ray::EpisodeActor") for p in started):
        time.sleep(0.2)
        started = children_of(driver.pid)
    names = Counter(_name(p).split("/")[-1][:24] for p in started)
    driver.kill()
    _, err = driver.communicate()
    time.sleep(10)
    left = [p for p in started if _alive(p)]
    print(
        f"8. driver SIGKILLed with {len(started)} processes below it ({dict(names)}): "
        f"{len(left)} left after 10 s {[_name(p) for p in left]}; token-auth warning printed: "
        f"{'yes' if 'Token authentication' in err else 'no'}"
    )


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", default="smoke", help="a suite of benchmarks/suites/")
    p.add_argument("--kill-after", type=int, default=3, help="records before the driver dies")
    p.add_argument("--mistakes", action="store_true", help="steps 5-8 only")
    p.add_argument("--repeat", type=int, default=3, help="alternating samples of step 5")
    args = p.parse_args()
    if args.mistakes:
        tmp = Path(tempfile.mkdtemp(prefix="gcc-mistakes-"))
        print(f"cores {os.cpu_count()}, load {load()}, folder {tmp}")
        mistakes(tmp, args.repeat)
        print(f"load at end: {load()}")
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from agents.bench.cluster import LoopbackCluster

    suite = SUITES / f"{args.suite}.toml"
    tmp = Path(tempfile.mkdtemp(prefix="gcc-faults-"))
    print(f"suite {suite.name}, cores {os.cpu_count()}, load {load()}, folder {tmp}")
    wall, line = run(cli(suite, tmp / "one", "--quiet"), dict(os.environ))
    ref = outcomes(tmp / "one")
    print(f"1. --workers 1 in-process: {wall:.1f} s; {line}")

    with LoopbackCluster(nodes=2, cpus=1) as cluster:
        env = {**os.environ, **cluster.env}
        two = cli(suite, tmp / "two", "--quiet", "--address", cluster.address, "--workers", "2")
        wall, line = run(two, env)
        nodes = Counter(r["worker"]["node_id"][:8] for r in records(tmp / "two"))
        same = outcomes(tmp / "two") == ref
        print(f"2. two nodes ({cluster.address}): {wall:.1f} s; {line}")
        print(f"   episodes per node id: {dict(nodes)}; same outcomes: {'yes' if same else 'NO'}")

        out = tmp / "killed-worker"
        proc = subprocess.Popen(
            cli(suite, out, "--quiet", "--address", cluster.address, "--workers", "2"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        first = wait_records(out, 1, proc)[0]
        os.kill(first["worker"]["pid"], signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=1800)
        recs = records(out)
        keys = Counter(r["key"] for r in recs)
        print(
            f"3. worker pid {first['worker']['pid']} SIGKILLed after its first record: exit "
            f"{proc.returncode}; {summary(stdout) if stdout else stderr[-500:]}"
        )
        print(
            f"   {len(recs)} records of {len(ref)} episodes, each once: "
            f"{'yes' if set(keys.values()) == {1} and len(keys) == len(ref) else 'NO'}; "
            f"attempts {dict(Counter(r['attempts'] for r in recs))}; same outcomes: "
            f"{'yes' if outcomes(out) == ref else 'NO'}"
        )

    out = tmp / "killed-driver"
    proc = subprocess.Popen(
        cli(suite, out, "--quiet"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    wait_records(out, args.kill_after, proc)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    before = outcomes(out)
    wall, line = run(cli(suite, out, "--quiet", "--resume"), dict(os.environ))
    after = outcomes(out)
    kept = all(after.get(k) == v for k, v in before.items())
    print(f"4. driver SIGKILLed with {len(before)} records; --resume: {wall:.1f} s; {line}")
    print(
        f"   {len(after)} of {len(ref)} episodes recorded; the {len(before)} before the kill "
        f"kept: {'yes' if kept else 'NO'}; same outcomes: {'yes' if after == ref else 'NO'}"
    )
    print(f"load at end: {load()}")


if __name__ == "__main__":
    main()
