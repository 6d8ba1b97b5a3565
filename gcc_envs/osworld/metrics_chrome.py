"""OSWorld's Chrome metrics (``metrics/chrome.py``, and VS Code's ``is_extension_installed``):
pure functions ``metric(result, rule, **options) -> float`` over what the Chrome getters read.

A missing reading (``None``) scores 0. Where OSWorld raises on a rule type it does not know,
these raise too (the evaluator scores that slot 0 and notes why). URLs are compared as
OSWorld's ``compare_urls``: scheme (``http`` when absent) and host in lower case, a leading
``www.`` dropped, a trailing ``/`` of the path ignored; query and fragment must be equal.

>>> is_expected_tabs([{"url": "https://www.github.com/"}], {"type": "url", "urls": ["https://github.com"]})
1.0
>>> check_history_deleted([("https://www.youtube.com/watch?v=1", "t", 0)], {"type": "keywords", "keywords": ["youtube"]})
0.0
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import lxml.etree
import lxml.html

from gcc_envs.osworld.filedata import file_bytes

Rule = Mapping[str, Any]


def _score(ok: bool) -> float:
    return 1.0 if ok else 0.0


def normalize_url(url: str) -> str:
    """``url`` as :func:`compare_urls` compares it."""
    if not re.match(r"^[a-zA-Z][a-zA-Z0-9+\-.]*://", url):
        url = "http://" + url
    parts = urlsplit(url)
    host = parts.netloc.lower()
    host = host[4:] if host.startswith("www.") else host
    return urlunsplit((parts.scheme.lower(), host, parts.path.rstrip("/"), parts.query, parts.fragment))  # fmt: skip


def compare_urls(a: str | None, b: str | None) -> bool:
    """Whether two addresses name the same page (see the module docstring).

    >>> compare_urls("https://www.drugs.com/npc/", "https://drugs.com/npc")
    True
    >>> compare_urls("https://drugs.com/npc", "https://drugs.com/npp")
    False
    """
    if a is None or b is None:
        return a == b
    return normalize_url(a) == normalize_url(b)


def _lists_match(expected: Sequence[Any], actual: Sequence[Any], same: Callable[[Any, Any], bool]) -> bool:  # fmt: skip
    """OSWorld's ``are_lists_equal``: as long, and each expected item matches some actual one."""
    return len(expected) == len(actual) and all(any(same(e, a) for a in actual) for e in expected)


def _url_of(value: Any) -> str | None:
    url = value.get("url") if isinstance(value, Mapping) else value
    return url if isinstance(url, str) else None


def is_expected_active_tab(active_tab: Any, rule: Rule) -> float:
    """The active tab (its URL, or ``active_tab_info``'s object) is the page ``rule["url"]``."""
    if not active_tab or rule.get("type") != "url":
        return 0.0
    return _score(compare_urls(rule["url"], _url_of(active_tab)))


def is_expected_tabs(open_tabs: Any, rule: Rule) -> float:
    """The open tabs are exactly the pages ``rule["urls"]`` (in any order)."""
    if not isinstance(open_tabs, list) or rule.get("type") != "url":
        return 0.0
    actual = [_url_of(tab) for tab in open_tabs]
    return _score(_lists_match(list(rule["urls"]), actual, compare_urls))


def is_extension_installed(listing: str | None, rule: Rule) -> float:
    """A command's output (``code --list-extensions``) holds (``contain``) or lacks
    (``not_contain``) ``rule["expected"]``."""
    if listing is None:
        return 0.0
    if rule.get("type") == "contain":
        return _score(rule["expected"] in listing)
    if rule.get("type") == "not_contain":
        return _score(rule["expected"] not in listing)
    raise NotImplementedError(f"is_extension_installed: rule type {rule.get('type')!r} (contain, not_contain)")  # fmt: skip


def is_expected_installed_extensions(names: Any, rule: Rule) -> float:
    """Every extension name of ``rule["expected"]`` is among the installed ones."""
    if not isinstance(names, list):
        return 0.0
    return _score(set(rule["expected"]) <= set(names))


def _cookie_host(cookie: Any) -> Any:
    return cookie.get("host_key") if isinstance(cookie, Mapping) else cookie[1]


