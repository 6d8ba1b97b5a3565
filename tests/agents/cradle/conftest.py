from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.cradle.testing import FakeOpenAI

pytest.importorskip("openai")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setenv("GCC_TEST_OPENAI_KEY", "test-token")
    s = FakeOpenAI(token="test-token").start()
    try:
        yield s
    finally:
        s.stop()
