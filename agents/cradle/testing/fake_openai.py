"""A loopback OpenAI-compatible server for tests: chat completions and embeddings.

Replies come from a queue of scripted items: a string (the reply text), a callable taking the
request body and returning a string, or a dict ``{"status": 500}`` / ``{"delay": s, "text": t}``
/ ``{"text": None}`` (empty content) / ``{"raw": b"..."}`` (this body, as is, with status 200:
a broken server). When the queue is empty ``default`` answers. Every chat
request is recorded: its module (the first line of its text), number of images, their detail
and data URLs, and the characters of text. Requests must carry ``Bearer <token>``.

Usage reported: ``prompt_tokens`` = characters of text // 4, plus 85 per image unless
``count_images=False`` (a server that reports no image tokens, like many local servers);
``completion_tokens`` = characters of the reply // 4.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

Item = str | dict[str, Any] | Callable[[dict[str, Any]], str]
EMBED_DIM = 64


@dataclass
class Recorded:
    path: str
    status: int
    n_images: int = 0
    details: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    text_chars: int = 0
    first_line: str = ""
    body: dict[str, Any] = field(default_factory=dict)


def embed_text(text: str) -> list[float]:
    """Deterministic hashed bag-of-words vector."""
    v = np.zeros(EMBED_DIM)
    for w in text.lower().replace("_", " ").split():
        h = int.from_bytes(hashlib.sha256(w.encode()).digest()[:4], "little")
        v[h % EMBED_DIM] += 1.0
    return v.tolist()


class FakeOpenAI:
    def __init__(
        self,
        token: str = "test-token",
        default: Item = "Action:\n```python\n```",
        count_images: bool = True,
    ) -> None:
        self.token = token
        self.count_images = count_images
        self.default = default
        self.replies: deque[Item] = deque()
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                server._handle(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def start(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def script(self, *items: Item) -> None:
        self.replies.extend(items)

    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    # ---- handling
    def _send(self, h: BaseHTTPRequestHandler, status: int, obj: dict[str, Any]) -> None:
        data = json.dumps(obj).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _send_raw(self, h: BaseHTTPRequestHandler, data: bytes) -> None:
        try:
            h.send_response(200)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        n = int(h.headers.get("Content-Length") or 0)
        body = json.loads(h.rfile.read(n) or b"{}")
        rec = Recorded(h.path, 200, body=body)
        with self._lock:
            self.requests.append(rec)
        if h.headers.get("Authorization") != f"Bearer {self.token}":
            rec.status = 401
            return self._send(h, 401, {"error": {"message": "bad token", "type": "auth"}})
        if h.path.endswith("/embeddings"):
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            data = [{"object": "embedding", "index": i, "embedding": embed_text(t)}
                    for i, t in enumerate(texts)]  # fmt: skip
            tokens = sum(len(t.split()) for t in texts)
            usage = {"prompt_tokens": tokens, "total_tokens": tokens}
            return self._send(h, 200, {"object": "list", "data": data, "model": body["model"],
                                       "usage": usage})  # fmt: skip
        if not h.path.endswith("/chat/completions"):
            rec.status = 404
            return self._send(h, 404, {"error": {"message": "not found"}})
        self._describe(rec, body)
        with self._lock:
            item = self.replies.popleft() if self.replies else self.default
        if callable(item):
            item = item(body)
        if isinstance(item, str):
            item = {"text": item}
        if "delay" in item:
            time.sleep(item["delay"])
        if "raw" in item:
            return self._send_raw(h, item["raw"])
        if "status" in item:
            rec.status = item["status"]
            return self._send(h, item["status"], {"error": {"message": "injected", "type": "x"}})
        text = item.get("text")
        prompt = rec.text_chars // 4 + (85 * rec.n_images if self.count_images else 0)
        completion = len(text or "") // 4
        self._send(h, 200, {
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion",
            "created": int(time.time()), "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion},
        })  # fmt: skip

    @staticmethod
    def _describe(rec: Recorded, body: dict[str, Any]) -> None:
        texts: list[str] = []
        for m in body.get("messages", []):
            content = m.get("content")
            if isinstance(content, str):
                texts.append(content)
                continue
            for part in content or []:
                if part.get("type") == "text":
                    texts.append(part["text"])
                elif part.get("type") == "image_url":
                    rec.n_images += 1
                    rec.details.append(part["image_url"].get("detail", "auto"))
                    rec.urls.append(part["image_url"]["url"])
        rec.text_chars = sum(len(t) for t in texts)
        first = next((t for t in texts if t.strip()), "")
        rec.first_line = first.strip().splitlines()[0] if first.strip() else ""
