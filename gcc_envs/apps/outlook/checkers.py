"""Checkers of the Outlook twin (Thunderbird): the servers' mailboxes and the profile.

Sent mail is what the SMTP sink received (``outbox/<n>.eml``); folders are Dovecot's Maildir
(flags in the file names); the forwarding rule is Thunderbird's ``msgFilterRules.dat``.
"""

from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import getaddresses

from gcc_envs.apps.outlook.mailbox import headers_of, live, messages
from gcc_envs.apps.outlook.setup import MAILDIR, PROFILE, SPOOL
from gcc_envs.apps.software.reading import answer, files_in
from gcc_envs.core.probe import DesktopProbe


def sent(probe: DesktopProbe) -> list[EmailMessage]:
    """The messages the SMTP sink received, parsed."""
    names = [n for n in files_in(probe, SPOOL) if n.endswith(".eml")]
    return [headers_of(probe.read_file(f"{SPOOL}/{n}")) for n in names]


def _to(m: EmailMessage) -> set[str]:
    return {a.lower() for _, a in getaddresses([str(m["To"] or ""), str(m["Cc"] or "")])}


def _text(m: EmailMessage) -> str:
    body = m.get_body(("plain", "html"))
    return body.get_content() if body is not None else ""


def sent_mail(probe: DesktopProbe, to: str, subject: str) -> float:
    """A mail to ``to`` with exactly ``subject`` went out."""
    ok = any(to.lower() in _to(m) and str(m["Subject"] or "").strip() == subject
             for m in sent(probe))  # fmt: skip
    return 1.0 if ok else 0.0


def junk_emptied(probe: DesktopProbe) -> float:
    """No message is left in the junk folder, and no other folder (but the trash) lost one."""
    if live(messages(probe, MAILDIR, "Junk")):
        return 0.0
    for folder, n in answer(probe).get("counts", {}).items():
        if folder not in ("Junk", "Trash") and len(live(messages(probe, MAILDIR, folder))) < n:
            return 0.0
    return 1.0


def replied(probe: DesktopProbe, text: str) -> float:
    """A reply to Börje's mail (its Message-ID in In-Reply-To) saying ``text`` went out."""
    a = answer(probe)
    for m in sent(probe):
        if a["borje"] in _to(m) and str(m["In-Reply-To"] or "").strip() == a["borje_id"]:
            if text in _text(m):
                return 1.0
    return 0.0


def opened(probe: DesktopProbe) -> float:
    """The mail with the task's subject is marked read (Thunderbird marks a mail read on
    showing it) and no other inbox mail is: its look-alikes and the everyday mail stay unread, so
    clicking down the list until the right one shows does not count (a mail opened by mistake
    may be marked unread again, Thunderbird's "M")."""
    want = answer(probe)["urgent_id"]
    found = False
    for flags, data in messages(probe, MAILDIR, "INBOX"):
        target = str(headers_of(data)["Message-ID"]).strip() == want
        if target and "S" not in flags or not target and "S" in flags:
            return 0.0
        found |= target
    return 1.0 if found else 0.0


_RULE = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def filter_rules(probe: DesktopProbe) -> list[dict[str, list[str]]]:
    """Thunderbird's message filters of the mail account: each a dict of its fields."""
    path = next(
        (f"{PROFILE}/ImapMail/{d}/msgFilterRules.dat" for d in ("127.0.0.1", "127.0.0.1-1")
         if probe.exists(f"{PROFILE}/ImapMail/{d}/msgFilterRules.dat")), None,
    )  # fmt: skip
    if path is None:
        return []
    rules: list[dict[str, list[str]]] = []
    for key, value in _RULE.findall(probe.read_file(path).decode("utf-8", "replace")):
        if key == "name":
            rules.append({})
        if rules:
            rules[-1].setdefault(key, []).append(value)
    return rules


def forwards_all(probe: DesktopProbe, to: str) -> float:
    """An enabled filter on incoming mail, matching every message, forwards to ``to``."""
    for r in filter_rules(probe):
        enabled = r.get("enabled", ["yes"])[0] == "yes"
        incoming = int(r.get("type", ["0"])[0]) & 1  # bit 0: new mail (inbox)
        everything = r.get("condition", [""])[0] == "ALL"
        forwards = any(
            act == "Forward" and val.lower() == to.lower()
            for act, val in zip(r.get("action", []), r.get("actionValue", []), strict=False)
        )
        if enabled and incoming and everything and forwards:
            return 1.0
    return 0.0


def draft_with(probe: DesktopProbe, file: str = "Desktop/aws-bill.pdf") -> float:
    """A saved draft carries ``file`` (same bytes) as an attachment, and nothing was sent."""
    want = probe.read_file(file)
    if any(_attached(m, want) for m in sent(probe)):
        return 0.0
    for _, data in live(messages(probe, MAILDIR, "Drafts")):
        if _attached(headers_of(data), want):
            return 1.0
    return 0.0


def _attached(m: EmailMessage, want: bytes) -> bool:
    return any(part.get_content() == want for part in m.iter_attachments()
               if part.get_content_maintype() != "text")  # fmt: skip
