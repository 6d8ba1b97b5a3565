"""``EpisodeRunner``: start a task's episode on a desktop backend, and score it at the end.

``start`` gives the episode a fresh session (its sandbox, home and session bus), opens a terminal for
tasks of the Ubuntu desktop (``os`` in ``related_apps``: OSWorld's dock has one), runs the
setup steps and waits for the screen to settle. ``finish`` runs the postconfig steps and the
evaluator. ``end`` stops the episode's programs and removes its home. Tasks this machine
cannot run (:func:`gcc_envs.osworld.support.support` says why, before anything starts) load,
show their instruction and score 0 with the reason — an infeasible one 1 on a final ``FAIL``,
as in OSWorld, whatever its setup did.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import PurePath
from typing import Any

import numpy as np

from gcc_envs.core.toml_data import tomllib
from gcc_envs.errors import GCCError
from gcc_envs.osworld.cache import CacheConfig, DownloadCache
from gcc_envs.osworld.evaluate import Verdict, score
from gcc_envs.osworld.getters import Context
from gcc_envs.osworld.runtime import (
    Episode,
    event_sender,
    fill_placeholders,
    screen_placeholders,
)
from gcc_envs.osworld.setup import SetupError, run_steps
from gcc_envs.osworld.support import support
from gcc_envs.osworld.taskfile import OSWorldTask, Step, localize

log = logging.getLogger(__name__)

#: Getters that read Chromium's profile files, which Chromium writes up to 10 s after a change.
CHROME_FILE_GETTERS = frozenset({"enable_do_not_track", "enable_safe_browsing", "new_startup_page",
                                 "data_delete_automacally", "profile_name", "chrome_font_size",
                                 "default_search_engine", "bookmarks"})  # fmt: skip
#: How long after the last input Chromium's preferences are surely on disk (it commits them
#: every 10 s while running).
PREFS_COMMIT_S = 11.0
#: Chromium writes bookmarks 2.5 s after a change, and a SIGTERM does not hurry it.
BOOKMARKS_SAVE_S = 3.0
#: Getters that read files a program writes as it quits (the postconfig quits it), by app.
QUIT_WRITTEN = {"gimp_config_file": "gimp"}
#: How long the evaluator waits for such a program to finish quitting (OSWorld sleeps 0.5 s).
QUIT_WAIT_S = 20.0


#: Programs metrics run (in a throwaway sandbox) on what the agent made.
METRIC_PROGRAMS = {"compare_audios": "ffmpeg", "compare_image_text": "tesseract"}


@lru_cache(maxsize=1)
def unsupported() -> Mapping[str, str]:
    """Bundled task id → why it cannot run here."""
    text = (resources.files("gcc_envs.osworld") / "data" / "unsupported.toml").read_text("utf-8")
    return {k: " ".join(v["reason"].split()) for k, v in tomllib.loads(text).items()}


def needed_programs(task: OSWorldTask) -> list[str]:
    """Programs the task's episode starts or its evaluator runs (for skips and messages)."""
    from gcc_envs.osworld.apps import find_app

    text = json.dumps([[s.params for s in task.config], [s.params for s in task.evaluator.postconfig],
                       task.evaluator.results])  # fmt: skip
    needed = ["dbus-daemon"]
    if "os" in task.related_apps:
        needed.append("xterm")
    for step in (*task.config, *task.evaluator.postconfig):
        command = step.params.get("command") if step.kind == "launch" else None
        words = command.split() if isinstance(command, str) else list(command or [])
        app = next((find_app(w) for w in words if find_app(w) is not None), None)
        if app is not None:
            needed += [app.program, *app.server[:1]]
    if uses_sound(task):
        needed += ["pulseaudio", "pactl"]
    needed += [
        p
        for p in ("gsettings", "sar", "xdg-mime")
        if p in text or (p == "sar" and "sysstat" in text)
    ]
    if "default_video_player" in text:
        needed.append("xdg-mime")
    needed += [METRIC_PROGRAMS[f] for f in task.evaluator.funcs if f in METRIC_PROGRAMS]
    if "soffice" in needed or any(s.kind == "open" for s in task.config):
        needed += office_components(task)
    return sorted(set(needed))


#: LibreOffice's component for a kind of document (Debian packages each one on its own, with
#: its launcher on ``PATH``: ``libreoffice-calc`` gives ``localc``).
OFFICE_COMPONENTS = {".xlsx": "localc", ".xls": "localc", ".ods": "localc", ".csv": "localc",
                     ".docx": "lowriter", ".doc": "lowriter", ".odt": "lowriter",
                     ".pptx": "loimpress", ".ppt": "loimpress", ".odp": "loimpress"}  # fmt: skip
