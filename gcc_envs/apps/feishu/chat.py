"""The Feishu twin's chat contacts: IRC clients that sit on the loopback ngIRCd server.

``python -m gcc_envs.apps.feishu.chat bots --port P --log DIR --nick Cradle --nick Borje``
connects one client per contact, joins ``#team`` and records every message and CTCP a
contact receives in ``DIR/messages.jsonl``; a file offered by DCC SEND is fetched into
``DIR/received/<contact>/<name>``. ``... whois --port P NICK`` asks the server about a user
and prints JSON (``{"away": "In meeting"}`` when marked away): the status checker's reader.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import socket
import struct
import sys
import threading
import time
from pathlib import Path
from typing import Any

CHANNEL = "#team"
#: The contacts in #team (nick: real name): the paper's Cradle and Börje, and four more a
#: message may go to.
CONTACTS = {"Cradle": "Cradle", "Borje": "Börje Karlsson", "Ada": "Ada Byte", "Lin": "Lin Chen",
            "Noor": "Noor Haddad", "Sam": "Sam Okoro"}  # fmt: skip
MAX_FILE = 16 << 20


class Contact(threading.Thread):
    """One contact's IRC connection (a daemon thread)."""

    def __init__(self, port: int, nick: str, log: Path, lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.port, self.nick, self.log, self.lock = port, nick, log, lock
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.settimeout(None)
        real = CONTACTS.get(nick, nick)
        self.send(f"NICK {nick}", f"USER {nick.lower()} 0 * :{real}", f"JOIN {CHANNEL}")

    def send(self, *lines: str) -> None:
        self.sock.sendall("".join(f"{line}\r\n" for line in lines).encode())

    def record(self, **entry: Any) -> None:
        with self.lock, (self.log / "messages.jsonl").open("a") as f:
            f.write(json.dumps({"t": time.time(), "to_contact": self.nick, **entry}) + "\n")

    def run(self) -> None:
        buf = b""
        while True:
            try:
                chunk = self.sock.recv(4096)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            while b"\r\n" in buf:
                raw, buf = buf.split(b"\r\n", 1)
                self.handle(raw.decode("utf-8", "replace"))

    def handle(self, line: str) -> None:
        if line.startswith("PING"):
            self.send("PONG" + line[4:])
            return
        parts = line.split(" ", 3)
        if len(parts) < 4 or parts[1] not in ("PRIVMSG", "NOTICE"):
            return
        sender = parts[0].lstrip(":").split("!")[0]
        target, text = parts[2], parts[3].removeprefix(":")
        if text.startswith("\x01") and text.endswith("\x01"):
            ctcp = text.strip("\x01")
            self.record(sender=sender, target=target, ctcp=ctcp)
            if ctcp.startswith("DCC SEND "):
                threading.Thread(target=self.fetch, args=(sender, ctcp), daemon=True).start()
            return
        self.record(sender=sender, target=target, text=text)

    def fetch(self, sender: str, ctcp: str) -> None:
        """Accept a DCC SEND offer: connect back, read the file, acknowledge the bytes."""
        args = ctcp.split(" ")[2:]
        if len(args) < 4:
            return
        name, ip, port, size = " ".join(args[:-3]).strip('"'), args[-3], args[-2], args[-1]
        host = str(ipaddress.IPv4Address(int(ip))) if ip.isdigit() else ip
        if host != "127.0.0.1" or not port.isdigit() or not size.isdigit():
            self.record(sender=sender, dcc_refused=f"{host}:{port}")
            return
        total, data = min(int(size), MAX_FILE), bytearray()
        try:
            with socket.create_connection((host, int(port)), timeout=10) as s:
                while len(data) < total:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                    s.sendall(struct.pack(">I", len(data) & 0xFFFFFFFF))
        except OSError as e:
            self.record(sender=sender, dcc_error=str(e))
            return
        out = self.log / "received" / self.nick / Path(name).name
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(bytes(data))
        self.record(sender=sender, received=out.name, bytes=len(data))


def whois(port: int, nick: str, timeout_s: float = 5.0) -> dict[str, Any]:
    me = f"probe{int(time.time() * 1000) % 100000}"
    out: dict[str, Any] = {"nick": nick, "online": False, "away": None}
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as s:
        s.sendall(f"NICK {me}\r\nUSER {me} 0 * :probe\r\n".encode())
        buf, deadline, asked = b"", time.monotonic() + timeout_s, False
        while time.monotonic() < deadline:
            chunk = s.recv(4096)
            if not chunk:
                break
            buf += chunk
            while b"\r\n" in buf:
                raw, buf = buf.split(b"\r\n", 1)
                parts = raw.decode("utf-8", "replace").split(" ")
                if len(parts) > 1 and parts[1] == "001" and not asked:
                    s.sendall(f"WHOIS {nick}\r\n".encode())
                    asked = True
                elif len(parts) > 1 and parts[1] == "311":
                    out["online"] = True
                elif len(parts) > 1 and parts[1] == "301":
                    out["away"] = " ".join(parts[4:]).removeprefix(":")
                elif len(parts) > 1 and parts[1] in ("318", "401"):
                    s.sendall(b"QUIT\r\n")
                    return out
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="the Feishu twin's chat contacts")
    sub = p.add_subparsers(dest="kind", required=True)
    bots = sub.add_parser("bots")
    bots.add_argument("--port", type=int, required=True)
    bots.add_argument("--log", type=Path, required=True)
    bots.add_argument("--nick", action="append", required=True)
    who = sub.add_parser("whois")
    who.add_argument("--port", type=int, required=True)
    who.add_argument("nick")
    args = p.parse_args(argv)
    if args.kind == "whois":
        json.dump(whois(args.port, args.nick), sys.stdout)
        return
    args.log.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()
    contacts = [Contact(args.port, n, args.log, lock) for n in args.nick]
    for c in contacts:
        c.start()
    (args.log / "ready").write_text(" ".join(args.nick))
    while any(c.is_alive() for c in contacts):
        time.sleep(0.5)


if __name__ == "__main__":
    main()
