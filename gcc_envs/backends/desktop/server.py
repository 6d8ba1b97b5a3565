"""``gcc-gym serve-desktop``: a token-checked HTTP server in front of one :class:`DesktopService`.

Every request needs ``Authorization: Bearer TOKEN``. Input arrives as primitive event dicts,
never as code. Errors come back as ``{"error": message}`` with a 4xx status (400 bad request
or event, 401 token, 403 not allowed by the server's flags, 404 unknown route or window, 409
the backend refused, 408 body too slow, 411 no Content-Length, 413 body too large); an
unexpected failure is a 500 whose details stay in the server's log. The connection handling
is :mod:`gcc_envs.httpd`'s: the token is checked from the headers before any body is read, a
request's headers must arrive within ``Limits.idle_s`` and its body within
:data:`BODY_TIMEOUT_S`, and the listen backlog is real. An idle watchdog releases every key
and button ``idle_s`` seconds after the last authenticated request ended (a client that died
mid-program cannot say so); unauthenticated, stalled or idle connections never count as
activity.

Routes::

    GET  /info                      {"size": [W, H], "clock_driven": false, ...}
    GET  /capture?format=raw|zlib|png   frame bytes; headers X-Frame-Shape "H W 3", X-Frame-Format
    GET  /windows                   [{"id", "title", "pid", "wm_class", "geometry", "focused"}]
    GET  /capture?window=1          the target's pixels at their own size (for a template judge)
    GET  /file?path=PATH            the bytes of the one file the server shares (--state-file)
    POST /events                    [event dicts]  (KeyDown KeyUp MoveTo MoveBy MouseDown MouseUp Scroll)
    POST /configure                 {"obs_size": [H, W], "target": regex, "launch": [argv], "pause": name,
                                     "pause_key", "pause_template": path, "draw_pointer": bool}
    POST /reset                     {"seed": int, "options": {...}}
    POST /focus                     {"title": regex}
    POST /launch                    {"argv": [...]}        (only with --allow-launch; no shell)
    POST /pause  /resume            {"paused": bool, "frozen": bool}
    POST /release_all  /ping  /close

The server judges nothing: a judge runs in the client's env and reads these primitives.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import SplitResult, parse_qs

from gcc_envs import httpd
from gcc_envs.backends import wire
from gcc_envs.backends.desktop.service import DesktopService, ServiceConfig
from gcc_envs.errors import BackendError, GCCError, InvalidActionError
from gcc_envs.httpd import BODY_TIMEOUT_S as BODY_TIMEOUT_S  # re-exported
from gcc_envs.httpd import Limits, Reply, json_reply

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerConfig:
    """How ``serve-desktop`` listens; ``host`` is loopback unless told otherwise."""

    token: str
    host: str = "127.0.0.1"
    port: int = 8765
    service: ServiceConfig = field(default_factory=ServiceConfig)
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        if not isinstance(self.token, str) or len(self.token) < 8:
            raise GCCError("serve-desktop needs a token of at least 8 characters (--token-file)")
        if not self.service.idle_s > 0:
            raise GCCError(f"idle_s must be positive, got {self.service.idle_s!r}")


class DesktopServer(httpd.Server):
    """The HTTP server; ``service`` does the work, a watchdog thread watches for idleness."""

    def __init__(self, config: ServerConfig, service: DesktopService) -> None:
        self.config = config
        self.service = service
        self._activity = threading.Lock()
        self._busy = 0
        self._last = time.monotonic()
        self._released = True
        self._stop = threading.Event()
        super().__init__((config.host, config.port), Handler, config.token, config.limits)
        self._watchdog = threading.Thread(target=self._watch, name="idle-watchdog", daemon=True)
        self._watchdog.start()

    def activity(self, delta: int) -> None:
        with self._activity:
            self._busy += delta
            self._last = time.monotonic()
            self._released = False

    def _watch(self) -> None:
        period = min(1.0, self.config.service.idle_s / 4)
        while not self._stop.wait(period):
            with self._activity:
                idle = (
                    self._busy == 0 and time.monotonic() - self._last > self.config.service.idle_s
                )
                if not idle or self._released:
                    continue
                self._released = True
            log.info(
                "no request for %.1f s: releasing every key and button", self.config.service.idle_s
            )
            try:
                self.service.release_all()
            except GCCError as e:
                log.warning("idle release failed: %s", e)

    def server_close(self) -> None:
        self._stop.set()
        super().server_close()


class Handler(httpd.JSONHandler):
    """The routes below, behind :class:`~gcc_envs.httpd.JSONHandler`'s token and body checks."""

    server: DesktopServer

    def status_of(self, error: Exception) -> int:
        return wire.status_of(error)

    def answer(self, method: str, url: SplitResult, body: bytes) -> Reply:
        route = ROUTES.get((method, url.path))
        if route is None:
            known = sorted(f"{m} {p}" for m, p in ROUTES)
            return json_reply(404, {"error": f"no route {method} {url.path}; routes: {known}"})
        self.server.activity(+1)  # an authenticated request with its whole body: activity
        try:
            return route(self.server.service, body, parse_qs(url.query))
        finally:
            self.server.activity(-1)


