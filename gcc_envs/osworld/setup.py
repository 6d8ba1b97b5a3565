"""The setup (and postconfig) step kinds of OSWorld's task files, run on an :class:`Episode`.

``launch`` starts a mapped program and waits for its window; ``execute`` / ``command`` run a
command in real bash inside the episode's sandbox, with a deadline (``stdout`` saves its
output for a ``cache_file`` getter; a pyautogui ``python -c`` snippet is sent as input); ``sleep`` waits (at most :data:`MAX_SLEEP_S`); ``activate_window`` focuses a window;
``open`` opens a file of the home with the program for its kind; ``download`` fetches files
through the download cache (:mod:`.cache`; offline: only what it holds) and copies them into
the home, owned by the episode's user. Any other kind is refused with the reason. A refused
step stops the setup with a :class:`SetupError` naming the step.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path, PurePath
from typing import Any

from gcc_envs.errors import GCCError
from gcc_envs.osworld import commands
from gcc_envs.osworld.cache import DownloadCache
from gcc_envs.osworld.commands import COMMAND_TIMEOUT_S, CommandError
from gcc_envs.osworld.runtime import Episode
from gcc_envs.osworld.setup_browser import STEPS as BROWSER_STEPS
from gcc_envs.osworld.snippets import pyautogui_events
from gcc_envs.osworld.taskfile import Step

#: Longest ``sleep`` step accepted (OSWorld's are a few seconds).
MAX_SLEEP_S = 30.0
#: Programs that open a file of a kind (``open`` steps), by suffix.
OPENERS = {".pptx": "libreoffice", ".odp": "libreoffice", ".docx": "libreoffice",
           ".odt": "libreoffice", ".xlsx": "libreoffice", ".ods": "libreoffice",
           ".png": "gimp", ".jpg": "gimp", ".jpeg": "gimp", ".xcf": "gimp",
           ".mp4": "vlc", ".mkv": "vlc", ".mp3": "vlc", ".html": "google-chrome"}  # fmt: skip
#: Step kinds OSWorld has that cannot run here, with the reason.
REFUSED = {
    "googledrive": "needs a Google account",
    "login": "needs an account",
    "proxy": "needs a proxy server",
}


class SetupError(GCCError):
    """A setup or postconfig step that was refused or failed."""


def launch(ep: Episode, command: str | Sequence[str], shell: Any = False, **_: Any) -> None:
    env, argv = commands.launch_words(command)
    ep.launch(argv, env)


def execute(
    ep: Episode, command: str | Sequence[str], shell: Any = False, stdout: str = "",
    stderr: str = "", **_: Any,
) -> None:  # fmt: skip
    argv = commands.argv(command, shell)
    events = pyautogui_events(argv)
    if events is not None:
        ep.send(events)
        return
    result = ep.run(argv, COMMAND_TIMEOUT_S)
    if result.timed_out:
        ep.notes.append(f"{str(command)[:60]!r} ran past {COMMAND_TIMEOUT_S:g} s; stopped")
    if result.stderr:
        ep.notes.append(f"{str(command)[:60]!r}: {result.stderr[:300]}")
    if result.returncode:
        ep.notes.append(f"{str(command)[:60]!r} exited with status {result.returncode}")
    for name, text in ((stdout, result.stdout), (stderr, result.stderr)):
        if name:
            if PurePath(name).name != name:
                raise CommandError(f"a cache file name has no folders, got {name!r}")
            ep.cache[name] = text


def sleep(ep: Episode, seconds: Any = 1.0, **_: Any) -> None:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
        raise CommandError(f"sleep needs a non-negative number of seconds, got {seconds!r}")
    if seconds > MAX_SLEEP_S:
        raise CommandError(f"sleep {seconds:g} s is longer than the {MAX_SLEEP_S:g} s allowed")
    time.sleep(seconds)


def activate_window(ep: Episode, window_name: str, **_: Any) -> None:
    if not isinstance(window_name, str) or not window_name:
        raise CommandError("activate_window needs a window_name")
    ep.focus(window_name)


def open_file(ep: Episode, path: str, **_: Any) -> None:
    target = ep.inside(path)
    opener = OPENERS.get(target.suffix.lower())
    if opener is None:
        raise CommandError(f"open: no program opens {target.suffix or 'files without a suffix'}")
    ep.launch([opener, str(target)])


def download(ep: Episode, files: Any, **_: Any) -> None:
    """Fetch each ``{"url", "path"}`` through the cache, copy it to its path in the home."""
    if not isinstance(files, list) or not files:
        raise CommandError("download needs a list of files, each {'url': ..., 'path': ...}")
    wanted = []
    for f in files:  # every path checked before anything is fetched
        if not isinstance(f, dict) or not isinstance(f.get("url"), str) or not f.get("path"):
            raise CommandError(
                f"download: each file is {{'url': ..., 'path': ...}}, got {f!r:.120}"
            )
        wanted.append((f["url"], ep.inside(str(f["path"]))))
    cache = ep.downloads if ep.downloads is not None else DownloadCache.from_env()
    home = Path(os.path.realpath(ep.home))
    try:
        for url, target in wanted:
            copy_into_home(cache.fetch(url), target, home)
    finally:
        ep.give_home()


def copy_into_home(blob: Path, target: Path, home: Path) -> None:
    """Copy ``blob`` to ``target`` inside ``home``, creating its folders; each folder is opened
    without following links (one the episode's programs swap in meanwhile is refused, not
    followed) and a new file is renamed into place (a hard link there is not written through)."""
    rel = target.relative_to(home).parts
    if not rel:
        raise CommandError("download: the path names the home itself, not a file in it")
    fd = os.open(home, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for name in rel[:-1]:
            try:
                os.mkdir(name, 0o755, dir_fd=fd)
            except FileExistsError:
                pass
            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = inner
        tmp = f".{rel[-1][:200]}.{os.getpid()}.download"
        out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=fd)
        try:
            with open(blob, "rb") as src, os.fdopen(out, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            os.replace(tmp, rel[-1], src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            os.unlink(tmp, dir_fd=fd)
            raise
    except OSError as e:
        raise CommandError(f"download: cannot write {target}: {e}") from e
    finally:
        os.close(fd)


STEPS: dict[str, Callable[..., None]] = {
    "launch": launch, "execute": execute, "command": execute, "sleep": sleep,
    "activate_window": activate_window, "open": open_file, "download": download,
    **BROWSER_STEPS,
}  # fmt: skip


def run_step(ep: Episode, step: Step) -> None:
    """Run one step (a :class:`SetupError` names it when refused or failed)."""
    fn = STEPS.get(step.kind)
    if fn is None:
        reason = REFUSED.get(step.kind, "is not one of " + ", ".join(sorted(STEPS)))
        raise SetupError(f"setup step {step.kind!r} cannot run here: it {reason}")
    try:
        fn(ep, **step.params)
    except TypeError as e:
        raise SetupError(f"setup step {step.kind!r}: bad parameters: {e}") from None
    except GCCError as e:
        raise SetupError(f"setup step {step.kind!r}: {e}") from e


def sends_input(step: Step) -> bool:
    """Whether a step clicks or types (a ``python -c`` pyautogui snippet)."""
    return step.kind in ("execute", "command") and "pyautogui" in str(step.params.get("command"))


def run_steps(ep: Episode, steps: Sequence[Step]) -> None:
    """Run ``steps``; input a step sends after a ``launch`` waits until the screen is still
    (the program painted), where OSWorld counts on its fixed sleeps being long enough."""
    launched = False
    for i, step in enumerate(steps):
        if launched and sends_input(step):
            ep.settle()
            launched = False
        try:
            run_step(ep, step)
        except SetupError as e:
            raise SetupError(f"step {i + 1} of {len(steps)}: {e}") from e
        launched = launched or step.kind in ("launch", "open")


def suite_steps() -> dict[str, Callable[..., None]]:
    """The step kinds, for ``SuiteSpec.setup_steps`` (each takes an :class:`Episode`)."""
    return dict(STEPS)
