"""A minimal WebSocket client for Chromium's DevTools protocol (the standard library only).

Chromium answers DevTools commands on ``ws://127.0.0.1:PORT/devtools/page/ID``. This client
does what that needs of RFC 6455 and no more: the opening handshake (no ``Origin`` header, so
Chromium accepts it without ``--remote-allow-origins``), masked text frames out, text frames
in (fragmented or not), pings answered, and the close handshake. :meth:`DevToolsSocket.call`
sends one command and waits for its answer, skipping the events in between.

>>> _frame(0x1, b"hi", mask=bytes(4)).hex()  # final text frame, masked, 2 bytes
'8182000000006869'
>>> _xor(_xor(b"payload", b"abcd"), b"abcd")
b'payload'
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import struct
import time
import urllib.parse
from typing import Any

from gcc_envs.errors import BackendError

#: RFC 6455's key suffix for ``Sec-WebSocket-Accept``.
_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _BINARY, _CLOSE, _PING, _PONG, _CONTINUATION = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0
#: The largest message accepted (a page's HTML can be tens of MiB).
MAX_MESSAGE = 256 << 20


def _frame(opcode: int, payload: bytes, mask: bytes | None = None) -> bytes:
    """One final, masked frame (clients must mask what they send)."""
    mask = os.urandom(4) if mask is None else mask
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + mask + _xor(payload, mask)


def _xor(payload: bytes, mask: bytes) -> bytes:
    """``payload`` masked (or unmasked) with the 4-byte ``mask``."""
    if not payload:
        return b""
    key = int.from_bytes((mask * (len(payload) // 4 + 1))[: len(payload)], "big")
    return (int.from_bytes(payload, "big") ^ key).to_bytes(len(payload), "big")


class DevToolsSocket:
    """One DevTools WebSocket connection; use as a context manager."""

    def __init__(self, url: str, timeout_s: float = 10.0) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "ws" or not parts.hostname or not parts.port:
            raise BackendError(f"not a DevTools WebSocket address: {url!r}")
        self.url = url
        self._buf = b""
        self._next_id = 0
        try:
            self._sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout_s)
        except OSError as e:
            raise BackendError(f"Chromium's DevTools at {url} did not answer: {e}") from e
        try:
            self._handshake(parts.hostname, parts.port, parts.path or "/", timeout_s)
        except BaseException:
            self._sock.close()
            raise

    def __enter__(self) -> DevToolsSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- protocol
    def call(self, method: str, params: dict[str, Any] | None = None, timeout_s: float = 10.0) -> dict[str, Any]:  # fmt: skip
        """Send ``method`` and return its ``result`` (``BackendError`` on its ``error``)."""
        self._next_id += 1
        ident = self._next_id
        message = json.dumps({"id": ident, "method": method, "params": params or {}})
        deadline = time.monotonic() + timeout_s
        self._send(_TEXT, message.encode())
        while True:
            reply = json.loads(self._receive(deadline))
            if reply.get("id") != ident:
                continue  # an event, or the answer to an earlier call
            if "error" in reply:
                raise BackendError(
                    f"DevTools {method}: {reply['error'].get('message', reply['error'])}"
                )
            return reply.get("result", {})

    def evaluate(self, expression: str, timeout_s: float = 10.0) -> Any:
        """The value of a JavaScript expression in the page (promises awaited), as JSON data."""
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True,
             "timeout": int(timeout_s * 1000)},
            timeout_s + 2.0,
        )  # fmt: skip
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise BackendError(f"the page's script failed: {str(text)[:300]}")
        return result.get("result", {}).get("value")

    def close(self) -> None:
        try:
            self._sock.settimeout(1.0)
            self._sock.sendall(_frame(_CLOSE, struct.pack("!H", 1000)))
        except OSError:
            pass
        finally:
            self._sock.close()

    # ---------------------------------------------------------------- transport
    def _handshake(self, host: str, port: int, path: str, timeout_s: float) -> None:
        key = base64.b64encode(os.urandom(16))
        request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n")  # fmt: skip
        self._sock.sendall(request.encode())
        deadline = time.monotonic() + timeout_s
        while b"\r\n\r\n" not in self._buf:
            self._fill(deadline)
            if len(self._buf) > 65536:
                raise BackendError(f"{self.url}: the handshake's answer is too long")
        head, self._buf = self._buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if len(lines[0].split()) < 2 or lines[0].split()[1] != "101":
            raise BackendError(f"{self.url}: Chromium refused the WebSocket ({lines[0]!r})")
        headers = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines[1:] if ":" in ln)}  # fmt: skip
        accept = base64.b64encode(hashlib.sha1(key + _GUID).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            raise BackendError(f"{self.url}: a bad Sec-WebSocket-Accept in the handshake")

    def _fill(self, deadline: float) -> None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise BackendError(f"{self.url}: no answer in time")
        self._sock.settimeout(left)
        try:
            chunk = self._sock.recv(1 << 16)
        except TimeoutError as e:
            raise BackendError(f"{self.url}: no answer in time") from e
        except OSError as e:
            raise BackendError(f"{self.url}: the connection failed: {e}") from e
        if not chunk:
            raise BackendError(f"{self.url}: Chromium closed the connection")
        self._buf += chunk

    def _take(self, n: int, deadline: float) -> bytes:
        while len(self._buf) < n:
            self._fill(deadline)
        data, self._buf = self._buf[:n], self._buf[n:]
        return data

    def _send(self, opcode: int, payload: bytes) -> None:
        try:
            self._sock.sendall(_frame(opcode, payload))
        except OSError as e:
            raise BackendError(f"{self.url}: cannot send: {e}") from e

    def _receive(self, deadline: float) -> str:
        """The next whole text message (control frames handled on the way)."""
        parts: list[bytes] = []
        size = 0
        while True:
            b0, b1 = self._take(2, deadline)
            fin, opcode, n = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._take(2, deadline))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._take(8, deadline))
            mask = self._take(4, deadline) if b1 & 0x80 else b""
            if size + n > MAX_MESSAGE:
                raise BackendError(f"{self.url}: a message over {MAX_MESSAGE >> 20} MiB")
            payload = self._take(n, deadline)
            if mask:
                payload = _xor(payload, mask)
            if opcode == _PING:
                self._send(_PONG, payload)
            elif opcode == _CLOSE:
                raise BackendError(f"{self.url}: Chromium closed the connection")
            elif opcode in (_TEXT, _BINARY, _CONTINUATION):
                parts.append(payload)
                size += n
                if fin:
                    return b"".join(parts).decode("utf-8", "replace")
