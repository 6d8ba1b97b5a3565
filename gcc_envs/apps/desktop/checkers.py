"""Checkers of the ``GCC/Desktop-<Task>`` suite: pure functions of the end state.

Each reads the desktop only through its :class:`~gcc_envs.core.probe.DesktopProbe` and returns
a score in [0, 1]; a file the agent never made is simply a 0.
"""

from __future__ import annotations

from gcc_envs.core.probe import DesktopProbe


def file_contains(probe: DesktopProbe, path: str, text: str) -> float:
    """1 when the file ``path`` of the home holds ``text`` (case and surrounding space kept)."""
    if not probe.exists(path):
        return 0.0
    return float(text in probe.read_file(path).decode("utf-8", "replace"))


def window_title_contains(probe: DesktopProbe, text: str) -> float:
    """1 when some window's title contains ``text``."""
    return float(any(text in title for title in probe.window_titles()))
