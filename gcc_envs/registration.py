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
    #: The backend a plain ``gym.make`` uses: ``"sim"`` for games, ``"desktop"`` for apps.
    default_backend: str = "sim"


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
    "desktop": GameEntry(
        env_class="gcc_envs.apps.desktop.env:DesktopEnv", default_backend="desktop"
    ),
}

# Step limits are the Cradle paper's: 100 steps per Stardew Valley task.
ENVS: tuple[EnvRow, ...] = (
    EnvRow("GCC/Stardew-FarmClearup", "stardew", "farm_clearup", 100),
    EnvRow("GCC/Stardew-Cultivation", "stardew", "cultivation", 100),
    EnvRow("GCC/Stardew-Shopping", "stardew", "shopping", 100),
    EnvRow("GCC/Desktop", "desktop", "open", 100),
)

#: kwargs of ``gym.make`` that configure a desktop backend rather than the env.
DESKTOP_KWARGS = ("target", "launch", "display", "pause", "screen_size")


def load(path: str) -> Any:
    """Import ``module:attribute``."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def make_backend(game: str, backend: str, obs_size: Any = None, **desktop: Any) -> Any:
    """The backend object for ``backend="sim" | "desktop" | "remote"``."""
    entry = GAMES[game]
    if desktop and backend != "desktop":
        raise GCCError(f"{sorted(desktop)} apply to backend='desktop' only")
    if backend == "sim":
        if entry.simulator is None:
            raise GCCError(f"{game} has no simulator; use backend='desktop'")
        from gcc_envs.backends.sim import SimBackend

        return SimBackend(load(entry.simulator)(), obs_size)
    if backend == "desktop" and entry.default_backend == "desktop":
        from gcc_envs.backends.desktop.backend import DesktopBackend

        return DesktopBackend(obs_size, **desktop)
    if backend in ("desktop", "remote"):
        raise GCCError(
            f"backend={backend!r} is not available for {game} in this version; "
            f"use backend={entry.default_backend!r}"
        )
    raise GCCError(f"unknown backend {backend!r}; use 'sim', 'desktop' or 'remote'")


def make_env(
    *, game: str, task: str, backend: str | None = None, obs_size: Any = None, **kwargs: Any
) -> gym.Env:
    """Entry point of every registered id."""
    if game not in GAMES:
        raise GCCError(f"unknown game {game!r}; known: {sorted(GAMES)}")
    desktop = {k: kwargs.pop(k) for k in DESKTOP_KWARGS if k in kwargs}
    backend = GAMES[game].default_backend if backend is None else backend
    env_class = load(GAMES[game].env_class)
    return env_class(backend=make_backend(game, backend, obs_size, **desktop), task=task, **kwargs)


def register_all() -> None:
    """Register every row of :data:`ENVS` (idempotent)."""
    for row in ENVS:
        if row.id in gym.registry:
            continue
        gym.register(
            id=row.id,
            entry_point=make_env,
            max_episode_steps=row.max_episode_steps,
            # a real desktop runs in real time: the same seed need not give the same frames
            nondeterministic=GAMES[row.game].default_backend != "sim",
            kwargs={"game": row.game, "task": row.task},
        )


def env_ids(default_backend: str | None = None) -> list[str]:
    """Registered ids, optionally only those whose default backend is ``default_backend``.

    >>> "GCC/Desktop" in env_ids(), "GCC/Desktop" in env_ids("sim")
    (True, False)
    """
    return [
        row.id
        for row in ENVS
        if default_backend is None or GAMES[row.game].default_backend == default_backend
    ]
