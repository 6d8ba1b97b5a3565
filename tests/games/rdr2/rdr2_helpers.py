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


def play_frame_only(task: str, seed: int, size: tuple[int, int] = (180, 320)) -> bool:
    """One checkpoint (``"mission1:lead_horse"``) played by the frame-only player through
    ``UseSkills`` under the evaluation's latency; whether it succeeded."""
    import gymnasium as gym

    from agents.scripted import ScriptedPolicy
    from gcc_envs.games.rdr2.tasks import EVAL_KWARGS, MAX_STEPS
    from wrappers import UseSkills

    env = UseSkills(gym.make(f"GCC/RDR2-Mission{task[7]}", task=task, obs_size=size, **EVAL_KWARGS))
    pol = ScriptedPolicy(env.unwrapped, privileged=False)
    obs, info = env.reset(seed=seed)
    pol.reset(info)
    try:
        for _ in range(MAX_STEPS):
            obs, _, term, trunc, info = env.step(pol.act(obs, info))
            if term or trunc:
                break
    finally:
        env.close()
    return bool(info["success"])
