"""Fixtures of the OSWorld suite's tests: a probe over an episode sandbox, one desktop env."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import osworld_upstream
import pytest
from osworld_helpers import FolderProbe

from gcc_envs.sandbox import Sandbox, bwrap_missing


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    why = bwrap_missing()
    if why is not None:
        pytest.skip(why)
    with Sandbox() as box:
        yield box


@pytest.fixture
def home(sandbox: Sandbox) -> Path:
    (sandbox.home / "Desktop").mkdir(parents=True)
    return Path(os.path.realpath(sandbox.home))


@pytest.fixture
def probe(sandbox: Sandbox, home: Path) -> FolderProbe:
    return FolderProbe(sandbox)


@pytest.fixture(scope="session")
def osworld_env() -> Iterator[object]:
    """One OSWorld env (one Xvfb display) shared by the desktop tests; each reset is fresh."""
    if shutil.which("Xvfb") is None or shutil.which("openbox") is None:
        pytest.skip("needs Xvfb and openbox (apt-get install xvfb openbox)")
    import gymnasium as gym

    env = gym.make("GCC/OSWorld", disable_env_checker=True)
    yield env
    env.close()


@pytest.fixture(scope="module")
def osworld_agent() -> Iterator[Any]:
    """OSWorld's own ``mm_agents.agent`` (PromptAgent, linearize_accessibility_tree), from the
    ``desktop-env`` wheel that .ci/run downloads (see ``osworld_upstream``)."""
    why = osworld_upstream.missing()
    if why is not None:
        pytest.skip(why)
    with osworld_upstream.load_agent() as agent:
        yield agent


@pytest.fixture
def sandboxed(osworld_env: Any) -> Iterator[Any]:
    """The shared env with ``code="sandbox"`` (code actions run in the episode's sandbox),
    back to ``"parse"`` after the test."""
    if shutil.which("xterm") is None:
        pytest.skip("needs xterm")
    osworld_env.unwrapped.code = "sandbox"
    try:
        yield osworld_env
    finally:
        osworld_env.unwrapped.code = "parse"
