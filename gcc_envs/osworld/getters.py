"""OSWorld's getters: what an evaluator reads of the final state, through a ``DesktopProbe``.

Each getter is ``getter(ctx, config) -> value`` (``config`` is the task file's result or
expected object, with ``/home/user`` already mapped to the episode's home). Files are read
with ``probe.read_file`` (paths outside the home read as missing and are noted), commands run
in real bash inside the episode's sandbox with ``probe.run``. Where OSWorld's getter returns a downloaded
file's path, these return the file's text (``None`` when it is missing), and the metrics take
text; ``cloud_file`` reads the web's files through the download cache (:mod:`.cache`).
``chrome_*`` getters read Chromium's profile at ``~/.config/google-chrome``.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gcc_envs.core.probe import DesktopProbe
from gcc_envs.errors import GCCError
from gcc_envs.osworld import commands
from gcc_envs.osworld.cache import DownloadCache
from gcc_envs.osworld.commands import COMMAND_TIMEOUT_S
from gcc_envs.osworld.filedata import FileData
from gcc_envs.osworld.getters_chrome import CHROME_GETTERS
from gcc_envs.osworld.getters_files import FILE_GETTERS

log = logging.getLogger(__name__)

PREFERENCES = ".config/google-chrome/Default/Preferences"
BOOKMARKS = ".config/google-chrome/Default/Bookmarks"
VLCRC = ".config/vlc/vlcrc"
GIMP_DIR = ".config/GIMP/2.10"
#: The video types OSWorld asks ``xdg-mime`` about (the majority answer is the default player).
VIDEO_TYPES = ("3gp", "3gpp", "3gpp2", "avi", "divx", "dv", "fli", "flv", "mp2t", "mp4",
               "mp4v-es", "mpeg", "mpeg-system", "msvideo", "ogg", "quicktime", "vnd.divx",
               "vnd.mpegurl", "vnd.rn-realvideo", "webm", "x-anim", "x-avi", "x-flc", "x-fli",
               "x-flv", "x-m4v", "x-matroska", "x-mpeg", "x-mpeg-system", "x-mpeg2", "x-ms-asf",
               "x-ms-asf-plugin", "x-ms-asx", "x-ms-wm", "x-ms-wmv", "x-ms-wmx", "x-ms-wvx",
               "x-msvideo", "x-nsv", "x-ogm", "x-ogm+ogg", "x-theora", "x-theora+ogg")  # fmt: skip
#: How long ``chrome_appearance_mode_ui`` waits for Chromium to write a changed theme to disk
#: (Chromium commits preferences every 10 s).
PREFS_COMMIT_S = 12.0


@dataclass
class Context:
    """What getters read: the probe, and what the episode knows about its desktop."""

    probe: DesktopProbe
    #: ``argv(command, env)`` as the episode runs programs (its user and environment).
    argv: Callable[[Sequence[str], Mapping[str, str] | None], list[str]] = lambda a, e=None: list(a)
    #: Outputs postconfig steps saved (``cache_file``).
    cache: Mapping[str, str] = field(default_factory=dict)
    #: Chromium's DevTools port, if the episode started Chromium.
    cdp_port: int | None = None
    #: What a person should know about the reading (refused paths, failed commands).
    notes: list[str] = field(default_factory=list)
    #: Where ``cloud_file`` reads files (None: ``DownloadCache.from_env()``).
    downloads: DownloadCache | None = None

    @property
    def home(self) -> Path:
        return Path(self.probe.home)


def read_text(ctx: Context, path: str) -> FileData | None:
    """A file of the home, its text with its bytes; None (noted) when missing or outside the
    home."""
    try:
        return FileData(ctx.probe.read_file(path), path)
    except GCCError as e:
        ctx.notes.append(f"read {path!r}: {e}")
        return None


def _json(ctx: Context, path: str) -> Any:
    text = read_text(ctx, path)
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        ctx.notes.append(f"{path}: not JSON ({e})")
        return None


# ---- general -------------------------------------------------------------------------------


def get_rule(ctx: Context, config: Mapping[str, Any]) -> Any:
    return config.get("rules")


def get_vm_file(ctx: Context, config: Mapping[str, Any]) -> Any:
    paths = config.get("path")
    if isinstance(paths, list):
        return [read_text(ctx, p) for p in paths]
    if not isinstance(paths, str):
        raise GCCError("vm_file needs a 'path'")
    return read_text(ctx, paths)


def get_cache_file(ctx: Context, config: Mapping[str, Any]) -> str | None:
    return ctx.cache.get(str(config.get("path", "")))


def get_cloud_file(ctx: Context, config: Mapping[str, Any]) -> FileData | list[FileData]:
    """A file from the web, through the download cache, named ``dest``.

    ``multi``: ``path`` and ``dest`` are lists; ``gives`` (default ``[0]``) picks which files
    are returned, in index order: one gives a :class:`FileData`, several a list. Offline, a
    file the cache lacks raises the cache's :class:`~.cache.NotCachedError`.
    """
    multi = config.get("multi", False)
    multi = multi.lower() == "true" if isinstance(multi, str) else bool(multi)
    paths, dests = config.get("path"), config.get("dest")
    if not multi:
        paths, dests = [paths], [dests]
    if not isinstance(paths, list) or not isinstance(dests, list) or len(paths) != len(dests):
        raise GCCError("cloud_file: 'path' and 'dest' must be lists of one length with multi")
    if not all(isinstance(x, str) and x for x in (*paths, *dests)):
        raise GCCError("cloud_file: each 'path' is a URL and each 'dest' a file name")
    gives = config.get("gives", [0])
    if (
        not isinstance(gives, list)
        or not gives
        or any(type(i) is not int or i not in range(len(paths)) for i in gives)
    ):
        raise GCCError(f"cloud_file: 'gives' must list indices below {len(paths)}, got {gives!r}")
    cache = ctx.downloads if ctx.downloads is not None else DownloadCache.from_env()
    files = [FileData(cache.fetch(paths[i]).read_bytes(), dests[i]) for i in sorted(set(gives))]
    return files[0] if len(files) == 1 else files


def get_vm_command_line(ctx: Context, config: Mapping[str, Any]) -> str | None:
    """The standard output of the task's command, run in the episode's sandbox."""
    try:
        argv = commands.argv(config.get("command"), config.get("shell", False))
    except GCCError as e:
        ctx.notes.append(f"vm_command_line: {e}")
        return None
    result = ctx.probe.run(ctx.argv(argv, None), timeout_s=COMMAND_TIMEOUT_S)
    if result.timed_out:
        ctx.notes.append(f"vm_command_line: {str(argv)[:80]} ran past {COMMAND_TIMEOUT_S:g} s")
    elif result.returncode:
        ctx.notes.append(f"vm_command_line: exit status {result.returncode}: "
                         f"{result.stderr.strip()[:300]}")  # fmt: skip
    return result.stdout


def get_vm_terminal_output(ctx: Context, config: Mapping[str, Any]) -> str | None:
    """OSWorld reads GNOME Terminal's text through AT-SPI; this desktop has no such reader."""
    ctx.notes.append("vm_terminal_output: GNOME Terminal's text is not readable on this desktop")
    return None


