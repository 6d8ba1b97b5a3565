"""The observation size every backend accepts: ``obs_size=(H, W)``, whole pixels in range.

>>> parse_obs_size((84, 84))
(84, 84)
>>> parse_obs_size((84.5, 84))
Traceback (most recent call last):
...
gcc_envs.errors.GCCError: obs_size must be (height, width) in whole pixels, got (84.5, 84)
"""

from __future__ import annotations

import numbers
from typing import Any

from gcc_envs.errors import GCCError

#: Smallest and largest observation sides, in pixels: (height, width).
MIN_SIDE = 16
MAX_SIZE = (4320, 7680)


def _whole(v: Any) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, numbers.Real) and float(v).is_integer():  # 84.0 from a config file
        return int(v)
    return None


def parse_obs_size(obs_size: Any) -> tuple[int, int]:
    """``(H, W)`` as ints, or a :class:`GCCError` that says what is wrong."""
    try:
        values = list(obs_size)
    except TypeError:
        values = []
    sides = [_whole(v) for v in values]
    if len(sides) != 2 or None in sides:
        raise GCCError(f"obs_size must be (height, width) in whole pixels, got {obs_size!r}")
    H, W = sides
    assert H is not None and W is not None
    if not (MIN_SIDE <= H <= MAX_SIZE[0] and MIN_SIDE <= W <= MAX_SIZE[1]):
        raise GCCError(
            f"obs_size {obs_size!r} out of range: {MIN_SIDE}..{MAX_SIZE[0]} x "
            f"{MIN_SIDE}..{MAX_SIZE[1]}"
        )
    return H, W
