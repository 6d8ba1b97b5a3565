"""Meitu (XiuXiu) → GIMP: the Cradle paper's five Meitu tasks as Linux twins (``GCC/Meitu-*``).

GIMP 2.10 runs on the env's own Xvfb with a fresh profile (single-window mode, no tips) and
the seed's pictures (:mod:`.pictures`): persons on plain backgrounds, landscapes, scenes with
one subject a person names ("the photo of the red boat"), stickers, in a seeded folder. What
each seed varies is listed in ``data/tasks.toml``: two seeds share all of a task's values with
probability at most 1/48.
Checkers (:mod:`.checkers`) compare the saved pictures with the inputs by pixel statistics
and masks, and read saved projects with a small XCF reader (:mod:`.xcf`).
"""

from __future__ import annotations

from pathlib import Path

from gcc_envs.apps.software.tables import load_tasks
from gcc_envs.core.spec import SuiteSpec

SUITE = SuiteSpec(
    key="meitu",
    title="Meitu",
    version=1,  # the ids' -vN: bump on a change that alters results (card: Version History)
    tasks=load_tasks(Path(__file__).parent / "data" / "tasks.toml"),
    checkers="gcc_envs.apps.meitu.checkers",
    programs=("gimp",),
    env_class="gcc_envs.apps.software.suite_env:make_software_env",
    desktop={"screen_size": (1280, 800)},
    setup_steps="gcc_envs.apps.meitu.setup:setup_steps",
)
