"""The Chrome twins on a real Chromium: a scripted solution succeeds, nothing and a plausible
wrong end state fail, and the servers are gone after ``close()``.

Each test makes one env, resets it on a held-out seed, checks that waiting does not succeed,
acts out a wrong end state (not a success), then the scripted solution (a success). The
scripts are keyboard-and-mouse events sent through the env, a few events per step.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import Click, Hotkey, KeyPress, TypeText, Wait
from gcc_envs.apps.software.desktop import port_open
from gcc_envs.apps.software.reading import ANSWER

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.timeout(180),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian package chromium missing"),
]
SEED = 7  # held out: the tables' decoys and rankings were looked at on seeds 0-5


def go(url: str) -> list:
    return [Hotkey(("ctrl", "l")), TypeText(url, 0.01), KeyPress("enter"), Wait(1.5)]


def follow(text: str) -> list:
    """Find ``text`` on the page, leave the find bar (the match's link takes the focus), Enter."""
    return [Hotkey(("ctrl", "f")), TypeText(text, 0.01), KeyPress("esc"), KeyPress("enter")]


def act(env: gym.Env, steps: Sequence[list]) -> dict:
    info: dict = {}
    for events in steps:
        _, _, terminated, truncated, info = env.step(events)
        assert info["last_action_error"] is None, info["last_action_error"]
        if terminated or truncated:
            break
    return info


def settle(env: gym.Env, seconds: float) -> dict:
    """Wait up to ``seconds`` in steps of one second; stop early on success."""
    info: dict = {}
    for _ in range(int(seconds)):
        _, _, terminated, _, info = env.step(Wait(1.0))
        if terminated:
            break
    return info


def passes(env: gym.Env, steps: Sequence[list]) -> bool:
    """Act out ``steps``; whether the task's checker passes the desktop as it is now."""
    act(env, steps)
    return env.unwrapped.score() >= 1.0


def done(env: gym.Env, seconds: int = 10) -> bool:
    """Wait up to ``seconds`` for the end state (a file still being written), then say DONE:
    whether the env judges the episode a success (the checker at the episode's end)."""
    for _ in range(seconds):
        if env.unwrapped.score() >= 1.0:
            break
        env.step(Wait(1.0))
    _, _, terminated, _, info = env.step("DONE")
    return bool(terminated and info["success"] and info["metrics"]["efficiency"] > 0)


def answer(env: gym.Env) -> dict:
    return json.loads((env.unwrapped.session.home / ANSWER).read_text())


@pytest.fixture
def make():
    made: list[gym.Env] = []

    def _make(env_id: str) -> gym.Env:
        env = gym.make(env_id)
        made.append(env)
        env.reset(seed=SEED)
        settle(env, 2)
        assert env.unwrapped.score() == 0.0, "doing nothing succeeded"
        return env

    yield _make
    for env in made:
        env.close()


def test_save_paper_pdf_wants_the_articles_pdf_not_a_look_alikes(make):
    env = make("GCC/Chrome-SavePaperPDF")
    site = json.loads((env.unwrapped.session.home / ".local/share/gcc-sites/site.json").read_text())
    decoy = next(p for pid, p in site["papers"].items() if pid != "2403.03186")
    act(env, [go("Towards General Computer Control"), follow(decoy["title"]),
              [Wait(1.5), *follow("View PDF")]])  # fmt: skip
    settle(env, 3)
    assert env.unwrapped.score() == 0.0, "a look-alike's PDF counted"
    act(env, [go("Towards General Computer Control"),
              follow("Towards General Computer Control: A Multimodal"),
              [Wait(1.5), *follow("View PDF")]])  # fmt: skip
    assert done(env)


def test_post_on_twitter_wants_the_exact_text_posted(make):
    env = make("GCC/Chrome-PostOnTwitter")
    post = [KeyPress("tab"), TypeText("{}", 0.01), KeyPress("tab"), KeyPress("enter")]
    wrong = [
        e if not isinstance(e, TypeText) else TypeText("It is a good day.", 0.01) for e in post
    ]
    assert not passes(env, [go("twitter.com"), wrong, [Wait(1.0)]])
    right = [e if not isinstance(e, TypeText) else TypeText("It's a good day.", 0.01) for e in post]
    act(env, [go("twitter.com"), right])
    assert done(env, 5)


def test_open_last_closed_page_wants_the_last_one_not_the_one_before(make):
    env = make("GCC/Chrome-OpenLastClosedPage")
    first, last = answer(env)["closed"]
    assert first != last
    assert not passes(env, [[Hotkey(("ctrl", "t")), *go(first)], [Wait(1.0)]])
    act(env, [[Hotkey(("ctrl", "shift", "t")), Wait(1.0)]])
    assert done(env, 5)


def test_github_homepage_wants_tellarins_profile_not_a_look_alike(make):
    env = make("GCC/Chrome-GoToGitHubHomepage")
    assert not passes(env, [go("github.com/tellarin-dev"), [Wait(1.0)]])
    act(env, [go("tellarin github"), follow("tellarin (B"), [Wait(1.5)]])
    assert done(env, 5)


MODE = Click(914, 345)  # the Mode list of chrome://settings/appearance on the 1280x800 screen


def test_dark_mode_wants_dark_not_light(make):
    env = make("GCC/Chrome-DarkMode")
    light = [MODE, Wait(0.5), KeyPress("up"), KeyPress("up"), KeyPress("enter")]
    act(env, [go("chrome://settings/appearance"), light])
    prefs = env.unwrapped.session.home / ".config/chromium/Default/Preferences"
    settle(env, 13)
    assert env.unwrapped.score() == 0.0, "light mode counted as dark"
    assert json.loads(prefs.read_text())["browser"]["theme"]["color_scheme2"] == 1
    dark = [MODE, Wait(0.5), KeyPress("down"), KeyPress("enter")]
    act(env, [dark])
    assert done(env, 15)


def test_the_local_web_and_devtools_bind_loopback_and_are_gone_after_close():
    env = gym.make("GCC/Chrome-OpenLastClosedPage")
    try:
        env.reset(seed=SEED)
        session = env.unwrapped.session
        key = json.loads((session.home / ANSWER).read_text())
        pids, ports = list(session.pids), [key[k] for k in ("web_port", "devtools_port")]
        assert len(ports) == 2 and all(port_open(p) for p in ports)
        for p in ports:  # nothing listens on the other addresses
            assert not any(port_open(p, host) for host in _other_addresses())
    finally:
        env.close()
    assert not any(port_open(p) for p in ports)
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}") or _zombie(pid), f"pid {pid} still runs"


def _zombie(pid: int) -> bool:
    try:
        return open(f"/proc/{pid}/stat").read().split()[2] == "Z"
    except OSError:
        return True


def _other_addresses() -> list[str]:
    import socket

    try:
        addrs = {a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    except OSError:
        return []
    return sorted(a for a in addrs if not a.startswith("127."))
