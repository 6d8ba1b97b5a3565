"""Scripted solutions of the Chrome twins (Chromium): keyboard first, as a fluent person works.

Each reads what varies from the instruction — the phrase of the article's title, the text
to post, how many closed pages to reopen (or the topic of the one to find), the user and
which of their pages, the mode and the other settings — and acts through events only,
one step per sub-step of the task (waiting inside a step for the screen to settle). They
never read the local web's data or the answer key. Clicks are in pixels of the twin's
1280x800 screen, scaled to the frames the script is shown.
"""

from __future__ import annotations

import re
from collections.abc import Generator

import numpy as np

from gcc_envs.apps.software.scripting import Plan, PlanScript, changed, quoted, settle, until
from gcc_envs.core.events import Event, Hotkey, KeyPress, TypeText, Wait
from gcc_envs.core.program import Program

COUNTS = {"last closed page": 1, "two": 2, "three": 3}


def go(text: str) -> list[Event]:
    """The address bar: type ``text`` (an address or a search) and go (a moment after the
    bar takes the focus: a key typed at once can go astray)."""
    return [Hotkey(("ctrl", "l")), Wait(0.3), TypeText(text, 0.03), Wait(0.2), KeyPress("enter")]


def follow(text: str, skip: int = 0) -> list[Event]:
    """Find ``text`` on the page (``skip`` matches on), leave the find bar (the match's link
    keeps the focus), Enter."""
    nexts = [KeyPress("enter")] * skip
    return [Hotkey(("ctrl", "f")), TypeText(text, 0.01), Wait(0.3), *nexts, KeyPress("esc"),
            KeyPress("enter")]  # fmt: skip


class ChromeScript(PlanScript):
    """Clicks in the twin's 1280x800 screen pixels, scaled to the frames shown."""

    def visit(self, text: str, frame: np.ndarray | None, quiet_s: float = 0.6) -> Program:
        """:func:`go`, then wait until the tab's title differs from ``frame``'s (a page served
        slowly on a busy machine leaves the screen quiet before it loads) and the screen
        settles, in one step."""
        before = None if frame is None else self.tab_title(frame)

        def run() -> Generator[Event, np.ndarray | None, None]:
            # the page shown may still be loading (its search box then takes the focus from
            # the address bar mid-typing): first let the screen be still for a second
            shown, still, waited = (yield Wait(0.2)), 0.0, 0.0
            while still < 1.0 and waited < 10.0:
                last, shown = shown, (yield Wait(0.2))
                waited += 0.2
                still = (
                    0.0 if last is None or shown is None or changed(last, shown) else still + 0.2
                )
            for e in go(text):
                shown = yield e
            waited = 0.0
            while (
                waited < 20.0
                and before is not None
                and (shown is None or not _differ(self.tab_title(shown), before))
            ):
                shown = yield Wait(0.2)
                waited += 0.2
            still, last = 0.0, shown
            while still < quiet_s and waited < 30.0:
                shown = yield Wait(0.2)
                waited += 0.2
                still = (
                    0.0 if last is None or shown is None or changed(last, shown) else still + 0.2
                )
                last = shown

        return Program(run)

    def tab_title(self, frame: np.ndarray) -> np.ndarray:
        """The first tab's title text (not its icon, which spins while a page loads)."""
        f = self.at_screen(frame)
        return f[TITLE[1] : TITLE[3], TITLE[0] : TITLE[2]].astype(np.int16)


#: The first tab's title text in the 1280x800 screen: (x0, y0, x1, y1).
TITLE = (72, 8, 240, 32)


def _differ(a: np.ndarray, b: np.ndarray) -> bool:
    return float(np.abs(a - b).mean()) > 4.0


