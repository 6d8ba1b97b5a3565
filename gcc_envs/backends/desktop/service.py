"""``DesktopService``: what ``serve-desktop`` serves — one X display, one DesktopBackend, programs.

Every method holds one lock, so requests from several connections run one at a time. The
service owns its display (an Xvfb it starts, unless ``display=`` names one) and the programs
it launched; :meth:`shutdown` releases every key and button and stops them.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gcc_envs.backends.wire import ForbiddenError, NotFoundError
from gcc_envs.core import events as ev
from gcc_envs.errors import BackendError, GCCError, InvalidActionError

log = logging.getLogger(__name__)

#: Session settings a client may choose (``POST /configure``); the display is the server's.
SESSION_KEYS = (
    "obs_size",
    "target",
    "launch",
    "pause",
    "pause_key",
    "pause_template",
    "draw_pointer",
)
NO_LAUNCH = "this server does not launch programs; start it with --allow-launch"


@dataclass(frozen=True)
class ServiceConfig:
    """What the server was started with."""

    display: str | None = None
    screen_size: tuple[int, int] = (1280, 720)
    pause: str = "signal"
    target: str | None = None
    #: Whether clients may start programs (``launch``); off unless the server is told.
    allow_launch: bool = False
    #: Seconds without a request after which the server releases every key and button.
    idle_s: float = 30.0
    #: The one file clients may read (``GET /file``): a program's published state, which a
    #: state-file judge in the client's env reads. The service judges nothing.
    state_file: str | None = None


class DesktopService:
    """One display and one :class:`DesktopBackend` behind a lock."""

    def __init__(self, config: ServiceConfig) -> None:
        from gcc_envs.backends.desktop.display import VirtualDisplay

        self.config = config
        self.lock = threading.RLock()
        self.vdisplay: VirtualDisplay | None = None
        if config.display is None:
            self.vdisplay = VirtualDisplay(config.screen_size)
        self.display_name = config.display or self.vdisplay.name  # type: ignore[union-attr]
        self._x: Any = None
        #: The served screen's real size (a given display keeps its own).
        self.screen_size = self._xconn().screen_size
        self._procs: list[subprocess.Popen[bytes]] = []
        self.session: dict[str, Any] = {"pause": config.pause, "target": config.target}
        self.backend = self._new_backend(self.session)

    # ------------------------------------------------------------------ session
    def _new_backend(self, session: Mapping[str, Any]) -> Any:
        from gcc_envs.backends.desktop.backend import DesktopBackend

        obs_size = session.get("obs_size")
        extra = {
            k: session[k] for k in ("pause_key", "pause_template", "draw_pointer") if k in session
        }
        return DesktopBackend(
            tuple(obs_size) if obs_size is not None else None,
            target=session.get("target"),
            launch=session.get("launch"),
            display=self.display_name,
            pause=session.get("pause") or self.config.pause,
            screen_size=self.screen_size,
            **extra,
        )

    def configure(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """Replace the backend by one with ``settings`` (obs_size, target, launch, pause)."""
        if not isinstance(settings, Mapping):
            raise InvalidActionError("configure takes a JSON object")
        unknown = set(settings) - set(SESSION_KEYS)
        if unknown:
            raise InvalidActionError(f"unknown settings {sorted(unknown)}; known: {SESSION_KEYS}")
        if settings.get("launch") is not None and not self.config.allow_launch:
            raise ForbiddenError(NO_LAUNCH)
        session = {"pause": self.config.pause, "target": self.config.target}
        session.update({k: v for k, v in settings.items() if v is not None})
        _check_session(session)
        with self.lock:
            backend = self._new_backend(session)  # validates before the old one goes
            self._close_backend()
            self.backend, self.session = backend, session
            return self.info()

    def info(self) -> dict[str, Any]:
        with self.lock:
            b = self.backend
            return {
                "size": list(b.size),
                "clock_driven": bool(b.clock_driven),
                "display": self.display_name,
                "session": self.session,
                "allow_launch": self.config.allow_launch,
                "idle_s": self.config.idle_s,
                "state_file": self.config.state_file,
            }

    def _close_backend(self) -> None:
        try:
            self.backend.release_all()
        finally:
            self.backend.close()

    # ------------------------------------------------------------------ backend calls
    def reset(self, seed: int | None, options: Mapping[str, Any] | None) -> None:
        if seed is not None and (type(seed) is not int or seed < 0):
            raise InvalidActionError(f"seed must be a non-negative integer, got {seed!r}")
        if options is not None and not isinstance(options, Mapping):
            raise InvalidActionError("options must be a JSON object")
        with self.lock:
            self.backend.reset(np.random.default_rng(seed), options)

    def capture(self) -> np.ndarray:
        with self.lock:
            return self.backend.capture()

    def send(self, events: Sequence[ev.Event]) -> None:
        """Send primitive events in order; on an error release everything held, then raise."""
        with self.lock:
            try:
                for event in events:
                    self.backend.send(event)
            except BaseException:
                self.backend.release_all()
                raise

    def release_all(self) -> None:
        with self.lock:
            self.backend.release_all()

    def pause(self) -> dict[str, bool]:
        with self.lock:
            self.backend.pause()
            return self.pause_state()

    def resume(self) -> dict[str, bool]:
        with self.lock:
            self.backend.resume()
            return self.pause_state()

    def pause_state(self) -> dict[str, bool]:
        """Whether the target is paused, and whether its processes are stopped (a ``signal``
        pause: it publishes nothing, so a state-file judge reads the last publication)."""
        with self.lock:
            return {"paused": bool(self.backend.paused), "frozen": bool(self.backend.frozen)}

    def read_file(self, path: str) -> bytes:
        """The shared file's bytes (``ServiceConfig.state_file``; no other path is served)."""
        shared = self.config.state_file
        if not isinstance(path, str) or not path:
            raise InvalidActionError("file needs a 'path'")
        if shared is None or os.path.realpath(path) != os.path.realpath(shared):
            raise ForbiddenError(
                f"this server shares no file {path!r} (it shares {shared!r}); start it with "
                "--state-file PATH"
            )
        try:
            with open(shared, "rb") as f:
                return f.read()
        except FileNotFoundError:
            raise NotFoundError(f"{path} does not exist yet") from None
        except OSError as e:
            raise BackendError(f"cannot read {path}: {e}") from e

    def grab_window(self) -> np.ndarray:
        """The target's pixels at their own size (for a template judge in the client)."""
        with self.lock:
            return self.backend.grab_window()

    def close_session(self) -> None:
        """The client is done: release input, close the backend, keep a fresh one ready."""
        with self.lock:
            self._close_backend()
            self.backend = self._new_backend(self.session)

    # ------------------------------------------------------------------ windows and programs
    def _xconn(self) -> Any:
        from gcc_envs.backends.desktop.x11 import X11

        if self._x is None:
            self._x = X11(self.display_name)
        return self._x

    def windows(self) -> list[dict[str, Any]]:
        """The managed windows: id, title, pid, class and geometry."""
        with self.lock:
            x = self._xconn()
            out = []
            for win in x.clients():
                try:
                    g = x.geometry(win)
                except BackendError:
                    continue  # closed while listing
                out.append(
                    {
                        "id": int(win.id),
                        "title": x.title(win),
                        "pid": x.pid(win),
                        "wm_class": list(x.wm_class(win)),
                        "geometry": [g.x, g.y, g.width, g.height],
                        "focused": x.is_focused(win),
                    }
                )
            return out

    def focus(self, title: str) -> dict[str, Any]:
        """Focus the first window whose title matches the regex ``title``."""
        if not isinstance(title, str) or not title:
            raise InvalidActionError("focus needs a non-empty 'title' regular expression")
        try:
            re.compile(title)
        except re.error as e:
            raise InvalidActionError(f"bad title regular expression {title!r}: {e}") from None
        with self.lock:
            x = self._xconn()
            win = x.find(title=title)
            if win is None:
                raise NotFoundError(f"no window title matches {title!r}")
            return {"id": int(win.id), "title": x.title(win), "focused": x.focus(win)}

    def launch(self, argv: Sequence[str]) -> int:
        """Start ``argv`` (no shell) on the display; the server stops it at shutdown."""
        from gcc_envs.backends.desktop.display import launch

        if not self.config.allow_launch:
            raise ForbiddenError(NO_LAUNCH)
        if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
            raise InvalidActionError(f"argv must be a non-empty list of strings, got {argv!r}")
        with self.lock:
            try:
                proc = launch(argv, self.display_name)
            except BackendError as e:
                raise InvalidActionError(str(e)) from None
            self._procs.append(proc)
            return proc.pid

    # ------------------------------------------------------------------ shutdown
    def shutdown(self) -> None:
        """Release every key and button, stop launched programs and the display (idempotent)."""
        from gcc_envs.backends.desktop.display import stop_group

        with self.lock:
            try:
                self._close_backend()
            except GCCError as e:
                log.warning("closing the backend at shutdown: %s", e)
            finally:
                while self._procs:
                    stop_group(self._procs.pop())
                if self._x is not None:
                    self._x.close()
                    self._x = None
                if self.vdisplay is not None:
                    self.vdisplay.close()


def _check_session(session: Mapping[str, Any]) -> None:
    """Refuse session settings of the wrong JSON type, naming the setting."""
    obs = session.get("obs_size")
    if obs is not None and (
        not isinstance(obs, list) or len(obs) != 2 or not all(type(v) is int for v in obs)
    ):
        raise InvalidActionError(f"obs_size must be [H, W] integers, got {obs!r}")
    for key in ("target", "pause", "pause_key", "pause_template"):
        if session.get(key) is not None and not isinstance(session[key], str):
            raise InvalidActionError(f"{key} must be a string, got {session[key]!r}")
    if session.get("target") is not None:
        try:
            re.compile(session["target"])
        except (re.error, RecursionError, OverflowError) as e:
            raise InvalidActionError(f"target is not a regular expression: {e}") from None
    if "draw_pointer" in session and not isinstance(session["draw_pointer"], bool):
        raise InvalidActionError("draw_pointer must be true or false")
