"""Is each Stardew task a fair test? Seed variation, the oracle, random play and blind replay.

Run ``python -m agents.scripted.stardew_fair [--seeds N] [--size H W]`` for the table; the
tests call the same functions on fewer seeds. Everything acts through
``wrappers.UseSkills`` with the env's ``max_skill_calls``.

* **Seed variation**: the positions of every object a reset places (obstacles on each map,
  the farmhouse's furniture, the start tile, the shop's rows) as a set per seed; the overlap of
  two seeds is their intersection over union, averaged over every pair of seeds.
* **Oracle**: the scripted player (privileged, or reading only frames) on held-out seeds.
* **Random**: uniformly random calls from the game's skill grid (``UseSkillGrid``).
* **Replay**: the code text the oracle sent on seed 0, sent blind on other seeds.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Iterable
from typing import Any

import gymnasium as gym
import numpy as np

import gcc_envs  # noqa: F401  (registers the ids)
from agents.scripted import ScriptedPolicy
from gcc_envs.core.code import parse_code
from wrappers import UseSkillGrid, UseSkills

TASKS = ("FarmClearup", "Cultivation", "Shopping")
SIZE = (360, 640)
Obj = tuple[str, str, int, int]


def make_env(name: str, size: tuple[int, int] = SIZE, **kw: Any) -> UseSkills:
    """``GCC/Stardew-<name>`` through ``UseSkills`` (``kw`` go to ``gym.make``)."""
    return UseSkills(gym.make(f"GCC/Stardew-{name}", obs_size=size, **kw))


def placed_objects(env: gym.Env) -> set[Obj]:
    """(what, where, x, y) of everything the reset placed."""
    s = env.unwrapped.backend.probe()
    out: set[Obj] = set()
    for name, loc in s.locations.items():
        out |= {(ob.kind, name, x, y) for (x, y), ob in loc.obstacles.items()}
    house = s.map("farmhouse")
    for y, row in enumerate(house.rows):
        out |= {
            (f"furniture {ch}", "farmhouse", x, y) for x, ch in enumerate(row) if ch not in "#%oe"
        }
    out.add(("start", s.location, *s.current_tile))
    out |= {(f"shop {item}", "store", i, 0) for i, (item, _) in enumerate(s.shop)}
    return out


def overlap(task: str, seeds: Iterable[int]) -> float:
    """Mean intersection over union of the objects' positions, over pairs of seeds."""
    env = make_env(task)
    sets = []
    for seed in seeds:
        env.reset(seed=seed)
        sets.append(placed_objects(env))
    pairs = [len(a & b) / len(a | b) for a, b in itertools.combinations(sets, 2)]
    return float(np.mean(pairs))


def run_oracle(
    task: str,
    seed: int,
    privileged: bool = True,
    size: tuple[int, int] = SIZE,
    variant: str | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """One scripted episode through ``UseSkills``: its last info and the code it sent
    (``variant``: a ``task=`` key of the same id, e.g. ``"farm_clearup:count"``)."""
    env = make_env(task, size, **({} if variant is None else {"task": variant}))
    obs, info = env.reset(seed=seed)
    policy = ScriptedPolicy(env.unwrapped, privileged=privileged)
    policy.reset(info)
    sent: list[str] = []
    done = False
    while not done:
        code = policy.act(obs, info)
        calls = parse_code(code, env.skills)
        if len(calls) > env.max_calls:
            raise AssertionError(f"{len(calls)} skill calls in one step: {code!r}")
        sent.append(code)
        obs, _, term, trunc, info = env.step(code)
        if info["last_action_error"] is not None:
            raise AssertionError(f"the oracle's step was refused: {info['last_action_error']}")
        done = term or trunc
    return {**info, "steps": len(sent)}, sent


def run_replay(task: str, codes: list[str], seed: int) -> dict[str, Any]:
    """Send ``codes`` blind (one per step) on ``seed``; the last info."""
    env = make_env(task)
    env.reset(seed=seed)
    info: dict[str, Any] = {}
    for code in codes:
        _, _, term, trunc, info = env.step(code)
        if term or trunc:
            break
    return info


def run_random(task: str, seed: int) -> dict[str, Any]:
    """Random calls from the game's skill grid for the task's 100 steps."""
    env = UseSkillGrid(make_env(task))
    env.reset(seed=seed)
    env.action_space.seed(seed)
    done, info = False, {}
    while not done:
        _, _, term, trunc, info = env.step(env.action_space.sample())
        done = term or trunc
    return info


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=10, help="held-out seeds 1..N per policy")
    p.add_argument("--frames", type=int, default=5, help="seeds for the frame-reading oracle")
    args = p.parse_args()
    held = range(1, args.seeds + 1)
    print(
        f"{'task':<12}{'overlap':>8}{'oracle':>10}{'frames':>10}{'random':>9}{'replay':>9}"
        f"{'steps':>7}  sequences"
    )
    for task in TASKS:
        ov = overlap(task, range(5))
        runs = [run_oracle(task, s) for s in held]
        ok = sum(bool(i["success"]) for i, _ in runs)
        fr = sum(
            bool(run_oracle(task, s, privileged=False)[0]["success"])
            for s in range(100, 100 + args.frames)
        )
        rnd = sum(bool(run_random(task, s)["success"]) for s in held)
        _, codes0 = run_oracle(task, 0)
        rep = sum(bool(run_replay(task, codes0, s).get("success")) for s in held)
        distinct = len({tuple(c) for _, c in runs})
        steps = np.mean([i["steps"] for i, _ in runs])
        n = len(held)
        print(
            f"{task:<12}{ov:>8.2f}{f'{ok}/{n}':>10}{f'{fr}/{args.frames}':>10}"
            f"{f'{rnd}/{n}':>9}{f'{rep}/{n}':>9}{steps:>7.1f}  {distinct} distinct of {n}"
        )


if __name__ == "__main__":
    main()
