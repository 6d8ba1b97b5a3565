"""The Outlook twin's mailboxes: seeded messages, written as Maildir, read back by checkers.

:func:`make_mailbox` draws an inbox (a mail from Börje, one with the task's subject —
"Urgent meeting" by default — among look-alike subjects that hold it and say more, everyday
mail), a junk folder of spam, and the extra folders the task asks for (an archive of old
mail, templates: they move the junk folder down the folder list; plain folders, listed below
it, move it up once the list is scrolled to its end) from a
seed. Maildir layout as Dovecot keeps it: the inbox in ``cur``/``new``, each other folder in
``.<Name>/``; a message's flags follow ``:2,`` in its file name (``S`` seen, ``T`` deleted).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.apps.software.reading import files_in
from gcc_envs.core.probe import DesktopProbe

ME = ("Cradle Tester", "tester@cradle.local")
BORJE = ("Börje Karlsson", "borje@baai.ac.cn")
FOLDERS = ("Drafts", "Sent", "Trash", "Junk")
#: Folders a task may add (``make_mailbox(folders=...)``), each with a few messages. Thunderbird
#: lists Archives and Templates above the junk folder, the others (plain folders) below it.
EXTRA = (
    "Archives", "Templates", "Projects", "Receipts", "Travel", "Family", "Newsletters", "Clients",
)  # fmt: skip
_PEOPLE = (
    ("Ada Byte", "ada@example.org"), ("Lin Chen", "lin.chen@example.org"),
    ("Sam Okoro", "sam@example.net"), ("Mia Rossi", "mia.rossi@example.com"),
    ("Noor Haddad", "noor@example.org"), ("Tom Berg", "tom.berg@example.net"),
)  # fmt: skip
_SUBJECTS = (
    "Lunch on Friday?", "Slides for the review", "Your parcel is on its way", "Re: budget",
    "Team photo", "Reading group: next paper", "Conference travel", "Weekly report",
)  # fmt: skip
#: Look-alikes of a subject ``s``: each holds it and says more (so it shows wider).
_LOOKALIKES = ("Re: {s} agenda?", "{s} moved", "{s} notes", "Fwd: {s}")
#: What Börje writes about (a word the instruction names, his mail's subject): one of them is
#: the mail to reply to, two others his look-alikes; another sender writes about the same.
TOPICS = {
    "heater": "The heater in room 4 is broken", "budget": "Budget for the spring school",
    "slides": "Slides for Monday's talk", "visa": "Visa letter for the workshop",
    "parking": "Parking permits for visitors", "server": "Server maintenance tonight",
    "poster": "Poster printing deadline", "keys": "Office keys", "dinner": "Team dinner on Friday",
    "laptop": "Your new laptop", "thesis": "Thesis chapter comments",
    "interview": "Interview schedule for Tuesday",
}  # fmt: skip
_SPAM = (
    "You have WON a prize!!!", "Cheap watches, 90% off", "Your account will be closed",
    "Claim your free cruise", "Hot singles near you", "Invoice overdue - pay now",
)  # fmt: skip


def message(sender: tuple[str, str], subject: str, body: str, when: datetime) -> bytes:
    m = EmailMessage()
    m["From"] = f"{sender[0]} <{sender[1]}>"
    m["To"] = f"{ME[0]} <{ME[1]}>"
    m["Subject"] = subject
    m["Date"] = format_datetime(when)
    m["Message-ID"] = make_msgid(domain=sender[1].split("@")[1])
    m.set_content(body)
    return bytes(m)


def make_mailbox(
    seed: int, subject: str = "Urgent meeting", folders: tuple[str, ...] = (), topic: str = ""
) -> dict[str, list[bytes]]:
    """``{folder: [message bytes]}`` (``INBOX``, ``Junk``, the ``folders`` of :data:`EXTRA`,
    ...) drawn from ``seed``; one inbox mail has exactly ``subject``. Börje writes one mail
    ("The report draft"), or with ``topic`` (of :data:`TOPICS`) three: that topic's and two
    others', while another sender writes about ``topic`` too."""
    rng = np.random.default_rng(seed)
    now = datetime(2024, 3, 6, 9, 0, tzinfo=timezone.utc)
    inbox: list[tuple[tuple[str, str], str, str]] = []
    for i in rng.choice(len(_SUBJECTS), size=5, replace=False):
        who = _PEOPLE[int(rng.integers(len(_PEOPLE)))]
        inbox.append((who, _SUBJECTS[i], f"Hi,\n\n{_SUBJECTS[i]} - see you soon.\n\n{who[0]}"))
    inbox.append((_PEOPLE[int(rng.integers(len(_PEOPLE)))], "Meeting notes", "Notes attached."))
    for k in rng.permutation(len(_LOOKALIKES))[: int(rng.integers(2, 4))]:
        look = _LOOKALIKES[k].format(s=subject)
        inbox.append((_PEOPLE[int(rng.integers(len(_PEOPLE)))], look, "Details inside."))
    inbox.append((_PEOPLE[int(rng.integers(len(_PEOPLE)))], subject,
                  "Can we meet at 3 pm today? It is urgent."))  # fmt: skip
    inbox.append((BORJE, borje_subject(topic), "Hi,\n\nplease have a look.\n\nBörje"))
    if topic:
        others = [t for t in sorted(TOPICS) if t != topic]
        for k in rng.choice(len(others), size=2, replace=False):
            inbox.append((BORJE, TOPICS[others[k]], "Hi,\n\nsee below.\n\nBörje"))
        who = _PEOPLE[int(rng.integers(len(_PEOPLE)))]
        inbox.append((who, f"Re: {TOPICS[topic].lower()}?", f"Hi,\n\nany news?\n\n{who[0]}"))
    order = rng.permutation(len(inbox))
    stamped = [(inbox[k], now - timedelta(hours=3 * n + 1)) for n, k in enumerate(order)]
    spam = [_SPAM[i] for i in rng.choice(len(_SPAM), size=int(rng.integers(2, 6)), replace=False)]
    junk = [
        message(("Prize Desk", "win@prizes.example"), s, "Click here now!", now - timedelta(days=1))
        for s in spam
    ]
    boxes = {
        "INBOX": [message(w, s, b, t) for (w, s, b), t in stamped],
        "Junk": junk,
        "Drafts": [], "Sent": [], "Trash": [],
    }  # fmt: skip
    for name in folders:
        if name not in EXTRA:
            raise ValueError(f"unknown extra folder {name!r}; known {EXTRA}")
        old = now - timedelta(days=30)
        boxes[name] = [
            message(_PEOPLE[int(rng.integers(len(_PEOPLE)))], f"{name}: item {i + 1}", "Kept.", old)
            for i in range(int(rng.integers(2, 4)))
        ]
    return boxes


