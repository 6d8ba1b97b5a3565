"""HTML of the local web, rendered from the site data (pure functions: data in, page out).

Hosts: ``www.google.com`` (a search engine), ``arxiv.org`` (abstract pages with a PDF link),
``twitter.com`` / ``x.com`` (a microblog with a post box), ``github.com`` (profiles and their repositories),
``en.wikipedia.org`` (encyclopedia pages). Anything else is an offline notice.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote_plus

_STYLE = """
body { font-family: DejaVu Sans, Arial, sans-serif; margin: 0; color: #202124; }
header { padding: 14px 24px; border-bottom: 1px solid #ddd; display: flex; gap: 16px;
         align-items: center; }
main { padding: 18px 24px; max-width: 860px; }
a { color: #1a0dab; } .muted { color: #5f6368; font-size: 14px; }
input[type=text], textarea { font-size: 18px; padding: 8px 12px; border: 1px solid #bbb;
         border-radius: 20px; width: 480px; }
button { font-size: 16px; padding: 8px 18px; border-radius: 18px; border: 0;
         background: #1d9bf0; color: white; cursor: pointer; }
.result { margin: 18px 0; } .result a { font-size: 20px; }
.post { border-bottom: 1px solid #eee; padding: 12px 0; }
"""


def page(title: str, body: str) -> str:
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body>{body}</body></html>"
    )


def search_home() -> str:
    form = (
        '<form action="/search" method="get" style="text-align:center;margin-top:160px">'
        '<div style="font-size:64px;color:#4285f4;margin-bottom:24px">Search</div>'
        '<input type="text" name="q" autofocus aria-label="Search">'
        ' <button type="submit">Search</button></form>'
    )
    return page("Search", form)


def _score(query: str, result: dict[str, Any]) -> int:
    words = [w for w in query.lower().replace('"', " ").split() if len(w) > 1]
    text = f"{result['title']} {result['url']} {result['snippet']}".lower()
    return sum(text.count(w) for w in words)


def search_results(site: dict[str, Any], query: str) -> str:
    ranked = [r for r in site["results"] if _score(query, r) > 0]
    ranked.sort(key=lambda r: -_score(query, r))
    items = (
        "".join(
            f'<div class="result"><div class="muted">{escape(r["url"])}</div>'
            f'<a href="{escape(r["url"])}">{escape(r["title"])}</a>'
            f'<div class="muted">{escape(r["snippet"])}</div></div>'
            for r in ranked[:8]
        )
        or "<p>No results.</p>"
    )
    head = (
        '<header><a href="/" style="font-size:28px;text-decoration:none">Search</a>'
        f'<form action="/search"><input type="text" name="q" value="{escape(query)}">'
        "</form></header>"
    )
    return page(f"{query} - Search", head + f"<main>{items}</main>")


def arxiv_abs(site: dict[str, Any], pid: str) -> str | None:
    p = site["papers"].get(pid)
    if p is None:
        return None
    body = (
        '<header><b style="color:#b31b1b;font-size:24px">arXiv</b>'
        f'<span class="muted">arXiv:{escape(pid)}</span></header><main>'
        f"<h1>{escape(p['title'])}</h1><p>{escape(p['authors'])}</p>"
        f'<p><a href="/pdf/{escape(pid)}" style="font-size:20px">View PDF</a></p></main>'
    )
    return page(f"[{pid}] {p['title']}", body)


def microblog(site: dict[str, Any], posted: list[str]) -> str:
    me = site["me"]
    mine = "".join(
        f'<div class="post"><b>{escape(me["name"])}</b> <span class="muted">@{escape(me["handle"])}'
        f"</span><div>{escape(t)}</div></div>"
        for t in reversed(posted)
    )
    others = "".join(
        f'<div class="post"><b>{escape(p["author"])}</b><div>{escape(p["text"])}</div></div>'
        for p in site["posts"]
    )
    compose = (
        '<form action="/compose/post" method="post" style="border-bottom:1px solid #ddd;'
        'padding-bottom:12px"><textarea name="text" rows="3" placeholder="What is happening?!" '
        'aria-label="Post text"></textarea><br><button type="submit">Post</button></form>'
    )
    head = f'<header><b style="font-size:26px">Home</b><span>{escape(me["name"])}</span></header>'
    return page("Home / Twitter", head + f"<main>{compose}{mine}{others}</main>")


def profile(site: dict[str, Any], user: str) -> str | None:
    u = site["users"].get(user)
    if u is None:
        return None
    repos = " ".join(
        f'<a href="/{escape(user)}/{escape(r)}">{escape(r)}</a>' for r in u.get("repos", [])
    )
    body = (
        '<header><b style="font-size:24px">GitHub</b></header><main>'
        f'<h1>{escape(u["name"])}</h1><h2 class="muted">{escape(user)}</h2>'
        f'<p>{escape(u["bio"])}</p><p class="muted">Popular repositories: {repos}</p></main>'
    )
    return page(f"{user} ({u['name']}) · GitHub", body)


def repository(site: dict[str, Any], user: str, repo: str) -> str | None:
    u = site["users"].get(user)
    if u is None or repo not in u.get("repos", []):
        return None
    body = (
        '<header><b style="font-size:24px">GitHub</b></header><main>'
        f'<h1><a href="/{escape(user)}">{escape(user)}</a> / {escape(repo)}</h1>'
        f'<p class="muted">README.md</p><p>{escape(repo)}: files of {escape(u["name"])}.</p></main>'
    )
    return page(f"{user}/{repo} · GitHub", body)


def wiki(site: dict[str, Any], slug: str) -> str | None:
    text = site["wiki"].get(slug)
    if text is None:
        return None
    title = slug.replace("_", " ")
    body = (
        f'<header><b style="font-size:22px">Wikipedia</b></header><main><h1>{escape(title)}</h1>'
        f"<p>{escape(text)}</p></main>"
    )
    return page(f"{title} - Wikipedia", body)


def offline(host: str) -> str:
    return page(
        f"{host} is offline",
        f"<main><h1>{escape(host)}</h1><p>This site is not part of the local web.</p></main>",
    )


def search_url(query: str) -> str:
    """The search engine's results address for ``query``."""
    return f"https://www.google.com/search?q={quote_plus(query)}"
