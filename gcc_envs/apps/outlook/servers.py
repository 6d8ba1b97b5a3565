"""The Outlook twin's loopback mail servers: Dovecot IMAP behind a small launcher, an SMTP sink.

``python -m gcc_envs.apps.outlook.servers imap --port P --conf dovecot.conf`` accepts on
127.0.0.1 and hands each connection to Debian's Dovecot ``imap`` process, preauthenticated
(the way Dovecot runs over a tunnel or from inetd): Thunderbird logs in with no password, and
Dovecot keeps the mailboxes as Maildir under the episode's home. ``... smtp --port P --spool
DIR`` accepts mail for anyone and stores each message as ``DIR/<n>.eml`` with its envelope in
``DIR/<n>.json``; it delivers nothing anywhere. Both bind 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import json
import os
import socketserver
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

DOVECOT_IMAP = "/usr/lib/dovecot/imap"


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def _pump(src: Any, dst: Any) -> None:
    try:
        while chunk := src(1 << 16):
            dst(chunk)
    except OSError:
        pass


def serve_imap(port: int, conf: Path, user: str) -> None:
    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            # pipes, not the socket itself: Dovecot's imap refuses a socket on stdin (inetd)
            env = {"USER": user, "HOME": str(conf.parent), "PATH": os.environ.get("PATH", "")}
            proc = subprocess.Popen([DOVECOT_IMAP, "-c", str(conf)], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                    bufsize=0)  # fmt: skip
            assert proc.stdin is not None and proc.stdout is not None
            out = threading.Thread(target=_pump, args=(proc.stdout.read, self.request.sendall))
            out.start()

            def to_imap(chunk: bytes) -> None:
                proc.stdin.write(chunk)  # type: ignore[union-attr]

            _pump(self.request.recv, to_imap)
            proc.stdin.close()
            proc.wait()
            out.join()

    _Server(("127.0.0.1", port), Handler).serve_forever()


class _Smtp(socketserver.StreamRequestHandler):
    spool: Path
    lock = threading.Lock()

    def reply(self, line: str) -> None:
        self.wfile.write((line + "\r\n").encode())

    def handle(self) -> None:
        self.reply("220 gcc-twin ESMTP sink")
        sender, rcpts = "", []
        while True:
            raw = self.rfile.readline(1 << 16)
            if not raw:
                return
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            verb = line[:4].upper()
            if verb in ("EHLO", "HELO"):
                self.reply("250-gcc-twin" if verb == "EHLO" else "250 gcc-twin")
                if verb == "EHLO":
                    self.reply("250-8BITMIME")
                    self.reply("250 SIZE 52428800")
            elif verb == "MAIL":
                sender, rcpts = line.split(":", 1)[1].strip(), []
                self.reply("250 OK")
            elif verb == "RCPT":
                rcpts.append(line.split(":", 1)[1].strip())
                self.reply("250 OK")
            elif verb == "DATA":
                self.reply("354 End data with <CR><LF>.<CR><LF>")
                self._store(sender, rcpts, self._data())
                self.reply("250 OK queued")
            elif verb == "QUIT":
                self.reply("221 Bye")
                return
            elif verb in ("RSET", "NOOP"):
                self.reply("250 OK")
            else:
                self.reply("502 Command not implemented")

    def _data(self) -> bytes:
        lines = []
        while True:
            raw = self.rfile.readline(1 << 20)
            if not raw or raw in (b".\r\n", b".\n"):
                return b"".join(lines)
            lines.append(raw[1:] if raw.startswith(b"..") else raw)

    def _store(self, sender: str, rcpts: list[str], data: bytes) -> None:
        with self.lock:
            n = len(list(self.spool.glob("*.eml")))
            (self.spool / f"{n}.eml").write_bytes(data)
            envelope = {"t": time.time(), "from": sender, "to": rcpts}
            (self.spool / f"{n}.json").write_text(json.dumps(envelope))


def serve_smtp(port: int, spool: Path) -> None:
    spool.mkdir(parents=True, exist_ok=True)
    handler = type("Smtp", (_Smtp,), {"spool": spool})
    _Server(("127.0.0.1", port), handler).serve_forever()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="the Outlook twin's loopback mail servers")
    sub = p.add_subparsers(dest="kind", required=True)
    imap = sub.add_parser("imap")
    imap.add_argument("--port", type=int, required=True)
    imap.add_argument("--conf", type=Path, required=True)
    imap.add_argument("--user", default="tester")
    smtp = sub.add_parser("smtp")
    smtp.add_argument("--port", type=int, required=True)
    smtp.add_argument("--spool", type=Path, required=True)
    args = p.parse_args(argv)
    if args.kind == "imap":
        serve_imap(args.port, args.conf, args.user)
    else:
        serve_smtp(args.port, args.spool)


if __name__ == "__main__":
    main()
