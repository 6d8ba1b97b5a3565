"""Scripted solutions of the Feishu twins: Orage's menu and appointment window, HexChat's
input line (its commands, as a person types them).

Each reads what varies from the instruction (the title, the message and the contact, the
bill's path, the status message) and acts through events only; clicks in pixels of the
twin's 1280x800 screen, scaled to the frames shown.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from gcc_envs.apps.software.scripting import (
    Plan,
    PlanScript,
    after,
    changed,
    quoted,
    settle,
    until,
)
from gcc_envs.core.events import Event, KeyPress, TypeText, Wait

INPUT = (600, 784)  # HexChat's input line


class FeishuScript(PlanScript):
    """Orage's and HexChat's moves, in the twin's 1280x800 screen pixels scaled to the frames
    shown."""

    def say(self, line: str) -> list[Event]:
        """A line typed into HexChat's input (a command or a message) and sent."""
        return [self.click(*INPUT), Wait(0.4), TypeText(line, 0.03), Wait(0.3),
                KeyPress("enter"), Wait(1.0)]  # fmt: skip

    def said(self, line: str, before: np.ndarray, then_s: float = 2.0) -> Any:
        """:meth:`say`, then wait until HexChat shows it (the screen changes from ``before``)
        and ``then_s`` more: on a busy machine the line takes a while to reach the contact."""
        return until(self.say(line), lambda f: changed(f, before, tol=0.3), timeout_s=15.0,
                     then_s=then_s)  # fmt: skip


class FocusTimeAppointmentScript(FeishuScript):
    """Orage: File > New appointment (it starts later today), the title, Save. The title is
    typed only once the appointment window shows (on a busy machine it can take seconds)."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        title = quoted(instruction)[0]
        calendar = yield settle()  # Orage as it stands, drawn
        menu = yield settle([self.click(545, 329), Wait(0.5)])  # File's menu open

        def opened(f: np.ndarray) -> bool:  # neither the calendar nor its menu: the window
            return changed(f, calendar) and changed(f, menu)

        yield until([self.click(572, 354)], opened, timeout_s=30.0, then_s=0.0)
        yield settle()
        yield settle([TypeText(title, 0.02), Wait(0.3), self.click(26, 66), Wait(1.0)])


class SendHiToCradleScript(FeishuScript):
    """A private message: ``/msg <contact> <text>``."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        text = quoted(instruction)[0]
        contact = after(instruction, "chat message to")
        yield self.said(f"/msg {contact} {text}", frame)


class SendBillToBorjeScript(FeishuScript):
    """A file over DCC: ``/dcc send <nick> ~/<path>``."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        path = re.search(r"from (\S+\.pdf)", instruction)
        nick = re.search(r"\(nick (\w+)\)", instruction)
        where = path.group(1) if path else "Desktop/aws-bill.pdf"
        yield self.said(f"/dcc send {nick.group(1) if nick else 'Borje'} ~/{where}", frame, 3.0)


class StatusInMeetingScript(FeishuScript):
    """Away with the message: ``/away <text>``."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        # the server marks the user away at once; HexChat may show nothing of it
        yield settle([*self.say(f"/away {quoted(instruction)[0]}"), Wait(1.0)])
