"""CapCut → Shotcut: the Cradle paper's five CapCut tasks as Linux twins (``GCC/CapCut-*``).

Shotcut (Debian's, MLT underneath) runs on the env's own Xvfb with a fresh settings file;
the suite makes its own media (:mod:`.media`): clips whose frames spell their numbers, a ball
entering a goal at a seeded second, a tune, stickers, and Shotcut projects (:mod:`.project`).
What each seed varies (file names, the project, its clips' lengths, the seconds to keep, the
sticker and its folder, the goal's time) is listed in ``data/tasks.toml``: two seeds share
all of a task's values with probability at most 1/32.
Checkers (:mod:`.checkers`) read the exported video with ffprobe, ffmpeg and OpenCV.
"""

from __future__ import annotations

from pathlib import Path

from gcc_envs.apps.software.tables import load_tasks
from gcc_envs.core.spec import SuiteSpec

SUITE = SuiteSpec(
    key="capcut",
    title="CapCut",
    version=1,  # the ids' -vN: bump on a change that alters results (card: Version History)
    tasks=load_tasks(Path(__file__).parent / "data" / "tasks.toml"),
    checkers="gcc_envs.apps.capcut.checkers",
    programs=("shotcut", "melt", "ffprobe", "ffmpeg"),
    env_class="gcc_envs.apps.software.suite_env:make_software_env",
    desktop={"screen_size": (1280, 800)},
    setup_steps="gcc_envs.apps.capcut.setup:setup_steps",
    # Shotcut asks before exporting to a drive with under 25 GB free; the home is a tmpfs,
    # which holds only what is written
    home_size=32 << 30,
)
