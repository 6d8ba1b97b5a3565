"""``ScriptedPolicy``: per-task scripts built from the game's skills.

A script may read the simulator's privileged state only when the policy is constructed with
``privileged=True`` (expert demonstrations); otherwise it sees what any policy sees.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from gcc_envs.core.spec import load
from gcc_envs.errors import GCCError


class ScriptedPolicy:
    """Runs the script the env's task table names for its task (``TaskSpec.script``)."""

    name = "scripted"

    def __init__(
        self,
        env: gym.Env,
        privileged: bool = False,
        seed: int | None = None,
        script: str | None = None,
    ) -> None:
        base = env.unwrapped
        row = getattr(base, "task_spec", None)
        # ``script``: another "module:Class" for the same env (a baseline such as a game's
        # "accept the first offer" player)
        script = script or getattr(row, "script", None)
        if not script:
            what = getattr(row, "key", None) or getattr(base, "task_key", type(base).__name__)
            raise GCCError(f"no scripted policy for task {what!r}")
        self.script = load(script)(base, privileged=privileged)

    def reset(self, info: dict[str, Any]) -> None:
        self.script.reset(info)

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Any:
        return self.script.act(obs, info)

    def close(self) -> None:
        pass
