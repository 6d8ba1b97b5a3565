"""Reference policies on every game task: how hard each one is, and whether it is a fair test.

Run: ``python benchmarks/reference_policies.py [--seeds 1-5] [--obs 180x320] [--games rdr2]
[--jobs 2] [--apps [SUITE ...]] [--out results.md]``. For every task of every simulated game in
``gcc_envs.registration.SPECS`` that is played alone (a mission's checkpoint, a Stardew task),
on held-out seeds, through the agent's own interface and under the game's evaluation profile
for LMM agents (its ``GameSpec.eval_kwargs``: RDR2's latency, which ``--no-latency`` drops;
Dealer's Life 2's obs size, 720x1280, where its prices are legible, over ``--obs``):

* **scripted**: the game's scripted policy with ``privileged=True`` (plans on the simulator's
  state), acting only through ``UseSkills`` with the env's ``max_skill_calls``;
* **unprivileged**: the same policy with ``privileged=False`` (reads only the frames);
* **blind**: the scripted run's most frequent call on seed 0, code text and all, sent every
  step without looking (skill spam: ``follow(duration=20)`` over and over);
* **replay**: the exact input events of the scripted run on seed 0, replayed step by step,
  open loop, on the other seeds;
* **random**: a uniformly random entry of the env's skill grid (``UseSkillGrid``) each step;
* **nothing**: an empty program each step (the game runs on; the player stands still);
* **game-blind**: each of the game's own blind policies, from ``benchmarks/blind/<game>.py``
  (``POLICIES``: name → ``seed -> act(obs, info) -> skill code text``; e.g. Dealer's Life 2's
  fixed counter-offer cycles); the table shows the best of them, the list below it each one;

next to the paper's easy/hard label and its figure for Cradle where it gives one
(``TaskSpec.paper_success``). A task is a fair test when scripted succeeds and blind, replay,
random and nothing do not (the issue's bar: ≤ 10 %). The scripted column also says how many of
its seeds played a different sequence of calls (seeded content changes what the oracle must do).
One table per game; ``--apps`` adds one per software twin suite (``apps_fairness.py``, on the
same held-out seeds: scripted, nothing, random, the scripted input replayed on ``--pairs``
random seed pairs, and how often two of 100 seeds draw the same variant), so one run is the
validity check of record for every game and app suite.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

import gcc_envs  # noqa: E402, F401
from agents import make_policy  # noqa: E402
from gcc_envs.core.events import event_from_dict  # noqa: E402
from gcc_envs.core.program import Program  # noqa: E402
from gcc_envs.errors import GCCError  # noqa: E402
from wrappers import UseSkillGrid, UseSkills  # noqa: E402

POLICIES = ("scripted", "unprivileged", "blind", "replay", "random", "nothing", "game-blind")
#: Where seed 0's scripted run comes from (blind and replay copy it; it is not scored).
SOURCE_SEED = 0


class _OutsideInterface(GCCError):
    """A scripted policy answered with something other than skill code text."""


class _PolicyStopped(GCCError):
    """A scripted policy gave up (an error of its own): the episode is a failure, not the run's."""


@dataclass(frozen=True)
class Target:
    """One row of the table: a task run alone."""

    game: str
    env_id: str
    task: str
    max_steps: int
    difficulty: str
    paper_success: float | None
    make_kwargs: dict[str, Any] = field(default_factory=dict)
    #: False for a variant that only measures: its cells are mean progress, not successes.
    scored: bool = True


@dataclass
class Episode:
    success: bool
    steps: int
    progress: float
    failure: str | None
    calls: list[str]
    events: list[list[dict[str, Any]]]


def targets(
    games: Sequence[str] = (), latency: bool = True, think_time: float | None = None
) -> list[Target]:
    """Every task played alone, read from the registry's specs (games with a simulator)."""
    from gcc_envs.core.spec import GameSpec
    from gcc_envs.registration import specs

    out = []
    for spec in specs().values():
        if not isinstance(spec, GameSpec) or spec.simulator is None:
            continue
        if games and spec.key not in games:
            continue
        kwargs = {k: v for k, v in spec.eval_kwargs.items() if latency or k == "obs_size"}
        if think_time is not None:
            kwargs["think_time"] = think_time
        for t in spec.tasks:
            if any(s.scored for s in spec.subtasks(t.key)):  # a mission: its checkpoints
                continue  # are the rows (a measuring variant is a row beside its task)
            owner = t if t.registered else spec.task(t.parent)
            out.append(
                Target(
                    game=spec.key,
                    env_id=owner.env_id(spec.title),
                    task=t.key,
                    max_steps=t.max_steps,
                    difficulty=t.difficulty,
                    paper_success=t.paper_success,
                    make_kwargs=kwargs,
                    scored=t.scored,
                )
            )
    return out


