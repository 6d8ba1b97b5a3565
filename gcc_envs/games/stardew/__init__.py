"""Stardew Valley: the simulator (``sim/``), its data (``data/``) and, later, tasks and skills.

Importing this package does nothing; ``gcc_envs.games.stardew.sim.StardewSim`` is the game.
"""
