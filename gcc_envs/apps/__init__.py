"""Applications: envs over desktop programs, with their task tables and checkers."""
