"""Moved to :mod:`gcc_envs.core.toml_data` (suites read TOML tables too); kept as an alias."""

from gcc_envs.core.toml_data import RGB, Entry, entries, read

__all__ = ["RGB", "Entry", "entries", "read"]
