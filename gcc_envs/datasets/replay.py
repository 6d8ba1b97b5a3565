"""Re-run a recorded lockstep episode from its ``meta.json`` and event log.

Lockstep simulators are deterministic, so making the env with the recorded id and kwargs,
resetting it with the recorded seed (or generator state) and stepping
``Program(events actually sent)`` reproduces every frame bit for bit — whatever produced the
actions (a state-mode policy, code, closed-loop skills that looked at the screen).

One thing the log shows only indirectly: when a program failed half-way the env released every
held key. The recorded ``held_keys`` after each step tells replay which keys to release.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium as gym
import numpy as np

from gcc_envs.core import events as ev
from gcc_envs.core.held import HeldInput
from gcc_envs.core.program import Program
from gcc_envs.datasets.encoding import events_of
from gcc_envs.datasets.reader import Episode
from gcc_envs.errors import DataError


def make_env(meta: dict[str, Any], **overrides: Any) -> gym.Env:
    """The env an episode was recorded from (``gym.make`` with its id and kwargs)."""
    env_id = meta.get("env_id")
    if not env_id:
        raise DataError(
            f"the episode was recorded from {meta.get('env_class')} without a registered id; "
            "only envs made with gymnasium.make can be rebuilt"
        )
    unrecorded = meta.get("make_kwargs_unrecorded") or {}
    if unrecorded and not set(unrecorded) <= set(overrides):
        raise DataError(
            f"make kwargs {sorted(unrecorded)} were not JSON and were not recorded; pass them "
            "as overrides to rebuild the env"
        )
    kwargs = {**meta.get("make_kwargs", {}), **overrides}
    steps = meta.get("max_episode_steps")
    return gym.make(env_id, max_episode_steps=steps, disable_env_checker=True, **kwargs)


def _reset(env: gym.Env, meta: dict[str, Any]) -> np.ndarray:
    options = meta.get("options")
    state = meta.get("rng_state")
    if meta.get("seed") is None and state is not None:
        bit_gen = getattr(np.random, state["bit_generator"])()
        bit_gen.state = state
        env.unwrapped.np_random = np.random.Generator(bit_gen)
        obs, _ = env.reset(options=options)
    else:
        obs, _ = env.reset(seed=meta.get("seed"), options=options)
    return obs


def _program(events: list[ev.Event], held: HeldInput, held_after: list[str] | None) -> Program:
    """The events of a recorded step, plus the releases the env made that the events lack.

    ``held`` follows the replayed events (what they leave down); the recorded ``held_keys``
    after the step tells whether the env let go of everything (it does so on errors).
    """
    for e in events:
        held.apply(e)
    if held_after is None or set(held.keys) <= set(held_after):
        return Program(events)
    release = held.releases()  # the recorded step let go of keys its events never released
    held.clear()
    return Program([*events, *release])


def iter_replay(
    episode: Episode | str | os.PathLike[str],
    wrap: Callable[[gym.Env], gym.Env] | None = None,
) -> Iterator[np.ndarray]:
    """Yield the frames of a re-run of ``episode``: the reset observation, then one per step.

    ``wrap`` is applied to the rebuilt env, for episodes recorded above observation wrappers.
    """
    ep = episode if isinstance(episode, Episode) else Episode(episode)
    meta = ep.meta
    mode = meta.get("time_mode")
    if mode not in (None, "lockstep"):
        raise DataError(
            f"{ep.path.name} ran with time_mode={mode!r}: only lockstep episodes replay exactly"
        )
    env = make_env(meta)
    if wrap is not None:
        env = wrap(env)
    try:
        yield _reset(env, meta)
        held = HeldInput()
        for row in ep.steps:
            program = _program(events_of(row["events"]), held, row.get("held_keys"))
            obs, *_ = env.step(program)
            yield obs
    finally:
        env.close()


def replay(
    episode: Episode | str | os.PathLike[str],
    wrap: Callable[[gym.Env], gym.Env] | None = None,
) -> list[np.ndarray]:
    """The frames of a re-run of ``episode`` (see :func:`iter_replay`)."""
    return list(iter_replay(episode, wrap))
