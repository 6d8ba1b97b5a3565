"""``gcc-gym serve-desktop``: a token-checked HTTP server in front of one :class:`DesktopService`.

Every request needs ``Authorization: Bearer TOKEN``. Input arrives as primitive event dicts,
never as code. Errors come back as ``{"error": message}`` with a 4xx status (400 bad request
or event, 401 token, 403 not allowed by the server's flags, 404 unknown route or window, 409
the backend refused, 408 body too slow, 413 body too large); an unexpected failure is a 500
whose details stay in the server's log. The token is checked from the headers before any body
is read; a body must arrive within :data:`BODY_TIMEOUT_S`. An idle watchdog releases every key
and button ``idle_s`` seconds after the last authenticated request ended (a client that died
mid-program cannot say so); unauthenticated, stalled or idle connections never count as
activity.

Routes::

    GET  /info                      {"size": [W, H], "clock_driven": false, ...}
    GET  /capture?format=raw|zlib|png   frame bytes; headers X-Frame-Shape "H W 3", X-Frame-Format
    GET  /windows                   [{"id", "title", "pid", "wm_class", "geometry", "focused"}]
    GET  /probe                     {"state": JSON or null} or {"verdict": {"success", "judge"}}
    POST /events                    [event dicts]  (KeyDown KeyUp MoveTo MoveBy MouseDown MouseUp Scroll)
    POST /configure                 {"obs_size": [H, W], "target": regex, "launch": [argv], "pause": name,
                                     "pause_key", "pause_template": path, "judge": spec,
                                     "draw_pointer": bool}
    POST /reset                     {"seed": int, "options": {...}}
    POST /focus                     {"title": regex}
    POST /launch                    {"argv": [...]}        (only with --allow-launch; no shell)
    POST /release_all  /pause  /resume  /ping  /close
"""

from __future__ import annotations

import hmac
import json
import logging
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from gcc_envs.backends import wire
from gcc_envs.backends.desktop.service import DesktopService, ServiceConfig
from gcc_envs.errors import BackendError, GCCError, InvalidActionError

log = logging.getLogger(__name__)

Reply = tuple[int, bytes, dict[str, str]]
#: A too-large body up to this size is read and dropped before the 413 answer; a larger one
#: gets the connection closed at once.
_DRAIN_LIMIT = 16 * wire.MAX_BODY
#: Seconds a request body may take to arrive, all of it; a slower one is dropped with a 408.
BODY_TIMEOUT_S = 5.0
#: Of a refused (401) request this much body is read away, for at most this long, so that the
#: client can read the answer before the connection closes.
_REFUSED_DRAIN = (1 << 16, 1.0)


@dataclass(frozen=True)
class ServerConfig:
    """How ``serve-desktop`` listens; ``host`` is loopback unless told otherwise."""

    token: str
    host: str = "127.0.0.1"
    port: int = 8765
    service: ServiceConfig = field(default_factory=ServiceConfig)

    def __post_init__(self) -> None:
        if not isinstance(self.token, str) or len(self.token) < 8:
            raise GCCError("serve-desktop needs a token of at least 8 characters (--token)")
        if not self.service.idle_s > 0:
            raise GCCError(f"idle_s must be positive, got {self.service.idle_s!r}")


def _json(status: int, value: Any) -> Reply:
    return status, json.dumps(value).encode(), {"Content-Type": "application/json"}


