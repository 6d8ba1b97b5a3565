"""The seed's pause semantics over wall time: an agent thinking for 3 s with the game paused
(Esc, with its 0.5 s animations) finds the wolves where it left them, give or take what the
animations let them run; in real time they have kept running the whole 3 s."""

from __future__ import annotations

import math
import time

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401
from gcc_envs.games.rdr2.sim import PAUSE_ANIMATION_S

THINK_S = 3.0
STEP = "wait(duration=0.1)"


def wolves(env):
    state = env.unwrapped.backend.sim.state
    return {k: (n.x, n.y) for k, n in state.npcs.items() if n.kind == "wolf"}


def think_and_step(time_mode):
    env = gym.make(
        "GCC/RDR2-Mission2", task="mission2:kill_wolves", time_mode=time_mode, obs_size=(72, 128)
    )
    env.reset(seed=0)
    env.step(STEP)  # the wolves see the player and start circling in or running at them
    state = env.unwrapped.backend.sim.state
    assert all(state.npcs[k].state in ("stalk", "run") for k in wolves(env))
    speed = max(state.npcs[k].speed for k in wolves(env))
    before = wolves(env)
    time.sleep(THINK_S)  # the agent thinks
    *_, info = env.step(STEP)
    after = wolves(env)
    env.close()
    moved = max(math.dist(before[k], after[k]) for k in before)
    return moved, speed, info


def test_paused_mode_keeps_the_wolves_still_while_the_agent_thinks():
    moved, speed, info = think_and_step("paused")
    # resuming animates 0.5 s (the player cannot act, the wolves run), then the 0.1 s step;
    # the wall time the step itself takes is a small margin on top
    assert moved <= speed * (PAUSE_ANIMATION_S + 0.1 + 0.5)
    assert info["t_paused"] >= THINK_S


@pytest.mark.slow
def test_realtime_mode_lets_the_wolves_run_while_the_agent_thinks():
    paused_moved, speed, _ = think_and_step("paused")
    moved, _, info = think_and_step("realtime")
    assert info["t_game"] >= THINK_S
    # they circled in and ran at the player (growling between): farther than in paused mode,
    # and farther than a second of a wolf's top speed
    assert moved > 2 * paused_moved and moved > speed


def test_lockstep_never_pauses_so_no_animation_time_passes():
    env = gym.make("GCC/RDR2-Mission2", task="mission2:kill_wolves", obs_size=(72, 128))
    env.reset(seed=0)
    *_, info = env.step(STEP)
    assert env.unwrapped.backend.sim.state.ui.pause.phase == "running"
    assert info["t_game"] == pytest.approx(0.25)  # one state tick minimum: no animation time
    env.close()
