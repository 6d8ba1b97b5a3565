"""Temporary shim: registers the software twins' ids until the seam's ``SPECS`` list does.

One id per task, ``GCC/<Title>-<Name>`` (``GCC/Chrome-OpenLastClosedPage``), entry point the
suite's env class with ``suite=`` and ``task=``, step limit from the task table.
"""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium as gym

from gcc_envs.core.spec import SuiteSpec, TaskSpec, load
from gcc_envs.errors import GCCError

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
                entry_point="gcc_envs.apps.software.registry:make_software_env",
                max_episode_steps=row.max_steps,
                nondeterministic=True,
                kwargs={"suite": path, "task": row.key},
            )
        for row in live_only(path):
            env_id = row.env_id(suite.title)
            if env_id not in gym.registry:
                gym.register(
                    id=env_id,
                    entry_point="gcc_envs.apps.software.registry:make_software_env",
                    max_episode_steps=row.max_steps,
                    nondeterministic=True,
                    kwargs={"suite": path, "task": row.key, "live_only": True},
                )


def live_only(suite: str) -> tuple[TaskSpec, ...]:
    """The suite's tasks that have no Linux twin (its package's ``LIVE_ONLY``)."""
    module = suite.partition(":")[0]
    return tuple(getattr(importlib.import_module(module), "LIVE_ONLY", ()))


def make_software_env(
    *, suite: str, task: str, backend: str | None = None, live_only: bool = False, **kwargs: Any
):
    """A twin on Linux (``backend=None``/``"twin"``) or the real app (``backend="desktop"``,
    which needs ``judge=``: see :mod:`gcc_envs.apps.software.live_env`)."""
    if live_only and backend != "desktop":
        raise GCCError(
            f"task {task!r} of {suite} has no Linux twin (nothing here can hold it offline); "
            "run it on the real app: backend='desktop', judge='human' | 'template:PNG' | "
            "'lmm:<model>@<base_url>'"
        )
    if backend in (None, "twin"):
        spec: SuiteSpec = load(suite)
        return load(spec.env_class)(suite=suite, task=task, **kwargs)
    if backend == "desktop":
        from gcc_envs.apps.software.live_env import LiveEnv

        return LiveEnv(suite, task, **kwargs)
    raise GCCError(
        f"backend must be 'twin' (Linux twin) or 'desktop' (the real app), got {backend!r}"
    )
