"""The Feishu twin's setup steps: a loopback chat server with contacts, HexChat, Orage.

``chat_server``: Debian's ngIRCd on a free loopback port with a fresh configuration under
``~/.local/share/gcc-chat``, and the contacts Cradle, Börje (nick ``Borje``) and four more
(:data:`.chat.CONTACTS`) in ``#team`` (:mod:`.chat`), recording what they receive; an
``aws-bill.pdf`` in each folder of ``software.pdf.BILL_FOLDERS`` (a different
month's each), a look-alike on the Desktop, and the task's bill where it names one (another
name, beside its folder's ``aws-bill.pdf``).
``hexchat``: HexChat with the network already set up (nick ``tester``, connect at start, DCC
over 127.0.0.1). ``orage``: Orage, Xfce's calendar, keeping ``~/.local/share/orage/orage.ics``,
set to a time zone where the episode starts between noon and 1 pm (:func:`midday_zone`), so
that "later today" leaves the afternoon whenever the episode runs (Orage's new appointment
starts at the next half hour, but from 23:00 at 09:00 that day, already past: seen at 23:07).
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from gcc_envs.apps.software.desktop import folders, launch, press, wait_window, window_titles
from gcc_envs.apps.software.pdf import aws_bill, write_bills
from gcc_envs.apps.software.reading import write_answer
from gcc_envs.errors import BackendError, GCCError

CHAT = ".local/share/gcc-chat"
CALENDAR = ".local/share/orage/orage.ics"
NGIRCD_CONF = """[Global]
Name = irc.feishu.local
Info = the Feishu twin's chat server
Listen = 127.0.0.1
Ports = {port}
PidFile = {root}/ngircd.pid
MotdPhrase = "Feishu twin: your contacts are in #team"
[Limits]
MaxNickLength = 16
; the contacts and the user all connect from 127.0.0.1 (the default allows 5 per address)
MaxConnectionsIP = 0
PingTimeout = 600
[Options]
PAM = no
DNS = no
Ident = no
[Channel]
Name = #team
Topic = Team chat
"""
SERVLIST = """v=2.16.1

N=Feishu
E=UTF-8 (Unicode)
F=10
D=0
S=127.0.0.1/{port}
J={channel}
"""
HEXCHAT_CONF = """version = 2.16.1
irc_nick1 = tester
irc_nick2 = tester_
irc_nick3 = tester__
irc_user_name = tester
irc_real_name = Cradle Tester
gui_slist_skip = 1
gui_join_dialog = 0
gui_tray = 0
gui_win_state = 1
dcc_ip = 127.0.0.1
dcc_ip_from_server = 0
dcc_dir = {home}/Downloads
away_show_once = 1
"""


def chat_server(session: Any, bill: str = "", timeout_s: float = 15.0) -> None:
    """ngIRCd on loopback and the contacts in #team (answer key: ``chat_port``); ``bill``:
    the bill to send, under the home, written unless it is one of the folders' bills."""
    from gcc_envs.apps.feishu.chat import CHANNEL, CONTACTS

    exe = shutil.which("ngircd") or "/usr/sbin/ngircd"
    if not shutil.os.path.exists(exe):
        raise GCCError("ngIRCd is not installed (Debian package: ngircd)")
    folders(session)
    root = session.home / CHAT
    root.mkdir(parents=True, exist_ok=True)
    port = session.free_port()
    (root / "ngircd.conf").write_text(NGIRCD_CONF.format(port=port, root=root))
    session.start_server([exe, "--nodaemon", "--config", str(root / "ngircd.conf")], port=port)
    bots = [sys.executable, "-m", "gcc_envs.apps.feishu.chat", "bots", "--port", str(port),
            "--log", str(root), *(a for nick in CONTACTS for a in ("--nick", nick))]  # fmt: skip
    session.start_server(bots)
    deadline = time.monotonic() + timeout_s
    while not (root / "ready").is_file():
        if time.monotonic() > deadline:
            raise BackendError("the chat contacts did not connect to ngIRCd")
        time.sleep(0.05)
    seed = int(session.rng.integers(2**31))
    write_bills(session.home, seed)  # one in each of BILL_FOLDERS, another month's each
    if bill and not (session.home / bill).exists():  # a year no folder's bill has
        (session.home / bill).write_bytes(aws_bill(seed, 2025))
    session.files["aws-bill.pdf"] = session.home / "Desktop" / "aws-bill.pdf"
    write_answer(session.home, chat_port=port, channel=CHANNEL)


def hexchat(session: Any, timeout_s: float = 30.0) -> None:
    """HexChat connected to the twin's chat server as ``tester``, in #team."""
    from gcc_envs.apps.feishu.chat import CHANNEL
    from gcc_envs.apps.software.reading import ANSWER

    exe = shutil.which("hexchat")
    if exe is None:
        raise GCCError("HexChat is not installed (Debian package: hexchat)")
    port = json.loads((session.home / ANSWER).read_text())["chat_port"]
    conf = session.home / ".config" / "hexchat"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "servlist.conf").write_text(SERVLIST.format(port=port, channel=CHANNEL))
    (conf / "hexchat.conf").write_text(HEXCHAT_CONF.format(home=session.home))
    session.launch([exe, "--cfgdir", str(conf)])
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:  # as root HexChat first warns in an untitled dialog
        titles = window_titles(session)
        if any(CHANNEL in t for t in titles):
            break
        if "" in titles and not any("HexChat" in t for t in titles):
            wait_window(session, "^$", 2.0)
            press(session, "enter")
        time.sleep(0.2)
    wait_window(session, rf"{CHANNEL}", 5.0)  # joined: the title names the channel


def midday_zone(now: float) -> str:
    """The whole-hour ``Etc`` time zone in which ``now`` (seconds since the epoch) falls
    between 12:00 and 13:00 (``Etc/GMT-5`` is five hours ahead of UTC: POSIX's sign).

    >>> midday_zone(0.0), midday_zone(13.5 * 3600), midday_zone(23.9 * 3600)
    ('Etc/GMT-12', 'Etc/GMT+1', 'Etc/GMT+11')
    """
    ahead = 12 - time.gmtime(now).tm_hour  # hours ahead of UTC, -11 ... 12
    return "Etc/UTC" if ahead == 0 else f"Etc/GMT{-ahead:+d}"


def orage(session: Any, timeout_s: float = 30.0) -> None:
    """Orage (its calendar file starts empty) in :func:`midday_zone`'s zone, both its own
    setting and the process's ``TZ``; the answer key keeps when the episode began and the
    zone."""
    exe, env = shutil.which("orage"), shutil.which("env")
    if exe is None:
        raise GCCError("Orage is not installed (Debian package: orage)")
    if env is None:
        raise GCCError("coreutils' env is not installed")
    folders(session)
    started = time.time()
    zone = midday_zone(started)
    conf = session.home / ".config" / "orage"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "oragerc").write_text(f"[PARAMETERS]\nTimezone={zone}\n")
    write_answer(session.home, started=started, zone=zone)
    launch(session, [env, f"TZ={zone}", exe], r"^Orage$", timeout_s)


def setup_steps() -> Mapping[str, Callable[..., None]]:
    """The Feishu suite's own setup step kinds."""
    return {"chat_server": chat_server, "hexchat": hexchat, "orage": orage}
