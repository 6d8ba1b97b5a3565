"""Hardened HTTP for gcc-gym's servers: one threading server and its request handlers (stdlib).

``gcc-gym serve-desktop``, ``gcc-gym osworld serve`` and the Chrome twin's sites server stand
on :class:`Server`, which does once what each needs against a hostile client:

* a listen backlog of :attr:`Limits.backlog` (``socketserver`` listens with 5) and one daemon
  thread per connection;
* deadlines, not per-read timeouts: a request's line and headers must arrive within
  :attr:`Limits.idle_s` of the server starting to wait for them (so a silent, stalled, trickling
  or idle keep-alive connection is closed then), its body within :attr:`Limits.body_s`, and the
  client must take each answer within :attr:`Limits.send_s`;
* with :class:`JSONHandler`: the bearer token compared (``hmac.compare_digest``) from the
  headers before any body is read; ``Content-Length`` required for a POST, validated and capped
  at :attr:`Limits.max_body`; every refusal answered ``{"error": message}`` with a 4xx status
  (400 bad header or JSON, 401 token, 408 body too slow, 411 no length, 413 too large), every
  unexpected failure a 500 whose details stay in the log. :func:`parse_json` limits nesting.

A server binds 127.0.0.1 unless told otherwise. :func:`read_token` takes the token from a
file or ``GCC_REMOTE_TOKEN`` as well as from argv (where ``ps`` shows it to everyone).
"""

from __future__ import annotations

import hmac
import io
import json
import logging
import os
import re
import socket
import socketserver
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import accumulate
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, urlsplit

from gcc_envs.errors import GCCError, InvalidActionError

log = logging.getLogger(__name__)

Reply = tuple[int, bytes, dict[str, str]]
#: The environment variable a server (and a client) takes its token from.
TOKEN_ENV = "GCC_REMOTE_TOKEN"
#: Largest request body a server reads, in bytes.
MAX_BODY = 1 << 20
#: Deepest nesting of lists and objects a request body may have.
MAX_JSON_DEPTH = 32
#: Seconds a request body may take to arrive, all of it; a slower one is dropped with a 408.
BODY_TIMEOUT_S = 5.0
#: A too-large body up to this many times ``max_body`` is read away before the 413 answer (the
#: client gets to read it); a larger one gets the connection closed at once.
_DRAIN_FACTOR = 16
#: Of a refused (401) request this much body is read away, for at most this long.
_REFUSED_DRAIN = (1 << 16, 1.0)
_LENGTH = re.compile(r"[0-9]{1,18}")


@dataclass(frozen=True)
class Limits:
    """What one connection may take of a server: seconds, bytes and queued connections."""

    idle_s: float = 10.0  #: a request's line and headers must arrive within this
    body_s: float = BODY_TIMEOUT_S  #: a request's body must arrive within this
    send_s: float = 30.0  #: the client must take each answer within this
    max_body: int = MAX_BODY
    backlog: int = 1024  #: connections the kernel queues before the server accepts them

    def __post_init__(self) -> None:
        if not min(self.idle_s, self.body_s, self.send_s) > 0:
            raise GCCError(f"server timeouts must be positive seconds, got {self}")
        if self.max_body < 0 or self.backlog < 1:
            raise GCCError(f"max_body must be >= 0 and backlog >= 1, got {self}")


def json_reply(status: int, value: Any) -> Reply:
    """An answer of ``value`` as JSON."""
    return status, json.dumps(value).encode(), {"Content-Type": "application/json"}


class Server(ThreadingHTTPServer):
    """A threading HTTP server with a real backlog and per-request deadlines (:class:`Limits`).

    ``token`` (8+ characters) is what :class:`JSONHandler` requires as ``Authorization: Bearer``;
    ``None`` serves without one (only for a server on an episode's own loopback).
    """

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        handler: type[Handler],
        token: str | None,
        limits: Limits | None = None,
    ) -> None:
        if token is not None and (not isinstance(token, str) or len(token) < 8):
            raise GCCError("the server needs a token of at least 8 characters")
        self.limits = limits or Limits()
        self.request_queue_size = self.limits.backlog  # read by server_activate's listen()
        self._token = None if token is None else token.encode()
        self._waiting: set[socket.socket] = set()  # connections between requests
        self._waiting_lock = threading.Lock()
        self._closing = False
        super().__init__(address, handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def refusal(self, header: str | None) -> str | None:
        """``None`` when the ``Authorization`` header carries the token (or none is needed)."""
        if self._token is None:
            return None
        if not header or not header.startswith("Bearer "):
            return "missing 'Authorization: Bearer TOKEN' header"
        if not hmac.compare_digest(header[len("Bearer ") :].strip().encode(), self._token):
            return "wrong token"
        return None

    def waiting(self, connection: socket.socket, waits: bool) -> None:
        """Note whether ``connection`` waits for its next request (ended when the server closes)."""
        with self._waiting_lock:
            if not waits:
                self._waiting.discard(connection)
            elif self._closing:
                _end_reads(connection)
            else:
                self._waiting.add(connection)

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, OSError):  # the client went away or broke the connection
            log.debug("connection from %s ended: %r", client_address, error)
        else:
            log.exception("unexpected error serving %s", client_address)

    def server_close(self) -> None:
        """Stop listening, end the connections that wait for a request, let running ones end."""
        socketserver.TCPServer.server_close(self)  # the listening socket
        with self._waiting_lock:
            self._closing = True
            idle, self._waiting = self._waiting, set()
        for connection in idle:
            _end_reads(connection)
        self._threads.join()  # block_on_close: the requests that run end first


