"""What the twins' scripted solutions (``agents/scripted/<app>.py``) share.

A solution is a plan written as a generator (:class:`PlanScript`): it reads the instruction
and the first frame, yields one action per env step (events, a :class:`~gcc_envs.Program`,
or code text) and is sent the frame that step produced, so it can look at the screen before
it goes on. It reads
nothing else: no answer key, no program state, no seed. Closed-loop programs (:func:`settle`,
:func:`until`) wait inside one step for the screen to calm down or to show something, so
waiting costs no extra steps. The pixel helpers are pure functions of a frame.

>>> quoted('Post "It\\'s a good day." on my Twitter.')
["It's a good day."]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterable
from typing import Any

import cv2
import numpy as np

from gcc_envs.core.events import Click, Done, Event, Wait
from gcc_envs.core.program import Program
from gcc_envs.errors import GCCError

Action = Any  # a list of events, a Program, or code text
Plan = Generator[Action, "np.ndarray | None", None]

#: Frames are compared at this size when waiting for the screen to settle.
_SMALL = (160, 100)


class PlanScript:
    """A scripted solution as a plan (see the module docstring); ``plan`` is per task.

    ``privileged`` is accepted for the runner's sake and ignored: a twin's script reads only
    the instruction and the frames (the answer a checker reads is never looked at).
    """

    def __init__(self, env: Any, privileged: bool = False) -> None:
        del privileged
        shape = env.observation_space.shape
        #: (W, H) of the frames the script is shown (its clicks are in these pixels).
        self.size = (int(shape[1]), int(shape[0]))
        self._plan: Plan | None = None
        self._started = False  # reset() was called
        self.instruction = ""

    #: The screen the script's pixel coordinates are written for (the twins' screen, W x H).
    SCREEN = (1280, 800)

    def at(self, x: float, y: float) -> tuple[int, int]:
        """Screen pixel (x, y) in the frames the script is shown."""
        (W, H), (sw, sh) = self.size, self.SCREEN
        return round(x * W / sw), round(y * H / sh)

    def click(self, x: float, y: float, count: int = 1) -> Click:
        """A left click (``count`` times) at screen pixel (x, y)."""
        return Click(*self.at(x, y), "left", count)

    def at_screen(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` at the screen's size (the pixel finders work in its pixels)."""
        sw, sh = self.SCREEN
        if frame.shape[:2] == (sh, sw):
            return frame
        return cv2.resize(frame, (sw, sh), interpolation=cv2.INTER_LINEAR)

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:  # pragma: no cover
        raise NotImplementedError  # each task writes its own
        yield

    def reset(self, info: dict[str, Any]) -> None:
        self.instruction = str(info.get("instruction", ""))
        self._plan = None
        self._started = True

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Action:
        del info
        if not self._started:
            raise GCCError("call reset(info) before act()")
        try:
            if self._plan is None:
                self._plan = self.plan(self.instruction, np.asarray(obs))
                return next(self._plan)
            return self._plan.send(np.asarray(obs))
        except StopIteration:  # the plan is spent (and stays so): say DONE
            return Program([Done()])

    def close(self) -> None:
        pass


def quoted(text: str) -> list[str]:
    """The phrases in double quotes in ``text``, in order."""
    return re.findall(r'"([^"]*)"', text)


def after(text: str, marker: str) -> str:
    """The word (up to a space or the end) right after ``marker`` in ``text``."""
    m = re.search(re.escape(marker) + r"\s*(\S+)", text)
    if m is None:
        raise GCCError(f"the instruction has no {marker!r}: {text!r}")
    return m.group(1).rstrip(".,;)")


def _small(frame: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(np.ascontiguousarray(frame), cv2.COLOR_RGB2GRAY)
    return cv2.resize(gray, _SMALL, interpolation=cv2.INTER_AREA).astype(np.int16)


def changed(a: np.ndarray, b: np.ndarray, tol: float = 1.0) -> bool:
    """Whether two frames differ by more than ``tol`` grey levels on average (downscaled)."""
    return float(np.abs(_small(a) - _small(b)).mean()) > tol


def settle(
    events: Iterable[Event] = (),
    *,
    quiet_s: float = 0.8,
    timeout_s: float = 8.0,
    poll_s: float = 0.2,
    ready: Callable[[np.ndarray], bool] | None = None,
    ready_s: float = 30.0,
) -> Program:
    """``events``, then wait until the screen has not changed for ``quiet_s`` (at most
    ``timeout_s``), all in one step. With ``ready``, first wait until ``ready(frame)`` holds
    (at most ``ready_s``: a program still loading what it shows)."""
    first = list(events)

    def run() -> Generator[Event, np.ndarray | None, None]:
        frame = None
        if ready is not None:
            frame, waited = (yield Wait(0.05)), 0.0
            while waited < ready_s and (frame is None or not ready(frame)):
                frame = yield Wait(poll_s)
                waited += poll_s
        for e in first:
            frame = yield e
        last, still, waited = frame, 0.0, 0.0
        while waited < timeout_s and still < quiet_s:
            frame = yield Wait(poll_s)
            waited += poll_s
            if last is None or frame is None or changed(last, frame):
                still = 0.0
            else:
                still += poll_s
            last = frame

    return Program(run)


def until(
    events: Iterable[Event],
    done: Callable[[np.ndarray], bool],
    *,
    timeout_s: float = 10.0,
    poll_s: float = 0.25,
    then_s: float = 0.3,
) -> Program:
    """``events``, then wait until ``done(frame)`` holds (at most ``timeout_s``), then
    ``then_s`` more, in one step."""
    first = list(events)

    def run() -> Generator[Event, np.ndarray | None, None]:
        frame = None
        for e in first:
            frame = yield e
        waited = 0.0
        while waited < timeout_s and (frame is None or not done(frame)):
            frame = yield Wait(poll_s)
            waited += poll_s
        if then_s > 0:
            yield Wait(then_s)

    return Program(run)


def box_of(mask: np.ndarray, min_area: int = 400) -> tuple[int, int, int, int] | None:
    """``(x, y, w, h)`` of the largest connected blob of ``mask`` (None when none is big)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=4)
    if n < 2:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h, area = (int(v) for v in stats[k])
    return (x, y, w, h) if area >= min_area else None


def near(frame: np.ndarray, rgb: tuple[int, int, int], tol: int = 12) -> np.ndarray:
    """Mask of the pixels within ``tol`` of ``rgb`` in every channel."""
    return (np.abs(frame.astype(np.int16) - np.array(rgb, np.int16)) <= tol).all(axis=2)
