"""Judges: who decides success when the env cannot read the program's internals.

On a real screen a task's check has no simulator state to read, so success is an explicit
choice, ``judge=``:

* ``"state-file:<path>"`` — the program publishes its state as JSON (``gcc-gym play
  --state-file``); the game's mirror rebuilds it, and the game's own task check runs on it.
  The mirror also stands in for the simulator (``backend.sim``) so privileged scripts plan.
* ``"template:<png>"`` — success when the template appears on the screen (cv2 matching).
* ``"human"`` — a person answers on the terminal when the episode ends.
* ``None`` — success is never claimed; ``info["judge"]`` is ``None``.

A judge is a task decorator (:class:`JudgedTask`) that the env factory applies when it builds
an env for a real screen: the backend's probe is what the judge read (a :class:`Verdict`, or a
state-file judge's rebuilt game state, which the game's own task checks), ``info["judge"]``
names the judge, and a human judge is asked once when the episode ends.

Judges run in the env's process and read the screen and files through the backend's
primitives (``read_file``, ``grab_window``), so a remote desktop judges the same way: its
server serves the primitives (one file, the window's pixels) and judges nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gcc_envs.core.image_match import load_template, match_score
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.core.verdict import Verdict
from gcc_envs.errors import BackendError, GCCError

JUDGES = ("state-file:<path>", "template:<png>", "human", None)


class NoJudge:
    """No judge: success is never claimed on a real game."""

    spec: str | None = None

    def probe(self, backend: Any) -> Verdict:
        return Verdict(False, None)


class StateFileJudge:
    """Reads the JSON a program publishes (atomically replaced), through the backend's
    ``read_file`` (a remote desktop's server serves that one file), and rebuilds its state.

    ``probe`` waits for a publication made after it was called (two new ``frame`` numbers,
    so the input sent before the call has been seen), up to ``timeout_s``. While the backend
    is paused and has sent nothing since (its ``input_serial``), or for ``reuse_s`` after a
    read while it runs, the last probe is reused: planners read the state thousands of times.
    While the program is stopped (the ``signal`` pause) the last publication is read as is.
    """

    def __init__(
        self, path: str | Path, mirror: Any = None, timeout_s: float = 3.0, reuse_s: float = 0.03
    ) -> None:
        self.path = Path(path)
        self.spec = f"state-file:{self.path}"
        self.mirror = mirror
        self.timeout_s = timeout_s
        self.reuse_s = reuse_s
        self._last: tuple[Any, float, Any] | None = None  # (serial, time, probe)

    @property
    def sim(self) -> Any:
        """The mirror's simulator view (for scripts that plan with ``sim.walkable``), or None."""
        return getattr(self.mirror, "sim", None)

    def read(self, backend: Any) -> dict[str, Any] | None:
        """The latest publication, or None when there is none yet (``backend.read_file``)."""
        raw = backend.read_file(self.path)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except ValueError as e:
            raise BackendError(f"cannot read the state file {self.path}: {e}") from e
        if not isinstance(data, dict):
            raise BackendError(f"the state file {self.path} does not hold a JSON object")
        return data

    def fresh(self, backend: Any, timeout_s: float | None = None) -> dict[str, Any]:
        """A publication made after this call (see the class docstring)."""
        deadline = time.monotonic() + (self.timeout_s if timeout_s is None else timeout_s)
        first: int | None = None
        while True:
            data = self.read(backend)
            frame = None if data is None else data.get("frame")
            if isinstance(frame, int):
                if first is None:
                    first = frame
                elif frame >= first + 2:
                    return data  # type: ignore[return-value]
            if time.monotonic() > deadline:
                raise BackendError(
                    f"the state file {self.path} was not updated for "
                    f"{self.timeout_s:.0f} s; is the program running and publishing?"
                )
            time.sleep(0.005)

    def wait_ready(self, backend: Any) -> None:
        """Wait (up to ``timeout_s``) until the program publishes (the backend's reset)."""
        self._last = None
        self.fresh(backend)

    def probe(self, backend: Any) -> Any:
        serial = getattr(backend, "input_serial", None)
        if self._last is not None and serial is not None and self._last[0] == serial:
            age = time.monotonic() - self._last[1]
            if getattr(backend, "paused", False) or age < self.reuse_s:
                return self._last[2]
        if getattr(backend, "frozen", False):  # stopped by a signal: the last word is final
            data = self.read(backend)
            if data is None:
                raise BackendError(f"the state file {self.path} does not exist yet")
        else:
            data = self.fresh(backend)
        probe = data if self.mirror is None else self.mirror.load(data)
        self._last = (serial, time.monotonic(), probe)
        return probe


class TemplateJudge:
    """Success when ``template`` (a PNG here) appears in the window's pixels at their own size
    (the backend's ``grab_window``; normalised correlation)."""

    def __init__(self, template: str | Path, threshold: float = 0.9) -> None:
        self.spec = f"template:{template}"
        self.template = load_template(template)
        self.threshold = threshold

    def probe(self, backend: Any) -> Verdict:
        score = match_score(backend.grab_window(), self.template)
        return Verdict(score >= self.threshold, self.spec)


class HumanJudge:
    """A person decides at episode end (``ask`` is ``input`` unless given)."""

    spec = "human"

    def __init__(self, ask: Callable[[str], str] = input) -> None:
        self.ask = ask

    def probe(self, backend: Any) -> Verdict:
        return Verdict(False, "human")  # nothing is claimed until the end

    def decide(self, instruction: str) -> bool:
        answer = self.ask(f"Episode over. Task: {instruction}\nWas it done? [y/N] ")
        return answer.strip().lower() in ("y", "yes")


def make_judge(spec: Any, mirror_factory: Callable[[], Any] | None = None) -> Any:
    """The judge for ``judge=``: a spec string, a judge object, or None (:class:`NoJudge`)."""
    if spec is None:
        return NoJudge()
    if not isinstance(spec, str):
        if not callable(getattr(spec, "probe", None)):
            raise GCCError(f"judge= must be a spec string or have probe(backend), got {spec!r}")
        return spec
    kind, _, arg = spec.partition(":")
    if kind == "state-file" and arg:
        return StateFileJudge(arg, mirror_factory() if mirror_factory is not None else None)
    if kind == "template" and arg:
        return TemplateJudge(arg)
    if spec == "human":
        return HumanJudge()
    raise GCCError(f"unknown judge {spec!r}; use one of {JUDGES}")


def remote_judge(
    spec: Any, mirror_factory: Callable[[], Any] | None = None, game: bool = False
) -> Any:
    """The judge for ``judge=`` on a remote desktop, run here like a local one: a state file
    is read through the server (which must share that file: ``serve-desktop --state-file``), a
    template is matched against the server's window pixels, a person answers here; a game
    without a judge gets :class:`NoJudge` (success never claimed), anything else None."""
    if spec is None:
        return NoJudge() if game else None
    if not isinstance(spec, str):
        raise GCCError(f"on a remote desktop judge= must be a spec string, got {spec!r}")
    return make_judge(spec, mirror_factory)


class JudgedTask(Task):
    """A task whose probe may be a judge's :class:`Verdict` instead of the game's state."""

    def __init__(self, inner: Task, judge: Any) -> None:
        self.inner = inner
        self.judge = judge
        #: What ``info["judge"]`` says: the spec, or the class name of a judge object.
        self.judge_name = getattr(judge, "spec", type(judge).__name__)
        self.name = inner.name
        self.instruction = inner.instruction
        self.max_steps = inner.max_steps
        self.max_game_s = inner.max_game_s
        self.success_reward = inner.success_reward
        self.shaping = inner.shaping
        self.infeasible = inner.infeasible

    def reset_options(self) -> dict[str, Any]:
        return self.inner.reset_options()

    def begin(self, probe: Any) -> None:
        if not isinstance(probe, Verdict):
            self.inner.begin(probe)

    def evaluate(self, probe: Any) -> TaskStatus:
        if isinstance(probe, Verdict):
            return TaskStatus(progress=float(probe.success), success=probe.success)
        return self.inner.evaluate(probe)

    def final(self, probe: Any, status: TaskStatus) -> TaskStatus:
        if isinstance(self.judge, HumanJudge) and not (status.success or status.failure):
            if self.judge.decide(self.instruction):
                return TaskStatus(progress=1.0, success=True, metrics=status.metrics)
            return status
        if isinstance(probe, Verdict):
            return status
        return self.inner.final(probe, status)

    def reward(self, before: TaskStatus, after: TaskStatus) -> float:
        return self.inner.reward(before, after)

    def extra_info(self) -> dict[str, Any]:
        return {**self.inner.extra_info(), "judge": self.judge_name}
