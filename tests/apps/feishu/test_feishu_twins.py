"""The Feishu twins on real Debian programs (Orage; ngIRCd + HexChat on loopback) are fair
tests: the scripted policy (through ``agents.make_policy``) succeeds, while doing nothing,
seed 0's input replayed on a random seed, and a plausible wrong end state (part
of the title, a message in the team channel, another folder's bill, the folder's aws-bill.pdf
beside the bill the task names, another status) fail;
the chat server and contacts are gone after ``close()``. The random policy's runs are in
``benchmarks/apps_fairness.py``.

One virtual display serves the whole module; each task's env resets on it per check.
"""

from __future__ import annotations

import json
import os
import shutil
from functools import partial

import gymnasium as gym
import pytest
import twin_fairness
from twin_fairness import TWIN_MARKS, assert_gone, check_scripted_fair, display_fixture

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import Click, KeyPress, TypeText, Wait
from gcc_envs.apps.feishu import SUITE
from gcc_envs.apps.feishu.checkers import events
from gcc_envs.apps.software.desktop import port_open
from gcc_envs.apps.software.reading import ANSWER

pytestmark = TWIN_MARKS
needs_chat = pytest.mark.skipif(
    shutil.which("hexchat") is None or not os.path.exists("/usr/sbin/ngircd"),
    reason="Debian packages hexchat and ngircd missing",
)
needs_orage = pytest.mark.skipif(shutil.which("orage") is None, reason="Debian orage missing")
WRONG_SEED = 7
INPUT = Click(600, 784)  # HexChat's input line
TASKS = [
    pytest.param(t.env_id(SUITE.title), marks=needs_orage if t.key == "appointment" else needs_chat)
    for t in SUITE.tasks
    if t.script
]


display = display_fixture(SUITE)


@pytest.mark.parametrize("env_id", TASKS)
def test_the_scripted_policy_succeeds_and_nothing_and_replay_fail(env_id, display):
    check_scripted_fair(env_id, display=display)


def say(line: str) -> list:
    return [INPUT, TypeText(line, 0.02), KeyPress("enter"), Wait(1.5)]


@pytest.fixture
def wrong(display):
    made: list[gym.Env] = []

    def _make(env_id: str) -> tuple[gym.Env, dict[str, str]]:
        env = gym.make(env_id, display=display)
        made.append(env)
        env.reset(seed=WRONG_SEED)
        env.step(Wait(2.0))
        assert env.unwrapped.score() == 0.0, "doing nothing succeeded"
        return env, dict(env.unwrapped.session.vars)

    yield _make
    for env in made:
        env.close()


wrong_end = partial(twin_fairness.wrong_end, settle_s=2)


@needs_orage
def test_part_of_the_title_does_not_count(wrong):
    env, chosen = wrong("GCC/Feishu-FocusTimeAppointment")
    part = chosen["title"].split()[0]
    appointment = [Click(545, 329), Wait(1.0), Click(572, 354), Wait(2.0), TypeText(part, 0.02),
                   Wait(0.3), Click(26, 66), Wait(1.5)]  # fmt: skip
    assert wrong_end(env, [appointment]) == 0.0
    ics = (env.unwrapped.session.home / ".local/share/orage/orage.ics").read_text()
    assert [e["SUMMARY"] for e in events(ics)] == [part]  # saved, but not the title asked


@needs_chat
def test_the_message_in_the_team_channel_does_not_count(wrong):
    env, chosen = wrong("GCC/Feishu-SendHiToCradle")
    assert wrong_end(env, [say(chosen["text"])]) == 0.0  # said in #team


@needs_chat
def test_another_folders_bill_does_not_count(wrong):
    env, chosen = wrong("GCC/Feishu-SendBillToBorje")
    other = next(f for f in ("Desktop", "Documents", "Downloads") if f != chosen["folder"])
    assert wrong_end(env, [say(f"/dcc send Borje ~/{other}/aws-bill.pdf")], settle_s=3) == 0.0


@needs_chat
def test_the_folders_other_bill_beside_the_named_one_does_not_count(wrong):
    env, chosen = wrong("GCC/Feishu-SendBillToBorje")
    assert chosen["file"] != "aws-bill.pdf", "the seed names the folder's own bill"
    assert (env.unwrapped.session.home / chosen["folder"] / chosen["file"]).is_file()
    send = say(f"/dcc send Borje ~/{chosen['folder']}/aws-bill.pdf")
    assert wrong_end(env, [send], settle_s=3) == 0.0


@needs_chat
def test_another_status_does_not_count(wrong):
    env, chosen = wrong("GCC/Feishu-StatusInMeeting")
    assert wrong_end(env, [say(f"/away {chosen['text']} soon")]) == 0.0


@needs_chat
def test_the_chat_server_and_contacts_bind_loopback_and_are_gone_after_close(display):
    env = gym.make("GCC/Feishu-SendHiToCradle", display=display)
    try:
        env.reset(seed=WRONG_SEED)
        session = env.unwrapped.session
        key = json.loads((session.home / ANSWER).read_text())
        pids, ports = list(session.pids), [key[k] for k in ("chat_port",)]
        assert len(ports) == 1 and port_open(ports[0], session=session)
    finally:
        env.close()
    assert not port_open(ports[0])
    assert_gone(pids)
