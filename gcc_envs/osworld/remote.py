"""OSWorld on another machine: an episode server next to ``gcc-gym serve-desktop``.

A task's setup and evaluator act on the desktop's own files and programs, so they run where the
desktop is: ``gcc-gym osworld serve --display :N --token-file F`` serves the episodes of that
display (start a task, report input, score it, end it), while ``gcc-gym serve-desktop
--display :N --token-file F`` serves its screen and input to a ``RemoteBackend``. The env then runs
with ``backend="remote"`` and ``episodes="http://HOST:PORT"``: :class:`RemoteRunner` stands in
for the local :class:`~gcc_envs.osworld.episode.EpisodeRunner`. The server takes task files as
JSON data only (never code), needs the token (``Authorization: Bearer``), binds 127.0.0.1
unless told otherwise, and runs one request at a time; its connection handling (token before
body, deadlines, limits, JSON errors) is :mod:`gcc_envs.httpd`'s.
"""

from __future__ import annotations

import http.client
import json
import logging
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import SplitResult, urlsplit

from gcc_envs import httpd
from gcc_envs.errors import BackendError, GCCError
from gcc_envs.osworld.episode import EpisodeRunner, Outcome
from gcc_envs.osworld.taskfile import OSWorldTask, load_task

log = logging.getLogger(__name__)

MAX_BODY = httpd.MAX_BODY  #: largest request body (a task file) in bytes
ROUTES = ("/start", "/input", "/finish", "/end")  #: each a POST of a JSON object


class EpisodeServer(httpd.Server):
    """Serves :class:`EpisodeRunner` on a display's desktop backend (see the module docstring)."""

    def __init__(
        self,
        display: str,
        token: str,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: httpd.Limits | None = None,
    ) -> None:
        if not isinstance(token, str) or len(token) < 8:
            raise GCCError("the episode server needs a token of at least 8 characters")
        from gcc_envs.osworld.backends import make_backend

        self.lock = threading.Lock()
        self.backend = make_backend("desktop", None, display=display, kill_switch=None)
        self.backend.reset(None, None)
        self.backend.screen_size = tuple(self.backend.x.screen_size)  # the display's own size
        self.runner = EpisodeRunner(self.backend)
        try:
            super().__init__((host, port), _Handler, token, limits)
        except BaseException:
            self.backend.close()
            raise

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


class _Handler(httpd.JSONHandler):
    """POST routes of JSON objects behind :class:`~gcc_envs.httpd.JSONHandler`'s checks."""

    server: EpisodeServer

    def status_of(self, error: Exception) -> int:
        return 400 if isinstance(error, GCCError) else 500  # a task or its setup refused

    def answer(self, method: str, url: SplitResult, body: bytes) -> httpd.Reply:
        if method != "POST" or url.path not in ROUTES:
            return httpd.json_reply(404, {"error": f"no route {method} {url.path}; POST {ROUTES}"})
        value = httpd.parse_json(body)
        if not isinstance(value, dict):
            raise GCCError("the body must be a JSON object")
        return httpd.json_reply(200, self.server.answer(url.path, value))


def serve(display: str, token: str, host: str = "127.0.0.1", port: int = 8766,
          announce: Callable[[str], None] = lambda url: None,
          limits: httpd.Limits | None = None) -> None:  # fmt: skip
    """Serve episodes of ``display`` until interrupted."""
    server = EpisodeServer(display, token, host, port, limits)
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
