"""``GCC/Desktop`` (any window, no task) and the ``GCC/Desktop-<Task>`` suite.

``SUITE`` is the suite's spec: three small tasks on real Debian programs — a terminal
(xterm), a text editor (mousepad) and a web browser (Chromium) — each checked by a program
reading the end state (:mod:`.checkers`). The table is ``data/tasks.toml``.
"""

from pathlib import Path

from gcc_envs.apps.table import load_tasks
from gcc_envs.core.spec import SuiteSpec

SUITE = SuiteSpec(
    key="desktop",
    title="Desktop",
    version=0,  # the ids' -vN: bump on a change that alters results (card: Version History)
    tasks=load_tasks(Path(__file__).parent / "data" / "tasks.toml"),
    checkers="gcc_envs.apps.desktop.checkers",
    programs=("xterm", "mousepad", "chromium"),
    setup_steps="gcc_envs.apps.desktop.steps:kinds",
    open_id="GCC/Desktop",
)