def _end_reads(connection: socket.socket) -> None:
    """Make a blocked read of ``connection`` return at once (an end of file)."""
    try:
        connection.shutdown(socket.SHUT_RD)
    except OSError:  # already gone
        pass


class _Deadline(io.RawIOBase):
    """A connection's bytes; each read waits no later than ``deadline`` (``time.monotonic``)."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection
        self.deadline = float("inf")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request's deadline passed")
        self.connection.settimeout(left)
        return self.connection.recv_into(buffer)


class Handler(BaseHTTPRequestHandler):
    """Deadlines, ``TCP_NODELAY`` and quiet logging; subclasses add ``do_GET`` and the like."""

    protocol_version = "HTTP/1.1"
    # headers and body are two writes: with Nagle's algorithm and the client's delayed ACK
    # every small answer waited ~40 ms
    disable_nagle_algorithm = True
    server: Server

    def setup(self) -> None:
        self.timeout = self.server.limits.idle_s
        super().setup()
        self.rfile.close()  # replaced by one whose every read keeps to the request's deadline
        self._reader = _Deadline(self.connection)
        self.rfile = io.BufferedReader(self._reader)

    def handle_one_request(self) -> None:
        self._reader.deadline = time.monotonic() + self.server.limits.idle_s
        self.server.waiting(self.connection, True)
        try:
            super().handle_one_request()
        finally:
            self.server.waiting(self.connection, False)

    def parse_request(self) -> bool:
        self.server.waiting(self.connection, False)  # the request line came: it is running
        return super().parse_request()

    def send_response(self, code: int, message: str | None = None) -> None:
        self.connection.settimeout(self.server.limits.send_s)
        super().send_response(code, message)

    def read_body(self, length: int, timeout_s: float | None = None) -> bytes | None:
        """``length`` bytes of body, all within ``timeout_s`` (``Limits.body_s``); else None."""
        self._reader.deadline = time.monotonic() + (timeout_s or self.server.limits.body_s)
        try:
            data = self.rfile.read(length)
        except OSError:  # a timeout, or the connection broke
            return None
        return data if len(data) == length else None

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
        log.debug("%s " + format, self.address_string(), *args)


class JSONHandler(Handler):
    """A JSON API's request: the token, then the body, then :meth:`answer`; errors as JSON."""

    def answer(self, method: str, url: SplitResult, body: bytes) -> Reply:
        """The reply to an authorized request whose whole body arrived."""
        raise NotImplementedError

    def status_of(self, error: Exception) -> int:
        """The status an exception from :meth:`answer` is answered with (500: unexpected)."""
        return 400 if isinstance(error, InvalidActionError) else 500

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._handle()

    def do_POST(self) -> None:  # noqa: N802
        self._handle()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (bad request line or headers, unknown method) as JSON."""
        self.log_error("code %d, message %s", code, message)
        self.close_connection = True
        if self.request_version == "HTTP/0.9":  # a garbled request line: still send a status
            self.request_version = "HTTP/1.0"
        reason = self.responses.get(code, ("error",))[0]
        self._send(*json_reply(code, {"error": message or reason}))

    def _handle(self) -> None:
        try:
            status, body, headers = self._cycle()
        except Exception as e:  # every failure becomes a message, never a traceback on the wire
            status = self.status_of(e)
            if status >= 500:
                log.exception("%s %s failed", self.command, self.path)
                message = f"internal server error ({type(e).__name__}); see the server's log"
            else:
                message = str(e)
            status, body, headers = json_reply(status, {"error": message})
        try:
            self._send(status, body, headers)
        except OSError:  # the client went away (or stalls reading): drop the connection
            self.close_connection = True

    def _cycle(self) -> Reply:
        # the token first, from the headers: nobody without it gets a body read
        why = self.server.refusal(self.headers.get("Authorization"))
        if why is not None:
            return self._unauthorized(why)
        body = self._body()
        if isinstance(body, tuple):
            return body
        return self.answer(self.command, urlsplit(self.path), body)

    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _refuse(self, status: int, message: str) -> Reply:
        self.close_connection = True  # the unread body must not be taken for the next request
        return json_reply(status, {"error": message})

    def _length(self) -> int | None:
        """The body's length from the headers (0 if none), or None if it is malformed."""
        values = {v.strip() for v in self.headers.get_all("Content-Length") or ()}
        if not values:
            return 0
        value = values.pop()
        return int(value) if not values and _LENGTH.fullmatch(value) else None

    def _body(self) -> bytes | Reply:
        limits = self.server.limits
        if self.headers.get("Transfer-Encoding") is not None:
            return self._refuse(411, "send a Content-Length; chunked bodies are not accepted")
        if self.command == "POST" and self.headers.get("Content-Length") is None:
            return self._refuse(411, "a POST needs a Content-Length header")
        length = self._length()
        if length is None:
            return self._refuse(400, "bad Content-Length header")
        if length > limits.max_body:
            message = f"the body is over {limits.max_body} bytes"
            if length > _DRAIN_FACTOR * limits.max_body:
                return self._refuse(413, message)  # the client may see the connection reset
            if self.read_body(length) is None:  # read it away: the client reads this answer
                return self._refuse(413, message)
            return json_reply(413, {"error": message})
        data = self.read_body(length)
        if data is None:
            return self._refuse(408, f"the body did not arrive within {limits.body_s:g} s")
        return data

    def _unauthorized(self, why: str) -> Reply:
        """401 without reading the body (a little is read away so the answer arrives)."""
        length = self._length() or 0
        if 0 < length <= _REFUSED_DRAIN[0]:
            self.read_body(length, _REFUSED_DRAIN[1])
        status, data, headers = self._refuse(401, why)
        return status, data, {**headers, "WWW-Authenticate": "Bearer"}


