"""Chromium's DevTools HTTP endpoints on loopback: the open tabs, opening and closing one.

The checkers read the tabs' addresses through ``python -m gcc_envs.apps.chrome.cdp --port P
tabs`` (run through the probe, output JSON); the closed-tab task's setup closes tabs with
``close``; OSWorld's ``chrome_open_tabs`` steps ``open_tab``. Only the HTTP endpoints are
used (``/json/list``, ``/json/new?<url>``, ``/json/close/<id>``).
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.parse
import urllib.request
from typing import Any

from gcc_envs.errors import BackendError


def _get(port: int, path: str, timeout_s: float = 5.0, method: str = "GET") -> bytes:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as r:
            return r.read()
    except OSError as e:
        raise BackendError(f"Chromium's DevTools on port {port} did not answer {path}: {e}") from e


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
    target = json.loads(
        _get(port, "/json/new?" + urllib.parse.quote(url, safe=":/?&=#%+,;@~"), method="PUT")
    )
    return str(target["id"])


def close(port: int, target: str) -> None:
    """Close the tab ``target`` (it goes to Chromium's recently closed list)."""
    _get(port, f"/json/close/{target}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Chromium DevTools: list the tabs as JSON")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("what", choices=["tabs"])
    args = p.parse_args(argv)
    json.dump(tabs(args.port), sys.stdout)


if __name__ == "__main__":
    main()