def make_env(t: Target, obs: tuple[int, int]) -> gym.Env:
    # a game's evaluation profile may name its own obs size (Dealer's Life 2: 720x1280, where
    # prices are legible); --obs is the size of the others
    kwargs = {"obs_size": obs, **t.make_kwargs}
    return gym.make(t.env_id, task=t.task, max_episode_steps=t.max_steps, **kwargs)


def _run(env: gym.Env, seed: int, act: Callable[[np.ndarray, dict[str, Any]], Any]) -> Episode:
    obs, info = env.reset(seed=seed)
    calls: list[str] = []
    events: list[list[dict[str, Any]]] = []
    steps = 0
    while True:
        action = act(obs, info)
        if action is None:  # a replay that ran out of input
            break
        if isinstance(action, str):
            calls.append(action)
        obs, _, term, trunc, info = env.step(action)
        events.append(list(info["events"]))
        steps += 1
        if term or trunc:
            break
    return Episode(
        success=bool(info.get("success")),
        steps=steps,
        progress=float(info.get("progress", 0.0)),
        failure=info.get("failure"),
        calls=calls,
        events=events,
    )


def scripted(t: Target, obs: tuple[int, int], seed: int, privileged: bool) -> Episode | None:
    """The scripted policy through ``UseSkills``; None when it has no such variant."""
    env = UseSkills(make_env(t, obs))
    try:
        try:
            policy = make_policy("scripted", env, privileged=privileged)
        except GCCError:
            return None
        first = True

        def act(o: np.ndarray, info: dict[str, Any]) -> Any:
            nonlocal first
            if first:
                policy.reset(info)
                first = False
            try:
                a = policy.act(o, info)
            except GCCError as e:
                raise _PolicyStopped(str(e)) from e
            if not isinstance(a, str):  # the interface is code text of skill calls only
                raise _OutsideInterface(type(a).__name__)
            return a

        try:
            return _run(env, seed, act)
        except _OutsideInterface as e:  # scored as a failure: it did not play as an agent
            return Episode(False, 0, 0.0, f"acted with a {e}, not skill code", [], [])
        except _PolicyStopped as e:  # scored as a failure, with its reason; the run goes on
            return Episode(False, 0, 0.0, f"the policy stopped: {e}"[:200], [], [])
    finally:
        env.close()


def blind(t: Target, obs: tuple[int, int], seed: int, call: str) -> Episode:
    env = UseSkills(make_env(t, obs))
    try:
        return _run(env, seed, lambda o, i: call)
    finally:
        env.close()


def replay(t: Target, obs: tuple[int, int], seed: int, events: list[list[dict]]) -> Episode:
    env = make_env(t, obs)
    steps = iter(events)

    def act(o: np.ndarray, info: dict[str, Any]) -> Any:
        logged = next(steps, None)
        if logged is None:
            return None
        return Program([event_from_dict({k: v for k, v in d.items() if k != "t"}) for d in logged])

    try:
        return _run(env, seed, act)
    finally:
        env.close()


def random_grid(t: Target, obs: tuple[int, int], seed: int) -> Episode:
    env = UseSkillGrid(make_env(t, obs))
    rng = np.random.default_rng(seed + 10_000)
    try:
        return _run(env, seed, lambda o, i: int(rng.integers(env.action_space.n)))
    finally:
        env.close()


def nothing(t: Target, obs: tuple[int, int], seed: int) -> Episode:
    env = make_env(t, obs)
    try:
        return _run(env, seed, lambda o, i: Program([]))
    finally:
        env.close()


@cache  # read once per process, not once per episode
def game_blind(game: str) -> dict[str, Callable[[int], Callable[[np.ndarray, dict], str]]]:
    """The game's own blind policies (``benchmarks/blind/<game>.py``'s ``POLICIES``), if any."""
    path = Path(__file__).with_name("blind") / f"{game}.py"
    if not path.is_file():
        return {}
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"_blind_{game}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.POLICIES)


def blind_policy(t: Target, obs: tuple[int, int], seed: int, name: str) -> Episode:
    """One of the game's own blind policies through ``UseSkills``."""
    env = UseSkills(make_env(t, obs))
    try:
        return _run(env, seed, game_blind(t.game)[name](seed))
    finally:
        env.close()


def favourite(calls: list[str]) -> str | None:
    """The most frequent call (ties: the first of them)."""
    if not calls:
        return None
    counts = Counter(calls)
    top = max(counts.values())
    return next(c for c in calls if counts[c] == top)


