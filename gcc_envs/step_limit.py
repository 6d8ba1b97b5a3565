"""``TellStepLimit``: lets an env know the step limit that ``gym.make`` put above it.

Gymnasium enforces ``max_episode_steps`` with a ``TimeLimit`` wrapper and hides the figure
from the env itself (``env.unwrapped.spec.max_episode_steps`` is None). A gcc-gym task has a
last word at the episode's end (a desktop task's checker, a city left to grow), so the env must
know which step is the last one, override included: every id registers this wrapper (an
``EnvSpec.additional_wrappers`` entry, applied by ``gym.make`` right above the ``TimeLimit``),
which reads the limit once and passes every call through unchanged.
"""

from __future__ import annotations

import gymnasium as gym
from gymnasium.envs.registration import WrapperSpec

SPEC = WrapperSpec("TellStepLimit", f"{__name__}:TellStepLimit", {})


class TellStepLimit(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Sets ``env.unwrapped.step_limit`` from the ``TimeLimit`` below (None: no limit)."""

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)
        limit, inner = None, env
        while isinstance(inner, gym.Wrapper):
            if isinstance(inner, gym.wrappers.TimeLimit):
                limit = inner._max_episode_steps
                break
            inner = inner.env
        env.unwrapped.step_limit = limit
