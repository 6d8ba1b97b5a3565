"""Programs: the input one ``step`` carries out.

A :class:`Program` is either a fixed sequence of events (open loop) or a generator that yields
events and receives the current frame after each one (closed loop), so a skill can look at the
screen while it runs — ``go_through_door()`` walks until the door is reached, then stops.

No program takes more than :data:`MAX_PROGRAM_S` game seconds (the holds, glides, gaps and
waits of its events, :func:`~gcc_envs.core.expand.event_seconds`): an open-loop one that would
is refused whole when it is made; a closed-loop one is cut before the event that would pass
the limit (:class:`InvalidActionError` either way).

>>> from gcc_envs.core.events import KeyPress
>>> Program([KeyPress("w", 1.0)]).closed_loop
False
>>> def walk():
...     frame = yield KeyPress("w", 0.5)
...     if frame.mean() < 128:
...         yield KeyPress("s", 0.5)
>>> Program(walk).closed_loop
True
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

import numpy as np

from gcc_envs.core.events import Event
from gcc_envs.core.expand import event_seconds
from gcc_envs.errors import InvalidActionError

ProgramGen = Generator[Event, "np.ndarray | None", Any]
ProgramSource = Iterable[Event] | Callable[[], ProgramGen] | ProgramGen

#: Most events one program may yield in one step (a runaway closed loop is cut here).
MAX_PROGRAM_EVENTS = 5000
#: Most game seconds one program may take in one step.
MAX_PROGRAM_S = 300.0


class Program:
    """Input for one step: events, or a generator of events that receives frames."""

    __slots__ = ("_events", "_factory", "fresh_input", "name")

    def __init__(
        self, source: ProgramSource, name: str | None = None, *, fresh_input: bool = False
    ) -> None:
        self.name = name
        #: True for a skill: it starts from nothing held, so the env lets go of keys and
        #: buttons an earlier raw action left down before running it.
        self.fresh_input = fresh_input
        self._events: tuple[Event, ...] | None = None
        self._factory: Callable[[], ProgramGen] | None = None
        if isinstance(source, Generator):
            gen = source
            used = []

            def once() -> ProgramGen:
                if used:
                    raise InvalidActionError("this program's generator has already run")
                used.append(True)
                return gen

            self._factory = once
        elif callable(source):
            self._factory = source
        else:
            try:
                events = tuple(source)
            except TypeError:
                raise InvalidActionError(
                    f"a Program needs events or a generator, got {type(source).__name__}"
                ) from None
            bad = [e for e in events if not isinstance(e, Event)]
            if bad:
                raise InvalidActionError(f"not an input event: {bad[0]!r}")
            seconds = sum(event_seconds(e) for e in events)
            if seconds > MAX_PROGRAM_S:
                raise InvalidActionError(
                    f"program {name or ''} takes {seconds:.6g} game seconds; one step may take "
                    f"at most {MAX_PROGRAM_S:.0f} (split it over several steps)"
                )
            self._events = events

    @property
    def closed_loop(self) -> bool:
        """True when the program reads frames while it runs."""
        return self._factory is not None

    @property
    def events(self) -> tuple[Event, ...]:
        """The events of an open-loop program."""
        if self._events is None:
            raise InvalidActionError("a closed-loop program has no fixed event list")
        return self._events

    def start(self) -> ProgramGen:
        """A fresh generator: ``next`` gives the first event, ``send(frame)`` the next ones."""
        if self._events is not None:
            return _replay(self._events)
        assert self._factory is not None
        gen = self._factory()
        if not isinstance(gen, Generator):
            raise InvalidActionError(
                f"program {self.name or ''} did not produce a generator (got {type(gen).__name__})"
            )
        return _bounded(gen, self.name)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __repr__(self) -> str:
        body = "closed-loop" if self.closed_loop else f"{len(self.events)} events"
        return f"Program({self.name or ''}, {body})"


def _replay(events: tuple[Event, ...]) -> ProgramGen:
    # Not ``yield from``: closed-loop callers send frames, which a tuple iterator can't take.
    for e in events:  # noqa: UP028
        yield e


def _bounded(gen: ProgramGen, name: str | None) -> ProgramGen:
    """``gen``, stopped before the event that would take it past :data:`MAX_PROGRAM_S`."""
    spent = 0.0
    try:
        event = next(gen)
        while True:
            if isinstance(event, Event):  # the env refuses anything else itself
                spent += event_seconds(event)
                if spent > MAX_PROGRAM_S:
                    raise InvalidActionError(
                        f"program {name or ''} stopped: its next event, {event!r}, would take "
                        f"it past {MAX_PROGRAM_S:.0f} game seconds in one step"
                    )
            frame = yield event
            event = gen.send(frame)
    except StopIteration as stop:
        return stop.value
    finally:
        gen.close()


def sequence(parts: Iterable[Event | Program], name: str | None = None) -> Program:
    """One program that runs ``parts`` (events and programs) one after another.

    Open-loop parts stay open-loop; if any part is closed-loop the result forwards frames to it.
    """
    parts = tuple(parts)
    fresh = any(isinstance(p, Program) and p.fresh_input for p in parts)
    if all(isinstance(p, Event) or not p.closed_loop for p in parts):
        flat: list[Event] = []
        for p in parts:
            flat.extend([p] if isinstance(p, Event) else p.events)
        return Program(flat, name=name, fresh_input=fresh)

    def run() -> ProgramGen:
        for p in parts:
            if isinstance(p, Event):
                yield p
                continue
            gen = p.start()
            try:
                event = next(gen)
                while True:
                    frame = yield event
                    event = gen.send(frame)
            except StopIteration:
                pass
            finally:
                gen.close()

    return Program(run, name=name, fresh_input=fresh)
