"""The Chrome twin's local web server: every host the browser asks for, on one loopback port.

Run as ``python -m gcc_envs.apps.chrome.sites --root DIR --port P``. Chromium is started with
host-resolver rules that send every name to ``127.0.0.1:P``, so ``https://twitter.com`` and
``https://www.google.com/search?q=...`` reach this server; it tells TLS from plain HTTP by the
first byte of a connection and answers both (a certificate made at setup; Chromium is told to
accept it). It renders ``DIR/site.json`` (:mod:`.content`), serves ``DIR/pdf/<id>.pdf``, and
records every request in ``DIR/requests.jsonl`` and every post in ``DIR/posts.jsonl`` — what
the checkers read. It binds 127.0.0.1 only and needs no token (only the episode's browser
reaches it); its backlog and connection deadlines are :mod:`gcc_envs.httpd`'s.
"""

from __future__ import annotations

import argparse
import json
import socket
import ssl
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from gcc_envs import httpd
from gcc_envs.apps.chrome import pages

TLS_HANDSHAKE = 0x16
SEARCH_HOSTS = frozenset(
    {"www.google.com", "google.com", "duckduckgo.com", "www.duckduckgo.com", "www.bing.com"}
)


class SitesServer(httpd.Server):
    """Every site of ``root/site.json`` on ``127.0.0.1:port``, TLS or plain on one port."""

    def __init__(self, port: int, root: Path) -> None:
        self.root = root
        self.site: dict[str, Any] = json.loads((root / "site.json").read_text())
        self.lock = threading.Lock()
        self.tls: ssl.SSLContext | None = None
        if (root / "cert.pem").is_file():
            self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.tls.load_cert_chain(root / "cert.pem", root / "key.pem")
        super().__init__(("127.0.0.1", port), Handler, token=None)

    def finish_request(self, request: Any, client_address: Any) -> None:
        request.settimeout(self.limits.idle_s)  # the TLS handshake's deadline
        try:
            first = request.recv(1, socket.MSG_PEEK)
            if first and first[0] == TLS_HANDSHAKE and self.tls is not None:
                request = self.tls.wrap_socket(request, server_side=True)
        except (OSError, ssl.SSLError):
            return
        super().finish_request(request, client_address)

    def append(self, name: str, record: dict[str, Any]) -> None:
        with self.lock, (self.root / name).open("a") as f:
            f.write(json.dumps(record) + "\n")

    def posts(self) -> list[str]:
        path = self.root / "posts.jsonl"
        if not path.is_file():
            return []
        return [json.loads(line)["text"] for line in path.read_text().splitlines() if line]


class Handler(httpd.Handler):
    server: SitesServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet: requests go to the log
        return

    def _host(self) -> str:
        return (self.headers.get("Host") or "").split(":")[0].lower()

    def _record(self) -> None:
        self.server.append(
            "requests.jsonl",
            {"t": time.time(), "method": self.command, "host": self._host(), "path": self.path},
        )

    def _send(self, status: int, body: bytes, ctype: str, extra: dict[str, str] | None = None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _html(self, html: str | None, status: int = 200) -> None:
        if html is None:
            html, status = pages.offline(self._host() + self.path), 404
        self._send(status, html.encode(), "text/html; charset=utf-8")

    def do_GET(self) -> None:
        self._record()
        host, url = self._host(), urlsplit(self.path)
        if not isinstance(self.connection, ssl.SSLSocket) and self.server.tls is not None:
            # as the real sites do: plain HTTP is sent to HTTPS (downloads over HTTP are blocked)
            return self._send(301, b"", "text/plain", {"Location": f"https://{host}{self.path}"})
        site, path = self.server.site, url.path
        query = parse_qs(url.query)
        if host == "favicon.ico" or path == "/favicon.ico":
            return self._send(404, b"", "text/plain")
        if host in SEARCH_HOSTS:  # whichever engine the browser's omnibox is set to
            if "q" in query:
                return self._html(pages.search_results(site, query.get("q", [""])[0]))
            return self._html(pages.search_home())
        if host in ("arxiv.org", "www.arxiv.org"):
            if path.startswith("/abs/"):
                return self._html(pages.arxiv_abs(site, path[5:]))
            if path.startswith("/pdf/"):
                pid = path[5:].removesuffix(".pdf")
                pdf = self.server.root / "pdf" / f"{pid}.pdf"
                if pid in site["papers"] and pdf.is_file():
                    disposition = {"Content-Disposition": f'inline; filename="{pid}.pdf"'}
                    return self._send(200, pdf.read_bytes(), "application/pdf", disposition)
            return self._html(None)
        if host in ("twitter.com", "x.com", "www.twitter.com", "www.x.com"):
            return self._html(pages.microblog(site, self.server.posts()))
        if host in ("github.com", "www.github.com"):
            parts = [p for p in path.split("/") if p]
            if len(parts) == 1:
                return self._html(pages.profile(site, parts[0]))
            if len(parts) == 2:
                return self._html(pages.repository(site, *parts))
            return self._html(None)
        if host == "en.wikipedia.org" and path.startswith("/wiki/"):
            return self._html(pages.wiki(site, path[6:]))
        return self._html(None)

    def do_POST(self) -> None:
        self._record()
        length = (self.headers.get("Content-Length") or "0").strip()
        data = (
            self.read_body(min(int(length), 1 << 16))
            if length.isascii() and length.isdigit()
            else None
        )
        if data is None:  # a bad length, or a body that did not arrive in time
            self.close_connection = True
            return self._send(400, b"", "text/plain")
        form = parse_qs(data.decode("utf-8", "replace"))
        if self._host() in ("twitter.com", "x.com", "www.twitter.com", "www.x.com"):
            text = form.get("text", [""])[0]
            if text.strip():
                self.server.append("posts.jsonl", {"t": time.time(), "text": text})
            return self._send(303, b"", "text/plain", {"Location": "/home"})
        return self._html(None)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", type=Path, required=True)
    p.add_argument("--port", type=int, required=True)
    args = p.parse_args(argv)
    SitesServer(args.port, args.root).serve_forever()


if __name__ == "__main__":
    main()