_OFFICE_FLAGS = {"--calc": "localc", "--writer": "lowriter", "--impress": "loimpress"}


def office_components(task: OSWorldTask) -> list[str]:
    """The LibreOffice components the task's documents open in (their launchers)."""
    found = []
    for step in (*task.config, *task.evaluator.postconfig):
        if step.kind == "open":
            suffix = PurePath(str(step.params.get("path", ""))).suffix.lower()
            found += [OFFICE_COMPONENTS[suffix]] if suffix in OFFICE_COMPONENTS else []
        elif step.kind == "launch":
            words = json.dumps(step.params.get("command"))
            found += [c for flag, c in _OFFICE_FLAGS.items() if flag in words]
            if "soffice" in words or "libreoffice" in words:
                found += [c for suffix, c in OFFICE_COMPONENTS.items() if suffix + '"' in words]
    return found


def uses_sound(task: OSWorldTask) -> bool:
    """Whether the task's commands talk to a sound server (``pactl``, PulseAudio, ALSA mixer)."""
    text = json.dumps([[s.params for s in task.config], [s.params for s in task.evaluator.postconfig],
                       task.evaluator.results])  # fmt: skip
    return any(word in text for word in ("pactl", "pulseaudio", "pacmd", "amixer"))


@dataclass(frozen=True)
class Outcome:
    """How an episode ended: its score and how the evaluator reached it."""

    score: float
    verdict: Verdict | None = None
    notes: tuple[str, ...] = ()
    #: The report as a remote episode server made it (when ``verdict`` stayed there).
    remote: Mapping[str, Any] | None = None

    def report(self) -> dict[str, Any]:
        if self.remote is not None:
            return dict(self.remote)
        slots = self.verdict.slots if self.verdict is not None else ()
        return {
            "score": self.score,
            "slots": [
                {
                    "func": s.func,
                    "score": s.score,
                    "result": repr(s.result)[:300],
                    "expected": repr(s.expected)[:300],
                }
                for s in slots
            ],  # fmt: skip
            "notes": [*self.notes, *(self.verdict.notes if self.verdict else ())],
        }


@dataclass
class _Running:
    task: OSWorldTask
    episode: Episode | None = None
    session: Any = None
    probe: Any = None
    problem: str | None = None
    notes: list[str] = field(default_factory=list)