#: The Python that has ``pyatspi`` (Debian ``python3-pyatspi``), for the AT-SPI dump.
SYSTEM_PYTHON = "/usr/bin/python3"


def get_accessibility_tree(ctx: Context, config: Mapping[str, Any]) -> str | None:
    """The desktop's AT-SPI tree as OSWorld's XML (programs that expose one: LibreOffice)."""
    dumper = Path(__file__).with_name("atspi_dump.py")
    if not Path(SYSTEM_PYTHON).exists():
        ctx.notes.append(f"accessibility_tree: {SYSTEM_PYTHON} is missing")
        return None
    result = ctx.probe.run(ctx.argv([SYSTEM_PYTHON, str(dumper)], None), timeout_s=30.0)
    if result.returncode or not result.stdout.startswith("<"):
        ctx.notes.append(f"accessibility_tree: no tree ({result.stderr.strip()[-200:]})")
        return None
    return result.stdout


def get_default_video_player(ctx: Context, config: Mapping[str, Any]) -> str:
    answers = []
    for kind in VIDEO_TYPES:
        out = get_vm_command_line(
            ctx, {"command": ["xdg-mime", "query", "default", f"video/{kind}"]}
        )
        if out:
            answers.append(out)
    return Counter(answers).most_common(1)[0][0] if answers else "unknown"


# ---- applications' configuration files -----------------------------------------------------


