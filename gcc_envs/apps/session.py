"""``DesktopSession``: what a desktop suite's setup steps may do to the env's own desktop.

A suite's task table lists setup steps as data (``SetupStep(kind, args)``). Each kind is a
function ``step(session, **args)``: the common kinds live with the suite env, a suite adds its
own (``SuiteSpec.setup_steps``). A step never runs a shell string: programs are argument
lists, started with the episode's environment (``DISPLAY``, a fresh ``HOME`` and XDG folders
inside it), and every program and server it starts is stopped when the episode ends or the
env closes. Servers bind 127.0.0.1 only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol, TypeVar, runtime_checkable

import numpy as np

from gcc_envs.core.probe import RunResult

T = TypeVar("T")


@runtime_checkable
class DesktopSession(Protocol):
    """The desktop of one episode, as setup steps use it."""

    #: The episode's home folder (fresh per episode, removed at close).
    home: Path
    #: The X display name (``":99"``).
    display: str
    #: The environment every program of the episode gets.
    env: Mapping[str, str]
    #: Files and folders the setup created, by name (checkers read them through the probe).
    files: dict[str, Path]
    #: Values later steps may name as ``$name`` (a local server's URL, a port).
    vars: dict[str, str]
    #: The episode's seeded generator (what the seed varies is drawn from it).
    rng: np.random.Generator

    def launch(
        self, argv: Sequence[str], *, window: str | None = None, timeout_s: float = 20.0
    ) -> int:
        """Start a program (stopped at the episode's end); with ``window`` (a title regex),
        wait until such a window is mapped and make it the env's target. Returns its PID."""
        ...

    def run(self, argv: Sequence[str], timeout_s: float = 10.0) -> RunResult:
        """Run a program to completion (killed at ``timeout_s``), output captured."""
        ...

    def start_server(
        self,
        argv: Sequence[str],
        *,
        port: int | None = None,
        ready_timeout_s: float = 10.0,
    ) -> int:
        """Start a server that must listen on ``127.0.0.1:port`` within ``ready_timeout_s``
        (stopped, with its process group, at the episode's end). Returns its PID."""
        ...

    def free_port(self) -> int:
        """A free TCP port on the episode's loopback (127.0.0.1 inside its sandbox)."""
        ...

    def in_network(self, fn: Callable[[], T]) -> T:
        """``fn()`` run with the episode's loopback as its network: a client of the
        episode's servers made here reaches them (its sockets stay in the episode)."""
        ...

    def focus(self, title: str, timeout_s: float = 5.0) -> None:
        """Focus the window whose title matches ``title`` (and make it the env's target)."""
        ...

    def on_close(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` when the episode ends (after its programs are stopped)."""
        ...
