"""The Red Dead Redemption II mission simulator: world state, rules and (separately) renderer.

>>> import numpy as np
>>> sim = RDR2Sim()
>>> sim.reset(np.random.default_rng(0), {"mission": "mission1"})
>>> sim.state.mission.current, sim.state.player.mounted  # on foot
('follow_dutch', None)
>>> sim.render(84, 84).shape
(84, 84, 3)
"""

from gcc_envs.games.rdr2.sim.data import GameData
from gcc_envs.games.rdr2.sim.game import RDR2Sim
from gcc_envs.games.rdr2.sim.loader import load_data
from gcc_envs.games.rdr2.sim.state import PAUSE_ANIMATION_S, WorldState

__all__ = ["PAUSE_ANIMATION_S", "GameData", "RDR2Sim", "WorldState", "load_data"]
