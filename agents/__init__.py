"""Policies for GCC envs: random, scripted, SB3, Cradle and FRIDAY, behind one protocol.

>>> import gymnasium as gym, gcc_envs, agents
>>> env = gym.make("GCC/Stardew-Shopping", obs_size=(84, 84))
>>> policy = agents.make_policy("random", env, seed=0)
>>> obs, info = env.reset(seed=0); policy.reset(info)
>>> _ = env.step(policy.act(obs, info))
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from agents.policy import Policy
from agents.random_policy import RandomPolicy
from gcc_envs.errors import GCCError

POLICIES = ("random", "scripted", "sb3", "cradle", "friday")


def make_policy(name: str, env: gym.Env, **kwargs: Any) -> Policy:
    """Build the policy called ``name`` for ``env``."""
    if name == "random":
        return RandomPolicy(env, **kwargs)
    if name == "scripted":
        from agents.scripted import ScriptedPolicy

        return ScriptedPolicy(env, **kwargs)
    if name == "sb3":
        from agents.sb3 import SB3Policy

        return SB3Policy(env, **kwargs)
    if name == "cradle":
        from agents.cradle import CradlePolicy

        return CradlePolicy(env, **kwargs)
    if name == "friday":
        from agents.friday import FridayPolicy

        return FridayPolicy(env, **kwargs)
    raise GCCError(f"unknown policy {name!r}; known: {', '.join(POLICIES)}")


__all__ = ["POLICIES", "Policy", "RandomPolicy", "make_policy"]
