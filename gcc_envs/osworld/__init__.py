"""OSWorld on a local desktop: task files in, execution-based scores out (``GCC/OSWorld``).

``SUITE`` is the suite's spec (45 bundled tasks, ids ``GCC/OSWorld-<domain>-<id8>``, and the
open id ``GCC/OSWorld`` that takes its task at reset). ``DesktopEnv`` is a drop-in for
OSWorld's own ``desktop_env.DesktopEnv`` (imported lazily: the spec is cheap to import).
"""

from __future__ import annotations

from typing import Any

from gcc_envs.core.spec import SuiteSpec, SuiteTask
from gcc_envs.osworld.bundled import BUNDLED

#: OSWorld's step limit per task.
MAX_STEPS = 15

SUITE = SuiteSpec(
    key="osworld",
    title="OSWorld",
    version=0,  # the ids' -vN: bump on a change that alters results (card: Version History)
    tasks=tuple(
        SuiteTask(
            key=task_id,
            name=f"{domain}-{task_id[:8]}",
            max_steps=MAX_STEPS,
            checker="osworld",
            checker_args={"task": task_id},
            infeasible=infeasible,
            group=domain,
        )
        for domain, task_id, infeasible in BUNDLED
    ),
    checkers="gcc_envs.osworld.checkers",
    programs=(
        "Xvfb",
        "openbox",
        "chromium",
        "vlc",
        "gimp",
        "soffice",
        "xterm",
        "dbus-daemon",
        "gsettings",
        "setpriv",
    ),  # fmt: skip
    env_class="gcc_envs.osworld.env:OSWorldEnv",
    setup_steps="gcc_envs.osworld.setup:suite_steps",
    open_id="GCC/OSWorld",
    open_max_steps=MAX_STEPS,
    desktop={"screen_size": (1920, 1080), "pause": "none"},
)


def __getattr__(name: str) -> Any:
    if name == "DesktopEnv":
        from gcc_envs.osworld.adapter import DesktopEnv

        return DesktopEnv
    raise AttributeError(f"module 'gcc_envs.osworld' has no attribute {name!r}")


__all__ = ["SUITE", "MAX_STEPS", "DesktopEnv"]
