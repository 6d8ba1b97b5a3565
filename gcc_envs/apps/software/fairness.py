"""Whether a twin task is a fair test: its scripted solution succeeds, and doing nothing, a
random policy and an open-loop replay of the solution's input on another seed all fail.

The functions drive an env (made by the caller: its display, its size) with a policy object
(``reset(info)``, ``act(obs, info)``, as in :mod:`agents`) and return what happened; the
tests and benchmarks assert on it. Nothing here knows a suite: what the seed varies is read
from the task's ``choose`` steps (:func:`draw_task`, no display needed) and the episode's
chosen values (``session.vars``). A replay runs on random seed pairs (:func:`random_pairs`),
whatever their choices, and :func:`collision_rate` says how often two seeds share a variant.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from gcc_envs.core.events import Done, Event, event_from_dict
from gcc_envs.core.program import Program

#: The largest collision rate (:func:`collision_rate` over 100 seeds) a task may have: at 1 %
#: an open-loop replay on 20 random seed pairs meets a shared variant twice or more about 2
#: times in 100, and the apps' replay bar is at most 1 win in 20 (DESIGN §10: two seeds rarely
#: share a variant).
MAX_COLLISION = 0.01


@dataclass
class Episode:
    """What one episode did: its chosen values, the input sent per step, how it ended."""

    seed: int
    chosen: dict[str, str]
    success: bool = False
    score: float = 0.0
    steps: int = 0
    #: Score of the desktop right after reset (doing nothing).
    start_score: float = 0.0
    #: The events each step sent (``Done`` excluded), for an open-loop replay.
    inputs: list[list[Event]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)


def chosen(env: gym.Env) -> dict[str, str]:
    """The values the episode's setup chose (what the seed varied), by name."""
    session = getattr(env.unwrapped, "session", None)
    values = dict(getattr(session, "vars", {}) or {})
    return {k: v for k, v in values.items() if not k.endswith(("url", "port"))}


def _start(env: gym.Env, seed: int) -> tuple[Any, dict[str, Any], Episode]:
    obs, info = env.reset(seed=seed)
    ep = Episode(seed, chosen(env))
    ep.start_score = float(env.unwrapped.score())
    return obs, info, ep


def _end(ep: Episode, info: dict[str, Any], steps: int) -> Episode:
    ep.success, ep.score, ep.steps = bool(info.get("success")), float(info.get("score", 0)), steps
    ep.info = info
    return ep


def run_policy(env: gym.Env, policy: Any, seed: int, max_steps: int | None = None) -> Episode:
    """One episode of ``policy`` from ``seed``; every step's sent events are kept."""
    obs, info, ep = _start(env, seed)
    policy.reset(info)
    limit = max_steps or env.unwrapped.task.max_steps
    steps, done = 0, False
    while not done and steps < limit:
        obs, _, terminated, truncated, info = env.step(policy.act(obs, info))
        steps += 1
        done = terminated or truncated
        if info["last_action_error"]:
            ep.errors.append(str(info["last_action_error"]))
        sent = [event_from_dict({k: v for k, v in e.items() if k != "t"}) for e in info["events"]]
        ep.inputs.append([e for e in sent if not isinstance(e, Done)])
    if not done:
        _, _, _, _, info = env.step(Program([Done()]))
        steps += 1
    return _end(ep, info, steps)


def replay(env: gym.Env, inputs: list[list[Event]], seed: int) -> Episode:
    """``inputs`` (one list of events per step) sent open loop on ``seed``, then DONE."""
    _, info, ep = _start(env, seed)
    steps = 0
    for events in inputs:
        _, _, terminated, truncated, info = env.step(Program(events))
        steps += 1
        if terminated or truncated:
            return _end(ep, info, steps)
    _, _, _, _, info = env.step(Program([Done()]))
    return _end(ep, info, steps + 1)


def draw_task(row: Any, seed: int) -> dict[str, str]:
    """The values the task row's ``choose`` steps pick on ``seed``, with no env and no
    display (a dry draw: the setup's choices come first from the episode's generator, before
    any program starts)."""
    rng = np.random.default_rng(seed)
    picks: dict[str, str] = {}
    for step in (s for s in row.setup if s.kind == "choose"):
        options = step.args["options"]
        pick = options[int(rng.integers(len(options)))]
        if isinstance(pick, dict):
            picks.update({f"{step.args['name']}_{k}": str(v) for k, v in pick.items()})
        else:
            picks[step.args["name"]] = str(pick)
    return picks


