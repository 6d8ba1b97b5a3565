"""One table of environments → ``gymnasium.register`` calls in namespace ``GCC``.

``import gcc_envs`` calls :func:`register_all`. Each row names a game and a task; the entry
point :func:`make_env` builds the backend the ``backend=`` kwarg asks for, then the game's env.
Adding a game means adding a folder and rows here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from gcc_envs.errors import GCCError


@dataclass(frozen=True)
class GameEntry:
    """Where a game's parts live (``module:attribute``), imported only when an env is made."""

    env_class: str
    simulator: str | None = None


@dataclass(frozen=True)
class EnvRow:
    id: str
    game: str
    task: str
    max_episode_steps: int


GAMES: dict[str, GameEntry] = {
    "stardew": GameEntry(
        env_class="gcc_envs.games.stardew.env:StardewEnv",
        simulator="gcc_envs.games.stardew.sim:StardewSim",
    ),
}

# Step limits are the Cradle paper's: 100 steps per Stardew Valley task.
ENVS: tuple[EnvRow, ...] = (
    EnvRow("GCC/Stardew-FarmClearup", "stardew", "farm_clearup", 100),
    EnvRow("GCC/Stardew-Cultivation", "stardew", "cultivation", 100),
    EnvRow("GCC/Stardew-Shopping", "stardew", "shopping", 100),
)


def load(path: str) -> Any:
    """Import ``module:attribute``."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def make_backend(game: str, backend: str, obs_size: Any = None) -> Any:
    """The backend object for ``backend="sim" | "desktop" | "remote"``."""
    entry = GAMES[game]
    if backend == "sim":
        if entry.simulator is None:
            raise GCCError(f"{game} has no simulator; use backend='desktop'")
        from gcc_envs.backends.sim import SimBackend

        return SimBackend(load(entry.simulator)(), obs_size)
    if backend in ("desktop", "remote"):
        raise GCCError(f"backend={backend!r} is not available in this version; use backend='sim'")
    raise GCCError(f"unknown backend {backend!r}; use 'sim', 'desktop' or 'remote'")


def make_env(
    *, game: str, task: str, backend: str = "sim", obs_size: Any = None, **kwargs: Any
) -> gym.Env:
    """Entry point of every registered id."""
    if game not in GAMES:
        raise GCCError(f"unknown game {game!r}; known: {sorted(GAMES)}")
    env_class = load(GAMES[game].env_class)
    return env_class(backend=make_backend(game, backend, obs_size), task=task, **kwargs)


def register_all() -> None:
    """Register every row of :data:`ENVS` (idempotent)."""
    for row in ENVS:
        if row.id in gym.registry:
            continue
        gym.register(
            id=row.id,
            entry_point=make_env,
            max_episode_steps=row.max_episode_steps,
            kwargs={"game": row.game, "task": row.task},
        )


def env_ids() -> list[str]:
    return [row.id for row in ENVS]
