"""``TruncateWhenStuck``: end an episode whose screen has stopped changing."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from gcc_envs.errors import GCCError


def digest(obs: Any) -> bytes:
    """A hash of an observation's contents (arrays by dtype, shape and bytes; dicts by key).

    >>> digest(np.zeros(3)) == digest(np.zeros(3)), digest(np.zeros(3)) == digest(np.ones(3))
    (True, False)
    """
    h = hashlib.blake2b(digest_size=16)
    _feed(h, obs)
    return h.digest()


def _feed(h: Any, obs: Any) -> None:
    if isinstance(obs, np.ndarray):
        h.update(f"{obs.dtype.str}{obs.shape}".encode())
        h.update(np.ascontiguousarray(obs).tobytes())
    elif isinstance(obs, Mapping):
        for k in sorted(obs, key=str):
            h.update(f"<{k}>".encode())
            _feed(h, obs[k])
    elif isinstance(obs, (tuple, list)):
        h.update(f"[{len(obs)}]".encode())
        for item in obs:
            _feed(h, item)
    else:
        h.update(repr(obs).encode())


class TruncateWhenStuck(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Truncate the episode after ``patience`` consecutive steps that leave the screen unchanged.

    An agent that keeps doing nothing visible (walking into a wall, clicking dead space, waiting)
    wastes the rest of its step budget; this ends the episode early with ``truncated=True`` and
    ``info["truncated_reason"] = "stuck"``. Every step reports ``info["stuck_steps"]``, the
    number of consecutive steps whose observation equals the one before (compared by a
    ``blake2b`` hash of its bytes, so any observation — frames, chunks, dicts — works).

    Example:
        >>> import gymnasium as gym
        >>> import gcc_envs
        >>> from wrappers import TruncateWhenStuck
        >>> env = TruncateWhenStuck(gym.make("GCC/Stardew-FarmClearup", obs_size=(72, 128)), 3)
        >>> _ = env.reset(seed=0)
        >>> [env.step("time.sleep(0.25)")[3] for _ in range(3)]
        [False, False, True]

    Args:
        env: an env whose screen stands still while nothing happens (Stardew, desktop apps). In
            a world that moves on its own (RDR2: falling snow, walking NPCs) every frame differs,
            so an idle agent is never called stuck there.
        patience: unchanged steps in a row that end the episode (>= 1).
    """

    def __init__(self, env: gym.Env, patience: int = 20) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, patience=patience)
        gym.Wrapper.__init__(self, env)
        if isinstance(patience, bool) or not isinstance(patience, int) or patience < 1:
            raise GCCError(f"patience must be an int >= 1, got {patience!r}")
        self.patience = patience
        self._last: bytes | None = None
        self._stuck = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._last, self._stuck = digest(obs), 0
        info["stuck_steps"] = 0
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        d = digest(obs)
        self._stuck = self._stuck + 1 if d == self._last else 0
        self._last = d
        info["stuck_steps"] = self._stuck
        if self._stuck >= self.patience and not (terminated or truncated):
            truncated = True
            info["truncated_reason"] = "stuck"
        return obs, reward, terminated, truncated, info
