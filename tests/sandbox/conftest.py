"""Fixtures of the sandbox's tests: sandboxes (skipped, with the reason, where none can be made)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from gcc_envs.sandbox import Limits, Sandbox, bwrap_missing


@pytest.fixture
def make_sandbox() -> Iterator[Callable[..., Sandbox]]:
    """``make_sandbox(limits=None)``: a new sandbox, closed after the test."""
    why = bwrap_missing()
    if why is not None:
        pytest.skip(why)
    made: list[Sandbox] = []

    def make(limits: Limits | None = None, display: str | None = None) -> Sandbox:
        made.append(Sandbox(display, limits))
        return made[-1]

    yield make
    for box in made:
        box.close()


@pytest.fixture
def box(make_sandbox: Callable[..., Sandbox]) -> Sandbox:
    return make_sandbox()
