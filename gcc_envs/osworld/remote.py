"""OSWorld on another machine: an episode server next to ``gcc-gym serve-desktop``.

A task's setup and evaluator act on the desktop's own files and programs, so they run where the
desktop is: ``gcc-gym osworld serve --display :N --token T`` serves the episodes of that
display (start a task, report input, score it, end it), while ``gcc-gym serve-desktop
--display :N --token T`` serves its screen and input to a ``RemoteBackend``. The env then runs
with ``backend="remote"`` and ``episodes="http://HOST:PORT"``: :class:`RemoteRunner` stands in
for the local :class:`~gcc_envs.osworld.episode.EpisodeRunner`. The server takes task files as
JSON data only (never code), needs the token (``Authorization: Bearer``), binds 127.0.0.1
unless told otherwise, and runs one request at a time.
"""

from __future__ import annotations

import hmac
import http.client
import json
import logging
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from gcc_envs.errors import BackendError, GCCError
from gcc_envs.osworld.episode import EpisodeRunner, Outcome
from gcc_envs.osworld.taskfile import OSWorldTask, load_task

log = logging.getLogger(__name__)

MAX_BODY = 1 << 20  #: largest request body (a task file) in bytes


class EpisodeServer(ThreadingHTTPServer):
    """Serves :class:`EpisodeRunner` on a display's desktop backend (see the module docstring)."""

    daemon_threads = True

    def __init__(self, display: str, token: str, host: str = "127.0.0.1", port: int = 0) -> None:
        if not isinstance(token, str) or len(token) < 8:
            raise GCCError("the episode server needs a token of at least 8 characters")
        from gcc_envs.osworld.backends import make_backend

        self.token = token
        self.lock = threading.Lock()
        self.backend = make_backend("desktop", None, display=display, kill_switch=None)
        self.backend.reset(None, None)
        self.backend.screen_size = tuple(self.backend.x.screen_size)  # the display's own size
        self.runner = EpisodeRunner(self.backend)
        super().__init__((host, port), _Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def answer(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            if path == "/start":
                if not isinstance(body.get("task"), dict):
                    raise GCCError("/start takes {'task': <the task file's JSON object>}")
                task = load_task(body["task"], domain=str(body.get("domain", "custom")))
                return {
                    "info": self.runner.start(task),
                    "screen_size": list(self.backend.screen_size),
                }
            if path == "/input":
                self.runner.note_input()
                return {"ok": True}
            if path == "/finish":
                last = body.get("last_action")
                if last not in (None, "DONE", "FAIL", "WAIT"):
                    raise GCCError("last_action must be DONE, FAIL, WAIT or null")
                outcome = self.runner.finish(last)
                return {"score": outcome.score, "report": outcome.report()}
            if path == "/end":
                self.runner.end()
                return {"ok": True}
        raise KeyError(path)

    def server_close(self) -> None:
        try:
            self.runner.end()
            self.backend.close()
        finally:
            super().server_close()


class _Handler(BaseHTTPRequestHandler):
    server: EpisodeServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        log.debug("%s " + format, self.address_string(), *args)

    def _reply(self, status: int, value: Any) -> None:
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        given = self.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {self.server.token}".encode()):
            return self._reply(401, {"error": "missing or wrong token"})
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._reply(413, {"error": f"body larger than {MAX_BODY} bytes"})
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
            if not isinstance(body, dict):
                raise GCCError("the body must be a JSON object")
            return self._reply(200, self.server.answer(self.path, body))
        except KeyError:
            return self._reply(404, {"error": f"no route {self.path}"})
        except (GCCError, json.JSONDecodeError) as e:
            return self._reply(400, {"error": str(e)})


def serve(display: str, token: str, host: str = "127.0.0.1", port: int = 8766,
          announce: Callable[[str], None] = lambda url: None) -> None:  # fmt: skip
    """Serve episodes of ``display`` until interrupted."""
    server = EpisodeServer(display, token, host, port)
    try:
        announce(server.url)
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


class RemoteRunner:
    """The client of an :class:`EpisodeServer`, with :class:`EpisodeRunner`'s interface."""

    def __init__(self, url: str, token: str, timeout: float = 300.0) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise GCCError(f"episodes= must look like http://HOST:PORT, got {url!r}")
        self.host, self.port = parts.hostname, parts.port or 80
        self.token, self.timeout = token, timeout
        self.running: Any = None

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            conn.request("POST", path, json.dumps(body), {"Authorization": f"Bearer {self.token}",
                                                          "Content-Type": "application/json"})  # fmt: skip
            resp = conn.getresponse()
            data = json.loads(resp.read() or b"{}")
        except (OSError, http.client.HTTPException, json.JSONDecodeError) as e:
            raise BackendError(f"the episode server at {self.host}:{self.port} failed: {e}") from e
        finally:
            conn.close()
        if resp.status != 200:
            raise BackendError(
                f"the episode server refused {path}: {data.get('error', resp.status)}"
            )
        return data

    def start(self, task: OSWorldTask) -> dict[str, Any]:
        self.running = task
        return dict(self._post("/start", {"task": dict(task.raw), "domain": task.domain})["info"])

    def note_input(self) -> None:
        self._post("/input", {})

    def finish(self, last_action: str | None) -> Outcome:
        data = self._post("/finish", {"last_action": last_action})
        return Outcome(float(data["score"]), remote=data["report"])

    def end(self) -> None:
        if self.running is not None:
            self.running = None
            self._post("/end", {})