def get_vlc_config(ctx: Context, config: Mapping[str, Any]) -> str | None:
    return read_text(ctx, VLCRC)


def get_gimp_config_file(ctx: Context, config: Mapping[str, Any]) -> str | None:
    name = str(config.get("file_name", ""))
    if not name or "/" in name or name.startswith("."):
        ctx.notes.append(f"gimp_config_file: bad file_name {name!r}")
        return None
    return read_text(ctx, f"{GIMP_DIR}/{name}")


# ---- Chromium ------------------------------------------------------------------------------


def _prefs(ctx: Context) -> dict[str, Any]:
    data = _json(ctx, PREFERENCES)
    return data if isinstance(data, dict) else {}


def _flag(value: Any) -> str:
    return "true" if value else "false"


def get_enable_do_not_track(ctx: Context, config: Mapping[str, Any]) -> str:
    return _flag(_prefs(ctx).get("enable_do_not_track", False))


def get_enable_safe_browsing(ctx: Context, config: Mapping[str, Any]) -> str:
    # Chromium's default is on: a profile without the key protects.
    return _flag(_prefs(ctx).get("safebrowsing", {}).get("enabled", True))


def get_new_startup_page(ctx: Context, config: Mapping[str, Any]) -> str:
    prefs = _prefs(ctx)
    if "session" not in prefs:
        return "true"
    return _flag(prefs["session"].get("restore_on_startup", 0) == 5)


#: Chromium's content setting "keep site data until the browser closes" (session only).
SESSION_ONLY = 4


def get_data_delete_automacally(ctx: Context, config: Mapping[str, Any]) -> str:
    """Whether site data is deleted when Chromium closes (its cookies setting is session-only).

    OSWorld checks only that ``profile.default_content_setting_values`` exists; Chromium 156
    writes that object into every new profile (``has_migrated_local_network_access``), so the
    setting behind the option is read instead.
    """
    values = _prefs(ctx).get("profile", {}).get("default_content_setting_values") or {}
    return _flag(values.get("cookies") == SESSION_ONLY)


def get_profile_name(ctx: Context, config: Mapping[str, Any]) -> str | None:
    return _prefs(ctx).get("profile", {}).get("name")


def get_chrome_font_size(ctx: Context, config: Mapping[str, Any]) -> dict[str, Any]:
    default = {"default_fixed_font_size": 13, "default_font_size": 16, "minimum_font_size": 13}
    return {**default, **_prefs(ctx).get("webkit", {}).get("webprefs", {})}


def get_default_search_engine(ctx: Context, config: Mapping[str, Any]) -> str:
    data = _prefs(ctx).get("default_search_provider_data", {})
    return data.get("template_url_data", {}).get("short_name", "Google")


def get_bookmarks(ctx: Context, config: Mapping[str, Any]) -> Any:
    data = _json(ctx, BOOKMARKS)
    return data.get("roots", {}) if isinstance(data, dict) else []


def appearance_mode(prefs: Mapping[str, Any]) -> str:
    """``light``, ``dark`` or ``system`` from Chromium's preferences (0/1/2 as Chromium)."""
    theme = prefs.get("browser", {}).get("theme", {})
    raw = theme.get("color_scheme2", theme.get("color_scheme"))
    if prefs.get("extensions", {}).get("theme", {}).get("system_theme") in (0, "0", False):
        return "light"
    return (
        {0: "system", 1: "light", 2: "dark"}.get(raw, "system")
        if isinstance(raw, int)
        else "system"
    )


def get_chrome_appearance_mode_ui(ctx: Context, config: Mapping[str, Any]) -> str:
    deadline = time.monotonic() + PREFS_COMMIT_S
    while True:
        mode = appearance_mode(_prefs(ctx))
        if mode != "dark" or time.monotonic() > deadline:
            return mode
        time.sleep(0.5)


GETTERS: dict[str, Callable[[Context, Mapping[str, Any]], Any]] = {
    name[len("get_"):]: fn for name, fn in dict(globals()).items()
    if name.startswith("get_") and callable(fn)
}  # fmt: skip
GETTERS.update(CHROME_GETTERS)  # the browser's tabs, pages, history, cookies, extensions
GETTERS.update(FILE_GETTERS)  # wallpaper, VLC's state, folders, slides' media