# ---------------------------------------------------------------------- JSON and the token
#: A JSON string; an unterminated one runs to the end. Written as an unrolled loop (runs of
#: plain bytes between escapes), no two ways to match a byte, so it always matches at the first
#: try in linear time without Python 3.11's possessive ``*+``.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.S)
_SIGNS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 / -1 as signed bytes
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")


def json_depth(body: bytes) -> int:
    """How deep lists and objects nest in ``body`` (brackets inside strings do not count).

    >>> json_depth(b'[{"type": "KeyDown", "key": "["}]')
    2
    """
    steps = _STRING.sub(b'""', body).translate(_SIGNS, _NOT_BRACKETS)
    return max(accumulate(memoryview(steps).cast("b"), initial=0))


def parse_json(body: bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The JSON value of a request body (empty → ``{}``), or :class:`InvalidActionError`.

    >>> parse_json(b"[" * 1000 + b"]" * 1000)
    Traceback (most recent call last):
    ...
    gcc_envs.errors.InvalidActionError: the request body nests deeper than 32 levels
    """
    if not body:
        return {}
    if json_depth(body) > max_depth:  # json.loads would recurse into a RecursionError
        raise InvalidActionError(f"the request body nests deeper than {max_depth} levels")
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InvalidActionError(f"the request body is not JSON: {e}") from None
    except ValueError as e:  # e.g. an integer of more digits than Python converts
        raise InvalidActionError(f"the request body holds a bad value: {str(e)[:100]}") from None
    except RecursionError:
        raise InvalidActionError("the request body nests too deep") from None


def read_token(
    token: str | None, token_file: str | Path | None, environ: Mapping[str, str] = os.environ
) -> str:
    """A server's token: from ``token_file`` (stripped), else ``token``, else ``GCC_REMOTE_TOKEN``.

    >>> read_token(None, None, {"GCC_REMOTE_TOKEN": "from-the-env"})
    'from-the-env'
    """
    if token and token_file:
        raise GCCError("give the token once: --token-file or --token, not both")
    if token_file:
        try:
            token = Path(token_file).read_text().strip()
        except (OSError, UnicodeDecodeError) as e:
            raise GCCError(f"cannot read the token file {token_file}: {e}") from None
        if not token:
            raise GCCError(f"the token file {token_file} is empty")
        return token
    token = token or environ.get(TOKEN_ENV, "")
    if not token:
        raise GCCError(
            f"no token: give --token-file PATH or set {TOKEN_ENV} (--token works too, but every "
            "user of this machine can read it in ps); it needs at least 8 characters"
        )
    return token
