"""Temporary registration of the suite's ids (until the seam's ``SPECS`` loop registers them).

``make_env`` builds the desktop backend (the whole screen is the observation) and the env.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from gcc_envs.errors import GCCError

#: OSWorld's screen size (its VMs run 1920×1080).
SCREEN_SIZE = (1920, 1080)


def make_backend(
    backend: str = "desktop", obs_size: Any = None, *, screen_size: Any = SCREEN_SIZE, **kw: Any
) -> Any:
    if backend == "desktop":
        from gcc_envs.backends.desktop.backend import DesktopBackend

        return DesktopBackend(obs_size, screen_size=tuple(screen_size), pause="none", **kw)
    if backend == "remote":
        from gcc_envs.backends.remote import RemoteBackend

        kw.pop("display", None)
        return RemoteBackend(obs_size, pause="none", **kw)
    raise GCCError(f"the OSWorld env runs on backend='desktop' or 'remote' (got {backend!r})")


def make_env(
    *, task: Any = None, backend: str = "desktop", obs_size: Any = None, screen_size: Any = SCREEN_SIZE,
    display: str | None = None, url: str | None = None, token: str | None = None, **kwargs: Any,
) -> gym.Env:  # fmt: skip
    from gcc_envs.osworld.env import OSWorldEnv

    remote = {"url": url, "token": token} if backend == "remote" else {}
    made = make_backend(backend, obs_size, screen_size=screen_size, display=display, **remote)
    return OSWorldEnv(made, task, **kwargs)


def register() -> None:
    """Register ``GCC/OSWorld`` and the 44 task ids (idempotent)."""
    from gcc_envs.osworld import SUITE

    rows = [(SUITE.open_id, None)] + [(t.env_id(SUITE.title), t.key) for t in SUITE.tasks]
    for env_id, task in rows:
        if env_id in gym.registry:
            continue
        gym.register(id=env_id, entry_point=make_env, max_episode_steps=SUITE.tasks[0].max_steps,
                     nondeterministic=True, kwargs={"task": task})  # fmt: skip
