"""The generic desktop env: any program's window as an environment, with no built-in task."""

from __future__ import annotations

import string
from typing import Any

from gcc_envs.core.backend import Backend
from gcc_envs.core.env import GCCEnv
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.errors import GCCError

#: The ``state`` action mode's keys: letters, digits and the common named keys.
KEYS: tuple[str, ...] = (
    *string.ascii_lowercase,
    *string.digits,
    "enter",
    "esc",
    "tab",
    "space",
    "backspace",
    "up",
    "down",
    "left",
    "right",
    "shift",
    "ctrl",
    "alt",
)


class OpenTask(Task):
    """No success check: the instruction comes from ``reset(options={"instruction": ...})``."""

    name = "Open"
    instruction = "Use the computer as you are instructed."
    max_steps = 100

    def evaluate(self, probe: Any) -> TaskStatus:
        return TaskStatus()


class DesktopEnv(GCCEnv):
    """Any desktop program's window as an env: its pixels in, keyboard and mouse out.

    ## Description
    For users who bring their own program: ``GCC/Desktop`` captures one window (found by a title
    regular expression, ``target=``, or started with ``launch=[...]``) or, with neither, the
    whole screen, and sends real input to it through XTEST. There is no built-in task.
    Exercised on Linux/X11 under Xvfb only; Windows and macOS are not yet supported.

    ## Action Space
    ``action_mode="event"`` (default): one computer_13 operation per step (see
    :class:`gcc_envs.core.spaces.EventActions`); coordinates are observation pixels, scaled to
    the window. ``action_mode="state"``: ``Dict(keys=MultiBinary(50), buttons, mouse, scroll)``
    over letters, digits and ``enter esc tab space backspace up down left right shift ctrl alt``.
    Every step also takes a ``Program``, a list of events, or pyautogui code text.

    ## Observation Space
    ``Box(0, 255, (H, W, 3), uint8)``: the window captured with ``mss`` and resized (INTER_AREA)
    to ``obs_size=(H, W)`` (default 720×1280).

    ## Rewards
    Always 0: no built-in task.

    ## Starting State
    ``reset`` starts the display and the program if needed (and relaunches it if it exited),
    finds and focuses the window. ``info["instruction"]`` is ``options["instruction"]`` if given.

    ## Episode End
    Never terminated by the env except by ``DONE``/``FAIL``; truncated after 100 steps.

    ## Arguments
    ``target`` (title regex), ``launch`` (command list, run in its own process group),
    ``display`` (an X display name such as ``":0"``; ``None`` starts Xvfb + openbox),
    ``screen_size`` of that Xvfb (W, H), ``pause`` (``"signal"``, ``"focus"`` or ``"none"``),
    ``obs_size``, ``action_mode`` (``"event"``), ``time_mode`` (``"paused"`` or ``"realtime"``;
    lockstep is refused: a real program runs in real time), ``fps``, ``step_seconds`` (0.25),
    ``render_mode`` (``"rgb_array"``).

    ## Version History
    * v0 (unversioned id): first release (X11 only).
    """

    def __init__(
        self,
        backend: Backend,
        task: str = "open",
        *,
        action_mode: str = "event",
        time_mode: str = "paused",
        fps: float = 2.0,
        step_seconds: float = 0.25,
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        if kwargs:
            raise GCCError(f"DesktopEnv got unknown arguments: {sorted(kwargs)}")
        if task != "open":
            raise GCCError(f"GCC/Desktop has one task, 'open'; got {task!r}")
        super().__init__(
            backend,
            OpenTask(),
            keys=KEYS,
            action_mode=action_mode,
            time_mode=time_mode,
            fps=fps,
            step_seconds=step_seconds,
            render_mode=render_mode,
        )
