"""OSWorld's getters of the browser itself: its tabs and pages, history, cookies, extensions.

What Chromium shows is read through its DevTools port (``ctx.cdp_port``) by running
``python -m gcc_envs.apps.chrome.cdp`` inside the episode's sandbox, on its loopback (see
:mod:`gcc_envs.apps.chrome.cdp`). The profile's files (``~/.config/google-chrome``) are read
through the probe; SQLite databases (History, Cookies) are copied out with their journals and
opened with :mod:`sqlite3`. Where OSWorld differs:

* the active tab is the tab in front (DevTools' list, the tab used last first, checked for
  visibility), with its full address; OSWorld reads the address bar's text through the
  accessibility tree and prefixes ``goto_prefix``, which is therefore not needed here;
* ``active_tab_info`` reads the tab as it is; OSWorld loads its address again in a new tab;
* pages are read once ready (the load event, then 500 ms without a new resource, at most
  10 s); OSWorld waits for Playwright's "network idle" up to 60 s;
* a getter that cannot reach Chromium raises (the evaluator scores its slot 0 with a note);
  OSWorld returns ``None`` or ``{}``.

``rule_relativeTime`` (dates counted from today) is :mod:`.relative_time`.
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from gcc_envs.apps.chrome import cdp
from gcc_envs.errors import GCCError
from gcc_envs.osworld import relative_time
from gcc_envs.osworld.chrome_parse import (
    html_reads,
    html_values,
    url_dash_part,
    url_path_filters,
    url_query,
)

if TYPE_CHECKING:
    from gcc_envs.osworld.getters import Context

#: Chromium's profile in the home (the ``--user-data-dir`` the chrome app gives it).
PROFILE = ".config/google-chrome"
HISTORY = f"{PROFILE}/Default/History"
#: Where Chromium keeps cookies (newer builds: ``Network/``), under the user data folder.
COOKIES = ("Default/Network/Cookies", "Default/Cookies")
#: Preference files that hold ``extensions.settings`` (Chromium moves some to the second).
PREFERENCE_FILES = (f"{PROFILE}/Default/Preferences", f"{PROFILE}/Default/Secure Preferences")
#: How long a browser the postconfig started again may take to answer DevTools.
READY_WAIT_S = 10.0
#: How long a DevTools read may take (a page waits up to 10 s, a new tab loads up to 30 s).
DEVTOOLS_TIMEOUT_S = 60.0
#: Waits of a page read: ready, then this long without a new resource (Playwright's idle).
IDLE_MS = 500


def devtools(ctx: Context, what: str, *args: str) -> Any:
    """Run ``gcc_envs.apps.chrome.cdp WHAT ARGS`` in the episode's sandbox; its unpacked answer
    (``GCCError`` when Chromium was not started or did not answer)."""
    if ctx.cdp_port is None:
        raise GCCError(f"{what}: no Chromium of this episode is running (the task did not launch it)")  # fmt: skip
    argv = [sys.executable, "-m", "gcc_envs.apps.chrome.cdp", "--port", str(ctx.cdp_port),
            "--wait", str(READY_WAIT_S), what, *args]  # fmt: skip
    result = ctx.probe.run(ctx.argv(argv, None), timeout_s=DEVTOOLS_TIMEOUT_S)
    if result.timed_out:
        raise GCCError(f"Chromium's DevTools ({what}) gave no answer in {DEVTOOLS_TIMEOUT_S:g} s")
    if result.returncode:
        why = (result.stderr.strip().splitlines() or ["no message"])[-1]
        raise GCCError(f"Chromium's DevTools ({what}): {why[:300]}")
    return json.loads(result.stdout) if what == "tabs" else cdp.unpack(result.stdout)


def _page_plan(**plan: Any) -> str:
    return json.dumps({"idle_ms": IDLE_MS, **plan})


# ---- the active tab's address ---------------------------------------------------------------


def _active_url(ctx: Context) -> str:
    return str(devtools(ctx, "active")["url"])


def get_active_url_from_accessTree(ctx: Context, config: Mapping[str, Any]) -> str:  # noqa: N802
    """The address of the tab in front (OSWorld reads the address bar's text through AT-SPI;
    DevTools gives the same address, whole)."""
    return _active_url(ctx)


def get_active_tab_url_parse(ctx: Context, config: Mapping[str, Any]) -> dict[str, Any]:
    return url_query(_active_url(ctx), config)


def get_url_dashPart(ctx: Context, config: Mapping[str, Any]) -> Any:  # noqa: N802
    return url_dash_part(_active_url(ctx), config)


def get_url_path_parse(ctx: Context, config: Mapping[str, Any]) -> dict[str, Any]:
    return url_path_filters(_active_url(ctx), config)


# ---- tabs and pages -------------------------------------------------------------------------


def get_open_tabs_info(ctx: Context, config: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every open tab's ``title`` and ``url``."""
    return [{"title": t["title"], "url": t["url"]} for t in devtools(ctx, "tabs")]


