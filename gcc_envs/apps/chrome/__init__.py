"""Chrome → Chromium: the Cradle paper's five Chrome tasks as Linux twins (``GCC/Chrome-*``).

Chromium runs on the env's own Xvfb with a throwaway profile; every host name it asks for
goes to a small web the suite serves on 127.0.0.1 (search engine, arXiv, microblog, GitHub,
Wikipedia: :mod:`.sites`), so nothing leaves the machine. Checkers (:mod:`.checkers`) read the
saved PDF, the microblog's received posts, the open tabs and the profile's preferences.
"""

from __future__ import annotations

from pathlib import Path

from gcc_envs.apps.software.tables import load_tasks
from gcc_envs.core.spec import SuiteSpec

SUITE = SuiteSpec(
    key="chrome",
    title="Chrome",
    version=2,  # the ids' -vN: bump on a change that alters results (card: Version History)
    tasks=load_tasks(Path(__file__).parent / "data" / "tasks.toml"),
    checkers="gcc_envs.apps.chrome.checkers",
    programs=("chromium", "openssl"),
    env_class="gcc_envs.apps.software.suite_env:make_software_env",
    desktop={"screen_size": (1280, 800)},
    setup_steps="gcc_envs.apps.chrome.setup:setup_steps",
)