def is_cookie_deleted(cookies: Any, rule: Rule) -> float:
    """No cookie is left whose host is one of ``rule["domains"]`` (``type: domains``)."""
    if cookies is None:
        return 0.0
    if rule.get("type") != "domains":
        raise NotImplementedError(f"is_cookie_deleted: rule type {rule.get('type')!r} (domains)")
    hosts = [_cookie_host(c) for c in cookies]
    return _score(not any(compare_urls(d, h) for d in rule["domains"] for h in hosts))


def check_history_deleted(history: Any, rule: Rule) -> float:
    """No visited URL (rows ``(url, title, last_visit_time)``) holds one of
    ``rule["keywords"]`` (``type: keywords``)."""
    if history is None:
        return 0.0
    if rule.get("type") != "keywords":
        raise NotImplementedError(f"check_history_deleted: rule type {rule.get('type')!r} (keywords)")  # fmt: skip
    urls = [row[0] for row in history]
    return _score(not any(k in url for k in rule["keywords"] for url in urls))


def is_added_to_steam_cart(page: Any, rule: Rule) -> float:
    """Every item name of ``rule["items"]`` occurs in the page's HTML (``page_info``)."""
    if not isinstance(page, Mapping) or not isinstance(page.get("content"), str):
        return 0.0
    return _score(all(item in page["content"] for item in rule["items"]))


def is_shortcut_on_desktop(shortcuts: Any, rule: Rule) -> float:
    """A desktop launcher (``{file name: text}``) has the line ``Name=<rule["name"]>``
    (``type: name``; OSWorld knows no other type)."""
    if not isinstance(shortcuts, Mapping):
        return 0.0
    if rule.get("type") != "name":
        raise NotImplementedError(f"is_shortcut_on_desktop: rule type {rule.get('type')!r} (name)")  # fmt: skip
    line = f"Name={rule['name']}\n"
    return _score(any(line in str(text) for text in shortcuts.values()))


def _nodes(root: Any) -> Iterator[Any]:
    """Every element and text of a document in order, as BeautifulSoup's
    ``recursiveChildGenerator`` yields them under the document."""
    yield root
    if root.text:
        yield root.text
    for child in root:
        if isinstance(child.tag, str):
            yield from _nodes(child)
        else:  # a comment or processing instruction: its text, as a string
            yield child.text or ""
        if child.tail:
            yield child.tail


def _same(a: Any, b: Any, ignore_sdnum: bool) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if a.tag != b.tag or a.text_content().strip() != b.text_content().strip():
        return False
    attrs_a, attrs_b = dict(a.attrib), dict(b.attrib)
    if ignore_sdnum:
        attrs_a.pop("sdnum", None)
        attrs_b.pop("sdnum", None)
    return attrs_a == attrs_b


def compare_htmls(result: str | None, expected: str | None, ignore_sdnum: bool = False) -> float:
    """Two HTML documents match node by node (OSWorld's walk: tag names, trimmed texts and
    attributes, with ``ignore_sdnum`` LibreOffice's ``sdnum`` number formats left out; the
    walk stops at the shorter document's end).

    >>> compare_htmls("<p sdnum='1'>a</p>", "<p sdnum='2'>a</p>", ignore_sdnum=True)
    1.0
    >>> compare_htmls("<p>a</p>", "<p>b</p>")
    0.0
    """
    if result is None or expected is None:
        return 0.0
    parser = lxml.html.HTMLParser(encoding="utf-8")  # OSWorld reads both files as UTF-8
    try:
        roots = [lxml.html.document_fromstring(file_bytes(t), parser=parser) for t in (result, expected)]  # fmt: skip
    except (lxml.etree.ParserError, ValueError):
        return 0.0
    pairs = zip(_nodes(roots[0]), _nodes(roots[1]))
    return _score(all(_same(a, b, bool(ignore_sdnum)) for a, b in pairs))


CHROME_METRICS = {
    "is_expected_active_tab": is_expected_active_tab, "is_expected_tabs": is_expected_tabs,
    "is_extension_installed": is_extension_installed,
    "is_expected_installed_extensions": is_expected_installed_extensions,
    "is_cookie_deleted": is_cookie_deleted, "check_history_deleted": check_history_deleted,
    "is_added_to_steam_cart": is_added_to_steam_cart,
    "is_shortcut_on_desktop": is_shortcut_on_desktop, "compare_htmls": compare_htmls,
}  # fmt: skip