class EpisodeRunner:
    """Runs task episodes on a desktop backend's display (see the module docstring)."""

    def __init__(
        self, backend: Any, *, window_timeout_s: float = 60.0, downloads: CacheConfig | None = None,
        accessibility: bool = False,
    ) -> None:  # fmt: skip
        self.backend = backend
        self.window_timeout_s = window_timeout_s
        #: Whether programs expose their AT-SPI tree to the agent (``DesktopEnv``'s
        #: ``require_a11y_tree``); a task whose evaluator reads the tree gets it anyway.
        self.accessibility = accessibility
        #: The download cache's config; None: read from ``GCC_OSWORLD_*`` at each episode.
        #: Offline, a task runs only when every file it downloads is in the cache.
        self.downloads_config = downloads
        self.downloads = (
            DownloadCache(downloads) if downloads is not None else DownloadCache.from_env()
        )
        self.running: _Running | None = None
        #: When the agent's last input was sent (``time.monotonic()``).
        self.last_input = 0.0

    def note_input(self) -> None:
        """Called after each agent step (the env does): Chromium commits prefs after it."""
        self.last_input = time.monotonic()

    def start(self, task: OSWorldTask) -> dict[str, Any]:
        """Set the task's desktop up; returns info entries (``unsupported``/``setup_error``)."""
        self.end()
        run = self.running = _Running(task)
        if self.downloads_config is None:
            self.downloads = DownloadCache.from_env()
        found = support(task, online=not self.downloads.config.offline, cached=self.downloads.has)
        if not found.runs:
            run.problem = f"unsupported: {found.why()}"
            return {"unsupported": found.why(), "unsupported_kind": found.kind}
        from gcc_envs.apps.episode import EpisodeDesktop

        run.session = EpisodeDesktop(
            self.backend, np.random.default_rng(), home_prefix="osworld-home-"
        )
        run.probe = run.session.probe()
        size = tuple(self.backend.screen_size)
        reads_tree = any(c.get("type") == "accessibility_tree"
                         for c in (*task.evaluator.results, *task.evaluator.expected))  # fmt: skip
        ep = run.episode = Episode(
            run.session, run.probe, event_sender(self.backend), screen_size=size, window_timeout_s=self.window_timeout_s,
            accessibility=self.accessibility or reads_tree,
        )  # fmt: skip
        ep.downloads = self.downloads
        table = screen_placeholders(size)  # type: ignore[arg-type]
        try:
            ep.prepare()
            if uses_sound(task):
                ep.start_sound()
            if "os" in task.related_apps:
                ep.launch(["x-terminal-emulator"])
            run_steps(ep, [self._fill(s, table) for s in task.config])
            ep.settle()
        except (SetupError, GCCError) as e:
            run.problem = f"setup failed: {e}"
            log.warning("task %s: %s", task.id, run.problem)
            return {"setup_error": str(e), "setup_notes": list(ep.notes)}
        return {"setup_notes": list(ep.notes)}

    def _fill(self, step: Step, table: Mapping[str, str]) -> Step:
        assert self.running is not None and self.running.episode is not None
        home = self.running.episode.home
        return Step(step.kind, fill_placeholders(localize(dict(step.params), home), table))

    def context(self) -> Context:
        run = self.running
        if run is None or run.episode is None:
            raise GCCError("no episode is running")
        ep = run.episode
        return Context(run.probe, ep.argv, ep.cache, ep.cdp_port, downloads=self.downloads)

    def finish(self, last_action: str | None) -> Outcome:
        """Postconfig and evaluator of the running episode (``last_action``: DONE, FAIL...)."""
        run = self.running
        if run is None:
            raise GCCError("no episode is running")
        ev = run.task.evaluator
        if ev.infeasible:  # OSWorld: a final FAIL is the answer, whatever the setup did
            verdict = score(ev, None, last_action)
            return Outcome(verdict.score, verdict, (run.problem,) if run.problem else ())
        if run.problem is not None:
            return Outcome(0.0, None, (run.problem,))
        if last_action == "FAIL":
            return Outcome(score(ev, None, last_action).score, score(ev, None, last_action))
        assert run.episode is not None
        table = screen_placeholders(tuple(self.backend.screen_size))  # type: ignore[arg-type]
        notes: list[str] = []
        self._wait_for_chrome_prefs(run)
        try:
            run_steps(run.episode, [self._fill(s, table) for s in ev.postconfig])
        except (SetupError, GCCError) as e:  # OSWorld scores what is there anyway
            notes.append(f"postconfig: {e}")
        self._wait_for_quits(run, notes)
        verdict = score(ev, self.context(), last_action)
        return Outcome(verdict.score, verdict, tuple(notes))

    def _wait_for_chrome_prefs(self, run: _Running) -> None:
        """Before reading Chromium's files while it runs, wait until it has written them.

        OSWorld's own loop waits 20 s before it evaluates; here only tasks that read
        Chromium's files wait: the commit interval after the last input, also when the
        postconfig restarts Chromium. A clean exit should write the preferences as well, but
        with only the bookmarks' 3 s a sweep of the 44 bundled tasks read two settings back
        unchanged after the restart (chrome/9656a811 and 99146c54; both pass alone); the
        commit interval does not depend on how Chromium exits.
        """
        ev = run.task.evaluator
        reads = {c.get("type") for c in (*ev.results, *ev.expected)} & CHROME_FILE_GETTERS
        if not reads or run.episode is None or "chrome" not in run.episode.running:
            return
        wait = max(PREFS_COMMIT_S, BOOKMARKS_SAVE_S)
        time.sleep(max(0.0, self.last_input + wait - time.monotonic()))

    def _wait_for_quits(self, run: _Running, notes: list[str]) -> None:
        """When the postconfig quits a program whose files the evaluator reads (GIMP writes
        its rc files as it quits), wait until it has exited rather than a fixed sleep."""
        ev = run.task.evaluator
        if not ev.postconfig or run.episode is None:
            return
        for getter in {str(c.get("type")) for c in (*ev.results, *ev.expected)}:
            key = QUIT_WRITTEN.get(getter)
            if key is not None and not run.episode.wait_exit(key, QUIT_WAIT_S):
                notes.append(f"{key} had not quit {QUIT_WAIT_S:g} s after the postconfig")

    def open_terminal(self) -> str | None:
        """GNOME's Ctrl+Alt+T for the running episode: a terminal opened, or the open one
        focused (GNOME would open another); what was done, or None when no episode runs."""
        run = self.running
        ep = run.episode if run is not None else None
        if ep is None:
            return None
        if ep.alive("terminal"):
            ep.focus("Terminal")
            return "Ctrl+Alt+T: focused the open terminal"
        ep.launch(["x-terminal-emulator"])
        return "Ctrl+Alt+T: opened a terminal"

    def end(self) -> None:
        """Stop the running episode's programs and remove its home."""
        run, self.running = self.running, None
        if run is not None and run.session is not None:
            try:
                self.backend.release_all()
            finally:
                run.session.close()
