"""The Cities: Skylines simulator: terrain, building rules, networks, growth and renderer.

>>> import numpy as np
>>> sim = SkylinesSim()
>>> sim.reset(np.random.default_rng(0), {"scenario": "city"})
>>> sim.state.budget, sim.state.population, sim.state.running
(70000.0, 0, False)
>>> sim.render(84, 84).shape
(84, 84, 3)
"""

from gcc_envs.games.skylines.sim.data import GameData, load_data
from gcc_envs.games.skylines.sim.game import SkylinesSim
from gcc_envs.games.skylines.sim.state import CityState

__all__ = ["CityState", "GameData", "SkylinesSim", "load_data"]
