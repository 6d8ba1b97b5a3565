"""The Outlook twin's setup steps: the seeded mail servers, the files, Thunderbird's profile.

``mail_server``: the seed's mailboxes as Maildir under ``~/.local/share/gcc-mail`` (owned by
Debian's ``mail`` user, whom Dovecot runs as: it refuses root) with the task's subject and
extra folders, Dovecot IMAP and the SMTP sink on free loopback ports (:mod:`.servers`), an
``aws-bill.pdf`` in each folder of ``software.pdf.BILL_FOLDERS`` (a different month's each)
with a look-alike next to the one on the Desktop, and the task's bill where it names one by
another name (beside its folder's ``aws-bill.pdf``). ``thunderbird``: a fresh profile with
the account already set up (IMAP without a password, SMTP without authentication, drafts
saved every minute), no first run pages, then Thunderbird itself.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gcc_envs.apps.outlook.mailbox import BORJE, ME, borje_subject, make_mailbox, write_maildir
from gcc_envs.apps.outlook.servers import DOVECOT_IMAP
from gcc_envs.apps.software.desktop import folders, launch, screen_size
from gcc_envs.apps.software.pdf import aws_bill, write_bills
from gcc_envs.apps.software.reading import write_answer
from gcc_envs.errors import GCCError

MAIL = ".local/share/gcc-mail"
MAILDIR = f"{MAIL}/Maildir"
SPOOL = f"{MAIL}/outbox"
PROFILE = ".thunderbird/twin"
MAIL_USER = "mail"  # Debian's system user for mail (uid 8)
DOVECOT_CONF = """mail_location = maildir:{maildir}
first_valid_uid = {uid}
first_valid_gid = {gid}
mail_uid = {uid}
mail_gid = {gid}
log_path = {root}/dovecot.log
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Drafts {{
    special_use = \\Drafts
  }}
  mailbox Sent {{
    special_use = \\Sent
  }}
  mailbox Trash {{
    special_use = \\Trash
  }}
  mailbox Junk {{
    special_use = \\Junk
  }}
  mailbox Archives {{
    special_use = \\Archive
  }}
}}
"""


def _traversable(session: Any, path: Path) -> None:
    """Let the mail user walk down to ``path`` (the episode's folders are private)."""
    for p in [path, *path.parents]:
        os.chmod(p, os.stat(p).st_mode | 0o711)
        if p == session.home:
            break


def mail_server(
    session: Any,
    subject: str = "Urgent meeting",
    extra: str = "",
    topic: str = "",
    bill: str = "",
) -> None:
    """Dovecot IMAP + the SMTP sink on loopback with the seed's mailboxes (``subject``: the
    mail to find; ``extra``: comma-separated extra folders, from ``mailbox.EXTRA``;
    ``topic``: what Börje's mail to reply to is about, among his look-alikes; ``bill``: the
    bill to attach, under the home, written unless it is one of the folders' bills)."""
    import pwd

    if not os.path.exists(DOVECOT_IMAP):
        raise GCCError("Dovecot is not installed (Debian package: dovecot-imapd)")
    folders(session)
    seed = int(session.rng.integers(2**31))
    root = session.home / MAIL
    more = tuple(f.strip() for f in extra.split(",") if f.strip())
    mailbox = make_mailbox(seed, subject, more, topic)
    write_maildir(root / "Maildir", mailbox)
    # Dovecot runs as the episode's own user in its sandbox (unconfined: Debian's mail user,
    # since it refuses root)
    box = getattr(session, "sandbox", None)
    if box is not None:
        uid, gid = box.uid, box.gid
    else:
        user = pwd.getpwnam(MAIL_USER)
        uid, gid = user.pw_uid, user.pw_gid
    conf = DOVECOT_CONF.format(maildir=root / "Maildir", uid=uid, gid=gid, root=root)
    (root / "dovecot.conf").write_text(conf)
    for dirpath, _dirs, files in os.walk(root / "Maildir"):
        os.chown(dirpath, uid, gid)
        for f in files:
            os.chown(os.path.join(dirpath, f), uid, gid)
    _traversable(session, root / "Maildir")
    (root / "dovecot.log").touch()
    os.chown(root / "dovecot.log", uid, gid)
    imap, smtp = session.free_port(), session.free_port()
    py = [sys.executable, "-m", "gcc_envs.apps.outlook.servers"]
    session.start_server([*py, "imap", "--port", str(imap), "--conf", str(root / "dovecot.conf")],
                         port=imap)  # fmt: skip
    session.start_server([*py, "smtp", "--port", str(smtp), "--spool", str(session.home / SPOOL)],
                         port=smtp)  # fmt: skip
    write_bills(session.home, seed)  # one in each of BILL_FOLDERS, another month's each
    if bill and not (session.home / bill).exists():  # a year no folder's bill has
        (session.home / bill).write_bytes(aws_bill(seed, 2025))
    session.files["aws-bill.pdf"] = session.home / "Desktop" / "aws-bill.pdf"
    from gcc_envs.apps.outlook.mailbox import headers_of

    ids = {headers_of(m)["Subject"]: headers_of(m)["Message-ID"] for m in mailbox["INBOX"]}
    write_answer(session.home, imap_port=imap, smtp_port=smtp, borje=BORJE[1],
                 borje_id=ids[borje_subject(topic)], urgent_id=ids[subject],
                 counts={f: len(m) for f, m in mailbox.items()})  # fmt: skip


#: Folders of the Local Folders account a task may add (``thunderbird(local=n)``: the first
#: ``n``; the account is then listed first, above the mail account, moving its folders down).
LOCAL = (
    "Receipts", "Old projects", "Family", "Travel", "Taxes", "Newsletters", "School",
    "Car", "Health", "Insurance", "House", "Volunteering", "Recipes", "Sports", "Photos",
)  # fmt: skip


def _prefs(imap: int, smtp: int, local_first: bool = False) -> dict[str, Any]:
    acc = "mail.server.server1."
    return {
        "mail.accountmanager.accounts": "account2,account1" if local_first else "account1,account2",
        "mail.accountmanager.defaultaccount": "account1",
        "mail.accountmanager.localfoldersserver": "server2",
        "mail.account.account1.identities": "id1",
        "mail.account.account1.server": "server1",
        "mail.account.account2.server": "server2",
        "mail.identity.id1.fullName": ME[0],
        "mail.identity.id1.useremail": ME[1],
        "mail.identity.id1.smtpServer": "smtp1",
        "mail.identity.id1.valid": True,
        "mail.identity.id1.draft_folder": "imap://tester@127.0.0.1/Drafts",
        "mail.identity.id1.fcc_folder": "imap://tester@127.0.0.1/Sent",
        "mail.identity.id1.reply_on_top": 1,
        acc + "hostname": "127.0.0.1", acc + "port": imap, acc + "type": "imap",
        acc + "userName": "tester", acc + "name": ME[1], acc + "authMethod": 1,
        acc + "socketType": 0, acc + "login_at_startup": True, acc + "check_new_mail": True,
        acc + "offline_download": False, acc + "spamActionTargetFolder": "",
        "mail.server.server2.hostname": "Local Folders", "mail.server.server2.name": "Local Folders",
        "mail.server.server2.type": "none", "mail.server.server2.userName": "nobody",
        "mail.smtpservers": "smtp1", "mail.smtp.defaultserver": "smtp1",
        "mail.smtpserver.smtp1.hostname": "127.0.0.1", "mail.smtpserver.smtp1.port": smtp,
        "mail.smtpserver.smtp1.authMethod": 1, "mail.smtpserver.smtp1.try_ssl": 0,
        "mail.smtpserver.smtp1.username": "",
        "mail.compose.autosave": True, "mail.compose.autosaveinterval": 1,
        "mail.shell.checkDefaultClient": False, "mail.rights.version": 1,
        "mailnews.start_page.enabled": False, "mail.provider.suppress_dialog_on_startup": True,
        "mail.spotlight.firstRunDone": True, "mail.winsearch.firstRunDone": True,
        "mail.biff.show_alert": False, "mail.biff.play_sound": False,
        "app.update.enabled": False, "app.update.auto": False,
        "datareporting.policy.dataSubmissionEnabled": False,
        "toolkit.telemetry.reportingpolicy.firstRun": False,
        "mail.inappnotifications.enabled": False, "mail.uifirstrun": False,
        "mailnews.mark_message_read.delay": False, "network.dns.disableIPv6": True,
        "browser.dom.window.dump.enabled": False, "mail.tabs.drawInTitlebar": False,
        # the episode's network is loopback alone: Thunderbird would start offline and not
        # sync until it noticed (sometimes only after its first look at the folders)
        "network.manage-offline-status": False, "offline.autoDetect": False,
        "offline.startup_state": 2,  # always online
    }  # fmt: skip


def thunderbird(
    session: Any, local: int | str = 0, density: int | str = 1, timeout_s: float = 60.0
) -> None:
    """Thunderbird with the account set up against the twin's servers (``mail_server``);
    with ``local`` > 0, that many folders of :data:`LOCAL` in Local Folders, listed first
    and open (the mail account's folders move down); ``density`` is the UI's (0-2)."""
    from gcc_envs.apps.software.reading import ANSWER

    exe = shutil.which("thunderbird")
    if exe is None:
        raise GCCError("Thunderbird is not installed (Debian package: thunderbird)")
    ans = json.loads((session.home / ANSWER).read_text())
    profile = session.home / PROFILE
    profile.mkdir(parents=True, exist_ok=True)
    n = int(local)
    if not 0 <= n <= len(LOCAL):
        raise GCCError(f"thunderbird: local takes 0..{len(LOCAL)} folders, got {local!r}")
    if n:
        mail = profile / "Mail" / "Local Folders"
        mail.mkdir(parents=True, exist_ok=True)
        for name in LOCAL[:n]:
            (mail / name).write_bytes(b"")  # an empty mbox: a folder
        # both accounts' folder lists open (Thunderbird's folderTree.json, mode "all")
        open_ = ["mailbox://nobody@Local%20Folders", "imap://tester@127.0.0.1"]
        (profile / "folderTree.json").write_text(json.dumps({"open": {"all": open_}}))
    prefs = _prefs(ans["imap_port"], ans["smtp_port"], n > 0)
    prefs["mail.uidensity"] = int(density)  # 0 compact, 1 normal, 2 touch: the rows' height
    if n:  # the folder with the folders made above (else Thunderbird makes "Local Folders-1")
        prefs["mail.server.server2.directory-rel"] = "[ProfD]Mail/Local Folders"
    lines = [f"user_pref({json.dumps(k)}, {json.dumps(v)});" for k, v in prefs.items()]
    (profile / "user.js").write_text("\n".join(lines) + "\n")
    W, H = screen_size(session)
    argv = [exe, "--profile", str(profile), "--no-remote", "--width", str(W), "--height", str(H)]
    launch(session, argv, r"Thunderbird", timeout_s)


def setup_steps() -> Mapping[str, Callable[..., None]]:
    """The Outlook suite's own setup step kinds."""
    return {"mail_server": mail_server, "thunderbird": thunderbird}
