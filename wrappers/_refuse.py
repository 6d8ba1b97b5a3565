"""A program that runs nothing and makes the env report why: how action wrappers refuse input.

Wrappers turn their actions into input and pass it down with ``self.env.step``, so every wrapper
below still sees the step. When a wrapper cannot accept an action it passes :func:`refused`
down instead: the env runs no input, lets the step's time pass, counts an invalid action and
puts ``message`` in ``info["last_action_error"]`` — exactly as it does for its own bad input.

>>> refused("no such skill").closed_loop
True
"""

from __future__ import annotations

from gcc_envs.core.program import Program, ProgramGen
from gcc_envs.errors import InvalidActionError


def refused(message: str) -> Program:
    """A program that raises ``InvalidActionError(message)`` before it yields any event."""

    def run() -> ProgramGen:
        raise InvalidActionError(message)
        yield  # pragma: no cover - makes this a generator function

    return Program(run, name="refused")
