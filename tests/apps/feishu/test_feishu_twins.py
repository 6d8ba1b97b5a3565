"""The Feishu twins on real Debian programs (Orage; ngIRCd + HexChat on loopback): a scripted
solution succeeds, doing nothing and a plausible wrong end state fail, and the chat server
and contacts are gone after ``close()``.

The scripts are keyboard-and-mouse events through the env: Orage's menu and appointment
window, HexChat's input line (its commands, as a person types them).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import Click, KeyPress, TypeText, Wait
from gcc_envs.apps.feishu.checkers import events
from gcc_envs.apps.software.desktop import port_open
from gcc_envs.apps.software.reading import ANSWER

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.timeout(180),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
]
needs_chat = pytest.mark.skipif(
    shutil.which("hexchat") is None or not os.path.exists("/usr/sbin/ngircd"),
    reason="Debian packages hexchat and ngircd missing",
)
needs_orage = pytest.mark.skipif(shutil.which("orage") is None, reason="Debian orage missing")
SEED = 7
INPUT = Click(600, 784)  # HexChat's input line


def say(line: str) -> list:
    return [INPUT, TypeText(line, 0.02), KeyPress("enter"), Wait(1.5)]


def act(env: gym.Env, steps: Sequence[list]) -> dict:
    info: dict = {}
    for events_ in steps:
        _, _, terminated, _, info = env.step(events_)
        assert info["last_action_error"] is None, info["last_action_error"]
        if terminated:
            break
    return info


def settle(env: gym.Env, seconds: int) -> dict:
    info: dict = {}
    for _ in range(seconds):
        _, _, terminated, _, info = env.step(Wait(1.0))
        if terminated:
            break
    return info


def passes(env: gym.Env, steps: Sequence[list]) -> bool:
    """Act out ``steps``; whether the task's checker passes the desktop as it is now."""
    act(env, steps)
    return env.unwrapped.score() >= 1.0


def done(env: gym.Env, seconds: int = 5) -> bool:
    """Wait up to ``seconds`` for the end state (a file still being written), then say DONE:
    whether the env judges the episode a success (the checker at the episode's end)."""
    for _ in range(seconds):
        if env.unwrapped.score() >= 1.0:
            break
        env.step(Wait(1.0))
    _, _, terminated, _, info = env.step("DONE")
    return bool(terminated and info["success"] and info["metrics"]["efficiency"] > 0)


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


@needs_orage
def test_focus_time_wants_that_title_today(make):
    env = make("GCC/Feishu-FocusTimeAppointment")

    def appointment(title: str) -> list:  # File > New; the title; Save (the first tool)
        return [Click(545, 329), Wait(1.0), Click(572, 354), Wait(2.0), TypeText(title, 0.02),
                Wait(0.3), Click(26, 66), Wait(1.5)]  # fmt: skip

    assert not passes(env, [appointment("Focus")])
    ics = (env.unwrapped.session.home / ".local/share/orage/orage.ics").read_text()
    assert [e["SUMMARY"] for e in events(ics)] == ["Focus"]  # saved, but not the title asked
    close = [Click(69, 66), Wait(1.0)]  # the appointment window's Close tool
    act(env, [[*close, *appointment("Focus time")]])
    assert done(env)


@needs_chat
def test_hi_to_cradle_wants_a_private_message_not_the_team_channel(make):
    env = make("GCC/Feishu-SendHiToCradle")
    assert not passes(env, [say("Hi")])  # said in #team
    act(env, [say("/msg Cradle Hi")])
    assert done(env)


@needs_chat
def test_bill_to_borje_wants_that_file_not_a_look_alike(make):
    env = make("GCC/Feishu-SendBillToBorje")
    home = env.unwrapped.session.home
    assert not passes(env, [say(f"/dcc send Borje {home}/Desktop/aws-bill-2023.pdf"), [Wait(2.0)]])
    act(env, [say(f"/dcc send Borje {home}/Desktop/aws-bill.pdf")])
    assert done(env)


@needs_chat
def test_status_wants_in_meeting_not_another_message(make):
    env = make("GCC/Feishu-StatusInMeeting")
    assert not passes(env, [say("/away Busy")])
    act(env, [say("/away In meeting")])
    assert done(env)


@needs_chat
def test_the_chat_server_and_contacts_bind_loopback_and_are_gone_after_close():
    env = gym.make("GCC/Feishu-SendHiToCradle")
    try:
        env.reset(seed=SEED)
        session = env.unwrapped.session
        key = json.loads((session.home / ANSWER).read_text())
        pids, ports = list(session.pids), [key[k] for k in ("chat_port",)]
        assert len(ports) == 1 and port_open(ports[0])
    finally:
        env.close()
    assert not port_open(ports[0])
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}"), f"pid {pid} still runs"
