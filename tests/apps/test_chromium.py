"""Chromium (a real browser) under GCC/Desktop: clicks and typed text reach a web page.

The page, written by the test, fills the window with a text input (top half) and a button
(bottom half); its script copies what happens into ``document.title``, which Chromium shows as
the window title (EWMH ``_NET_WM_NAME``), read back through the X11 helper.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import Click, TypeText, Wait

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.timeout(120),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (Debian: chromium)"),
]
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>gcc-page ready</title>
<style>
  html, body { margin: 0; height: 100%; overflow: hidden; }
  #text { position: fixed; left: 0; top: 0; width: 100%; height: 50%;
          box-sizing: border-box; font-size: 40px; }
  #go { position: fixed; left: 0; top: 50%; width: 100%; height: 50%; font-size: 40px; }
</style></head>
<body>
  <input id="text" autocomplete="off">
  <button id="go">Go</button>
  <script>
    const text = document.getElementById("text");
    text.addEventListener("focus", () => { document.title = "gcc-page focused"; });
    text.addEventListener("input", () => { document.title = "gcc-page typed:" + text.value; });
    document.getElementById("go").addEventListener("click", () => {
      document.title = "gcc-page clicked:" + text.value;
    });
  </script>
</body></html>
"""
OBS = (300, 400)  # (H, W) of the observation: coordinates below are these frame pixels


def chromium_argv(tmp_path: Path) -> list[str]:
    page = tmp_path / "page.html"
    page.write_text(PAGE)
    return [
        str(CHROMIUM),
        "--no-sandbox",  # Chromium refuses to run as root with its sandbox
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--password-store=basic",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-position=0,0",
        "--window-size=800,600",
        f"--app={page.as_uri()}",  # a window with the page only: no tabs, no address bar
    ]


def until(condition: Callable[[], bool], timeout_s: float, step: Callable[[], object]) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        step()
    return condition()


@pytest.fixture
def chromium(tmp_path: Path):
    # Chromium's first window can take over 15 s (the default) on a busy 2-core machine: CI saw
    # "no window matching {'pid': 20} appeared within 15 s" once in ~4,000 tests
    env = gym.make(
        "GCC/Desktop", launch=chromium_argv(tmp_path), obs_size=OBS, window_timeout_s=60.0
    )
    try:
        env.reset(seed=0)
        yield env
    finally:
        env.close()


def title_of(env: gym.Env) -> str:
    backend = env.unwrapped.backend
    return backend.x.title(backend.window)


def test_a_click_and_typed_text_reach_a_page_in_chromium(chromium):
    # paused mode stops Chromium between steps: time passes for it through steps
    assert until(
        lambda: "gcc-page ready" in title_of(chromium), 60.0, lambda: chromium.step(Wait(0.2))
    ), f"the page did not load; window title {title_of(chromium)!r}"
    H, W = OBS
    _, _, _, _, info = chromium.step(Click(W // 2, H // 4))  # the input: top half
    assert info["last_action_error"] is None
    assert until(
        lambda: "gcc-page focused" in title_of(chromium), 10.0, lambda: chromium.step(Wait(0.1))
    ), f"the click did not focus the input; window title {title_of(chromium)!r}"
    _, _, _, _, info = chromium.step(TypeText("Hello, GCC 42!"))
    assert info["last_action_error"] is None
    assert until(
        lambda: "gcc-page typed:Hello, GCC 42!" in title_of(chromium),
        10.0,
        lambda: chromium.step(Wait(0.1)),
    ), f"typed text missing; window title {title_of(chromium)!r}"
    chromium.step(Click(W // 2, 3 * H // 4))  # the button: bottom half
    assert until(
        lambda: "gcc-page clicked:Hello, GCC 42!" in title_of(chromium),
        10.0,
        lambda: chromium.step(Wait(0.1)),
    ), f"the button click did not arrive; window title {title_of(chromium)!r}"


def test_the_observation_shows_the_chromium_window_not_the_screen(chromium):
    assert until(
        lambda: "gcc-page ready" in title_of(chromium), 60.0, lambda: chromium.step(Wait(0.2))
    )
    obs, *_ = chromium.step(Wait(0.2))
    backend = chromium.unwrapped.backend
    x, y, w, h = backend._region()
    assert obs.shape == (*OBS, 3)
    assert (w, h) != tuple(backend.x.screen_size)  # the window, not the whole screen
    # the page: an input (white) over a button (light grey) — two flat areas, no browser chrome
    top, bottom = obs[OBS[0] // 4], obs[3 * OBS[0] // 4]
    assert top[OBS[1] // 2].min() > 200 and bottom[OBS[1] // 2].min() > 150