def get_active_tab_info(ctx: Context, config: Mapping[str, Any]) -> dict[str, str]:
    """The active tab's ``title``, ``url`` and ``content`` (its HTML)."""
    page = devtools(ctx, "query", "active", _page_plan(content=True))
    return {"title": page["title"], "url": page["url"], "content": page["content"]}


def get_page_info(ctx: Context, config: Mapping[str, Any]) -> dict[str, str]:
    """``url`` opened in a new tab (closed again), read once loaded (``load_state``: ``load``,
    or ``domcontentloaded``): its ``title``, ``url`` and ``content``."""
    url = config.get("url")
    if not isinstance(url, str) or not url:
        raise GCCError("page_info needs a 'url'")
    ready = "interactive" if config.get("load_state") == "domcontentloaded" else "complete"
    page = devtools(ctx, "visit", url, json.dumps({"content": True, "ready": ready}))
    return {"title": page["title"], "url": page["url"], "content": page["content"]}


def get_active_tab_html_parse(ctx: Context, config: Mapping[str, Any]) -> dict[str, Any]:
    """Texts of the active tab's document, named as the config says (see :func:`html_values`)."""
    reads = html_reads(config)
    page = devtools(ctx, "query", "active", _page_plan(ops=reads))
    got = {(op, arg): value for (op, arg), value in zip(reads, page["results"])}
    return html_values(config, page["url"], got)


# ---- dates ----------------------------------------------------------------------------------


def get_rule_relativeTime(ctx: Context, config: Mapping[str, Any]) -> dict[str, Any]:  # noqa: N802
    """The task's rules with their dates filled in for today (see :mod:`.relative_time`)."""
    rules = config.get("rules")
    if not isinstance(rules, Mapping):
        raise GCCError("rule_relativeTime needs 'rules'")
    return relative_time.resolve(rules, relative_time.today(rules.get("timezone")))


# ---- the profile's files --------------------------------------------------------------------


def _read(ctx: Context, path: str) -> bytes | None:
    try:
        return ctx.probe.read_file(path)
    except GCCError:
        return None


def sqlite_rows(ctx: Context, path: str, sql: str) -> list[sqlite3.Row] | None:
    """The rows ``sql`` selects from a copy of the SQLite file ``path`` (with its journal, so an
    unfinished write is rolled back as SQLite would); None when the file is missing."""
    data = _read(ctx, path)
    if data is None:
        return None
    with tempfile.TemporaryDirectory(prefix="gcc-sqlite-") as tmp:
        copy = Path(tmp) / "db"
        copy.write_bytes(data)
        for suffix in ("-journal", "-wal"):
            extra = _read(ctx, path + suffix)
            if extra:
                Path(f"{copy}{suffix}").write_bytes(extra)
        con = sqlite3.connect(copy)
        try:
            con.row_factory = sqlite3.Row
            return con.execute(sql).fetchall()
        except sqlite3.DatabaseError as e:
            raise GCCError(f"{path}: not a database this getter can read ({e})") from e
        finally:
            con.close()


def get_history(ctx: Context, config: Mapping[str, Any]) -> list[tuple[str, str, int]] | None:
    """Chromium's history: ``(url, title, last_visit_time)`` of every visited address."""
    rows = sqlite_rows(ctx, HISTORY, "SELECT url, title, last_visit_time FROM urls")
    if rows is None:
        ctx.notes.append(f"history: {HISTORY} is missing (Chromium has not written it)")
        return None
    return [tuple(r) for r in rows]  # type: ignore[misc]