class DesktopServer(ThreadingHTTPServer):
    """The HTTP server; ``service`` does the work, a watchdog thread watches for idleness."""

    daemon_threads = True

    def __init__(self, config: ServerConfig, service: DesktopService) -> None:
        self.config = config
        self.service = service
        self._token = config.token.encode()
        self._activity = threading.Lock()
        self._busy = 0
        self._last = time.monotonic()
        self._released = True
        self._stop = threading.Event()
        super().__init__((config.host, config.port), Handler)
        self._watchdog = threading.Thread(target=self._watch, name="idle-watchdog", daemon=True)
        self._watchdog.start()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def authorized(self, header: str | None) -> str | None:
        """``None`` when ``header`` carries the token, else why not."""
        if not header or not header.startswith("Bearer "):
            return "missing 'Authorization: Bearer TOKEN' header"
        if not hmac.compare_digest(header[len("Bearer ") :].strip().encode(), self._token):
            return "wrong token"
        return None

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


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 300  # an idle keep-alive connection is closed after this many seconds
    # TCP_NODELAY: headers and body are two writes; with Nagle's algorithm and the client's
    # delayed ACK every small answer waited ~40 ms
    disable_nagle_algorithm = True
    server: DesktopServer

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._handle("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._handle("POST")

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        log.debug("%s " + format, self.address_string(), *args)

    def _handle(self, method: str) -> None:
        try:
            status, body, headers = self._answer(method)
        except Exception as e:  # every failure becomes a message, never a traceback on the wire
            status = wire.status_of(e)
            if status == 500:
                log.exception("%s %s failed", method, self.path)
                message = f"internal server error ({type(e).__name__}); see the server's log"
            else:
                message = str(e)
            status, body, headers = _json(status, {"error": message})
        try:
            self._reply(status, body, headers)
        except OSError:  # the client went away (or stalls reading): drop the connection
            self.close_connection = True

    def _reply(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def _refuse(self, status: int, message: str) -> Reply:
        self.close_connection = True  # the unread body must not be taken for the next request
        return _json(status, {"error": message})

    def _read(self, length: int, timeout_s: float) -> bytes | None:
        """``length`` body bytes, all within ``timeout_s``; None if they did not arrive in time."""
        deadline = time.monotonic() + timeout_s
        parts, got = [], 0
        try:
            while got < length:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.connection.settimeout(left)
                chunk = self.rfile.read1(min(length - got, 1 << 16))
                if not chunk:
                    return None  # the client closed the connection mid-body
                parts.append(chunk)
                got += len(chunk)
        except OSError:  # a timeout, or the connection broke
            return None
        finally:
            try:
                self.connection.settimeout(self.timeout)
            except OSError:
                pass
        return b"".join(parts)

    def _body(self) -> bytes | Reply:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._refuse(411, "send a Content-Length; chunked bodies are not accepted")
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            return self._refuse(400, "bad Content-Length header")
        if length < 0:
            return self._refuse(400, "bad Content-Length header")
        if length > wire.MAX_BODY:
            message = f"the body is over {wire.MAX_BODY} bytes"
            if length > _DRAIN_LIMIT:
                return self._refuse(413, message)  # the client may see the connection reset
            if self._read(length, BODY_TIMEOUT_S) is None:  # read it away: the client
                return self._refuse(413, message)  # gets to read this answer
            return _json(413, {"error": message})
        data = self._read(length, BODY_TIMEOUT_S)
        if data is None:
            return self._refuse(408, f"the body did not arrive within {BODY_TIMEOUT_S:g} s")
        return data

    def _unauthorized(self, why: str) -> Reply:
        """401 without reading the body (a little is read away so the answer arrives)."""
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        if 0 < length <= _REFUSED_DRAIN[0]:
            self._read(length, _REFUSED_DRAIN[1])
        status, data, headers = self._refuse(401, why)
        return status, data, {**headers, "WWW-Authenticate": "Bearer"}

    def _answer(self, method: str) -> Reply:
        # the token first, from the headers: nobody without it gets a body read or counts as
        # activity (a stalled stranger must not keep the idle release from happening)
        why = self.server.authorized(self.headers.get("Authorization"))
        if why is not None:
            return self._unauthorized(why)
        body = self._body()  # read even when refusing the route: the connection stays usable
        if isinstance(body, tuple):
            return body
        url = urlsplit(self.path)
        route = ROUTES.get((method, url.path))
        if route is None:
            known = sorted(f"{m} {p}" for m, p in ROUTES)
            return _json(404, {"error": f"no route {method} {url.path}; routes: {known}"})
        self.server.activity(+1)  # an authenticated request with its whole body: activity
        try:
            return route(self.server.service, body, parse_qs(url.query))
        finally:
            self.server.activity(-1)


# ---------------------------------------------------------------------- routes
Query = dict[str, list[str]]


def _object(body: bytes) -> dict[str, Any]:
    value = wire.parse_json(body)
    if not isinstance(value, dict):
        raise InvalidActionError("the body must be a JSON object")
    return value


def _capture(s: DesktopService, body: bytes, query: Query) -> Reply:
    fmt = query.get("format", ["raw"])[-1]
    if fmt not in wire.FRAME_FORMATS:
        raise InvalidActionError(f"format must be one of {wire.FRAME_FORMATS}, got {fmt!r}")
    data, headers = wire.encode_frame(s.capture(), fmt)
    return 200, data, {"Content-Type": "application/octet-stream", **headers}


def _events(s: DesktopService, body: bytes, query: Query) -> Reply:
    events = wire.parse_events(body)  # all validated before any is sent
    s.send(events)
    return _json(200, {"sent": len(events)})


def _reset(s: DesktopService, body: bytes, query: Query) -> Reply:
    args = _object(body)
    extra = set(args) - {"seed", "options"}
    if extra:
        raise InvalidActionError(f"reset takes 'seed' and 'options', not {sorted(extra)}")
    s.reset(args.get("seed"), args.get("options"))
    return _json(200, s.info())


def _launch(s: DesktopService, body: bytes, query: Query) -> Reply:
    return _json(200, {"pid": s.launch(_object(body).get("argv"))})


def _simple(method: Callable[[DesktopService], Any]) -> Callable[..., Reply]:
    def route(s: DesktopService, body: bytes, query: Query) -> Reply:
        method(s)
        return _json(200, {"ok": True})

    return route


ROUTES: dict[tuple[str, str], Callable[[DesktopService, bytes, Query], Reply]] = {
    ("GET", "/info"): lambda s, b, q: _json(200, s.info()),
    ("GET", "/capture"): _capture,
    ("GET", "/windows"): lambda s, b, q: _json(200, s.windows()),
    ("GET", "/probe"): lambda s, b, q: _json(200, s.probe()),
    ("POST", "/events"): _events,
    ("POST", "/configure"): lambda s, b, q: _json(200, s.configure(_object(b))),
    ("POST", "/reset"): _reset,
    ("POST", "/focus"): lambda s, b, q: _json(200, s.focus(_object(b).get("title"))),  # type: ignore[arg-type]
    ("POST", "/launch"): _launch,
    ("POST", "/release_all"): _simple(DesktopService.release_all),
    ("POST", "/pause"): _simple(DesktopService.pause),
    ("POST", "/resume"): _simple(DesktopService.resume),
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
