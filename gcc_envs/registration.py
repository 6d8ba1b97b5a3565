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
    "rdr2": GameEntry(
        env_class="gcc_envs.games.rdr2.env:RDR2Env",
        simulator="gcc_envs.games.rdr2.sim:RDR2Sim",
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
    # RDR2: the paper allows 500 steps per checkpoint task, so a whole mission gets 500 per
    # checkpoint (8 and 5); a checkpoint run alone (task="mission1:<name>") gets 500.
    EnvRow("GCC/RDR2-Mission1", "rdr2", "mission1", 8 * 500),
    EnvRow("GCC/RDR2-Mission2", "rdr2", "mission2", 5 * 500),
    EnvRow("GCC/RDR2-Mission3", "rdr2", "mission3", 500),
    EnvRow("GCC/Desktop", "desktop", "open", 100),
)

#: kwargs of ``gym.make`` that configure a desktop backend rather than the env.
DESKTOP_KWARGS = (
    "target",
    "launch",
    "display",
    "pause",
    "screen_size",
    "pause_key",
    "pause_template",
    "judge",
    "kill_switch",
    "draw_pointer",
)
#: kwargs of ``gym.make`` that configure a remote backend (with target, launch and pause).
REMOTE_KWARGS = ("url", "token", "timeout", "capture_format")


def load(path: str) -> Any:
    """Import ``module:attribute``."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def live_module(entry: GameEntry) -> Any:
    """The game's ``live`` module (``games/<game>/live.py``, next to its env module)."""
    package = entry.env_class.partition(":")[0].rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.live")
    except ImportError as e:
        raise GCCError(
            f"{package} has no live profile (live.py); it cannot run on a desktop"
        ) from e


def make_backend(game: str, backend: str, obs_size: Any = None, **desktop: Any) -> Any:
    """The backend object for ``backend="sim" | "desktop" | "remote"``."""
    entry = GAMES[game]
    if desktop and backend not in ("desktop", "remote"):
        raise GCCError(f"{sorted(desktop)} apply to backend='desktop' or 'remote' only")
    only = set(REMOTE_KWARGS) if backend == "desktop" else {"display", "screen_size", "kill_switch"}
    if set(desktop) & only:
        raise GCCError(f"{sorted(set(desktop) & only)} do not apply to backend={backend!r}")
    if backend == "sim":
        if entry.simulator is None:
            raise GCCError(f"{game} has no simulator; use backend='desktop'")
        from gcc_envs.backends.sim import SimBackend

        return SimBackend(load(entry.simulator)(), obs_size)
    if backend == "desktop":
        from gcc_envs.backends.desktop.backend import DesktopBackend
        from gcc_envs.backends.desktop.judge import make_judge

        spec = desktop.pop("judge", None)
        if entry.default_backend == "desktop":  # an app: a judge only when asked for
            judge = None if spec is None else make_judge(spec)
            return DesktopBackend(obs_size, judge=judge, **desktop)
        # a real game: its live profile names the window and the pause method; success needs
        # an explicit judge (a state-file judge rebuilds the game's state with its mirror)
        live = live_module(entry)
        judge = make_judge(spec, getattr(live, "state_mirror", None))
        if desktop.get("pause_template") is None and getattr(live, "PAUSE_TEMPLATE", None):
            desktop["pause_template"] = live.PAUSE_TEMPLATE  # a PNG of the pause screen
        return DesktopBackend(obs_size, profile=live.PROFILE, judge=judge, **desktop)
    if backend == "remote":  # as "desktop", with the screen and the judge on the server
        from gcc_envs.backends.remote import RemoteBackend

        if entry.default_backend == "desktop":
            return RemoteBackend(obs_size, **desktop)
        live = live_module(entry)
        mirror = getattr(live, "state_mirror", None)
        return RemoteBackend(obs_size, profile=live.PROFILE, mirror=mirror, **desktop)
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
    desktop = {k: kwargs.pop(k) for k in (*DESKTOP_KWARGS, *REMOTE_KWARGS) if k in kwargs}
    backend = GAMES[game].default_backend if backend is None else backend
    env_class = load(GAMES[game].env_class)
    made = make_backend(game, backend, obs_size, **desktop)
    if not getattr(made, "clock_driven", True) and GAMES[game].simulator is not None:
        kwargs.setdefault("time_mode", "paused")  # a real game runs in real time (DESIGN 2.1)
    env = env_class(backend=made, task=task, **kwargs)
    judge = getattr(made, "judge", None)
    if judge is not None:  # success is the judge's call (gcc_envs.backends.desktop.judge)
        from gcc_envs.backends.desktop.judge import judged

        return judged(env, judge)
    return env


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
    from gcc_envs.apps.software.registry import register_twins  # temporary (until SPECS)

    register_twins()


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
