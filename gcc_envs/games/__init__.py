"""Games: each folder holds a simulator, its task table, skills and the real game's profile."""
