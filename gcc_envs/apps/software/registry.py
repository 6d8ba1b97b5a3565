"""Temporary shim: registers the software twins' ids until the seam's ``SPECS`` list does.

One id per task, ``GCC/<Title>-<Name>`` (``GCC/Chrome-OpenLastClosedPage``), entry point the
suite's env class with ``suite=`` and ``task=``, step limit from the task table.
"""

from __future__ import annotations

import gymnasium as gym

from gcc_envs.core.spec import SuiteSpec, load

#: The software twins' suites (``module:SUITE``).
SUITES = (
    "gcc_envs.apps.chrome:SUITE",
    "gcc_envs.apps.meitu:SUITE",
    "gcc_envs.apps.outlook:SUITE",
    "gcc_envs.apps.capcut:SUITE",
    "gcc_envs.apps.feishu:SUITE",
)


def register_twins() -> None:
    for path in SUITES:
        suite: SuiteSpec = load(path)
        for row in suite.tasks:
            env_id = row.env_id(suite.title)
            if env_id in gym.registry:
                continue
            gym.register(
                id=env_id,
                entry_point=suite.env_class,
                max_episode_steps=row.max_steps,
                nondeterministic=True,
                kwargs={"suite": path, "task": row.key},
            )
