"""Scripted solutions of the Chrome twins (Chromium): keyboard first, as a fluent person works.

Each reads what varies from the instruction — the phrase of the article's title, the text
to post, how many closed pages to reopen, the user, the mode — and acts through events only,
one step per sub-step of the task (waiting inside a step for the screen to settle). They
never read the local web's data or the answer key. Clicks are in pixels of the twin's
1280x800 screen, scaled to the frames the script is shown.
"""

from __future__ import annotations

import re

import numpy as np

from gcc_envs.apps.software.scripting import Plan, PlanScript, quoted, settle, until
from gcc_envs.core.events import Event, Hotkey, KeyPress, TypeText, Wait

COUNTS = {"last closed page": 1, "two": 2, "three": 3}


def go(text: str) -> list[Event]:
    """The address bar: type ``text`` (an address or a search) and go."""
    return [Hotkey(("ctrl", "l")), TypeText(text, 0.01), KeyPress("enter")]


def follow(text: str, skip: int = 0) -> list[Event]:
    """Find ``text`` on the page (``skip`` matches on), leave the find bar (the match's link
    keeps the focus), Enter."""
    nexts = [KeyPress("enter")] * skip
    return [Hotkey(("ctrl", "f")), TypeText(text, 0.01), Wait(0.3), *nexts, KeyPress("esc"),
            KeyPress("enter")]  # fmt: skip


class ChromeScript(PlanScript):
    """Clicks in the twin's 1280x800 screen pixels, scaled to the frames shown."""


class SavePaperPDFScript(ChromeScript):
    """Search the phrase, open the result whose title holds it, download its PDF."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        phrase = quoted(instruction)[0]
        yield settle(go(phrase), quiet_s=0.6)
        # the first match is the search box's own text; the next is the article's title
        yield settle(follow(phrase, skip=1), quiet_s=0.6)
        yield settle([*follow("View PDF"), Wait(1.0)], quiet_s=1.0)


class PostOnTwitterScript(ChromeScript):
    """The microblog's post box (the first field), the text, Post."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        text = quoted(instruction)[0]
        yield settle(go("twitter.com"), quiet_s=0.6)
        yield settle([KeyPress("tab"), TypeText(text, 0.01), KeyPress("tab"), KeyPress("enter")])


class OpenLastClosedPageScript(ChromeScript):
    """Ctrl+Shift+T once per page to reopen (the most recently closed first)."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        n = next((v for k, v in COUNTS.items() if k in instruction), 1)
        events: list[Event] = []
        for _ in range(n):
            events += [Hotkey(("ctrl", "shift", "t")), Wait(0.6)]
        yield settle(events)


class GoToGitHubHomepageScript(ChromeScript):
    """The profile's address, typed (the user's handle from the instruction)."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        m = re.search(r"navigate to (\S+)'s homepage", instruction)
        user = m.group(1) if m else "tellarin"
        yield settle(go(f"github.com/{user}"), quiet_s=0.6)


class DarkModeScript(ChromeScript):
    """Settings > Appearance, the Mode list, the mode's first letter; then wait for Chromium
    to write its preferences (it does within about ten seconds)."""

    #: The Mode list on chrome://settings/appearance (1280x800).
    MODE = (914, 345)

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        mode = "light" if re.search(r"\blight mode\b", instruction) else "dark"
        yield settle(go("chrome://settings/appearance"), quiet_s=1.0)
        pick = [self.click(*self.MODE), Wait(0.6), KeyPress(mode[0]), KeyPress("enter")]
        # the page turns dark (light) when the mode takes (the device's mode, under Xvfb, is
        # light); Chromium saves the setting within about ten seconds
        want_dark = mode == "dark"
        yield until(pick, lambda f: page_is_dark(f) == want_dark, timeout_s=6.0, then_s=11.0)


def page_is_dark(frame: np.ndarray) -> bool:
    """Whether the page (below the toolbar) is mostly dark."""
    h = frame.shape[0]
    return float(frame[h // 4 :, :].mean()) < 100.0
