"""``RandomPolicy``: uniform samples of the env's action space, seeded."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np


class RandomPolicy:
    """Samples ``env.action_space`` uniformly; seed it for reproducible runs."""

    name = "random"

    def __init__(self, env: gym.Env, seed: int | None = None) -> None:
        self.space = env.action_space
        self.seed = seed

    def reset(self, info: dict[str, Any]) -> None:
        if self.seed is not None:
            self.space.seed(self.seed)
            self.seed = None  # seed once; later episodes continue the stream

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Any:
        return self.space.sample()

    def close(self) -> None:
        pass
