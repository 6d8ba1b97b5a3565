"""``DesktopBackend``: a real X11 window as a backend (capture with mss, input through XTEST).

The target is a window found by title regex (``target=``), the window of a program it starts
(``launch=``), or, with neither, the whole screen. With ``display=None`` it starts its own
:class:`VirtualDisplay`. Nothing starts before the first ``reset``, so a fresh backend pickles.
Event coordinates are frame pixels (the observation's size), scaled to the window here.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import time
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from gcc_envs.core import events as ev
from gcc_envs.core.backend import PrimitiveEvent
from gcc_envs.errors import BackendError, GCCError

log = logging.getLogger(__name__)

PAUSE_STRATEGIES = ("signal", "focus", "none", "key")


class DesktopBackend:
    """A backend over a real window on an X display."""

    clock_driven = False

    def __init__(
        self,
        obs_size: tuple[int, int] | None = None,
        *,
        target: str | None = None,
        launch: Sequence[str] | None = None,
        display: str | None = None,
        pause: str = "signal",
        screen_size: tuple[int, int] = (1280, 720),
        window_timeout_s: float = 15.0,
    ) -> None:
        if pause not in PAUSE_STRATEGIES:
            raise GCCError(f"pause must be one of {PAUSE_STRATEGIES}, got {pause!r}")
        if pause == "key":
            raise GCCError("pause='key' is not yet supported; use 'signal', 'focus' or 'none'")
        if launch is not None and (
            isinstance(launch, str) or not launch or not all(isinstance(a, str) for a in launch)
        ):
            raise GCCError(f"launch= must be a non-empty list of strings, got {launch!r}")
        H, W = (int(v) for v in obs_size) if obs_size is not None else screen_size[::-1]
        if not (16 <= H <= 4320 and 16 <= W <= 7680):
            raise GCCError(f"obs_size {obs_size!r} out of range: 16..4320 x 16..7680")
        self.size = (W, H)
        self.target = target
        self.launch_argv = list(launch) if launch is not None else None
        self.display_name = display
        self.pause_strategy = pause
        self.screen_size = (int(screen_size[0]), int(screen_size[1]))
        self.window_timeout_s = window_timeout_s
        self._init_runtime()

    def _init_runtime(self) -> None:
        self.vdisplay: Any = None
        self.x: Any = None
        self._grabber: Any = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.window: Any = None
        self._keys: dict[str, list[int]] = {}
        self._buttons: set[int] = set()
        self._stopped_group: int | None = None
        self._closed = False

    # pickling carries the configuration only; a clone starts its own display at reset
    def __getstate__(self) -> dict[str, Any]:
        keep = ("size", "target", "launch_argv", "display_name", "pause_strategy")
        state = {k: self.__dict__[k] for k in keep}
        state.update(screen_size=self.screen_size, window_timeout_s=self.window_timeout_s)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._init_runtime()

    # ------------------------------------------------------------------ lifecycle
    def _start(self) -> None:
        from gcc_envs.backends.desktop.capture import Grabber
        from gcc_envs.backends.desktop.display import VirtualDisplay
        from gcc_envs.backends.desktop.x11 import X11

        if self.x is not None:
            return
        name = self.display_name
        if name is None:
            self.vdisplay = VirtualDisplay(self.screen_size)
            name = self.vdisplay.name
        self.x = X11(name)
        self._grabber = Grabber(name)

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None) -> None:
        self._check_open()
        self.release_all()
        self.resume()
        self._start()
        if self.launch_argv is not None and (self.proc is None or self.proc.poll() is not None):
            self._launch()
        elif self.target is not None:
            self.window = self.x.wait_window(self.window_timeout_s, title=self.target)
        if self.window is not None and not self.x.focus(self.window):
            log.warning("could not focus %r at reset", self.x.title(self.window))

    def _launch(self) -> None:
        from gcc_envs.backends.desktop.display import launch, stop_group

        assert self.launch_argv is not None
        if self.vdisplay is not None:
            self.proc = self.vdisplay.launch(self.launch_argv)
        else:
            self.proc = launch(self.launch_argv, self.x.name)
            weakref.finalize(self, stop_group, self.proc)  # stopped even if never closed
        criteria: dict[str, Any] = {"pid": self.proc.pid}
        if self.target is not None:
            criteria = {"title": self.target}
        self.window = self.x.wait_window(self.window_timeout_s, **criteria)

    @property
    def pid(self) -> int | None:
        """The target program's pid (launched, or the window's ``_NET_WM_PID``)."""
        if self.proc is not None:
            return self.proc.pid
        if self.window is not None:
            return self.x.pid(self.window)
        return None

    def close(self) -> None:
        if self._closed:
            return
        try:
            self.release_all()
            self.resume()
        finally:
            self._closed = True
            from gcc_envs.backends.desktop.display import stop_group

            if self.proc is not None and self.vdisplay is None:
                stop_group(self.proc)
            if self._grabber is not None:
                self._grabber.close()
            if self.x is not None:
                self.x.close()
            if self.vdisplay is not None:
                self.vdisplay.close()
            self.x = self._grabber = self.vdisplay = self.proc = self.window = None

    # ------------------------------------------------------------------ screen
    def _region(self) -> tuple[int, int, int, int]:
        if self.window is None:
            W, H = self.x.screen_size
            return 0, 0, W, H
        g = self.x.geometry(self.window)
        return g.x, g.y, g.width, g.height

    def capture(self) -> np.ndarray:
        self._check_open()
        self._start()
        x, y, w, h = self._region()
        return self._grabber.grab(x, y, w, h, self.x.screen_size, self.size)

    def advance(self, seconds: float) -> None:
        time.sleep(max(0.0, seconds))  # the program runs on its own; input keeps flowing

    def probe(self) -> Any:
        return None

    # ------------------------------------------------------------------ input
    def _guard(self) -> None:
        self._check_open()
        self._start()
        if self.window is None or self.x.is_focused(self.window):
            return
        if not self.x.focus(self.window):
            raise BackendError(
                f"the target window {self.x.title(self.window)!r} is not focused and refused "
                "focus; input not sent"
            )

    def to_screen(self, x: int, y: int) -> tuple[int, int]:
        """Frame pixel ``(x, y)`` → screen pixel, clamped to the window."""
        wx, wy, ww, wh = self._region()
        W, H = self.size
        sx = min(max(int((x + 0.5) * ww / W), 0), ww - 1)
        sy = min(max(int((y + 0.5) * wh / H), 0), wh - 1)
        return wx + sx, wy + sy

    def send(self, event: PrimitiveEvent) -> None:
        from gcc_envs.backends.desktop.x11 import BUTTONS

        self._guard()
        x = self.x
        if isinstance(event, ev.KeyDown):
            if event.key in self._keys:
                return
            stroke = x.stroke(event.key)  # raises InvalidActionError for untypeable keys
            codes = [x.shift_keycode, stroke.keycode] if stroke.shift else [stroke.keycode]
            self._keys[event.key] = []
            for code in codes:
                self._keys[event.key].append(code)
                x.key(code, True)
        elif isinstance(event, ev.KeyUp):
            for code in reversed(self._keys.pop(event.key, [])):
                x.key(code, False)
        elif isinstance(event, ev.MoveTo):
            x.move(*self.to_screen(event.x, event.y))
        elif isinstance(event, ev.MouseDown):
            self._buttons.add(BUTTONS[event.button])
            x.button(BUTTONS[event.button], True)
        elif isinstance(event, ev.MouseUp):
            self._buttons.discard(BUTTONS[event.button])
            x.button(BUTTONS[event.button], False)
        elif isinstance(event, ev.Scroll):
            if event.x is not None and event.y is not None:
                x.move(*self.to_screen(event.x, event.y))
            for amount, neg, pos in ((event.dy, 5, 4), (event.dx, 6, 7)):
                for _ in range(abs(int(amount))):
                    number = pos if amount > 0 else neg
                    x.button(number, True)
                    x.button(number, False)
        else:
            raise BackendError(f"DesktopBackend.send takes primitive events, got {event!r}")

    def release_all(self) -> None:
        if self.x is None:
            self._keys.clear()
            self._buttons.clear()
            return
        try:
            for key in list(self._keys):
                for code in reversed(self._keys.pop(key)):
                    self.x.key(code, False)
            for number in sorted(self._buttons):
                self.x.button(number, False)
        finally:
            self._keys.clear()
            self._buttons.clear()

    # ------------------------------------------------------------------ pause
    def pause(self) -> None:
        if self.x is None or self._closed:
            return
        if self.pause_strategy == "signal" and self._stopped_group is None:
            pid = self.pid
            if pid is not None:
                try:
                    group = os.getpgid(pid)
                    os.killpg(group, signal.SIGSTOP)
                except ProcessLookupError:
                    raise BackendError(
                        f"the target program (pid {pid}) has exited; reset() starts it again"
                    ) from None
                self._stopped_group = group
        elif self.pause_strategy == "focus" and self.window is not None:
            if not self.x.focus_away(self.window):
                log.warning("the target window still reports focus after the focus pause")

    def resume(self) -> None:
        if self._stopped_group is not None:
            group, self._stopped_group = self._stopped_group, None
            try:
                os.killpg(group, signal.SIGCONT)
            except ProcessLookupError:
                pass
        elif self.pause_strategy == "focus" and self.window is not None and self.x is not None:
            self.x.focus(self.window)

    def _check_open(self) -> None:
        if self._closed:
            raise BackendError("this DesktopBackend is closed; make a new env")
