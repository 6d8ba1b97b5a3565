"""Stable-Baselines3 support: training (``gcc-gym train``) and :class:`SB3Policy`.

Needs the ``sb3`` extra; importing this package does not import SB3 or torch.
"""

from agents.sb3.policy import SB3Policy

__all__ = ["SB3Policy"]