def borje_subject(topic: str = "") -> str:
    """The subject of Börje's mail to reply to (``topic`` of :data:`TOPICS`, or none)."""
    if topic and topic not in TOPICS:
        raise ValueError(f"unknown topic {topic!r}; known {sorted(TOPICS)}")
    return TOPICS[topic] if topic else "The report draft"


def folder_dir(root: Path | str, folder: str) -> str:
    """The Maildir folder of ``folder`` under ``root``."""
    return str(root) if folder == "INBOX" else f"{root}/.{folder}"


def write_maildir(root: Path, mailbox: dict[str, list[bytes]]) -> None:
    for folder, msgs in mailbox.items():
        base = Path(folder_dir(root, folder))
        for sub in ("cur", "new", "tmp"):
            (base / sub).mkdir(parents=True, exist_ok=True)
        for i, data in enumerate(msgs):
            (base / "cur" / f"17000000{i:02d}.M{i}P1.gcc-twin:2,").write_bytes(data)
    (root / "subscriptions").write_text("".join(f"{f}\n" for f in mailbox if f != "INBOX"))


def messages(probe: DesktopProbe, root: str, folder: str) -> list[tuple[str, bytes]]:
    """``(flags, bytes)`` of each message in a Maildir folder (under the probe's home)."""
    out: list[tuple[str, bytes]] = []
    base = folder_dir(root, folder)
    for sub in ("new", "cur"):
        for name in files_in(probe, f"{base}/{sub}"):
            flags = name.rsplit(":2,", 1)[1] if ":2," in name else ""
            out.append((flags, probe.read_file(f"{base}/{sub}/{name}")))
    return out


def live(msgs: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The messages not marked deleted (``T``)."""
    return [(f, d) for f, d in msgs if "T" not in f]


def headers_of(data: bytes) -> Any:
    from email import policy
    from email.parser import BytesParser

    return BytesParser(policy=policy.default).parsebytes(data)
