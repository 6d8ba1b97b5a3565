"""GNOME's desktop shortcuts that OSWorld's agents count on, seen in the events an action sends.

On OSWorld's Ubuntu desktop Ctrl+Alt+T opens a terminal: the desktop takes the keys, no window
sees them. Agents press it to get a shell (``pyautogui.hotkey('ctrl', 'alt', 't')``). The
episode's window manager here has no such binding, so the runner opens the terminal itself
when an action pressed the keys (:meth:`~gcc_envs.osworld.episode.EpisodeRunner.open_terminal`),
and its xterm ignores them.

>>> from gcc_envs.core import events as ev
>>> opens_terminal([ev.Hotkey(("ctrl", "alt", "t"))])
True
>>> opens_terminal([ev.KeyDown("ctrl"), ev.KeyDown("alt"), ev.KeyPress("t"), ev.KeyUp("alt")])
True
>>> opens_terminal([ev.Hotkey(("ctrl", "t")), ev.TypeText("t")])
False
"""

from __future__ import annotations

from collections.abc import Iterable

from gcc_envs.core import events as ev

_CTRL = frozenset({"ctrl", "ctrlleft", "ctrlright"})
_ALT = frozenset({"alt", "altleft", "altright"})


def _chord(held: set[str], key: str) -> bool:
    return key.lower() == "t" and bool(held & _CTRL) and bool(held & _ALT)


def opens_terminal(events: Iterable[ev.Event]) -> bool:
    """Whether ``events`` press T while Ctrl and Alt are held (GNOME's terminal shortcut)."""
    held: set[str] = set()
    for e in events:
        if isinstance(e, ev.Hotkey):
            if _chord(set(e.keys[:-1]), e.keys[-1]):
                return True
        elif isinstance(e, ev.KeyDown):
            if _chord(held, e.key):
                return True
            held.add(e.key)
        elif isinstance(e, ev.KeyUp):
            held.discard(e.key)
        elif isinstance(e, ev.KeyPress) and _chord(held, e.key):
            return True
    return False
