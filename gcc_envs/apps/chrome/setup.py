"""The Chrome twin's setup steps: the local web, a throwaway Chromium profile, closed tabs.

``chrome_web``: draws the episode's web (:func:`.content.make_site`) from the session's seed
around the task's article and user (chosen per seed by the table; the paper's by default),
writes its PDFs and a TLS certificate under ``~/.local/share/gcc-sites`` and starts the web
server there on a free loopback port. ``chromium``: a fresh profile (downloads go to
``~/Downloads`` without asking; PDFs download instead of opening in the viewer; the
appearance mode ``scheme`` if given) and Chromium sending every host name to that server,
with its DevTools on another loopback port for the checkers. ``close_tabs``: opens the seed's
encyclopedia pages and closes some, in a seeded order (the answer key keeps the order).
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from gcc_envs.apps.chrome import cdp
from gcc_envs.apps.chrome.content import (
    TARGET_ARXIV,
    TARGET_NAME,
    TARGET_TITLE,
    TARGET_USER,
    make_site,
)
from gcc_envs.apps.software.desktop import folders, launch, screen_size
from gcc_envs.apps.software.pdf import text_pdf
from gcc_envs.apps.software.reading import write_answer
from gcc_envs.errors import BackendError, GCCError

SITES = ".local/share/gcc-sites"
PROFILE = ".config/chromium"


def chromium_binary() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise GCCError("Chromium is not installed (Debian package: chromium)")
    return found


#: ``browser.theme.color_scheme2`` in Chromium's Preferences, by appearance mode.
SCHEMES = {"device": 0, "light": 1, "dark": 2}


def chrome_web(
    session: Any,
    paper_arxiv: str = TARGET_ARXIV,
    paper_title: str = TARGET_TITLE,
    paper_phrase: str = "Towards General Computer Control",
    user: str = TARGET_USER,
    user_name: str = TARGET_NAME,
    topic: str = "",
    repo: str = "",
) -> None:
    """The local web on a free loopback port (answer key: ``web_port``), around the article
    ``paper_*``, the code-hosting user ``user`` (with the repository ``repo``) and the
    encyclopedia page ``topic``."""
    folders(session)
    root = session.home / SITES
    (root / "pdf").mkdir(parents=True, exist_ok=True)
    paper = (paper_arxiv, paper_title, paper_phrase)
    site = make_site(int(session.rng.integers(2**31)), paper, (user, user_name), topic, repo)
    (root / "site.json").write_text(json.dumps(site))
    for pid, p in site["papers"].items():
        (root / "pdf" / f"{pid}.pdf").write_bytes(text_pdf([p["title"], p["authors"], pid]))
    r = session.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=gcc-twin",
         "-days", "2", "-keyout", str(root / "key.pem"), "-out", str(root / "cert.pem")],
        timeout_s=30.0,
    )  # fmt: skip
    if r.returncode != 0:
        raise BackendError(f"openssl could not make the local web's certificate: {r.stderr}")
    port = session.free_port()
    argv = [sys.executable, "-m", "gcc_envs.apps.chrome.sites", "--root", str(root)]
    session.start_server([*argv, "--port", str(port)], port=port)
    write_answer(session.home, web_port=port)


def _answer(session: Any) -> dict[str, Any]:
    from gcc_envs.apps.software.reading import ANSWER

    return json.loads((session.home / ANSWER).read_text())


def chromium(
    session: Any, urls: list[str] | None = None, scheme: str | None = None, timeout_s: float = 30.0
) -> None:
    """Chromium on a fresh profile, every host name sent to the local web (``chrome_web``);
    ``scheme`` (``device``, ``light``, ``dark``) is the appearance mode it starts in."""
    port = _answer(session)["web_port"]
    devtools = session.free_port()
    profile = session.home / PROFILE
    (profile / "Default").mkdir(parents=True, exist_ok=True)
    prefs = {
        "download": {"default_directory": str(session.home / "Downloads"),
                     "prompt_for_download": False, "directory_upgrade": True},
        "savefile": {"default_directory": str(session.home / "Downloads")},
        "plugins": {"always_open_pdf_externally": True},
        "browser": {"has_seen_welcome_page": True},
    }  # fmt: skip
    if scheme is not None:
        if scheme not in SCHEMES:
            raise GCCError(f"chromium: scheme must be one of {sorted(SCHEMES)}, got {scheme!r}")
        prefs["browser"]["theme"] = {"color_scheme2": SCHEMES[scheme]}
    (profile / "Default" / "Preferences").write_text(json.dumps(prefs))
    W, H = screen_size(session)
    argv = [
        chromium_binary(), "--no-sandbox", "--test-type", "--disable-gpu", "--no-first-run",
        "--no-default-browser-check", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
        "--password-store=basic", "--disable-features=HttpsUpgrades,SidePanelPinning",
        f"--user-data-dir={profile}", f"--remote-debugging-port={devtools}",
        f"--host-resolver-rules=MAP * 127.0.0.1:{port}, EXCLUDE 127.0.0.1",
        "--ignore-certificate-errors", "--window-position=0,0", f"--window-size={W},{H}",
        *(urls or ["https://www.google.com/"]),
    ]  # fmt: skip
    launch(session, argv, "Chromium", timeout_s)
    write_answer(session.home, devtools_port=devtools)
    _wait(lambda: _loaded(session, devtools, len(urls or [1])), timeout_s,
          "Chromium's pages to load")  # fmt: skip


def _loaded(session: Any, devtools: int, n: int) -> bool:
    try:  # DevTools listens on the episode's own loopback
        tabs = session.in_network(partial(cdp.tabs, devtools))
    except BackendError:
        return False
    return len(tabs) >= n and all(t["title"] and not t["url"].startswith("about:") for t in tabs)


def _wait(cond: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > deadline:
            raise BackendError(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(0.1)


def close_tabs(
    session: Any, pages: int = 4, close: int = 2, topic: str = "", timeout_s: float = 30.0
) -> None:
    """Open ``pages`` encyclopedia pages, then close ``close`` of them in a seeded order
    (answer: the order). The page of ``topic``, when given, is among those closed but not
    the last one (finding it takes the history, not "reopen closed tab")."""
    site = json.loads((session.home / SITES / "site.json").read_text())
    slugs = sorted(site["wiki"])[:pages]
    want = topic.replace(" ", "_")
    if want and want not in slugs:
        raise GCCError(f"close_tabs: the web has no page {want!r} among {slugs}")
    urls = [f"https://en.wikipedia.org/wiki/{s}" for s in slugs]
    chromium(session, urls, timeout_s=timeout_s)
    devtools = _answer(session)["devtools_port"]
    order = [urls[i] for i in session.rng.permutation(len(urls))[:close]]
    if want:
        target = f"https://en.wikipedia.org/wiki/{want}"
        if target not in order[:-1]:  # put it among the earlier closed ones
            k = int(session.rng.integers(close - 1))
            order = [u for u in order if u != target]
            order.insert(k, target)
            order = order[:close]
    for url in order:
        tabs = session.in_network(partial(cdp.tabs, devtools))
        tab = next(t for t in tabs if t["url"] == url)
        session.in_network(partial(cdp.close, devtools, tab["id"]))
        gone = partial(
            lambda u: all(t["url"] != u for t in session.in_network(partial(cdp.tabs, devtools))),
            url,
        )
        _wait(gone, 10.0, f"{url} to close")
    write_answer(session.home, closed=order, last_closed=order[-1])


def setup_steps() -> Mapping[str, Callable[..., None]]:
    """The Chrome suite's own setup step kinds."""
    return {"chrome_web": chrome_web, "chromium": chromium, "close_tabs": close_tabs}
