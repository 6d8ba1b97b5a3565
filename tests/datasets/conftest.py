"""Fixtures for the dataset tests (helpers live in ``dataset_helpers.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dataset_helpers import record


@pytest.fixture(scope="session")
def random_dataset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """Two 12-step episodes of a seeded random state-mode policy (seeds 1 and 2), frames as
    PNG files (the format before frame streams: what old datasets hold)."""
    out = tmp_path_factory.mktemp("random")
    return out, record(out, [1, 2], frames="png")
