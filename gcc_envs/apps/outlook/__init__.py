"""Outlook → Thunderbird: the Cradle paper's six Outlook tasks as Linux twins (``GCC/Outlook-*``).

Thunderbird runs on the env's own Xvfb with a fresh profile whose account talks to a real
mail server on 127.0.0.1 — Debian's Dovecot IMAP over the seed's Maildir, and an SMTP sink
that keeps what is sent (:mod:`.servers`). Checkers (:mod:`.checkers`) read the mailboxes,
the sink's spool and Thunderbird's filter rules.
"""

from __future__ import annotations

from pathlib import Path

from gcc_envs.apps.software.tables import load_tasks
from gcc_envs.core.spec import SuiteSpec

SUITE = SuiteSpec(
    key="outlook",
    title="Outlook",
    version=3,  # the ids' -vN: bump on a change that alters results (card: Version History)
    tasks=load_tasks(Path(__file__).parent / "data" / "tasks.toml"),
    checkers="gcc_envs.apps.outlook.checkers",
    programs=("thunderbird", "/usr/lib/dovecot/imap"),
    env_class="gcc_envs.apps.software.suite_env:make_software_env",
    desktop={"screen_size": (1280, 800)},
    setup_steps="gcc_envs.apps.outlook.setup:setup_steps",
)
