"""``RemoteBackend``: a desktop on another machine or VM, through ``gcc-gym serve-desktop``.

It speaks HTTP (one keep-alive connection, stdlib only) and sends input as primitive event
dicts — never code. The server's answers map onto the exception family: a refused event is an
:class:`InvalidActionError`, anything else the server or the network refuses a
:class:`BackendError` that says what to do.

The program on the far side runs in real time (``clock_driven = False``): ``advance`` sleeps
here, pinging the server during long sleeps so its idle watchdog does not release held keys.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode, urlsplit

import numpy as np

from gcc_envs.backends import wire
from gcc_envs.core.backend import PrimitiveEvent
from gcc_envs.core.events import Event
from gcc_envs.core.frame_size import parse_obs_size
from gcc_envs.errors import BackendError, GCCError, InvalidActionError

log = logging.getLogger(__name__)

#: The environment variable read for the token when ``token=`` is not given.
TOKEN_ENV = "GCC_REMOTE_TOKEN"
_RETRYABLE = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)


class RemoteBackend:
    """A :class:`~gcc_envs.core.backend.Backend` served by ``gcc-gym serve-desktop`` at ``url``.

    ``obs_size``, ``target``, ``launch``, ``pause``, ``pause_key``, ``pause_template`` and
    ``draw_pointer`` configure the server's desktop session as they configure a local
    :class:`DesktopBackend` (paths name files on the server); ``profile`` is a game's
    ``LiveProfile``. ``judge``: a judge object (``gcc_envs.judges.remote_judge(spec, mirror)``,
    which ``gym.make(..., backend="remote", judge=SPEC)`` builds), run here like a local one
    on what the server serves: :meth:`read_file` (the one file the server shares: ``serve-desktop
    --state-file``) and :meth:`grab_window`. The backend knows no task; the server judges
    nothing.
    The server must be up when the backend is made: the frame size comes from it.
    ``capture_format``: ``"raw"`` (fastest on loopback and fast links), ``"zlib"`` or ``"png"``
    (fewer bytes on slow links).
    """

    clock_driven = False

    def __init__(
        self,
        obs_size: tuple[int, int] | None = None,
        *,
        url: str,
        token: str | None = None,
        timeout: float = 30.0,
        target: str | None = None,
        launch: Sequence[str] | None = None,
        pause: str | None = None,
        capture_format: str = "raw",
        profile: Any = None,
        judge: Any = None,
        pause_key: str | None = None,
        pause_template: str | None = None,
        draw_pointer: bool | None = None,
    ) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise GCCError(f"url must look like http://HOST:PORT, got {url!r}")
        token = token if token is not None else os.environ.get(TOKEN_ENV)
        if not token:
            raise GCCError(f"RemoteBackend needs token= or the {TOKEN_ENV} environment variable")
        if capture_format not in wire.FRAME_FORMATS:
            raise GCCError(f"capture_format must be one of {wire.FRAME_FORMATS}")
        if not timeout > 0:
            raise GCCError(f"timeout must be positive seconds, got {timeout!r}")
        self.url = url.rstrip("/")
        self.timeout = float(timeout)
        self.capture_format = capture_format
        self._token = token
        if profile is not None:  # a game's LiveProfile: its window, pause method and size
            target = profile.window_title if target is None else target
            pause = profile.pause if pause is None else pause
            pause_key = profile.pause_key if pause_key is None else pause_key
            obs_size = profile.resolution[::-1] if obs_size is None else obs_size
        #: The judge object (``gcc_envs.judges.remote_judge``) whose probe this backend returns.
        self.judge = judge
        self._session: dict[str, Any] = {
            "obs_size": list(parse_obs_size(obs_size)) if obs_size is not None else None,
            "target": target,
            "launch": list(launch) if launch is not None else None,
            "pause": pause,
            "pause_key": pause_key,
            "pause_template": pause_template,
            "draw_pointer": draw_pointer,
        }
        self._init_runtime()
        info = self._call("POST", "/configure", self._session)
        self.size: tuple[int, int] = (int(info["size"][0]), int(info["size"][1]))
        #: How often ``advance`` pings during a long sleep: well inside the server's idle time.
        self.ping_s = max(0.05, float(info.get("idle_s", 30.0)) / 3)

    def _init_runtime(self) -> None:
        self._conn: http.client.HTTPConnection | None = None
        self._lock = threading.Lock()
        self._closed = False
        #: Whether the server's target is paused, and stopped (a ``signal`` pause).
        self.paused = self.frozen = False
        #: Bumped by every input and pause change (a state-file judge reuses a probe while the
        #: target is paused and nothing was sent since).
        self.input_serial = 0

    # pickling carries the configuration; the copy opens its own connection to the same session
    def __getstate__(self) -> dict[str, Any]:
        keep = ("url", "timeout", "capture_format", "_token", "_session", "size", "ping_s", "judge")
        return {k: self.__dict__[k] for k in keep}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._init_runtime()

    # ------------------------------------------------------------------ HTTP
    def _connect(self) -> http.client.HTTPConnection:
        parts = urlsplit(self.url)
        cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        return cls(parts.hostname, parts.port, timeout=self.timeout)  # type: ignore[arg-type]

    def _request(
        self, method: str, path: str, body: Any = None
    ) -> tuple[int, bytes, http.client.HTTPMessage]:
        data = b"" if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self._token}", "Content-Type": "application/json"}
        with self._lock:
            for attempt in (0, 1):
                reused = self._conn is not None
                conn = self._conn or self._connect()
                try:
                    conn.request(
                        method, path, body=data if method == "POST" else None, headers=headers
                    )
                    resp = conn.getresponse()
                    payload = resp.read()
                except _RETRYABLE as e:
                    conn.close()
                    self._conn = None
                    if reused and attempt == 0:  # the server closed an idle keep-alive connection
                        continue
                    raise BackendError(
                        f"serve-desktop at {self.url} dropped the connection: {e}"
                    ) from e
                except (OSError, http.client.HTTPException) as e:
                    conn.close()
                    self._conn = None
                    raise BackendError(
                        f"cannot reach serve-desktop at {self.url} ({e}); is it running, and is "
                        "the url right?"
                    ) from e
                if resp.will_close:
                    conn.close()
                    self._conn = None
                else:
                    self._conn = conn
                return resp.status, payload, resp.headers
        raise AssertionError("unreachable")  # pragma: no cover

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        """A JSON route's answer, or the error it maps to."""
        status, payload, _ = self._request(method, path, body)
        if status != 200:
            raise _error(status, payload, path)
        return json.loads(payload) if payload else None

    # ------------------------------------------------------------------ Backend protocol
    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None) -> None:
        self._check_open()
        seed = int(rng.integers(2**63 - 1))
        try:
            json.dumps(options)
        except (TypeError, ValueError) as e:
            raise GCCError(
                f"reset options must be JSON-serialisable for a remote desktop: {e}"
            ) from e
        self._call("POST", "/reset", {"seed": seed, "options": options})
        self.paused = self.frozen = False  # the server's reset resumes the target
        self.input_serial += 1
        ready = getattr(self.judge, "wait_ready", None)
        if ready is not None:  # e.g. the program publishes its state: before any pause
            ready(self)

    def capture(self) -> np.ndarray:
        frame = self._frame(f"/capture?format={self.capture_format}")
        if frame.shape != (self.size[1], self.size[0], 3):
            raise BackendError(
                f"the server sent a {frame.shape} frame, not {self.size[1]}x{self.size[0]}: "
                "another client reconfigured it"
            )
        return frame

    def _frame(self, path: str) -> np.ndarray:
        self._check_open()
        status, payload, headers = self._request("GET", path)
        if status != 200:
            raise _error(status, payload, path.partition("?")[0])
        return wire.decode_frame(payload, headers)

    def send(self, event: PrimitiveEvent) -> None:
        self.send_many([event])

    def send_many(self, events: Sequence[Event]) -> None:
        """Send primitive events in one request, in order."""
        self._check_open()
        self.input_serial += 1
        self._call("POST", "/events", [e.to_dict() for e in events])

    def advance(self, seconds: float) -> None:
        self._check_open()
        deadline = time.monotonic() + max(0.0, seconds)
        while (left := deadline - time.monotonic()) > 0:
            if left > self.ping_s:  # keep the server's idle watchdog from releasing held keys
                time.sleep(self.ping_s)
                self._call("POST", "/ping")
            else:
                time.sleep(left)

    def pause(self) -> None:
        if not self._closed:
            self._paused_as(self._call("POST", "/pause"))

    def resume(self) -> None:
        if not self._closed:
            self._paused_as(self._call("POST", "/resume"))

    def _paused_as(self, answer: Mapping[str, Any]) -> None:
        self.paused, self.frozen = bool(answer["paused"]), bool(answer["frozen"])
        self.input_serial += 1

    def release_all(self) -> None:
        if not self._closed:
            self._call("POST", "/release_all")

    def probe(self) -> Any:
        """The judge's probe (a state-file judge: the program's state, rebuilt here), else None."""
        if self.judge is None:
            return None
        self._check_open()
        return self.judge.probe(self)

    def read_file(self, path: str | os.PathLike[str]) -> bytes | None:
        """The bytes of the file the server shares (``serve-desktop --state-file``), None while
        it does not exist; another path is refused there."""
        self._check_open()
        query = urlencode({"path": os.fspath(path)})
        status, payload, _ = self._request("GET", f"/file?{query}")
        if status == 404 and b"no route" not in payload:  # the file is not there yet
            return None
        if status != 200:
            raise _error(status, payload, "/file")
        return payload

    def grab_window(self) -> np.ndarray:
        """The target's pixels at their own size, on the server (for a template judge)."""
        return self._frame("/capture?format=png&window=1")

    @property
    def sim(self) -> Any:
        """A state-file judge's mirror of the program's simulator (for privileged scripts)."""
        return getattr(self.judge, "sim", None)

    def close(self) -> None:
        if self._closed:
            return
        try:
            self._call("POST", "/close")  # releases keys and buttons there
        except BackendError as e:
            log.warning("serve-desktop at %s did not confirm the close: %s", self.url, e)
        finally:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # ------------------------------------------------------------------ beyond the protocol
    def info(self) -> dict[str, Any]:
        return self._call("GET", "/info")

    def windows(self) -> list[dict[str, Any]]:
        """The remote display's windows: id, title, pid, wm_class, geometry, focused."""
        return self._call("GET", "/windows")

    def focus(self, title: str) -> bool:
        """Focus the remote window whose title matches the regex ``title``."""
        return bool(self._call("POST", "/focus", {"title": title})["focused"])

    def launch(self, argv: Sequence[str]) -> int:
        """Start ``argv`` (no shell) on the remote display; returns its pid there."""
        return int(self._call("POST", "/launch", {"argv": list(argv)})["pid"])

    def _check_open(self) -> None:
        if self._closed:
            raise BackendError("this RemoteBackend is closed; make a new env")


def _error(status: int, payload: bytes, path: str) -> GCCError:
    try:
        message = json.loads(payload)["error"]
    except (ValueError, KeyError, TypeError):
        message = payload[:200].decode("utf-8", "replace")
    if status in (400, 413):
        return InvalidActionError(f"serve-desktop refused {path}: {message}")
    if status == 401:
        return BackendError(f"serve-desktop refused the token: {message}")
    return BackendError(f"serve-desktop answered {status} to {path}: {message}")
