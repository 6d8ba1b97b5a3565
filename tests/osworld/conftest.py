"""Fixtures of the OSWorld suite's tests: a folder probe, a fake shell host, one desktop env."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from osworld_helpers import FakeHost, FolderProbe


@pytest.fixture
def home(tmp_path: Path) -> Path:
    h = tmp_path / "home"
    (h / "Desktop").mkdir(parents=True)
    return Path(os.path.realpath(h))


@pytest.fixture
def probe(home: Path) -> FolderProbe:
    return FolderProbe(home)


@pytest.fixture
def host(home: Path) -> FakeHost:
    return FakeHost(home)


@pytest.fixture(scope="session")
def osworld_env() -> Iterator[object]:
    """One OSWorld env (one Xvfb display) shared by the desktop tests; each reset is fresh."""
    if shutil.which("Xvfb") is None or shutil.which("openbox") is None:
        pytest.skip("needs Xvfb and openbox (apt-get install xvfb openbox)")
    import gymnasium as gym

    env = gym.make("GCC/OSWorld", disable_env_checker=True)
    yield env
    env.close()
