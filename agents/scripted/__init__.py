"""``ScriptedPolicy``: per-task scripts built from the game's skills.

A script may read the simulator's privileged state only when the policy is constructed with
``privileged=True`` (expert demonstrations); otherwise it sees what any policy sees.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from gcc_envs.errors import GCCError
from gcc_envs.registration import load

#: (game, task) → ``module:Class`` of the script.
SCRIPTS: dict[tuple[str, str], str] = {
    ("stardew", "farm_clearup"): "agents.scripted.stardew:FarmClearupScript",
    ("stardew", "cultivation"): "agents.scripted.stardew:CultivationScript",
    ("stardew", "shopping"): "agents.scripted.stardew:ShoppingScript",
    ("rdr2", "mission1"): "agents.scripted.rdr2:RDR2Script",
    ("rdr2", "mission2"): "agents.scripted.rdr2:RDR2Script",
    ("rdr2", "mission3"): "agents.scripted.rdr2:RDR2Script",
    # temporary shim until the seam (TaskSpec.script of gcc_envs.games.skylines.GAME)
    ("skylines", "build_city"): "agents.scripted.skylines:BuildCityScript",
    ("skylines", "block"): "agents.scripted.skylines:BlockScript",
}


class ScriptedPolicy:
    """Runs the script registered for the env's game and task."""

    name = "scripted"

    def __init__(self, env: gym.Env, privileged: bool = False, seed: int | None = None) -> None:
        base = env.unwrapped
        key = (getattr(base, "game", ""), getattr(base, "task_key", ""))
        if key not in SCRIPTS:  # one checkpoint of a mission ("mission1:protect_dutch")
            key = (key[0], key[1].partition(":")[0])
        if key not in SCRIPTS:
            raise GCCError(f"no script for game {key[0]!r} task {key[1]!r}")
        self.script = load(SCRIPTS[key])(base, privileged=privileged)

    def reset(self, info: dict[str, Any]) -> None:
        self.script.reset(info)

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Any:
        return self.script.act(obs, info)

    def close(self) -> None:
        pass