def evaluate(
    t: Target, seeds: Sequence[int], obs: tuple[int, int], policies: Sequence[str] = POLICIES
) -> dict[str, Any]:
    """The policies (all five by default) on one task."""
    source = scripted(t, obs, SOURCE_SEED, privileged=True)
    row: dict[str, Any] = {"target": asdict(t), "policies": {}}
    spam = favourite(source.calls) if source else None
    row["blind_call"] = spam
    runs: dict[str, list[Episode | None]] = {p: [] for p in POLICIES if p != "game-blind"}
    play: dict[str, Callable[[int], Episode | None]] = {
        "scripted": lambda seed: scripted(t, obs, seed, privileged=True),
        "unprivileged": lambda seed: scripted(t, obs, seed, privileged=False),
        "blind": lambda seed: blind(t, obs, seed, spam) if spam else None,
        "replay": lambda seed: replay(t, obs, seed, source.events) if source else None,
        "random": lambda seed: random_grid(t, obs, seed),
        "nothing": lambda seed: nothing(t, obs, seed),
    }
    if "game-blind" in policies:
        for name in game_blind(t.game):
            key = f"game-blind:{name}"
            runs[key] = []
            play[key] = partial(lambda n, seed: blind_policy(t, obs, seed, n), name)
    for seed in seeds:
        for name in runs:
            wanted = name in policies or name.startswith("game-blind:")
            runs[name].append(play[name](seed) if wanted else None)
    for name, eps in runs.items():
        done = [e for e in eps if e is not None]
        row["policies"][name] = (
            None
            if not done
            else {
                "success": sum(e.success for e in done),
                "episodes": len(done),
                "mean_steps": float(np.mean([e.steps for e in done])),
                "mean_progress": float(np.mean([e.progress for e in done])),
                "failures": Counter(e.failure for e in done if e.failure),
            }
        )
    row["per_seed"] = {
        name: {seed: (None if e is None else e.success) for seed, e in zip(seeds, eps)}
        for name, eps in runs.items()
    }
    sequences = {tuple(e.calls) for e in runs["scripted"] if e is not None}
    row["distinct_sequences"] = len(sequences)
    return row


def _cell(p: dict[str, Any] | None, scored: bool = True) -> str:
    if p is None:
        return "n/a"
    if not scored:  # a measure: its mean progress (it never succeeds)
        return f"{p['mean_progress'] * 100:.0f} % of it"
    return f"{p['success']}/{p['episodes']}"


def _worst_blind(p: dict[str, Any]) -> str:
    """The game-blind policy that won most often (the cell the fairness bar is about)."""
    own = {k: v for k, v in p.items() if k.startswith("game-blind:") and v is not None}
    if not own:
        return "n/a"
    name, top = max(own.items(), key=lambda kv: kv[1]["success"])
    return f"{_cell(top)} ({name.removeprefix('game-blind:')})"


