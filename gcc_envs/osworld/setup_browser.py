"""Setup steps that act on the episode's Chromium and on windows: ``chrome_open_tabs``,
``chrome_close_tabs``, ``update_browse_history`` (:mod:`.chrome_history`) and ``close_window``.

The tab steps talk to the Chromium the task launched, on its DevTools port inside the
episode's network (OSWorld forwards that port out of its VM with ``socat``). Tabs of live
websites need the network; offline they show Chromium's error page, and
:func:`gcc_envs.osworld.support.support` says so before the episode starts.
``close_window`` asks the window manager to close the windows it names, as their close button
would, and waits until they are gone (a program saves its state as it quits).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from gcc_envs.apps.chrome import cdp
from gcc_envs.errors import GCCError
from gcc_envs.osworld import chrome_history
from gcc_envs.osworld.apps import find_app
from gcc_envs.osworld.commands import COMMAND_TIMEOUT_S, CommandError
from gcc_envs.osworld.getters_chrome import HISTORY
from gcc_envs.osworld.runtime import Episode

#: How long a closed window may take to go (its program saving first).
CLOSE_WAIT_S = 10.0


def _devtools(ep: Episode) -> int:
    if ep.cdp_port is None:
        raise CommandError("no Chromium of this episode is running (launch it first)")
    return ep.cdp_port


def _urls(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(u, str) and u for u in value):
        raise CommandError(f"{what} needs a list of addresses, got {value!r}")
    return value


def chrome_open_tabs(ep: Episode, urls_to_open: Any = None, **_: Any) -> None:
    """Open the addresses in new tabs, then close the empty New Tab Chromium started with
    (as OSWorld's step leaves only the task's tabs)."""
    port = _devtools(ep)
    urls = _urls(urls_to_open, "chrome_open_tabs")
    blank = [t["id"] for t in ep.session.in_network(partial(cdp.tabs, port)) if _is_blank(t["url"])]
    for url in urls:
        try:
            ep.session.in_network(partial(cdp.open_tab, port, url))
        except GCCError as e:
            raise CommandError(f"chrome_open_tabs {url!r}: {e}") from e
    for target in blank:
        _close(ep, port, target)
    ep.notes.append(f"opened {len(urls)} tab(s), closed {len(blank)} empty one(s)")


def _is_blank(url: str) -> bool:
    return url in ("about:blank", "") or url.startswith(
        ("chrome://newtab", "chrome://new-tab-page")
    )


def chrome_close_tabs(ep: Episode, urls_to_close: Any = None, **_: Any) -> None:
    port = _devtools(ep)
    wanted = _urls(urls_to_close, "chrome_close_tabs")
    tabs = ep.session.in_network(partial(cdp.tabs, port))
    for url in wanted:
        for tab in tabs:
            if tab["url"].rstrip("/") == url.rstrip("/"):
                _close(ep, port, tab["id"])


def _close(ep: Episode, port: int, target: str) -> None:
    """Close a tab; one that closed meanwhile (Chromium answers 404) is fine."""
    try:
        ep.session.in_network(partial(cdp.close, port, target))
    except GCCError:
        if any(t["id"] == target for t in ep.session.in_network(partial(cdp.tabs, port))):
            raise


def window_matcher(name: str, *, strict: bool, by_class: bool) -> Callable[[str, tuple[str, ...]], bool]:  # fmt: skip
    """OSWorld's ``close_window`` choice of windows: by title, or by ``WM_CLASS`` (given as
    ``instance.class``, as ``wmctrl -lx`` shows it, or either name alone); ``strict``: the
    whole name, else a part of it, ignoring case.

    >>> m = window_matcher("Mail.thunderbird", strict=True, by_class=True)
    >>> m("Inbox - Mozilla Thunderbird", ("Mail", "thunderbird")), m("x", ("xterm", "XTerm"))
    (True, False)
    >>> window_matcher("writer", strict=False, by_class=False)("a.docx - LibreOffice Writer", ())
    True
    """
    want = name.casefold()

    def fits(text: str) -> bool:
        text = text.casefold()
        return text == want if strict else want in text

    def match(title: str, wm_class: tuple[str, ...]) -> bool:
        if not by_class:
            return fits(title)
        return any(map(fits, (".".join(wm_class), *wm_class))) if wm_class else False

    return match


def close_window(
    ep: Episode, window_name: Any = None, strict: Any = False, by_class: Any = False, **_: Any
) -> None:
    if not isinstance(window_name, str) or not window_name:
        raise CommandError("close_window needs a window_name")
    backend = getattr(ep.session, "backend", None)
    if backend is None or not hasattr(backend, "close_windows"):
        raise CommandError("close_window: this desktop cannot close windows")
    match = window_matcher(window_name, strict=bool(strict), by_class=bool(by_class))
    asked = backend.close_windows(match)
    deadline = time.monotonic() + CLOSE_WAIT_S
    while asked and backend.count_windows(match) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = backend.count_windows(match) if asked else 0
    ep.notes.append(f"close_window {window_name!r}: {asked} window(s) asked to close, {left} left")


def update_browse_history(ep: Episode, history: Any = None, **_: Any) -> None:
    """Add the visits to the profile's History, before Chromium starts (see
    :mod:`.chrome_history`); a profile without one gets it from a headless Chromium first."""
    try:
        chrome_history.entries(history)
    except ValueError as e:
        raise CommandError(str(e)) from e
    if ep.alive("chrome"):
        raise CommandError("update_browse_history: Chromium is running (it holds its History "
                           "locked); the step goes before the task launches it")  # fmt: skip
    db = ep.home / HISTORY
    if not db.exists():
        chrome = find_app("google-chrome")
        # the task's Chromium command line (its profile folder and flags), headless, one page
        # and no DevTools port (with one, a headless Chromium waits for a client, not exiting)
        argv = [a for a in chrome.argv(["google-chrome"], home=str(ep.home))
                if not a.startswith("--remote-debugging")]  # fmt: skip
        ended = ep.run_program([*argv, "--headless=new", "--dump-dom", "about:blank"],
                               COMMAND_TIMEOUT_S)  # fmt: skip
        if not db.exists():
            why = "it ran past the deadline" if not ended else "it ended without one"
            raise CommandError(f"update_browse_history: a headless Chromium made no History ({why})")  # fmt: skip
    argv = [sys.executable, "-m", "gcc_envs.osworld.chrome_history", str(db), json.dumps(history)]
    result = ep.run(argv, COMMAND_TIMEOUT_S)
    if result.returncode:
        raise CommandError((result.stderr.strip() or "update_browse_history failed")[-300:])
    ep.notes.append(f"update_browse_history: {len(history)} visit(s) added")


STEPS = {"chrome_open_tabs": chrome_open_tabs, "chrome_close_tabs": chrome_close_tabs,
         "update_browse_history": update_browse_history, "close_window": close_window}  # fmt: skip
