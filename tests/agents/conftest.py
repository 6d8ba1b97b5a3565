"""Fixtures of the agents' tests: the loopback fake OpenAI endpoint."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.cradle.testing import FakeOpenAI


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    """A fake OpenAI-compatible endpoint on 127.0.0.1, its token in ``GCC_TEST_OPENAI_KEY``."""
    monkeypatch.setenv("GCC_TEST_OPENAI_KEY", "test-token")
    s = FakeOpenAI(token="test-token").start()
    try:
        yield s
    finally:
        s.stop()
