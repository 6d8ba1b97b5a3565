"""The Stardew Valley simulator: world state, rules and renderer.

>>> import numpy as np
>>> sim = StardewSim()
>>> sim.reset(np.random.default_rng(0), {"scenario": "shopping"})
>>> sim.state.location, sim.state.time_text, sim.state.money
('farm', '9:00 am', 537)
>>> sim.render(84, 84).shape
(84, 84, 3)
"""

from gcc_envs.games.stardew.sim.data import GameData
from gcc_envs.games.stardew.sim.game import StardewSim
from gcc_envs.games.stardew.sim.loader import load_data
from gcc_envs.games.stardew.sim.state import WorldState

__all__ = ["GameData", "StardewSim", "WorldState", "load_data"]
