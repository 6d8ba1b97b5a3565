"""The Outlook twins on a real Thunderbird against Dovecot and the SMTP sink on loopback are
fair tests: the scripted policy (through ``agents.make_policy``) succeeds, while doing nothing,
seed 0's input replayed on a seed drawn at random, and a plausible wrong end state fail;
the mail servers are gone after ``close()``. The replay is itself the plausible wrong end
state of four tasks (a mail with another subject or to another address, a reply with another
text, a rule forwarding elsewhere, another month's bill attached); the two others get their
own (one junk mail deleted, a look-alike opened, alone or before the mail itself). The random policy's runs are in
``benchmarks/apps_fairness.py``.

One virtual display serves the whole module; each task's env resets on it per check.
"""

from __future__ import annotations

import json
import os
import shutil
from functools import partial

import gymnasium as gym
import numpy as np
import pytest
import twin_fairness
from twin_fairness import TWIN_MARKS, assert_gone, check_scripted_fair, ci_sample, display_fixture

import gcc_envs  # noqa: F401 - registers the ids
from agents.scripted.outlook import junk_row, subject_lines
from gcc_envs import Click, Hotkey, KeyPress, Scroll, TypeText, Wait
from gcc_envs.apps.outlook import SUITE
from gcc_envs.apps.software.desktop import port_open
from gcc_envs.apps.software.reading import ANSWER

pytestmark = [
    *TWIN_MARKS,
    pytest.mark.skipif(shutil.which("thunderbird") is None, reason="Debian thunderbird missing"),
    pytest.mark.skipif(not os.path.exists("/usr/lib/dovecot/imap"), reason="dovecot-imapd missing"),
]
TASKS = [t.env_id(SUITE.title) for t in SUITE.tasks]
#: The tasks whose scripted run CI repeats (``GCC_TWINS=all``: every task).
CI_TASKS = ci_sample(TASKS, ("GCC/Outlook-EmptyJunk", "GCC/Outlook-SendHelloFriend"))
WRONG_SEED = 7


display = display_fixture(SUITE)


@pytest.mark.parametrize("env_id", CI_TASKS)
def test_the_scripted_policy_succeeds_and_nothing_and_replay_fail(env_id, display):
    check_scripted_fair(env_id, display=display)


def quick_filter(text: str) -> list:
    return [Hotkey(("ctrl", "shift", "k")), Wait(0.5), Hotkey(("ctrl", "a")), TypeText(text, 0.02),
            Wait(1.5)]  # fmt: skip


@pytest.fixture
def wrong(display):
    made: list[gym.Env] = []

    def _make(env_id: str) -> tuple[gym.Env, dict[str, str], np.ndarray]:
        env = gym.make(env_id, display=display)
        made.append(env)
        env.reset(seed=WRONG_SEED)
        obs = env.step(Wait(3.0))[0]
        assert env.unwrapped.score() == 0.0, "doing nothing succeeded"
        return env, dict(env.unwrapped.session.vars), obs

    yield _make
    for env in made:
        env.close()


wrong_end = partial(twin_fairness.wrong_end, settle_s=3)


def test_deleting_one_junk_mail_does_not_empty_the_folder(wrong):
    env, _, obs = wrong("GCC/Outlook-EmptyJunk")
    y = junk_row(obs)
    if y is None:  # below the folder list's end (folders of Local Folders above it)
        y = junk_row(env.step(Scroll(dy=-10, x=128, y=400))[0])
    assert y is not None, "the junk folder's icon is not on the screen"
    one = [Click(128, y), Wait(1.5), Click(435, 140), Wait(0.5), KeyPress("delete"), Wait(2.0)]
    assert wrong_end(env, [one]) == 0.0


def test_opening_a_look_alike_subject_does_not_count(wrong):
    env, chosen, _ = wrong("GCC/Outlook-OpenUrgentMeeting")
    obs = env.step(quick_filter(f"{chosen['about']} {chosen['kind']}"))[0]
    lines = subject_lines(obs)
    assert len(lines) >= 3, lines  # the mail and at least two look-alikes
    y = max(lines, key=lambda line: line[1])[0]  # the widest: a look-alike
    assert wrong_end(env, [[Click(435, y), Wait(1.5)]]) == 0.0
    # ... nor does clicking on to the right one after it (a random walk down the list)
    y = min(lines, key=lambda line: line[1])[0]
    assert wrong_end(env, [[Click(435, y), Wait(1.5)]]) == 0.0


def test_the_mail_servers_bind_loopback_and_are_gone_after_close(display):
    env = gym.make("GCC/Outlook-EmptyJunk", display=display)
    try:
        env.reset(seed=WRONG_SEED)
        session = env.unwrapped.session
        key = json.loads((session.home / ANSWER).read_text())
        pids, ports = list(session.pids), [key[k] for k in ("imap_port", "smtp_port")]
        assert len(ports) == 2 and all(port_open(p, session=session) for p in ports)
    finally:
        env.close()
    assert not any(port_open(p) for p in ports)
    assert_gone(pids)