def draw(env: gym.Env, seed: int) -> dict[str, str]:
    """The values the env's task picks on ``seed`` (:func:`draw_task` of its row)."""
    return draw_task(env.unwrapped.task_spec, seed)


def variant(picks: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """A seed's variant: all its chosen values, as one hashable key."""
    return tuple(sorted(picks.items()))


def collision_rate(row: Any, seeds: Sequence[int] = range(100)) -> float:
    """The share of the pairs of ``seeds`` that draw the same variant of the task ``row``
    (the chance that two seeds share one; 1 / the number of variants when all are equally
    likely).

    >>> from gcc_envs.core.spec import SetupStep, SuiteTask
    >>> row = SuiteTask(key="t", name="T", instruction="", max_steps=1, setup=(
    ...     SetupStep("choose", {"name": "x", "options": list(range(4))}),))
    >>> round(collision_rate(row, range(400)), 2)
    0.25
    """
    counts = Counter(variant(draw_task(row, s)) for s in seeds)
    n = sum(counts.values())
    return sum(c * (c - 1) for c in counts.values()) / (n * (n - 1)) if n > 1 else 0.0


def random_pairs(
    n: int, seeds: Sequence[int], *, rng_seed: int = 0, sources: Sequence[int] | None = None
) -> list[tuple[int, int]]:
    """``n`` distinct (source, target) seed pairs drawn at random — whatever the seeds'
    choices: a replay must fail on seeds that happen to share some or all of them too.
    Sources come from ``sources`` (default ``seeds``), targets from ``seeds``, never equal.

    >>> random_pairs(3, range(10, 20), rng_seed=1)
    [(14, 15), (17, 19), (10, 11)]
    """
    rng = np.random.default_rng(rng_seed)
    src = list(sources if sources is not None else seeds)
    dst = list(seeds)
    out: list[tuple[int, int]] = []
    for _ in range(100 * n):
        if len(out) == n:
            break
        a, b = src[int(rng.integers(len(src)))], dst[int(rng.integers(len(dst)))]
        if a != b and (a, b) not in out:
            out.append((a, b))
    if len(out) < n:
        raise ValueError(f"{n} distinct pairs cannot be drawn from {len(src)}x{len(dst)} seeds")
    return out


def other_seed(env: gym.Env, like: dict[str, str], seeds: range = range(1, 40)) -> int:
    """The first seed in ``seeds`` whose chosen values all differ from ``like`` (a choice that
    only changes the start, such as the mode Chromium starts in, leaves what the agent must do
    alike); failing that, the first that differs in the most of them."""
    best, most = None, 0
    for seed in seeds:
        picks = draw(env, seed)
        n = sum(like.get(k) != v for k, v in picks.items())
        if picks and n == len(picks):
            return seed
        if n > most:
            best, most = seed, n
    if best is None:
        raise ValueError(f"no seed in {seeds} varies the task's choices {sorted(like)}")
    return best


def seed_choosing(env: gym.Env, want: dict[str, str], seeds: range = range(0, 200)) -> int:
    """The first seed in ``seeds`` whose chosen values include ``want`` (a fixed plan's)."""
    for seed in seeds:
        picks = draw(env, seed)
        if all(picks.get(k) == v for k, v in want.items()):
            return seed
    raise ValueError(f"no seed in {seeds} chooses {want}")


def random_episode(env: gym.Env, policy: Any, seed: int, steps: int = 8) -> Episode:
    """``steps`` random actions (the policy's; its DONE and FAIL skipped, its durations cut to
    a tenth so that the check stays short), then DONE."""
    obs, info, ep = _start(env, seed)
    policy.reset(info)
    mode = env.unwrapped._event_mode
    ends = {mode.op_index(o) for o in ("DONE", "FAIL")} if mode is not None else set()
    done, n = False, 0
    while n < steps and not done:
        a = policy.act(obs, info)
        if isinstance(a, dict) and int(a.get("op", -1)) in ends:
            continue
        if isinstance(a, dict) and "duration" in a:
            a = {**a, "duration": a["duration"] * 0.1}
        obs, _, terminated, truncated, info = env.step(a)
        n += 1
        done = terminated or truncated
    if not done:
        _, _, _, _, info = env.step(Program([Done()]))
        n += 1
    return _end(ep, info, n)
