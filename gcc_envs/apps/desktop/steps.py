"""The suite's own setup step: the little local site that ``open_page`` browses."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping

from gcc_envs.apps.session import DesktopSession

#: Every page of the site: file name → title (the task's ``choose`` options name the same).
PAGES = {
    "orchard.html": "Orchard pruning notes",
    "tides.html": "Tide tables for May",
    "bread.html": "Sourdough starter log",
    "comets.html": "Comet watch list",
    "bikes.html": "Bicycle repair steps",
    "ferns.html": "Fern care sheet",
}


def _page(title: str, body: str) -> str:
    return f"<!doctype html><title>{html.escape(title)}</title><h1>{html.escape(title)}</h1>{body}"


def write_site(s: DesktopSession, dir: str) -> None:
    """An index page titled 'Local pages' and one page per entry of :data:`PAGES`."""
    root = s.home / dir
    root.mkdir(parents=True, exist_ok=True)
    (root / "index.html").write_text(_page("Local pages", "<p>Pages on this machine.</p>"))
    for name, title in PAGES.items():
        (root / name).write_text(_page(title, f"<p>This is the page {html.escape(name)}.</p>"))
    s.files["site"] = root


def kinds() -> Mapping[str, Callable[..., None]]:
    return {"write_site": write_site}
