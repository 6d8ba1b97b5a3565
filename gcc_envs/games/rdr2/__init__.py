"""Red Dead Redemption II: the simulator (``sim/``), its data (``data/``), tasks, skills, env.

Importing this package does nothing; ``gcc_envs.games.rdr2.sim.RDR2Sim`` is the game.
"""
