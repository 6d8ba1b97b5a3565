"""The Chrome twins on a real Chromium are fair tests: the scripted policy (through the
standard ``agents.make_policy``) succeeds, while doing nothing, a random policy, seed 0's input
replayed on a seed drawn at random, and a plausible wrong end state all fail; the servers
are gone after ``close()``.

One virtual display serves the whole module; each task's env resets on it per check.
"""

from __future__ import annotations

import json
import shutil

import gymnasium as gym
import pytest
from twin_fairness import (
    TWIN_MARKS,
    assert_gone,
    assert_scripted_fair,
    ci_sample,
    display_fixture,
    wrong_end,
)

import agents
import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import Click, Hotkey, KeyPress, TypeText, Wait
from gcc_envs.apps.chrome import SUITE
from gcc_envs.apps.software import fairness
from gcc_envs.apps.software.desktop import port_open
from gcc_envs.apps.software.reading import ANSWER

pytestmark = [
    *TWIN_MARKS,
    pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian package chromium missing"),
]
TASKS = [t.env_id(SUITE.title) for t in SUITE.tasks]
#: The tasks whose scripted run CI repeats (``GCC_TWINS=all``: every task).
CI_TASKS = ci_sample(TASKS, ("GCC/Chrome-OpenLastClosedPage", "GCC/Chrome-PostOnTwitter"))
WRONG_SEED = 7


display = display_fixture(SUITE)


def go(url: str) -> list:
    return [Hotkey(("ctrl", "l")), TypeText(url, 0.01), KeyPress("enter"), Wait(1.5)]


def follow(text: str) -> list:
    return [Hotkey(("ctrl", "f")), TypeText(text, 0.01), KeyPress("esc"), KeyPress("enter")]


@pytest.mark.parametrize("env_id", CI_TASKS)
def test_the_scripted_policy_succeeds_and_nothing_random_and_replay_fail(env_id, display):
    env = gym.make(env_id, display=display)
    try:
        solved = assert_scripted_fair(env)
        assert solved.info["metrics"]["efficiency"] <= 1.0
        rand = fairness.random_episode(env, agents.make_policy("random", env, seed=0), seed=21)
        assert not rand.success and rand.score == 0.0
    finally:
        env.close()


@pytest.fixture
def wrong(display):
    made: list[gym.Env] = []

    def _make(env_id: str) -> tuple[gym.Env, str]:
        env = gym.make(env_id, display=display)
        made.append(env)
        _, info = env.reset(seed=WRONG_SEED)
        return env, info["instruction"]

    yield _make
    for env in made:
        env.close()


def site(env: gym.Env) -> dict:
    return json.loads((env.unwrapped.session.home / ".local/share/gcc-sites/site.json").read_text())


def test_a_look_alike_articles_pdf_does_not_count(wrong):
    env, instruction = wrong("GCC/Chrome-SavePaperPDF")
    target = site(env)["target"]["arxiv"]
    decoy = next(p for pid, p in site(env)["papers"].items() if pid != target)
    steps = [go(decoy["title"]), follow(decoy["title"]), [Wait(1.5), *follow("View PDF")]]
    assert wrong_end(env, steps, settle_s=3) == 0.0


def test_a_post_with_one_word_changed_does_not_count(wrong):
    env, instruction = wrong("GCC/Chrome-PostOnTwitter")
    text = instruction.split('"')[1]
    changed = text.replace(text.split()[1], "very", 1)
    post = [KeyPress("tab"), TypeText(changed, 0.01), KeyPress("tab"), KeyPress("enter")]
    assert wrong_end(env, [go("twitter.com"), post, [Wait(1.0)]]) == 0.0


def test_reopening_another_closed_page_does_not_count(wrong):
    env, instruction = wrong("GCC/Chrome-OpenLastClosedPage")
    closed = json.loads((env.unwrapped.session.home / ANSWER).read_text())["closed"]
    chosen = env.unwrapped.session.vars
    n = int(chosen["closed_count"])
    # a page named by its topic: the last closed one (what Ctrl+Shift+T brings back) is wrong;
    # else the one closed just before the ones asked for
    other = closed[-1] if chosen["closed_topic"] else closed[-n - 1]
    assert wrong_end(env, [[Hotkey(("ctrl", "t")), *go(other)], [Wait(1.0)]]) == 0.0


def test_a_look_alike_users_page_or_the_profile_for_a_repository_does_not_count(wrong):
    env, instruction = wrong("GCC/Chrome-GoToGitHubHomepage")
    user, repo = (env.unwrapped.session.vars[k] for k in ("user_handle", "page_repo"))
    assert repo  # the seed asks for a repository of the user's
    decoy = next(u for u in site(env)["users"] if u != user)
    assert wrong_end(env, [go(f"github.com/{decoy}/{repo}"), [Wait(1.0)]]) == 0.0
    assert wrong_end(env, [go(f"github.com/{user}"), [Wait(1.0)]]) == 0.0


MODE = Click(914, 345)  # the Mode list of chrome://settings/appearance on the 1280x800 screen


def test_the_devices_mode_does_not_count(wrong):
    env, instruction = wrong("GCC/Chrome-DarkMode")
    assert env.unwrapped.session.vars["theme_start"] != "device"  # the seed starts elsewhere
    pick = [MODE, Wait(0.5), TypeText("dev", 0.05), KeyPress("enter")]  # Mode: Device
    assert wrong_end(env, [go("chrome://settings/appearance"), pick], settle_s=12) == 0.0
    prefs = env.unwrapped.session.home / ".config/chromium/Default/Preferences"
    # the change was saved (0: the device's mode), and the checker saw it and said no
    assert json.loads(prefs.read_text())["browser"]["theme"]["color_scheme2"] == 0


def test_the_local_web_and_devtools_bind_loopback_and_are_gone_after_close(display):
    env = gym.make("GCC/Chrome-OpenLastClosedPage", display=display)
    try:
        env.reset(seed=WRONG_SEED)
        session = env.unwrapped.session
        key = json.loads((session.home / ANSWER).read_text())
        pids, ports = list(session.pids), [key[k] for k in ("web_port", "devtools_port")]
        assert len(ports) == 2 and all(port_open(p, session=session) for p in ports)
        for p in ports:  # nothing listens on the other addresses
            assert not any(port_open(p, h, session) for h in _other_addresses())
    finally:
        env.close()
    assert not any(port_open(p) for p in ports)
    assert_gone(pids)


def _other_addresses() -> list[str]:
    import socket

    try:
        addrs = {a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    except OSError:
        return []
    return sorted(a for a in addrs if not a.startswith("127."))
