"""The desktop backends the OSWorld suite runs on outside ``gym.make`` (the adapter, servers).

Through ``gym.make`` the registry builds the backend (its ``screen_size`` from the spec's
``desktop_defaults``); ``DesktopEnv`` and ``gcc-gym osworld serve`` build theirs here.
"""

from __future__ import annotations

from typing import Any

from gcc_envs.errors import GCCError

#: OSWorld's screen size (its VMs run 1920×1080).
SCREEN_SIZE = (1920, 1080)


def make_backend(
    backend: str = "desktop", obs_size: Any = None, *, screen_size: Any = SCREEN_SIZE, **kw: Any
) -> Any:
    """A whole-screen backend that never pauses the desktop's programs."""
    if backend == "desktop":
        from gcc_envs.backends.desktop.backend import DesktopBackend

        return DesktopBackend(obs_size, screen_size=tuple(screen_size), pause="none", **kw)
    if backend == "remote":
        from gcc_envs.backends.remote import RemoteBackend

        kw.pop("display", None)
        return RemoteBackend(obs_size, pause="none", **kw)
    raise GCCError(f"the OSWorld env runs on backend='desktop' or 'remote' (got {backend!r})")