def markdown(rows: list[dict[str, Any]], seeds: Sequence[int], note: str) -> str:
    """One table per game (rows in the order given), then the blind calls used."""
    head = (
        "| game | task | paper | Cradle | scripted | (steps) | distinct | unprivileged | blind "
        "| replay 0 | random | nothing | game-blind (best) |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    )
    lines = [f"Seeds {list(seeds)}; {note}"]
    game = None
    for r in rows:
        if r["target"]["game"] != game:
            game = r["target"]["game"]
            lines += ["", f"### {game}", "", head]
        t, p = r["target"], r["policies"]
        paper = "" if t["paper_success"] is None else f"{t['paper_success']:.0%}"
        s = p["scripted"]
        steps = "" if s is None else f"{s['mean_steps']:.0f}"
        distinct = "" if s is None else f"{r['distinct_sequences']}/{s['episodes']}"
        c = partial(_cell, scored=t.get("scored", True))
        lines.append(
            f"| {t['game']} | {t['task']} | {t['difficulty']} | {paper} | {c(s)} | "
            f"{steps} | {distinct} | "
            f"{c(p['unprivileged'])} | {c(p['blind'])} | {c(p['replay'])} | "
            f"{c(p['random'])} | {c(p['nothing'])} | {_worst_blind(p)} |"
        )
    blinds = [f"{r['target']['task']}: `{r['blind_call']}`" for r in rows if r["blind_call"]]
    own = [
        f"{r['target']['task']} {k.removeprefix('game-blind:')} {_cell(v)}"
        for r in rows
        for k, v in r["policies"].items()
        if k.startswith("game-blind:") and v is not None
    ]
    out = [*lines, "", "Blind calls: " + "; ".join(blinds)]
    if any(not r["target"].get("scored", True) for r in rows):
        out += [
            "",
            '"N % of it": a variant that only measures (it never succeeds): the mean '
            "share of its measure reached (Stardew's farm_clearup:count: of the farm cleared).",
        ]
    if own:
        out += ["", "Game-blind policies: " + "; ".join(own)]
    return "\n".join(out)


def _timed(
    t: Target, seeds: Sequence[int], obs: tuple[int, int], policies: Sequence[str]
) -> dict[str, Any]:
    t0 = time.perf_counter()
    row = evaluate(t, seeds, obs, policies)
    line = next(x for x in markdown([row], seeds, "").splitlines() if x.startswith(f"| {t.game} |"))
    print(f"{time.perf_counter() - t0:.0f} s {line}", file=sys.stderr, flush=True)
    return row


def _seeds(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="1-5", help="held-out seeds, e.g. 1-5")
    p.add_argument("--obs", default="180x320", help="observation HxW")
    p.add_argument("--games", nargs="*", default=(), help="game keys (default: all)")
    p.add_argument("--tasks", nargs="*", default=(), help="only these task keys")
    p.add_argument("--no-latency", action="store_true", help="drop the LMM evaluation profile")
    p.add_argument("--think-time", type=float, help="game seconds before each action, all games")
    p.add_argument("--policies", nargs="*", default=POLICIES, choices=POLICIES)
    p.add_argument(
        "--jobs", type=int, default=1, help="tasks evaluated in parallel processes (apps too)"
    )
    p.add_argument(
        "--apps",
        nargs="*",
        metavar="SUITE",
        help="also the software twin suites (all, or these), by apps_fairness.py on the same "
        "held-out seeds: scripted, nothing, random, replay over random pairs, collisions",
    )
    p.add_argument("--pairs", type=int, default=20, help="random seed pairs for the apps' replay")
    p.add_argument(
        "--out",
        type=Path,
        help="write the table (.md), the records (.json), each row as it ends (.jsonl)",
    )
    args = p.parse_args(argv)
    h, _, w = args.obs.partition("x")
    obs = (int(h), int(w))
    seeds = _seeds(args.seeds)
    todo = [
        t
        for t in targets(args.games, latency=not args.no_latency, think_time=args.think_time)
        if not args.tasks or t.task in args.tasks
    ]
    log = args.out.with_suffix(".jsonl").open("w") if args.out else None
    play = partial(_timed, seeds=seeds, obs=obs, policies=args.policies)
    done: dict[int, dict[str, Any]] = {}
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        jobs = {pool.submit(play, t): i for i, t in enumerate(todo)}
        for job in as_completed(jobs):
            done[jobs[job]] = job.result()
            if log is not None:  # each row as it comes, so a stopped run keeps what it did
                log.write(json.dumps(done[jobs[job]], default=dict) + "\n")
                log.flush()
    if log is not None:
        log.close()
    rows = [done[i] for i in sorted(done)]
    kwargs = {r["target"]["game"]: r["target"]["make_kwargs"] for r in rows}
    note = f"obs {args.obs}; env kwargs per game {kwargs}"
    table = markdown(rows, seeds, note)
    print(table)
    if args.out:
        args.out.with_suffix(".md").write_text(table + "\n")
        args.out.with_suffix(".json").write_text(json.dumps(rows, indent=1, default=dict) + "\n")
    if args.apps is not None:
        apps = apps_tables(args.apps, seeds, args.pairs, args.jobs)
        if args.out:
            with args.out.with_suffix(".md").open("a") as f:
                f.write("\n" + apps + "\n")


def apps_tables(suites: Sequence[str], seeds: Sequence[int], pairs: int, jobs: int = 1) -> str:
    """The software twins' tables (``apps_fairness.py``), printed as their rows end."""
    import io

    import apps_fairness  # beside this file (benchmarks/ is the script's folder)

    args = apps_fairness.parser().parse_args(
        ["--first", str(min(seeds)), "--seeds", str(len(seeds)), "--pairs", str(pairs),
         "--jobs", str(jobs), *(["--suite", *suites] if suites else [])]
    )  # fmt: skip

    class _Tee(io.StringIO):
        def write(self, text: str) -> int:
            sys.stdout.write(text)
            return super().write(text)

    out = _Tee()
    print("\n## Software twins (apps_fairness.py)", file=out)
    fair = apps_fairness.suite_tables(args, out=out)
    print("all fair" if fair else "NOT all fair: see the rows above", file=out)
    return out.getvalue()


if __name__ == "__main__":
    main()
