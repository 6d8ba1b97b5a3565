"""Chromium's DevTools on loopback: the open tabs, opening and closing one, reading a page.

The checkers read the tabs' addresses through ``python -m gcc_envs.apps.chrome.cdp --port P
tabs`` (run through the probe, output JSON); the closed-tab task's setup closes tabs with
``close``; OSWorld's ``chrome_open_tabs`` steps ``open_tab``. Those use the HTTP endpoints
(``/json/list``, ``/json/new?<url>``, ``/json/close/<id>``). Reading a page's document goes
through the tab's DevTools WebSocket (:mod:`.devtools_ws`) with a plan of
:mod:`.page_query`: ``active`` (the tab in front), ``query TARGET PLAN`` (a tab's document,
``TARGET`` an id or ``active``) and ``visit URL PLAN`` (a new background tab, closed afterwards). Their
output is packed (:func:`pack`: zlib and base64 of the JSON): a page's HTML can be larger
than what a probe's command may print.

>>> unpack(pack({"url": "file:///a.html"}))
{'url': 'file:///a.html'}
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
import urllib.parse
import urllib.request
import zlib
from collections.abc import Mapping
from typing import Any

from gcc_envs.apps.chrome import page_query
from gcc_envs.apps.chrome.devtools_ws import DevToolsSocket
from gcc_envs.errors import BackendError

#: How long a page may take to be ready before it is read as it is.
PAGE_WAIT_MS = 10_000


def _get(port: int, path: str, timeout_s: float = 5.0, method: str = "GET") -> bytes:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as r:
            return r.read()
    except OSError as e:
        raise BackendError(f"Chromium's DevTools on port {port} did not answer {path}: {e}") from e


def wait_ready(port: int, timeout_s: float) -> None:
    """Wait until Chromium's DevTools answers (a browser that was just started, or started
    again); ``BackendError`` at the deadline."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            _get(port, "/json/version", timeout_s=2.0)
            return
        except BackendError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def tabs(port: int) -> list[dict[str, Any]]:
    """The page targets (tabs): ``id``, ``url``, ``title``."""
    targets = json.loads(_get(port, "/json/list"))
    return [
        {"id": t["id"], "url": t.get("url", ""), "title": t.get("title", "")}
        for t in targets
        if t.get("type") == "page"
    ]


def open_tab(port: int, url: str) -> str:
    """Open ``url`` in a new tab (Chromium wants ``PUT`` here); the new tab's id."""
    if not url.startswith(("http://", "https://", "about:", "chrome://", "file://")):
        raise BackendError(f"not a web address: {url!r}")
    # Chromium unescapes the whole query as the address: escape all of it, or "&" ends it
    target = json.loads(_get(port, "/json/new?" + urllib.parse.quote(url, safe=""), method="PUT"))
    return str(target["id"])


def close(port: int, target: str) -> None:
    """Close the tab ``target`` (it goes to Chromium's recently closed list)."""
    _get(port, f"/json/close/{target}")


def _socket(port: int, target: str, timeout_s: float = 10.0) -> DevToolsSocket:
    if not target.replace("-", "").isalnum():
        raise BackendError(f"not a DevTools target id: {target!r}")
    return DevToolsSocket(f"ws://127.0.0.1:{port}/devtools/page/{target}", timeout_s)


def active_tab(port: int) -> dict[str, Any]:
    """The tab in front: the first visible one in DevTools' list (the list puts the tab used
    last first), else the first; ``BackendError`` when no tab is open."""
    pages = tabs(port)
    if not pages:
        raise BackendError("Chromium has no tab open")
    for tab in pages:
        try:
            with _socket(port, tab["id"], 3.0) as ws:
                if ws.evaluate("document.visibilityState", 3.0) == "visible":
                    return tab
        except BackendError:
            continue  # a tab that is busy (a dialog) or gone is not read
    return pages[0]


def query(port: int, target: str, plan: Mapping[str, Any], tries: int = 3) -> dict[str, Any]:
    """Run a :mod:`.page_query` plan in tab ``target`` (an id, or ``"active"``); a page that
    navigates while read is read again."""
    target = active_tab(port)["id"] if target == "active" else target
    expression = page_query.expression({"wait_ms": PAGE_WAIT_MS, **plan})
    timeout_s = page_query.check_plan(plan).get("wait_ms", PAGE_WAIT_MS) / 1000 + 10.0
    for attempt in range(tries):
        try:
            with _socket(port, target) as ws:
                return dict(ws.evaluate(expression, timeout_s))
        except BackendError as e:
            if attempt == tries - 1 or "context" not in str(e).lower():
                raise
            time.sleep(0.3)
    raise AssertionError("unreachable")


def visit(port: int, url: str, plan: Mapping[str, Any]) -> dict[str, Any]:
    """Open ``url`` in a new background tab (the tab in front stays in front), run the plan
    there once it has loaded, close the tab."""
    browser = json.loads(_get(port, "/json/version")).get("webSocketDebuggerUrl", "")
    if not browser.startswith(f"ws://127.0.0.1:{port}/devtools/browser/"):
        raise BackendError(f"Chromium's DevTools on port {port} named no browser endpoint")
    with DevToolsSocket(browser) as ws:
        target = str(ws.call("Target.createTarget", {"url": "about:blank", "background": True})["targetId"])  # fmt: skip
    try:
        with _socket(port, target) as ws:
            answer = ws.call("Page.navigate", {"url": url}, 30.0)
        if answer.get("errorText"):
            raise BackendError(f"{url} did not load: {answer['errorText']}")
        return query(port, target, plan)
    finally:
        close(port, target)


def pack(value: Any) -> str:
    """JSON data as one line of base64 of its zlib-compressed text."""
    return base64.b64encode(zlib.compress(json.dumps(value).encode(), 6)).decode()


def unpack(text: str) -> Any:
    """What :func:`pack` packed."""
    return json.loads(zlib.decompress(base64.b64decode(text.strip())))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Chromium DevTools: the tabs (JSON), a page (packed)")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--wait", type=float, default=0.0,
                   help="seconds to wait for DevTools to answer (a browser just started)")  # fmt: skip
    sub = p.add_subparsers(dest="what", required=True)
    sub.add_parser("tabs", help="the open tabs as JSON")
    sub.add_parser("active", help="the tab in front, packed")
    q = sub.add_parser("query", help="read a tab's document with a plan, packed")
    q.add_argument("target", help="a tab id, or 'active'")
    q.add_argument("plan", help="the plan, JSON")
    v = sub.add_parser("visit", help="open a page in a new tab, read it, close it; packed")
    v.add_argument("url")
    v.add_argument("plan", help="the plan, JSON")
    args = p.parse_args(argv)
    if args.wait > 0:
        wait_ready(args.port, args.wait)
    if args.what == "tabs":
        json.dump(tabs(args.port), sys.stdout)
    elif args.what == "active":
        print(pack(active_tab(args.port)))
    elif args.what == "query":
        print(pack(query(args.port, args.target, json.loads(args.plan))))
    else:
        print(pack(visit(args.port, args.url, json.loads(args.plan))))


if __name__ == "__main__":
    main()
