"""``gcc-gym bench``: run every episode of a suite, in-process or on Ray, into ``results.jsonl``.

``workers=1`` without an address runs the episodes one after another in this process (Ray not
needed). Otherwise episodes go to Ray actors, one per worker, each running one episode at a
time in its own process (a local Ray instance with ``workers`` CPUs, or an existing cluster at
``address``; actors are spread over the nodes). A worker that dies mid-episode (SIGKILL, a
lost node) costs only that episode: it is run again on a fresh worker, and if that dies too
the episode is recorded as an error. Ctrl-C stops the suite; every record written so far is
kept and ``resume=True`` runs only the episodes not yet recorded.

Before anything runs, the suite's size is counted (a suite past ``max_episodes`` is refused
without building its episodes) and the ``--out`` folder is locked (:mod:`agents.bench.lock`:
a second run on it refuses, naming the first). A local Ray is started by
:mod:`agents.bench.localray`, which outlives this driver only to stop Ray when it dies.
"""

from __future__ import annotations

import logging
import math
import os
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.bench.lock import OutLock
from agents.bench.plan import MAX_EPISODES, Episode, check_size, expand
from agents.bench.records import ResultsFile, context, make_record
from agents.bench.suite import Suite
from agents.bench.worker import run_one, where
from gcc_envs.errors import GCCError, MissingExtraError

log = logging.getLogger(__name__)

#: Tries of an episode whose worker dies (the first run and one retry).
MAX_ATTEMPTS = 2
#: Seconds to wait for Ray workers to start before giving up (cluster too small?).
START_TIMEOUT_S = 300.0

#: Called as each episode is handed to a worker: ``(episode, attempt, worker)`` where worker is
#: :func:`~agents.bench.worker.where`'s answer for the process that runs it.
OnStart = Callable[[Episode, int, dict[str, Any]], None]


@dataclass(frozen=True)
class BenchConfig:
    """How to run a suite."""

    #: Episodes at a time (Ray actors); 1 without ``address``: in this process; 0: one per CPU
    #: of the cluster (or of this machine).
    workers: int = 1
    #: An existing Ray cluster (``"auto"``, ``"HOST:PORT"``, ``"ray://HOST:10001"``) or None.
    address: str | None = None
    #: Skip the episodes already in ``results.jsonl``.
    resume: bool = False
    #: With ``resume``, run the episodes recorded as errors again too.
    retry_errors: bool = False
    #: A progress bar across the whole suite.
    progress: bool = True
    #: CPUs each Ray worker asks for.
    cpus_per_worker: float = 1.0
    #: A suite with more episodes is refused before anything runs.
    max_episodes: int = MAX_EPISODES

    def __post_init__(self) -> None:
        if self.workers < 0 or self.cpus_per_worker <= 0:
            raise GCCError("workers must be >= 0 (0: as many as the cluster has CPUs)")


@dataclass(frozen=True)
class BenchSummary:
    total: int
    skipped: int
    ran: int
    ok: int
    errors: int
    retried: int
    interrupted: bool
    results: Path


def pending_episodes(
    episodes: list[Episode], results: ResultsFile, config: BenchConfig, suite: str | None = None
) -> list[Episode]:
    """The episodes still to run; refuses to mix a changed suite into old results."""
    done = results.read(suite).records
    if done and not config.resume:
        raise GCCError(
            f"{results.path} already holds {len(done)} records; pass --resume to run only the "
            "unfinished episodes, or choose a new --out"
        )
    for ep in episodes:
        old = done.get(ep.key)
        if old is not None and old.get("digest") != ep.digest():
            raise GCCError(
                f"{results.path}: episode {ep.key!r} was recorded with other settings than the "
                "suite file gives now; resume with the same suite, or choose a new --out"
            )
    return [
        ep
        for ep in episodes
        if ep.key not in done or (config.retry_errors and done[ep.key]["status"] != "ok")
    ]


def run_suite(
    suite: Suite,
    out_dir: str | Path,
    config: BenchConfig = BenchConfig(),
    on_start: OnStart | None = None,
) -> BenchSummary:
    """Run ``suite``'s unfinished episodes, appending a record per episode to the results."""
    out = Path(out_dir)
    check_size(suite, config.max_episodes)
    with OutLock(out):
        return _run_locked(suite, out, config, on_start)


def _run_locked(
    suite: Suite, out: Path, config: BenchConfig, on_start: OnStart | None
) -> BenchSummary:
    episodes = expand(suite)
    results = ResultsFile(out)
    results.claim(suite)
    todo = pending_episodes(episodes, results, config, suite.name)
    if suite.learning:
        from agents.bench.learning import LEARNING, read_learning

        if read_learning(out) and not config.resume:
            raise GCCError(
                f"{out / LEARNING} already holds learning records; pass --resume to run only "
                "the unfinished learning runs, or choose a new --out"
            )
    results.heal()
    if Path(suite.path).is_file():
        (out / "suite.toml").write_text(Path(suite.path).read_text())
    tally = _Tally(results, context(suite), uuid.uuid4().hex[:12], len(episodes), config)
    tally.open_bar(len(episodes) - len(todo))
    try:
        if todo and config.workers == 1 and config.address is None:
            _run_here(todo, out, tally, on_start)
        elif todo:
            _run_on_ray(todo, out, config, tally, on_start)
        if suite.learning and not tally.interrupted:
            tally.close_bar()
            tally.bar = None
            _run_learning(suite, out, config)
    except KeyboardInterrupt:
        tally.interrupted = True
    finally:
        tally.close_bar()
    return BenchSummary(
        total=len(episodes),
        skipped=len(episodes) - len(todo),
        ran=tally.ok + tally.errors,
        ok=tally.ok,
        errors=tally.errors,
        retried=tally.retried,
        interrupted=tally.interrupted,
        results=results.path,
    )


