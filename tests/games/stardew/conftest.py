"""Fixtures for the Stardew simulator tests (helpers live in ``stardew_helpers.py``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from gcc_envs.games.stardew.sim import GameData, StardewSim, load_data


@pytest.fixture(scope="session")
def data() -> GameData:
    return load_data()


@pytest.fixture
def make(data: GameData) -> Callable[..., StardewSim]:
    def _make(scenario: str = "default", seed: int = 0) -> StardewSim:
        sim = StardewSim(data)
        sim.reset(np.random.default_rng(seed), {"scenario": scenario})
        return sim

    return _make
