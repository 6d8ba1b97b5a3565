"""OpenTTD (a real game) under GCC/Desktop: its in-game date confirms pause and resume.

The date is read from pixels: the left panel of OpenTTD's status bar (bottom of the window)
shows the in-game date, which changes every in-game day (74 ticks of 27 ms ≈ 2 s). A panel
that changes proves the game runs; a panel that stays identical for several seconds, while the
game would have passed two or three days, proves it is paused. (OpenTTD's admin port would give
the date as data, but it listens only in a network server game, which a windowed game becomes
only through its multiplayer menus; the pixel route needs no menus.)

Three ways to pause are checked: the ``signal`` strategy (SIGSTOP of the game's process group),
OpenTTD's own Pause key sent as input, and the ``key`` strategy (the backend taps Pause and
confirms the status bar's "* * PAUSED * *", ``data/openttd_paused.png``, by template matching).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import KeyPress, Wait

OPENTTD = shutil.which("openttd", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")
pytestmark = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.timeout(120),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(OPENTTD is None, reason="openttd is not installed (Debian: openttd)"),
]
#: Window (and observation) size of the game: frame pixels are window pixels.
SIZE = (1024, 600)
#: About three in-game days: a running game shows a new date well within this time.
THREE_DAYS_S = 6.0
#: The status bar's top border colour (OpenGFX grey).
BAR_TOP = np.array([168, 168, 168], np.uint8)
#: The status bar's "* * PAUSED * *" (OpenTTD 13, OpenGFX 7.1, 1024x600), the key pause's proof.
PAUSED_PNG = Path(__file__).parent / "data" / "openttd_paused.png"


@pytest.fixture
def openttd_argv(tmp_path: Path) -> list[str]:
    """OpenTTD in a window, no music or sound, a small new map at once, nothing written to HOME."""
    if not any(Path("/usr/share/games/openttd").glob("**/opengfx.obg")):
        pytest.skip("OpenGFX base graphics are not installed (Debian: openttd-opengfx)")
    home = tmp_path / "home"
    home.mkdir()
    cfg = tmp_path / "openttd.cfg"
    cfg.write_text(
        "[misc]\nfullscreen = false\n"
        f"resolution = {SIZE[0]},{SIZE[1]}\n"
        "[gui]\nautosave = off\n"
        "[game_creation]\nmap_x = 6\nmap_y = 6\n"
    )
    # ``env`` execs OpenTTD, so the launched pid (and its process group) is the game's
    return [
        "env",
        f"HOME={home}",
        f"XDG_DATA_HOME={home / 'data'}",
        f"XDG_CONFIG_HOME={home / 'config'}",
        str(OPENTTD),
        *("-c", str(cfg), "-x"),  # this config, never saved back
        *("-r", f"{SIZE[0]}x{SIZE[1]}", "-v", "sdl"),
        *("-m", "null", "-s", "null"),
        *("-g", "-G", "1", "-t", "1950"),  # a new game at once, seeded
    ]


def date_panel(frame: np.ndarray) -> np.ndarray | None:
    """The status bar's date panel (its leftmost), or ``None`` while there is no status bar."""
    H, W = frame.shape[:2]
    for y in range(H - 20, H - 6):
        grey = np.all(frame[y] == BAR_TOP, axis=1).astype(np.int8)
        edges = np.flatnonzero(np.diff(np.concatenate(([0], grey, [0]))))
        runs = edges.reshape(-1, 2)  # [start, end) of each run of border grey
        panels = runs[runs[:, 1] - runs[:, 0] >= 40]  # the bar's panels: date, news, money
        if (panels[:, 1] - panels[:, 0]).sum() > W // 3:
            left, right = panels[0]
            return frame[y + 1 : H, left:right].copy()
    return None


def until(condition: Callable[[], bool], timeout_s: float, step: Callable[[], object]) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        step()
    return condition()


def proc_state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


