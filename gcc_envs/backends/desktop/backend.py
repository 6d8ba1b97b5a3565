"""``DesktopBackend``: a real X11 window as a backend (capture with mss, input through XTEST).

The target is a window found by title regex (``target=``, or a game profile's
``window_title``), the window of a program it starts (``launch=``), or, with neither, the whole
screen. With ``display=None`` it starts its own :class:`VirtualDisplay`. Nothing starts before
the first ``reset``, so a fresh backend pickles. Event coordinates are frame pixels (the
observation's size), scaled to the window here and clamped to it.

Pause strategies: ``signal`` (SIGSTOP/SIGCONT the program's own processes, never this process,
the X server or the window manager: see :mod:`.procs`), ``focus`` (give
the keyboard focus away; games that pause when unfocused stop), ``key`` (tap ``pause_key`` and
confirm the pause screen by ``pause_template``, see :mod:`.pause_key`) and ``none``. With
``focus`` and ``key`` the keys held when pausing are released first and pressed again after
resuming, as a player would.

Guards: input is sent only while the target window has the keyboard focus (refocused once,
else the event is refused with :class:`BackendError`); a tap is held at least
:data:`MIN_TAP_S` and consecutive key presses are :data:`MIN_KEY_GAP_S` apart; every error
path releases what is held; a kill switch hotkey (:mod:`.killswitch`) stops all input.
``judge=`` decides success where a task cannot read the program (:mod:`.judge`); a
state-file judge also provides the probe (and ``sim``) that privileged scripts read.
``sandbox=True`` starts ``launch=`` inside an episode sandbox of its own
(:class:`gcc_envs.sandbox.Sandbox`: its own user, home, processes and loopback network).
"""

from __future__ import annotations

import logging
import os
import subprocess
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gcc_envs.backends.desktop.killswitch import DEFAULT_KILL_SWITCH
from gcc_envs.backends.desktop.pause_key import KeyPause
from gcc_envs.core import events as ev
from gcc_envs.core.backend import PrimitiveEvent
from gcc_envs.core.frame_size import parse_obs_size
from gcc_envs.core.held import HeldInput
from gcc_envs.errors import BackendError, GCCError

log = logging.getLogger(__name__)

