from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from openai_server import FakeOpenAI  # noqa: E402

pytest.importorskip("openai")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setenv("GCC_TEST_OPENAI_KEY", "test-token")
    s = FakeOpenAI(token="test-token").start()
    try:
        yield s
    finally:
        s.stop()
