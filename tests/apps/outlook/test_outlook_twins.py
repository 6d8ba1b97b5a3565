"""The Outlook twins on a real Thunderbird against Dovecot and the SMTP sink on loopback:
a scripted solution succeeds, doing nothing and a plausible wrong end state fail, and the
mail servers are gone after ``close()``.

The scripts are keyboard-and-mouse events through the env (Thunderbird's shortcuts, its
quick filter, its dialogs at their places on the 1280x800 screen).
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
from gcc_envs.apps.outlook.mailbox import headers_of, make_mailbox
from gcc_envs.apps.software.desktop import port_open
from gcc_envs.apps.software.reading import ANSWER

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.timeout(180),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(shutil.which("thunderbird") is None, reason="Debian thunderbird missing"),
    pytest.mark.skipif(not os.path.exists("/usr/lib/dovecot/imap"), reason="dovecot-imapd missing"),
]
SEED = 7
CARD = 75  # height of a message card in the list (cards view)


def card(k: int) -> Click:
    """The k-th message card while the quick filter bar is open."""
    return Click(435, 250 + CARD * k)


def compose(to: str, subject: str) -> list:
    return [Hotkey(("ctrl", "n")), Wait(2.5), TypeText(to, 0.02), Wait(0.3), KeyPress("tab"),
            Wait(0.3), KeyPress("tab"), Wait(0.3), TypeText(subject, 0.02)]  # fmt: skip


SEND = [Hotkey(("ctrl", "enter")), Wait(1.0), KeyPress("enter"), Wait(3.0)]  # and confirm


def quick_filter(text: str) -> list:
    return [Hotkey(("ctrl", "shift", "k")), Wait(0.5), Hotkey(("ctrl", "a")), TypeText(text, 0.02),
            Wait(1.5)]  # fmt: skip


def act(env: gym.Env, steps: Sequence[list]) -> dict:
    info: dict = {}
    for events in steps:
        _, _, terminated, _, info = env.step(events)
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


def done(env: gym.Env, seconds: int = 6) -> bool:
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
        settle(env, 3)
        assert env.unwrapped.score() == 0.0, "doing nothing succeeded"
        return env

    yield _make
    for env in made:
        env.close()


def test_send_hello_friend_wants_the_exact_subject(make):
    env = make("GCC/Outlook-SendHelloFriend")
    assert not passes(env, [compose("borje@baai.ac.cn", "Hello friends"), SEND])
    act(env, [compose("borje@baai.ac.cn", "Hello friend"), SEND])
    assert done(env)


def test_empty_junk_wants_every_junk_message_gone(make):
    env = make("GCC/Outlook-EmptyJunk")
    spam = [Click(128, 244), Wait(1.5)]
    assert not passes(env, [[*spam, Click(435, 140), Wait(0.5), KeyPress("delete"), Wait(2.0)]]), (
        "deleting one junk message emptied the folder"
    )
    act(env, [[Click(435, 140), Wait(0.5), Hotkey(("ctrl", "a")), KeyPress("delete"), Wait(2.0)]])
    assert done(env)


def test_reply_to_borje_wants_the_text_in_a_reply_to_his_mail(make):
    env = make("GCC/Outlook-ReplyToBorje")

    def reply(text: str) -> list:
        return [[*quick_filter("Karlsson"), card(0), Wait(1.0)],
                [Hotkey(("ctrl", "r")), Wait(2.5), TypeText(text, 0.02), *SEND]]  # fmt: skip

    assert not passes(env, reply("Got it."))
    act(env, reply("Got it. Thanks."))
    assert done(env)


def test_open_urgent_meeting_wants_that_mail_not_a_look_alike(make):
    env = make("GCC/Outlook-OpenUrgentMeeting")
    inbox = [headers_of(m) for m in make_mailbox(_mailbox_seed(SEED))["INBOX"]]
    # the quick filter keeps mails with both words, newest first (as Thunderbird lists them)
    hits = [str(m["Subject"]) for m in inbox
            if {"urgent", "meeting"} <= set(str(m["Subject"]).lower().replace(":", " ").split())]  # fmt: skip
    right = hits.index("Urgent meeting")
    wrong = next(k for k in range(len(hits)) if k != right)
    assert not passes(env, [quick_filter("Urgent meeting"), [card(wrong), Wait(1.5)]])
    act(env, [[card(right), Wait(1.5)]])
    assert done(env)


def _mailbox_seed(seed: int) -> int:
    import numpy as np

    return int(np.random.default_rng(seed).integers(2**31))  # as mail_server draws it


def test_forward_all_wants_a_rule_for_every_mail_to_borje(make):
    env = make("GCC/Outlook-ForwardAllToBorje")

    def rule(address: str) -> list:
        return [[Click(952, 262), Wait(2.0), TypeText(f"To {address}", 0.02), Click(803, 343),
                 Wait(0.3), Click(295, 528), Wait(1.0)],
                [Click(292, 177), Wait(0.8), Click(687, 528), TypeText(address, 0.02), Wait(0.3)],
                [Click(1039, 705), Wait(2.0)]]  # fmt: skip

    filters = [Click(900, 600), Wait(0.3), Hotkey(("alt", "t")), Wait(1.0), KeyPress("f"), Wait(2)]
    close = [[Click(1031, 159), Wait(2.0)]]
    assert not passes(env, [filters, *rule("borje@baai.ac"), *close])
    act(env, [filters, *rule("borje@baai.ac.cn"), *close])
    assert done(env)


def test_attach_aws_bill_wants_that_pdf_in_a_draft_not_another(make):
    env = make("GCC/Outlook-AttachAwsBill")
    home = str(env.unwrapped.session.home)

    def draft(name: str) -> list:
        return [[Hotkey(("ctrl", "n")), Wait(2.5), Hotkey(("ctrl", "shift", "a")), Wait(1.5),
                 Hotkey(("ctrl", "l")), Hotkey(("ctrl", "a")), TypeText(f"{home}/Desktop/{name}", 0.02),
                 Wait(0.8), KeyPress("enter"), Wait(1.5)],
                [Hotkey(("ctrl", "s")), Wait(3.0)]]  # fmt: skip

    assert not passes(env, draft("aws-bill-2023.pdf"))
    act(env, draft("aws-bill.pdf"))
    assert done(env)


def test_the_mail_servers_bind_loopback_and_are_gone_after_close():
    env = gym.make("GCC/Outlook-EmptyJunk")
    try:
        env.reset(seed=SEED)
        session = env.unwrapped.session
        key = json.loads((session.home / ANSWER).read_text())
        pids, ports = list(session.pids), [key[k] for k in ("imap_port", "smtp_port")]
        assert len(ports) == 2 and all(port_open(p) for p in ports)
    finally:
        env.close()
    assert not any(port_open(p) for p in ports)
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}"), f"pid {pid} still runs"