# ---------------------------------------------------------------------- routes
Query = dict[str, list[str]]


def _object(body: bytes) -> dict[str, Any]:
    value = httpd.parse_json(body)
    if not isinstance(value, dict):
        raise InvalidActionError("the body must be a JSON object")
    return value


def _capture(s: DesktopService, body: bytes, query: Query) -> Reply:
    fmt = query.get("format", ["raw"])[-1]
    if fmt not in wire.FRAME_FORMATS:
        raise InvalidActionError(f"format must be one of {wire.FRAME_FORMATS}, got {fmt!r}")
    window = query.get("window", ["0"])[-1]
    if window not in ("0", "1"):
        raise InvalidActionError(f"window must be 0 or 1, got {window!r}")
    frame = s.grab_window() if window == "1" else s.capture()
    data, headers = wire.encode_frame(frame, fmt)
    return 200, data, {"Content-Type": "application/octet-stream", **headers}


def _file(s: DesktopService, body: bytes, query: Query) -> Reply:
    path = query.get("path", [""])[-1]
    return 200, s.read_file(path), {"Content-Type": "application/octet-stream"}


def _events(s: DesktopService, body: bytes, query: Query) -> Reply:
    events = wire.parse_events(body)  # all validated before any is sent
    s.send(events)
    return json_reply(200, {"sent": len(events)})


def _reset(s: DesktopService, body: bytes, query: Query) -> Reply:
    args = _object(body)
    extra = set(args) - {"seed", "options"}
    if extra:
        raise InvalidActionError(f"reset takes 'seed' and 'options', not {sorted(extra)}")
    s.reset(args.get("seed"), args.get("options"))
    return json_reply(200, s.info())


def _launch(s: DesktopService, body: bytes, query: Query) -> Reply:
    return json_reply(200, {"pid": s.launch(_object(body).get("argv"))})


def _simple(method: Callable[[DesktopService], Any]) -> Callable[..., Reply]:
    def route(s: DesktopService, body: bytes, query: Query) -> Reply:
        method(s)
        return json_reply(200, {"ok": True})

    return route


ROUTES: dict[tuple[str, str], Callable[[DesktopService, bytes, Query], Reply]] = {
    ("GET", "/info"): lambda s, b, q: json_reply(200, s.info()),
    ("GET", "/capture"): _capture,
    ("GET", "/windows"): lambda s, b, q: json_reply(200, s.windows()),
    ("GET", "/file"): _file,
    ("POST", "/events"): _events,
    ("POST", "/configure"): lambda s, b, q: json_reply(200, s.configure(_object(b))),
    ("POST", "/reset"): _reset,
    ("POST", "/focus"): lambda s, b, q: json_reply(200, s.focus(_object(b).get("title"))),  # type: ignore[arg-type]
    ("POST", "/launch"): _launch,
    ("POST", "/release_all"): _simple(DesktopService.release_all),
    ("POST", "/pause"): lambda s, b, q: json_reply(200, s.pause()),
    ("POST", "/resume"): lambda s, b, q: json_reply(200, s.resume()),
    ("POST", "/ping"): _simple(lambda s: None),
    ("POST", "/close"): _simple(DesktopService.close_session),
}


def serve(config: ServerConfig, announce: Callable[[str], None] = lambda url: None) -> None:
    """Serve until SIGTERM or Ctrl-C; then release every key and stop what the server started."""
    service = DesktopService(config.service)
    try:
        server = DesktopServer(config, service)
    except OSError as e:
        service.shutdown()
        raise BackendError(f"cannot listen on {config.host}:{config.port}: {e}") from e
    previous = signal.signal(
        signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown, daemon=True).start()
    )
    try:
        announce(server.url)
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()
        service.shutdown()
