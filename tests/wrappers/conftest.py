"""What the wrapper suites need to know about each game: a skill call that walks the player.

It comes from the game's spec (``GameSpec.walk``), so a new game is covered by its spec alone.
"""

from __future__ import annotations

import pytest
from spec_helpers import walk_of

import gcc_envs  # noqa: F401  (registers the ids)


@pytest.fixture
def walk():
    """``walk(env_id)`` gives that env's :class:`~gcc_envs.core.spec.WalkHint`."""
    return walk_of