def get_cookie_data(ctx: Context, config: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """Chromium's cookies, each a row of its ``cookies`` table by column (``host_key``,
    ``name``, ...; encrypted values left out). ``user_data_dir``: another profile folder."""
    base = str(config.get("user_data_dir") or PROFILE)
    for name in COOKIES:
        rows = sqlite_rows(ctx, f"{base}/{name}", "SELECT * FROM cookies")
        if rows is not None:
            return [{k: r[k] for k in r.keys() if not isinstance(r[k], bytes)} for r in rows]
    ctx.notes.append(f"cookie_data: no Cookies database under {base}/Default")
    return None


def _extension_settings(ctx: Context) -> dict[str, dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    for path in PREFERENCE_FILES:
        data = _read(ctx, path)
        try:
            prefs = json.loads(data) if data else {}
        except ValueError:
            ctx.notes.append(f"{path}: not JSON")
            continue
        settings = prefs.get("extensions", {}).get("settings", {}) if isinstance(prefs, dict) else {}  # fmt: skip
        for ident, entry in settings.items() if isinstance(settings, dict) else ():
            if isinstance(entry, dict):
                merged.setdefault(ident, {}).update(entry)
    return merged


def get_find_unpacked_extension_path(ctx: Context, config: Mapping[str, Any]) -> list[str]:
    """The folder of every extension in the profile (unpacked ones: where they were loaded
    from; installed ones: their folder under ``Default/Extensions``)."""
    return [e["path"] for e in _extension_settings(ctx).values() if isinstance(e.get("path"), str)]


_MESSAGE = re.compile(r"__MSG_(\w+)__")


def _manifest_name(ctx: Context, entry: Mapping[str, Any]) -> str | None:
    manifest = entry.get("manifest")
    if isinstance(manifest, dict) and isinstance(manifest.get("name"), str):
        return manifest["name"]
    path = entry.get("path")
    if not isinstance(path, str) or not path:
        return None
    folder = PurePosixPath(path) if path.startswith("/") else PurePosixPath(PROFILE, "Default", "Extensions", path)  # fmt: skip
    data = _read(ctx, str(folder / "manifest.json"))
    try:
        manifest = json.loads(data) if data else {}
    except ValueError:
        return None
    name = manifest.get("name") if isinstance(manifest, dict) else None
    match = _MESSAGE.fullmatch(name) if isinstance(name, str) else None
    if match:  # a localized name: the default locale's message (keys ignore case)
        locale = str(manifest.get("default_locale", "en"))
        raw = _read(ctx, str(folder / "_locales" / locale / "messages.json"))
        try:
            messages = {k.lower(): v for k, v in json.loads(raw).items()} if raw else {}
        except (ValueError, AttributeError):
            messages = {}
        name = messages.get(match.group(1).lower(), {}).get("message", name)
    return name if isinstance(name, str) and name else None


def get_find_installed_extension_name(ctx: Context, config: Mapping[str, Any]) -> list[str]:
    """The name of every extension in the profile (from the preferences, else its manifest)."""
    names = [_manifest_name(ctx, e) for e in _extension_settings(ctx).values()]
    return list(dict.fromkeys(n for n in names if n))


def get_shortcuts_on_desktop(ctx: Context, config: Mapping[str, Any]) -> dict[str, str]:
    """Every launcher on the desktop (``~/Desktop/*.desktop``): its file name and text."""
    desktop = ctx.home / "Desktop"
    argv = ["find", str(desktop), "-maxdepth", "1", "-name", "*.desktop", "-printf", "%f\\0"]
    result = ctx.probe.run(ctx.argv(argv, None), timeout_s=10.0)
    if result.returncode:
        ctx.notes.append(f"shortcuts_on_desktop: {result.stderr.strip()[:200]}")
    shortcuts = {}
    for name in sorted(n for n in result.stdout.split("\0") if n):
        data = _read(ctx, str(desktop / name))
        if data is not None:
            shortcuts[name] = data.decode("utf-8", "replace")
    return shortcuts


CHROME_GETTERS: dict[str, Callable[[Context, Mapping[str, Any]], Any]] = {
    name[len("get_"):]: fn for name, fn in dict(globals()).items()
    if name.startswith("get_") and callable(fn)
}  # fmt: skip
