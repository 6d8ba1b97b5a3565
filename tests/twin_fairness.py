"""What every software twin's tests share (tests/apps/<app>/test_<app>_twins.py): their marks,
the module's virtual display, the fairness check run per task, acting out a wrong end state,
and the check that a task's processes are gone."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence

import gymnasium as gym
import pytest

import agents
from gcc_envs.apps.software import fairness
from gcc_envs.core.events import Wait

#: The seeds a replay of seed 0's input may land on (one drawn at random).
REPLAY_SEEDS = range(1, 10_000)

#: The marks of a twin test module (its own programs' skips come after them).
TWIN_MARKS = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.timeout(300),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
]


def ci_sample(tasks: Sequence[str], keep: Sequence[str]) -> list[str]:
    """The tasks of ``tasks`` whose scripted run CI repeats: those named in ``keep`` — a
    twin's full run takes 30 s to a minute (the five suites' 24 made CI 49 min of its 50), and
    the near-miss tests end with a correct solution too; ``GCC_TWINS=all`` runs every task, and
    ``benchmarks/apps_fairness.py`` checks every task on held-out seeds."""
    if os.environ.get("GCC_TWINS") == "all":
        return list(tasks)
    unknown = set(keep) - set(tasks)
    assert not unknown, f"not tasks of this suite: {sorted(unknown)}"
    return [t for t in tasks if t in keep]


def display_fixture(suite):
    """A module-scoped fixture: one virtual display of ``suite``'s screen size (its name)."""

    @pytest.fixture(scope="module")
    def display():
        from gcc_envs.backends.desktop.display import VirtualDisplay

        d = VirtualDisplay(suite.desktop["screen_size"])
        yield d.name
        d.close()

    return display


def assert_scripted_fair(env: gym.Env) -> fairness.Episode:
    """The scripted policy (through ``agents.make_policy``) solves seed 0 from a desktop that
    doing nothing leaves unsolved, and seed 0's input replayed on a seed drawn at random
    (whatever its choices: :func:`fairness.random_pairs`) does not solve it; returns the
    solved episode. ``benchmarks/apps_fairness.py`` replays on 20 random pairs per task."""
    solved = fairness.run_policy(env, agents.make_policy("scripted", env), seed=0)
    assert solved.start_score == 0.0, "doing nothing succeeded"
    assert solved.success and not solved.errors, (solved.info.get("check_error"), solved)
    assert solved.info["metrics"]["efficiency"] > 0  # expected steps / steps
    ((_, seed),) = fairness.random_pairs(1, REPLAY_SEEDS, sources=[0])
    replayed = fairness.replay(env, solved.inputs, seed)
    assert replayed.start_score == 0.0 and not replayed.success, f"seed 0's input solved {seed}"
    return solved


def check_scripted_fair(env_id: str, **make_kwargs) -> fairness.Episode:
    """:func:`assert_scripted_fair` on a fresh env of ``env_id``, closed afterwards."""
    env = gym.make(env_id, **make_kwargs)
    try:
        return assert_scripted_fair(env)
    finally:
        env.close()


def wrong_end(env: gym.Env, steps: Sequence, settle_s: int = 0) -> float:
    """Act out ``steps`` (each one env step, which must be taken without an error), wait
    ``settle_s`` one-second steps, and what the checker says of the desktop."""
    for events in steps:
        info = env.step(events)[-1]
        assert info["last_action_error"] is None, info["last_action_error"]
    for _ in range(settle_s):
        env.step(Wait(1.0))
    return env.unwrapped.score()


def assert_gone(pids: Sequence[int]) -> None:
    """Every process of ``pids`` has ended (a zombie awaiting its parent counts as ended)."""
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}") or _zombie(pid), f"pid {pid} still runs"


def _zombie(pid: int) -> bool:
    try:
        return open(f"/proc/{pid}/stat").read().split()[2] == "Z"
    except OSError:
        return True
