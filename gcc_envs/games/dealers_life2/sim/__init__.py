"""The Dealer's Life 2 simulator: shop state, rules, economy and renderer.

>>> import numpy as np
>>> sim = DealersLife2Sim()
>>> sim.reset(np.random.default_rng(0), {"days": 1})
>>> sim.state.screen, sim.state.days
('news', 1)
"""

from gcc_envs.games.dealers_life2.sim.data import GameData, load_data
from gcc_envs.games.dealers_life2.sim.game import DealersLife2Sim, buttons
from gcc_envs.games.dealers_life2.sim.state import ShopState

__all__ = ["DealersLife2Sim", "GameData", "ShopState", "buttons", "load_data"]
