"""``DesktopProbe``: what a desktop task's checker may read of the desktop it judges.

A checker is a pure function ``checker(probe, **args) -> float | bool`` (a score in [0, 1]).
It never touches X, files or processes itself: it reads the final screenshot, the window
titles, files under the episode's home and the output of commands through the probe. Commands
are argument lists, never shell strings, and always have a timeout. Paths are relative to the
episode's home folder (absolute paths must lie inside it), so a task file cannot make a
checker read or run anything outside the episode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True)
class RunResult:
    """A finished command: exit status and captured output (decoded as UTF-8, replaced)."""

    returncode: int
    stdout: str
    stderr: str
    #: True when the command was killed at its timeout.
    timed_out: bool = False


@runtime_checkable
class DesktopProbe(Protocol):
    """The desktop at the end of a step, as a checker sees it."""

    #: The episode's home folder (fresh per episode; ``$HOME`` of every program it starts).
    home: Path
    #: Files and folders the task's setup created, by the name the setup gave them.
    files: Mapping[str, Path]

    def screenshot(self) -> np.ndarray:
        """The whole screen, H×W×3 uint8 RGB."""
        ...

    def window_titles(self) -> list[str]:
        """Titles of the top-level windows, in stacking order."""
        ...

    def exists(self, path: str | Path) -> bool:
        """Whether a file or folder exists under the home (False outside it)."""
        ...

    def read_file(self, path: str | Path) -> bytes:
        """The bytes of a file under the home (``GCCError`` when missing or outside it)."""
        ...

    def run(
        self, argv: Sequence[str], timeout_s: float = 10.0, env: Mapping[str, str] | None = None
    ) -> RunResult:
        """Run a program (an argument list) in the episode's environment, output captured."""
        ...
