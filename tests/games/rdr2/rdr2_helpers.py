"""Helpers the RDR2 simulator tests share: start a mission, tap a key, face a point."""

from __future__ import annotations

import numpy as np

from gcc_envs.games.rdr2.sim import RDR2Sim
from gcc_envs.games.rdr2.sim import geometry as geo


def make(
    mission: str,
    checkpoint: str | None = None,
    seed: int = 0,
    single: bool | None = None,
    vary: bool = False,
) -> RDR2Sim:
    """A simulator reset to ``mission`` (at ``checkpoint``; ``single`` as the reset option),
    in the data files' layout unless ``vary`` (then the seed draws the episode's content)."""
    sim = RDR2Sim()
    opts: dict[str, object] = {"mission": mission, "vary": vary}
    if checkpoint is not None:
        opts["checkpoint"] = checkpoint
        if single is not None:
            opts["single"] = single
    sim.reset(np.random.default_rng(seed), opts)
    return sim


def press(sim: RDR2Sim, key: str, dt: float = 0.1) -> None:
    """Hold ``key`` for ``dt`` seconds of game time."""
    sim.key_down(key)
    sim.advance(dt)
    sim.key_up(key)


def face(sim: RDR2Sim, x: float, y: float) -> None:
    """Turn the player toward the point ``(x, y)`` (set directly, no mouse)."""
    p = sim.state.player
    p.yaw_deg = geo.heading(x - p.x, y - p.y)
