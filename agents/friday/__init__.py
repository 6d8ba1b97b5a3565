"""FRIDAY (OS-Copilot, Wu et al. 2024): a self-improving agent with a tool repository.

``FridayPolicy`` acts on an env (:mod:`agents.friday.policy`); ``Store`` is its tool
repository and memories as a folder (:mod:`agents.friday.store`); :func:`agents.friday.learn.learn`
is its self-directed learning. Imported on first use, so ``gcc-gym`` starts fast.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FridayConfig", "FridayPolicy", "Store"]


def __getattr__(name: str) -> Any:
    if name == "FridayConfig":
        from agents.friday.config import FridayConfig

        return FridayConfig
    if name == "FridayPolicy":
        from agents.friday.policy import FridayPolicy

        return FridayPolicy
    if name == "Store":
        from agents.friday.store import Store

        return Store
    raise AttributeError(f"module 'agents.friday' has no attribute {name!r}")
