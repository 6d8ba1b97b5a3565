"""Checkers of the Chrome twin: pure functions of what the probe reads (score in [0, 1]).

They read the saved files under ``~/Downloads``, the local web's records (``posts.jsonl``),
the open tabs (Chromium's DevTools, through ``python -m gcc_envs.apps.chrome.cdp``) and the
profile's ``Preferences`` (written by Chromium within about ten seconds of a change).
"""

from __future__ import annotations

import json
import sys
from typing import Any
from urllib.parse import urlsplit

from gcc_envs.apps.chrome.content import TARGET_ARXIV, TARGET_TITLE, TARGET_USER
from gcc_envs.apps.chrome.setup import PROFILE, SCHEMES, SITES
from gcc_envs.apps.software.pdf import pdf_lines
from gcc_envs.apps.software.reading import answer, files_in, jsonl
from gcc_envs.core.probe import DesktopProbe


def open_tabs(probe: DesktopProbe) -> list[dict[str, Any]]:
    """The browser's open tabs (``[]`` when Chromium does not answer)."""
    port = answer(probe).get("devtools_port")
    if port is None:
        return []
    argv = [sys.executable, "-m", "gcc_envs.apps.chrome.cdp", "--port", str(port), "tabs"]
    r = probe.run(argv, timeout_s=10.0)
    return json.loads(r.stdout) if r.returncode == 0 and r.stdout else []


def _same_page(url: str, want: str) -> bool:
    a, b = urlsplit(url), urlsplit(want)
    host = a.hostname.removeprefix("www.") if a.hostname else ""
    return host == (b.hostname or "").removeprefix("www.") and a.path.rstrip("/") == b.path.rstrip(
        "/"
    )


def saved_pdf(probe: DesktopProbe, title: str = TARGET_TITLE, arxiv: str = TARGET_ARXIV) -> float:
    """A finished PDF in ~/Downloads that is the article's own file (not a look-alike)."""
    want = probe.read_file(f"{SITES}/pdf/{arxiv}.pdf")
    for name in files_in(probe, "Downloads"):
        if name.endswith((".crdownload", ".part")):
            continue
        data = probe.read_file(f"Downloads/{name}")
        if data == want or (pdf_lines(data)[:1] == [title] and arxiv in pdf_lines(data)):
            return 1.0
    return 0.0


def posted(probe: DesktopProbe, text: str) -> float:
    """The microblog received a post whose text is exactly ``text`` (spaces trimmed)."""
    posts = jsonl(probe, f"{SITES}/posts.jsonl")
    return 1.0 if any(p["text"].strip() == text for p in posts) else 0.0


def reopened_last_closed(probe: DesktopProbe, count: int | str = 1, topic: str = "") -> float:
    """The ``count`` pages closed last at setup are open again, and none closed before them;
    with ``topic`` (``count`` 0), that encyclopedia page is open again and no other closed one."""
    closed, n = answer(probe).get("closed", []), int(count)
    urls = [t["url"] for t in open_tabs(probe)]
    if topic:
        want = [u for u in closed if urlsplit(u).path.endswith("/" + topic.replace(" ", "_"))]
        others = [u for u in closed if u not in want]
    elif closed and 1 <= n <= len(closed):
        want, others = closed[-n:], closed[:-n]
    else:
        return 0.0
    back = bool(want) and all(any(_same_page(u, w) for u in urls) for w in want)
    extra = any(_same_page(u, other) for u in urls for other in others)
    return 1.0 if back and not extra else 0.0


def on_profile(probe: DesktopProbe, user: str = TARGET_USER, repo: str = "") -> float:
    """A tab shows the code-hosting profile page of ``user`` (not a repository, not another
    user's); with ``repo``, that repository's page of ``user`` instead."""
    want = f"https://github.com/{user}" + (f"/{repo}" if repo else "")
    return 1.0 if any(_same_page(t["url"], want) for t in open_tabs(probe)) else 0.0


def appearance_mode(
    probe: DesktopProbe,
    mode: str = "dark",
    bar: str = "",
    home: str = "",
    search: str = "",
    groups: str = "",
    pin: str = "",
    side: str = "",
) -> float:
    """Chromium's appearance mode is ``mode`` (``dark`` or ``light``; its saved preference),
    and the appearance page's other settings are as asked: the bookmarks bar ``bar``
    (``show``: always, ``hide``: never), the home button ``home`` (``show``), the tab search
    button ``search`` (``hide``), tab groups in the bookmarks bar ``groups`` (``hide``), the
    automatic pinning of new tab groups ``pin`` (``off``), the side panel's side ``side``
    (``left``); a setting asked for as ``""`` must keep its default."""
    path = f"{PROFILE}/Default/Preferences"
    if not probe.exists(path):
        return 0.0
    prefs = json.loads(probe.read_file(path))
    browser, marks = prefs.get("browser", {}), prefs.get("bookmark_bar", {})
    scheme = browser.get("theme", {}).get("color_scheme2")
    bar_now = (
        "show" if marks.get("show_on_all_tabs") is True
        else "hide" if marks.get("visibility_state") == 2 else ""
    )  # fmt: skip
    now = {
        "bar": bar_now,
        "home": "show" if browser.get("show_home_button") is True else "",
        "search": "hide" if prefs.get("tab_search", {}).get("pinned_to_tabstrip") is False else "",
        "groups": "hide" if marks.get("show_tab_groups") is False else "",
        "pin": "off" if prefs.get("auto_pin_new_tab_groups") is False else "",
        "side": "left" if prefs.get("side_panel", {}).get("is_right_aligned") is False else "",
    }
    want = {"bar": bar, "home": home, "search": search, "groups": groups, "pin": pin, "side": side}
    return 1.0 if scheme == SCHEMES[mode] and now == want else 0.0