class SavePaperPDFScript(ChromeScript):
    """Search the phrase, open the result whose title holds it, download its PDF."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        phrase = quoted(instruction)[0]
        yield self.visit(phrase, frame)
        # the first match is the search box's own text; the next is the article's title
        yield settle(follow(phrase, skip=1), quiet_s=0.6)
        yield settle([*follow("View PDF"), Wait(1.0)], quiet_s=1.0)


class PostOnTwitterScript(ChromeScript):
    """The microblog's post box (clicked: it may have the focus already), the text — until
    the box shows it —, Post — until the timeline changes."""

    #: The post box and the Post button on the microblog's home (1280x800).
    BOX, POST = (280, 210), (61, 274)

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        text = quoted(instruction)[0]
        home = yield self.visit("https://twitter.com/home", frame)
        write = [self.click(*self.BOX), Wait(0.3), Hotkey(("ctrl", "a")), TypeText(text, 0.03)]
        typed = yield until(write, lambda f: home is None or changed(f, home, tol=0.2),
                            timeout_s=10.0)  # fmt: skip
        if typed is not None and home is not None and not changed(typed, home, tol=0.2):
            typed = yield until(write, lambda f: changed(f, home, tol=0.2), timeout_s=10.0)
        yield until([self.click(*self.POST)],
                    lambda f: typed is None or changed(f, typed, tol=0.2), timeout_s=10.0)  # fmt: skip


class OpenLastClosedPageScript(ChromeScript):
    """Ctrl+Shift+T once per page to reopen (the most recently closed first); a page named by
    its topic: the history searched for the topic (typing into its search box drops keys
    while it redraws, so the search goes in the address), the first hit."""

    #: The first entry's title in chrome://history (1280x800).
    FIRST_HIT = (500, 301)

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        named = re.search(r"page about the (.+?) that I closed", instruction)
        if named:
            query = named.group(1).replace(" ", "%20")
            yield self.visit(f"chrome://history/?q={query}", frame, quiet_s=0.8)
            yield settle([self.click(*self.FIRST_HIT), Wait(0.5)], quiet_s=0.8)
            return
        n = next((v for k, v in COUNTS.items() if k in instruction), 1)
        events: list[Event] = []
        for _ in range(n):
            events += [Hotkey(("ctrl", "shift", "t")), Wait(0.6)]
        yield settle(events)


class GoToGitHubHomepageScript(ChromeScript):
    """The profile's address, typed (the user's handle from the instruction), or the
    address of the user's repository the instruction names."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        m = re.search(r"navigate to (\S+)'s (?:homepage|(\S+) repository) on", instruction)
        user, repo = (m.group(1), m.group(2)) if m else ("tellarin", None)
        yield self.visit(f"github.com/{user}" + (f"/{repo}" if repo else ""), frame)


class DarkModeScript(ChromeScript):
    """Settings > Appearance: the toggles asked for (and the side panel's list), lowest first
    (the home button's opens a panel that moves the rows below it), the Mode list, the mode's
    first letter, the bookmarks bar's list last (showing the bar moves the page); then wait
    for Chromium to write its preferences (it does within about ten seconds)."""

    #: On chrome://settings/appearance (1280x800): the Mode list, the home button's toggle,
    #: the bookmarks bar's list, the tab search button's, tab groups' and their automatic
    #: pinning's toggles, the side panel's list.
    MODE, HOME, BAR, SEARCH, GROUPS = (914, 345), (1001, 402), (914, 460), (1001, 558), (1001, 607)
    PIN, SIDE = (1001, 657), (914, 753)
    #: How far the home button's panel moves the bookmarks bar's row down.
    HOME_PANEL = 103

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        mode = "light" if re.search(r"\blight mode\b", instruction) else "dark"
        yield self.visit("chrome://settings/appearance", frame, quiet_s=1.0)
        toggles: list[Event] = []
        if "side panel on the left" in instruction:
            toggles += [self.click(*self.SIDE), Wait(0.6), KeyPress("l"), KeyPress("enter"),
                        Wait(0.8)]  # fmt: skip
        if "stop pinning new tab groups" in instruction:
            toggles += [self.click(*self.PIN), Wait(0.8)]
        for phrase, at in (("hide tab groups", self.GROUPS), ("hide the tab search", self.SEARCH),
                           ("show the home button", self.HOME)):  # fmt: skip
            if phrase in instruction:
                toggles += [self.click(*at), Wait(0.8)]
        pick = [self.click(*self.MODE), Wait(0.6), KeyPress(mode[0]), KeyPress("enter")]
        # the page turns dark (light) when the mode takes (the device's mode, under Xvfb, is
        # light)
        want_dark = mode == "dark"
        yield until([*toggles, *pick], lambda f: page_is_dark(f) == want_dark, timeout_s=6.0,
                    then_s=0.5)  # fmt: skip
        bar = re.search(r"always (show|hide) the bookmarks bar", instruction)
        events: list[Event] = []
        if bar:
            x, y = self.BAR
            y += self.HOME_PANEL if "show the home button" in instruction else 0
            events = [self.click(x, y), Wait(0.6), TypeText(f"always {bar.group(1)[0]}", 0.05),
                      KeyPress("enter")]  # fmt: skip
        # Chromium saves the settings within about ten seconds
        yield settle([*events, Wait(11.0)], quiet_s=0.5)


def page_is_dark(frame: np.ndarray) -> bool:
    """Whether the page (below the toolbar) is mostly dark."""
    h = frame.shape[0]
    return float(frame[h // 4 :, :].mean()) < 100.0
