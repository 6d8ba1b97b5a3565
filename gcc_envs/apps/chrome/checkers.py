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


def reopened_last_closed(probe: DesktopProbe, count: int | str = 1) -> float:
    """The ``count`` pages closed last at setup are open again, and none closed before them."""
    closed, n = answer(probe).get("closed", []), int(count)
    if not closed or not 1 <= n <= len(closed):
        return 0.0
    urls = [t["url"] for t in open_tabs(probe)]
    back = all(any(_same_page(u, want) for u in urls) for want in closed[-n:])
    extra = any(_same_page(u, other) for u in urls for other in closed[:-n])
    return 1.0 if back and not extra else 0.0


def on_profile(probe: DesktopProbe, user: str = TARGET_USER) -> float:
    """A tab shows the code-hosting profile page of ``user`` (not a repository, not another)."""
    want = f"https://github.com/{user}"
    return 1.0 if any(_same_page(t["url"], want) for t in open_tabs(probe)) else 0.0


def appearance_mode(probe: DesktopProbe, mode: str = "dark") -> float:
    """Chromium's appearance mode is ``mode`` (``dark`` or ``light``; its saved preference)."""
    path = f"{PROFILE}/Default/Preferences"
    if not probe.exists(path):
        return 0.0
    prefs = json.loads(probe.read_file(path))
    scheme = prefs.get("browser", {}).get("theme", {}).get("color_scheme2")
    return 1.0 if scheme == SCHEMES[mode] else 0.0
