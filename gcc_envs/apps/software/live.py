"""Live profiles of the five real apps (``data/live.toml``): which window an env drives on a
person's own machine, which dialogs may come in front, and the display scaling the paper used.

>>> p = profile("chrome")
>>> p.title("windows"), p.allows("Save As"), p.scale
(' - Google Chrome$', True, 1.25)
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from gcc_envs.errors import DataError, GCCError
from gcc_envs.games.toml_data import entries, read

LIVE = Path(__file__).parent / "data" / "live.toml"
PLATFORMS = ("windows", "macos", "linux")


@dataclass(frozen=True)
class AppProfile:
    key: str
    name: str
    #: Window-title regular expressions by platform.
    titles: dict[str, str]
    #: Titles (regexes) of the app's dialogs that may be in front instead of the main window.
    dialogs: tuple[str, ...]
    #: Display scaling of the paper's machines (screen pixels per logical pixel).
    scale: float

    def title(self, platform: str | None = None) -> str:
        platform = platform or current_platform()
        if platform not in self.titles:
            raise GCCError(f"{self.name}: no window title for platform {platform!r}")
        return self.titles[platform]

    def allows(self, title: str, platform: str | None = None) -> bool:
        """Whether a window titled ``title`` may be in front (the app, or one of its dialogs)."""
        pats = (self.title(platform), *self.dialogs)
        return any(re.search(p, title) for p in pats)


def current_platform() -> str:
    return {"win32": "windows", "darwin": "macos"}.get(sys.platform, "linux")


def load_profiles(path: Path = LIVE) -> dict[str, AppProfile]:
    out = {}
    for e in entries(path.name, read(path), "app"):
        titles = {p: e.get(p, str) for p in PLATFORMS}
        for p, pat in titles.items():
            try:
                re.compile(pat)
            except re.error as err:
                e.fail(f"{p} title is not a regular expression: {err}")
        dialogs = tuple(e.get("dialogs", list, []))
        scale = float(e.get("scale", (int, float), 1.0))
        out[e.get("key", str)] = AppProfile(e.get("key", str), e.get("name", str), titles,
                                            dialogs, scale)  # fmt: skip
    if not out:
        raise DataError(f"{path.name}: no [[app]] entries")
    return out


def profile(key: str) -> AppProfile:
    profiles = load_profiles()
    if key not in profiles:
        raise GCCError(f"no live profile for app {key!r}; known: {sorted(profiles)}")
    return profiles[key]
