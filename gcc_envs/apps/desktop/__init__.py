"""``GCC/Desktop``: any window (or the whole screen) as an env, with no built-in task."""
