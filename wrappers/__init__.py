"""Gymnasium wrappers for GCC envs (video chunks, skills, code, SB3, recording) — see DESIGN §7."""