class DateWatch:
    """Steps an env and watches the date panel of the frames it returns."""

    def __init__(self, env: gym.Env, obs: np.ndarray) -> None:
        self.env = env
        self.frame = obs

    def step(self, action: object = None) -> None:
        self.frame, *_ = self.env.step(Wait(0.25) if action is None else action)

    @property
    def date(self) -> np.ndarray | None:
        return date_panel(self.frame)

    def wait_running(self) -> None:
        """Wait for the game to show a status bar, then for its date to move on."""
        assert until(lambda: self.date is not None, 30.0, self.step), "no status bar appeared"
        assert self.advances(), "the in-game date did not advance while the game ran"

    def advances(self, timeout_s: float = 2 * THREE_DAYS_S) -> bool:
        first = self.date
        return until(lambda: not np.array_equal(self.date, first), timeout_s, self.step)

    def holds(self, seconds: float, grab: Callable[[], np.ndarray]) -> bool:
        """The date panel of frames from ``grab`` stays identical for ``seconds``."""
        first = date_panel(grab())
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(0.25)
            if not np.array_equal(date_panel(grab()), first):
                return False
        return first is not None


def make(argv: list[str], **kwargs: object) -> gym.Env:
    return gym.make(
        "GCC/Desktop",
        launch=argv,
        screen_size=(1280, 720),
        obs_size=SIZE[::-1],
        **kwargs,
    )


def test_signal_pause_stops_the_openttd_date_and_resume_lets_it_advance(openttd_argv):
    env = make(openttd_argv, pause="signal", time_mode="paused")
    try:
        obs, _ = env.reset(seed=0)
        backend = env.unwrapped.backend
        watch = DateWatch(env, obs)
        watch.wait_running()  # the game runs while steps run
        # between steps the game's process group is stopped (SIGSTOP)
        assert until(lambda: proc_state(backend.pid) == "T", 2.0, lambda: time.sleep(0.05))
        time.sleep(0.2)  # let the X server draw what the game sent before it stopped
        assert watch.holds(THREE_DAYS_S, backend.capture), "the date moved while paused"
        # steps resume it (SIGCONT): the date advances again
        assert watch.advances(), "the date did not advance after resume"
    finally:
        env.close()


@pytest.fixture
def openttd_display(openttd_argv):
    """A display with OpenTTD started by the test and already in game (envs attach by title)."""
    from gcc_envs.backends.desktop.display import VirtualDisplay

    vd = VirtualDisplay((1280, 720))
    try:
        vd.launch(openttd_argv)
        env = attach(vd.name, pause="none", time_mode="realtime")
        try:
            obs, _ = env.reset(seed=0)
            DateWatch(env, obs).wait_running()
        finally:
            env.close()  # an env that did not launch the program leaves it running
        yield vd
    finally:
        vd.close()


def attach(display: str, **kwargs: object) -> gym.Env:
    return gym.make(
        "GCC/Desktop", target="^OpenTTD", display=display, obs_size=SIZE[::-1], **kwargs
    )


def test_openttds_pause_key_stops_the_date_and_a_second_press_resumes_it(openttd_display):
    env = attach(openttd_display.name, pause="none", time_mode="realtime")
    try:
        obs, _ = env.reset(seed=0)
        backend = env.unwrapped.backend
        # the window names its pid in the display's PID namespace; the backend's is this machine's
        assert b"openttd" in Path(f"/proc/{backend.pid}/cmdline").read_bytes()
        watch = DateWatch(env, obs)
        assert watch.advances(), "the in-game date did not advance while the game ran"
        watch.step(KeyPress("pause", 0.05))  # OpenTTD's Pause/Break hotkey
        watch.step(Wait(0.3))  # the game reads input once per tick (27 ms)
        # the program keeps running (no signal) while the game holds its date
        assert proc_state(backend.pid) != "T"
        assert watch.holds(THREE_DAYS_S, backend.capture), "the date moved while paused by the key"
        watch.step(KeyPress("pause", 0.05))
        assert watch.advances(), "the date did not advance after the second Pause press"
    finally:
        env.close()


def test_key_pause_strategy_holds_the_date_between_steps_and_steps_advance_it(openttd_display):
    env = attach(
        openttd_display.name,
        pause="key",
        pause_key="pause",
        pause_template=str(PAUSED_PNG),
        time_mode="paused",
    )
    try:
        obs, _ = env.reset(seed=0)  # pauses: taps Pause, confirms "* * PAUSED * *"
        backend = env.unwrapped.backend
        assert backend.key_pause.shown(backend.grab_window())
        assert proc_state(backend.pid) != "T"  # paused by the game, not by a signal
        watch = DateWatch(env, obs)
        assert watch.holds(THREE_DAYS_S, backend.capture), "the date moved between steps"
        assert watch.advances(), "the date did not advance while steps ran"
        assert backend.key_pause.shown(backend.grab_window())  # paused again after the step
    finally:
        env.close()