PAUSE_STRATEGIES = ("signal", "focus", "none", "key")
MIN_TAP_S = ev.MIN_TAP_S
#: Waits shorter than this are spun, not slept (a no-op step pads itself this way).
SPIN_S = 0.002
#: Oldest the cached window geometry may be (structure events empty the cache at once).
GEOMETRY_AGE_S = 0.5
#: Shortest gap from one key's release to the next key's press (typing).
MIN_KEY_GAP_S = 0.01


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
        pause: str | None = None,
        screen_size: tuple[int, int] | None = None,
        window_timeout_s: float = 15.0,
        profile: Any = None,
        pause_key: str | None = None,
        pause_template: Any = None,
        judge: Any = None,
        kill_switch: Sequence[str] | None = DEFAULT_KILL_SWITCH,
        draw_pointer: bool = False,
        sandbox: bool = False,
    ) -> None:
        if profile is not None:  # a game's LiveProfile: its window, pause method and size
            target = profile.window_title if target is None else target
            pause = profile.pause if pause is None else pause
            pause_key = profile.pause_key if pause_key is None else pause_key
            if obs_size is None:
                obs_size = profile.resolution[::-1]
            if screen_size is None:  # room for the window and its title bar
                screen_size = (profile.resolution[0] + 80, profile.resolution[1] + 80)
        screen_size = (1280, 720) if screen_size is None else screen_size
        pause = "signal" if pause is None else pause
        if pause not in PAUSE_STRATEGIES:
            raise GCCError(f"pause must be one of {PAUSE_STRATEGIES}, got {pause!r}")
        self.key_pause: KeyPause | None = None
        if pause == "key":
            if pause_template is None:
                raise GCCError(
                    "pause='key' needs pause_template= (a PNG of the pause screen, or an RGB "
                    "array) to confirm the pause"
                )
            self.key_pause = KeyPause(str(pause_key or ""), pause_template)
        if kill_switch is not None and (isinstance(kill_switch, str) or not kill_switch):
            raise GCCError(f"kill_switch must be a list of key names or None, got {kill_switch!r}")
        if launch is not None and (
            isinstance(launch, str) or not launch or not all(isinstance(a, str) for a in launch)
        ):
            raise GCCError(f"launch= must be a non-empty list of strings, got {launch!r}")
        H, W = parse_obs_size(obs_size if obs_size is not None else screen_size[::-1])
        self.size = (W, H)
        self.target = target
        self.launch_argv = list(launch) if launch is not None else None
        self.display_name = display
        self.pause_strategy = pause
        self.screen_size = (int(screen_size[0]), int(screen_size[1]))
        self.window_timeout_s = window_timeout_s
        self.judge = judge
        self.kill_switch_keys = tuple(kill_switch) if kill_switch is not None else None
        self.draw_pointer = bool(draw_pointer)
        if sandbox and launch is None:
            raise GCCError("sandbox=True needs launch= (the program to start in the sandbox)")
        self.sandboxed = bool(sandbox)
        #: Seconds the last focus / pause / resume took (measured; for reports and tests).
        self.timings: dict[str, float] = {}
        self._init_runtime()

    def _init_runtime(self) -> None:
        self.vdisplay: Any = None
        self.x: Any = None
        self._grabber: Any = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.sandbox: Any = None  # gcc_envs.sandbox.Sandbox of the launched program
        #: The probe a desktop suite attached for its checkers (``probe()`` returns it).
        self.desktop_probe: Any = None
        self.window: Any = None
        #: What this backend holds down now, with the time of each press.
        self.held = HeldInput()
        #: X keycodes each key name was pressed with (shift first for shifted characters).
        self._codes: dict[str, list[int]] = {}
        self._stopped: Any = None  # procs.Stopped while the signal pause holds the program
        self._stop_plan: tuple[int, Any] | None = None  # (pid, a lasting procs.Stopped)
        self._closed = False
        self._killer: Any = None
        self._kill_reported = False
        self._last_up = 0.0
        self._restore: list[str] = []  # keys to press again after a focus/key resume
        self._paused = False
        #: Counts events sent and pauses/resumes: a judge may reuse a probe while it stands.
        self.input_serial = 0

    # pickling carries the configuration only; a clone starts its own display at reset
    _CONFIG = (
        "size",
        "target",
        "launch_argv",
        "display_name",
        "pause_strategy",
        "screen_size",
        "window_timeout_s",
        "key_pause",
        "judge",
        "kill_switch_keys",
        "draw_pointer",
        "sandboxed",
        "timings",
    )

    def __getstate__(self) -> dict[str, Any]:
        return {k: self.__dict__[k] for k in self._CONFIG}

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
        if self.kill_switch_keys is not None:
            from gcc_envs.backends.desktop.killswitch import KillSwitch

            self._killer = KillSwitch(name, self.kill_switch_keys, self._held_codes)

    def _held_codes(self) -> tuple[list[int], list[int]]:
        """What this backend holds now (read by the kill switch's thread)."""
        from gcc_envs.backends.desktop.x11 import BUTTONS

        codes = [c for k in self.held.keys for c in self._codes.get(k, ())]
        return codes, sorted(BUTTONS[b] for b in self.held.buttons)

    @property
    def killed(self) -> bool:
        """Whether the kill switch was pressed (all input is refused from then on)."""
        return self._killer is not None and self._killer.tripped.is_set()

    @property
    def sim(self) -> Any:
        """A state-file judge's mirror of the program's simulator (for privileged scripts)."""
        return getattr(self.judge, "sim", None)

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None) -> None:
        self._check_open()
        self.release_all()
        self._restore = []  # a new episode starts with nothing held
        self.resume()
        self._start()
        if self.launch_argv is not None and (self.proc is None or self.proc.poll() is not None):
            self._launch()
        elif self.target is not None:
            self.window = self.x.wait_window(self.window_timeout_s, title=self.target)
        if self.window is not None and not self._focus():
            log.warning("could not focus %r at reset", self.x.title(self.window))
        ready = getattr(self.judge, "wait_ready", None)
        if ready is not None:  # e.g. the program publishes its state: before any pause
            ready(self)

    def _focus(self) -> bool:
        t0 = time.perf_counter()
        ok = bool(self.x.focus(self.window))
        self.timings["focus_s"] = time.perf_counter() - t0
        return ok

    def _launch(self) -> None:
        from gcc_envs.backends.desktop.display import launch, stop_group

        assert self.launch_argv is not None
        if self.sandboxed:
            self._launch_sandboxed()
            return
        if self.vdisplay is not None:
            self.proc = self.vdisplay.launch(self.launch_argv)
        else:
            self.proc = launch(self.launch_argv, self.x.name)
            weakref.finalize(self, stop_group, self.proc)  # stopped even if never closed
        pid = self.proc.pid
        if self.vdisplay is not None and self.vdisplay.namespaced:
            from gcc_envs.sandbox import inner_pid

            pid = inner_pid(pid, self.window_timeout_s)  # the pid its window names
        criteria: dict[str, Any] = {"pid": pid}
        if self.target is not None:
            criteria = {"title": self.target}
        self.window = self.x.wait_window(self.window_timeout_s, **criteria)

    def _launch_sandboxed(self) -> None:
        from gcc_envs.sandbox import Sandbox, inner_pid

        if self.sandbox is not None:
            self.sandbox.close()  # the program exited: a fresh sandbox for the next one
        self.sandbox = Sandbox(self.x.name)
        env = {"DISPLAY": self.x.name, "HOME": str(self.sandbox.home),
               "PATH": os.environ.get("PATH", "/usr/bin:/bin")}  # fmt: skip
        self.proc = self.sandbox.spawn(self.launch_argv, env=env)
        criteria: dict[str, Any] = {"title": self.target}
        if self.target is None:  # the window names the program's pid as its namespace sees it
            criteria = {"pid": inner_pid(self.proc.pid, self.window_timeout_s)}
        self.window = self.x.wait_window(self.window_timeout_s, **criteria)

    @property
    def pid(self) -> int | None:
        """The target program's pid (launched, or the window's ``_NET_WM_PID``)."""
        if self.proc is not None:
            return self.proc.pid
        if self.window is not None:
            from gcc_envs.backends.desktop.procs import host_pid

            pid = self.x.pid(self.window)
            return None if pid is None else host_pid(pid, self.x.name)
        return None

    def close(self) -> None:
        if self._closed:
            return
        try:
            self.release_all()
            self.resume()
        except BackendError as e:  # the program may be gone already: still clean up
            log.warning("while closing: %s", e)
        finally:
            self._closed = True
            from gcc_envs.backends.desktop.display import stop_group

            if self._killer is not None:
                self._killer.close()
                self._killer = None
            if self.proc is not None and (self.vdisplay is None or self.sandbox is not None):
                stop_group(self.proc)
            if self.sandbox is not None:
                self.sandbox.close()
                self.sandbox = None
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
        # cached between the window's structure events (at most GEOMETRY_AGE_S old)
        g = self.x.geometry(self.window, GEOMETRY_AGE_S)
        return g.x, g.y, g.width, g.height

    def capture(self) -> np.ndarray:
        self._check_open()
        self._start()
        x, y, w, h = self._region()
        pointer = self.x.pointer() if self.draw_pointer else None
        return self._grabber.grab(x, y, w, h, self.x.screen_size, self.size, pointer)

    def read_file(self, path: str | Path) -> bytes | None:
        """A file's bytes (None when it does not exist): what a state-file judge reads."""
        try:
            return Path(path).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise BackendError(f"cannot read {path}: {e}") from e

    def grab_window(self) -> np.ndarray:
        """The target's pixels at its own size (no pointer drawn): for template matching."""
        self._check_open()
        self._start()
        x, y, w, h = self._region()
        return self._grabber.grab(x, y, w, h, self.x.screen_size, (w, h))

    def advance(self, seconds: float) -> None:
        # the program runs on its own; input keeps flowing. A kill switch pressed during the
        # wait ends the running program once (later waits hold nothing and just pass).
        if not self._kill_reported:
            self._check_killed()
        if seconds < SPIN_S:  # a sleep this short oversleeps by a scheduler tick on a busy machine
            end = time.perf_counter() + max(0.0, seconds)
            while time.perf_counter() < end:
                pass
        else:
            time.sleep(seconds)
        if not self._kill_reported:
            self._check_killed()

    def probe(self) -> Any:
        """What a task check reads: the judge's probe (a state-file judge: the program's
        state), else the :class:`~gcc_envs.core.probe.DesktopProbe` a desktop suite attached
        (``desktop_probe``), else None."""
        if self.judge is None:
            return self.desktop_probe
        self._check_open()
        return self.judge.probe(self)

    # ------------------------------------------------------------------ for desktop suites
    @property
    def display(self) -> str:
        """The X display name (the backend's own Xvfb, or the one it was given)."""
        self._check_open()
        self._start()
        return str(self.x.name)

    def retarget(self, window: Any) -> None:
        """Capture and send input to ``window`` from now on (None: the whole screen)."""
        self._check_open()
        self.release_all()
        self.window = window
        if window is not None and not self._focus():
            log.warning("could not focus %r", self.x.title(window))

    def grab_screen(self) -> np.ndarray:
        """The whole screen at its own size, H×W×3 RGB (no pointer drawn)."""
        self._check_open()
        self._start()
        W, H = self.x.screen_size
        return self._grabber.grab(0, 0, W, H, (W, H), (W, H))

    def wait_window(self, title: str, timeout_s: float = 20.0) -> Any:
        """The first window whose title matches the regex ``title`` (waiting up to
        ``timeout_s``; :class:`BackendError` when none appears)."""
        self._check_open()
        self._start()
        return self.x.wait_window(timeout_s, title=title)

    def close_windows(self, match: Callable[[str, tuple[str, ...]], bool]) -> int:
        """Ask the window manager to close every top-level window for which
        ``match(title, wm_class)`` holds; how many were asked."""
        wins = self._matching(match)
        for win in wins:
            self.x.ask_close(win)
        return len(wins)

    def count_windows(self, match: Callable[[str, tuple[str, ...]], bool]) -> int:
        """How many top-level windows ``match(title, wm_class)`` holds for."""
        return len(self._matching(match))

    def _matching(self, match: Callable[[str, tuple[str, ...]], bool]) -> list[Any]:
        self._check_open()
        self._start()
        return [w for w in self.x.clients() if match(self.x.title(w), self.x.wm_class(w))]

    def window_titles(self) -> list[str]:
        """Titles of the top-level client windows."""
        self._check_open()
        self._start()
        return [self.x.title(w) for w in self.x.clients()]

    # ------------------------------------------------------------------ input
    def _guard(self) -> None:
        self._check_open()
        self._start()
        self._check_killed()
        if self.window is None or self.x.is_focused(self.window):
            return
        if not self._focus():
            raise BackendError(
                f"the target window {self.x.title(self.window)!r} is not focused and refused "
                "focus (tried once); input not sent"
            )

    def _check_killed(self) -> None:
        if self.killed:
            self._kill_reported = True
            self.release_all()
            keys = "+".join(self.kill_switch_keys or ())
            raise BackendError(
                f"kill switch pressed ({keys}): input stopped; close this env and make a new one"
            )

    def to_screen(self, x: int, y: int) -> tuple[int, int]:
        """Frame pixel ``(x, y)`` → screen pixel, clamped to the window."""
        wx, wy, ww, wh = self._region()
        W, H = self.size
        sx = min(max(int((x + 0.5) * ww / W), 0), ww - 1)
        sy = min(max(int((y + 0.5) * wh / H), 0), wh - 1)
        return wx + sx, wy + sy

    @property
    def paused(self) -> bool:
        """Whether the target is paused by this backend now."""
        return self._paused

    @property
    def frozen(self) -> bool:
        """Whether the target's processes are stopped (``signal`` pause): it publishes nothing."""
        return self._stopped is not None

    def send(self, event: PrimitiveEvent) -> None:
        self.input_serial += 1
        try:
            self._guard()
            self._send(event)
        except BaseException:
            self.release_all()  # nothing stays held after a refused or failed event
            raise

    def _send(self, event: PrimitiveEvent) -> None:
        from gcc_envs.backends.desktop.x11 import BUTTONS

        x = self.x
        held = self.held
        if isinstance(event, ev.KeyDown):
            if held.key_held(event.key):
                return
            stroke = x.stroke(event.key)  # raises InvalidActionError for untypeable keys
            codes = [x.shift_keycode, stroke.keycode] if stroke.shift else [stroke.keycode]
            gap = MIN_KEY_GAP_S - (time.perf_counter() - self._last_up)
            if gap > 0:
                time.sleep(gap)
            self._codes[event.key] = codes
            held.apply(event, time.perf_counter())
            for code in codes:
                x.key(code, True)
        elif isinstance(event, ev.KeyUp):
            since = held.pressed_at(event)
            if since is None:
                return
            _hold_at_least(since)
            held.apply(event)
            for code in reversed(self._codes.get(event.key, [])):
                x.key(code, False)
            self._last_up = time.perf_counter()
        elif isinstance(event, ev.MoveTo):
            x.move(*self.to_screen(event.x, event.y))
        elif isinstance(event, ev.MoveBy):
            x.move_by(event.dx, event.dy)  # relative (a camera mouse): not clamped
        elif isinstance(event, ev.MouseDown):
            held.apply(event, time.perf_counter())
            x.button(BUTTONS[event.button], True)
        elif isinstance(event, ev.MouseUp):
            since = held.pressed_at(event)
            if since is not None:
                _hold_at_least(since)
                held.apply(event)
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
            self.held.clear()
            return
        from gcc_envs.backends.desktop.x11 import BUTTONS

        try:
            for key in self.held.keys:
                for code in reversed(self._codes.get(key, [])):
                    self.x.key(code, False)
            for button in self.held.buttons:
                self.x.button(BUTTONS[button], False)
        finally:
            self.held.clear()

    def release_display_input(self) -> None:
        """Release every key and mouse button the X server holds down, whoever pressed them
        (input sent by a program of the episode, such as an agent's code run in its sandbox)."""
        self.release_all()
        if self.x is None:
            return
        for code in sorted(self.x.pressed_keycodes()):
            self.x.key(code, False)
        for number in self.x.pressed_buttons():
            self.x.button(number, False)

    # ------------------------------------------------------------------ pause
    def pause(self) -> None:
        if self.x is None or self._closed or self._paused:
            return
        t0 = time.perf_counter()
        strategy = self.pause_strategy
        if strategy == "signal":
            self._stop_program()
        elif strategy in ("focus", "key") and self.window is not None:
            self._restore = list(self.held.keys)  # a player lets go of the keys first
            self.release_all()
            if strategy == "focus":
                if not self.x.focus_away(self.window):
                    log.warning("the target window still reports focus after the focus pause")
            else:
                assert self.key_pause is not None
                self.key_pause.pause(self._tap, self.grab_window, 1.0)
        self._paused = True
        self.input_serial += 1
        self.timings["pause_s"] = time.perf_counter() - t0

    def resume(self) -> None:
        if not self._paused:
            return
        self._paused = False
        self.input_serial += 1
        t0 = time.perf_counter()
        strategy = self.pause_strategy
        if self._stopped is not None:
            stopped, self._stopped = self._stopped, None
            stopped.cont()
        elif strategy in ("focus", "key") and self.window is not None and self.x is not None:
            if strategy == "focus":
                if not self._focus():
                    log.warning("the target window did not take the focus back on resume")
            else:
                assert self.key_pause is not None
                self.key_pause.resume(self._tap, self.grab_window, 1.0)
            keys, self._restore = self._restore, []
            if not self._closed and not self.killed:
                for key in keys:  # press again what was held when pausing
                    self.send(ev.KeyDown(key))
        self.timings["resume_s"] = time.perf_counter() - t0

    def _stop_program(self) -> None:
        from gcc_envs.backends.desktop import procs

        pid = self.pid
        if pid is None or self._stopped is not None:
            return
        if self._stop_plan is not None and self._stop_plan[0] == pid:
            stopped = self._stop_plan[1]
        else:
            wm = self.x.wm_pid()
            wm = procs.host_pid(wm, self.x.name) if wm is not None else None
            protected = {os.getpid(), *procs.x_server_pids(self.x.name), wm}
            if self.vdisplay is not None:
                protected |= {p.pid for p in (self.vdisplay.server, self.vdisplay.wm) if p}
            stopped = procs.processes_to_stop(pid, protected - {None})
            self._stop_plan = (pid, stopped) if stopped.lasting else None
        try:
            stopped.stop()
        except ProcessLookupError:
            raise BackendError(
                f"the target program (pid {pid}) has exited; reset() starts it again"
            ) from None
        self._stopped = stopped

    def _tap(self, key: str) -> None:
        """Tap ``key`` (held :data:`MIN_TAP_S` + a little) through the focus guard."""
        self.send(ev.KeyDown(key))
        time.sleep(ev.TAP_S)
        self.send(ev.KeyUp(key))

    def _check_open(self) -> None:
        if self._closed:
            raise BackendError("this DesktopBackend is closed; make a new env")


def _hold_at_least(since: float) -> None:
    """Sleep until a key or button pressed at ``since`` has been held :data:`MIN_TAP_S`."""
    left = ev.MIN_TAP_S - (time.perf_counter() - since)
    if left > 0:
        time.sleep(left)