def _run_learning(suite: Suite, out: Path, config: BenchConfig) -> None:
    """The suite's learning runs, one after another in this process (the store is their state);
    with ``resume`` those recorded as finished are skipped, the others start again."""
    from agents.bench.learning import finished, run_learning

    done = finished(out)
    for run in suite.learning:
        if run.name in done:
            continue
        if config.progress:
            print(f"learning run {run.name!r}: {len(run.splits)} split(s)", flush=True)
        run_learning(run, out, suite.name)


class _Tally:
    """Writes records as they come and keeps the counts and the progress bar."""

    def __init__(
        self,
        results: ResultsFile,
        ctx: dict[str, Any],
        session: str,
        total: int,
        config: BenchConfig,
    ) -> None:
        self.results, self.ctx, self.session, self.total = results, ctx, session, total
        self.config = config
        self.ok = self.errors = self.retried = 0
        self.interrupted = False
        self.bar: Any = None

    def open_bar(self, initial: int) -> None:
        if self.config.progress and self.total:
            from tqdm import tqdm

            self.bar = tqdm(total=self.total, initial=initial, desc="bench", unit="ep")

    def close_bar(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def record(self, episode: Episode, result: dict[str, Any], attempts: int) -> None:
        self.results.append(make_record(episode, result, attempts, self.ctx, self.session))
        if result["status"] == "ok":
            self.ok += 1
        else:
            self.errors += 1
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix(ok=self.ok, errors=self.errors, refresh=False)


def _run_here(todo: list[Episode], out: Path, tally: _Tally, on_start: OnStart | None) -> None:
    me = where()
    for ep in todo:
        if on_start is not None:
            on_start(ep, 1, me)
        tally.record(ep, run_one(ep, str(out)), 1)


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MissingExtraError("ray", "bench") from None
    return ray


def _loopback(address: str) -> dict[str, Any]:
    """A cluster on loopback addresses (``127.0.0.2:6379``, nodes on one machine): attach this
    driver to the head's raylet there (Ray would look for one at the host's network address).

    >>> _loopback("127.0.0.2:6379"), _loopback("auto"), _loopback("10.0.0.5:6379")
    ({'_node_ip_address': '127.0.0.2'}, {}, {})
    """
    host = address.rpartition(":")[0] if ":" in address else ""
    return {"_node_ip_address": host} if host.startswith("127.") else {}


def _run_on_ray(
    todo: list[Episode],
    out: Path,
    config: BenchConfig,
    tally: _Tally,
    on_start: OnStart | None,
) -> None:
    ray = import_ray()
    from agents.bench.worker import EpisodeActor

    started_here = not ray.is_initialized()
    local = None
    if started_here:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        address = config.address
        if address is None:
            from agents.bench.localray import LocalRay

            cpus = (config.workers or os.cpu_count() or 1) * config.cpus_per_worker
            local = LocalRay(cpus=max(1, math.ceil(cpus)))
            address = local.start()
        try:
            ray.init(
                address=address,
                log_to_driver=False,
                logging_level=logging.WARNING,
                **_loopback(address),
            )
        except BaseException:
            if local is not None:
                local.stop()
            raise
    n = config.workers
    if n == 0:
        n = max(1, int(ray.cluster_resources().get("CPU", 1) // config.cpus_per_worker))
    n = max(1, min(n, len(todo)))
    remote = ray.remote(
        num_cpus=config.cpus_per_worker, max_restarts=0, scheduling_strategy="SPREAD"
    )(EpisodeActor)
    actors: list[Any] = []
    info: dict[Any, Any] = {}

    def spawn() -> Any:
        actor = remote.remote()
        actors.append(actor)
        info[actor] = actor.where.remote()
        return actor

    inflight: dict[Any, tuple[Any, Episode, int]] = {}
    try:
        idle = [spawn() for _ in range(n)]
        try:  # fail early when the cluster cannot host the workers
            ray.get([info[a] for a in idle], timeout=START_TIMEOUT_S)
        except ray.exceptions.GetTimeoutError:
            raise GCCError(
                f"{n} Ray workers of {config.cpus_per_worker} CPU did not start within "
                f"{START_TIMEOUT_S:.0f} s; the cluster has {ray.cluster_resources()}"
            ) from None
        queue = deque((ep, 1) for ep in todo)
        while queue or inflight:
            while idle and queue:
                actor = idle.pop()
                ep, attempt = queue.popleft()
                if on_start is not None:
                    on_start(ep, attempt, ray.get(info[actor]))
                inflight[actor.run.remote(ep, str(out))] = (actor, ep, attempt)
            ready, _ = ray.wait(list(inflight), num_returns=1)
            for ref in ready:
                actor, ep, attempt = inflight.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as e:  # the worker died (or was interrupted)
                    log.warning("worker lost running %s (attempt %d): %s", ep.key, attempt, e)
                    actors.remove(actor)
                    ray.kill(actor)
                    idle.append(spawn())
                    if attempt < MAX_ATTEMPTS:
                        tally.retried += 1
                        queue.appendleft((ep, attempt + 1))
                        continue
                    result = {
                        "status": "error",
                        "error_class": "crashed",
                        "error": f"worker lost {MAX_ATTEMPTS} times: {type(e).__name__}: {e}",
                    }
                else:
                    idle.append(actor)
                tally.record(ep, result, attempt)
    finally:
        for actor in actors:
            ray.kill(actor)
        if started_here:
            ray.shutdown()
        if local is not None:
            local.stop()
