"""Feishu → Debian programs: four of the Cradle paper's five Feishu tasks as Linux twins
(``GCC/Feishu-*``).

A calendar app writing an iCalendar store (Orage, ``~/.local/share/orage/orage.ics``; its time
zone is the one where the episode starts between noon and 1 pm, so "later today" always has an
afternoon left, and the checker reads "today" in that zone), and a
chat server with a desktop client (ngIRCd on 127.0.0.1 and HexChat) whose contacts (Cradle,
Börje and four more) are small IRC clients recording what they receive, files sent by DCC
included (:mod:`.chat`). The fifth task, "Create a new meeting and meet now", is live-only: no
program here holds a meeting offline with an end state a checker can read (Debian's Mumble server
and client could be one; not built), so it exists only as a live profile for the real app.
"""

from __future__ import annotations

from pathlib import Path

from gcc_envs.apps.software.tables import load_tasks
from gcc_envs.core.spec import SuiteSpec, SuiteTask

#: Keys of the tasks with no Linux twin: they run only on the real app, through any Feishu id
#: with ``task=`` and ``live=True`` (no id of their own: an id is a twin every suite test makes).
LIVE_ONLY = ("meet_now",)
MEET_NOW = SuiteTask(
    key="meet_now", name="MeetNow", max_steps=20, instruction="Create a new meeting and meet now.",
    expected_steps=3, checker="live_only", registered=False,
)  # fmt: skip

SUITE = SuiteSpec(
    key="feishu",
    title="Feishu",
    version=3,  # the ids' -vN: bump on a change that alters results (card: Version History)
    tasks=(*load_tasks(Path(__file__).parent / "data" / "tasks.toml"), MEET_NOW),
    checkers="gcc_envs.apps.feishu.checkers",
    programs=("ngircd", "hexchat", "orage"),
    env_class="gcc_envs.apps.software.suite_env:make_software_env",
    desktop={"screen_size": (1280, 800)},
    setup_steps="gcc_envs.apps.feishu.setup:setup_steps",
)
