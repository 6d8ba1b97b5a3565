"""Scripted solutions of the Feishu twins: Orage's menu and appointment window, HexChat's
input line (its commands, as a person types them).

Each reads what varies from the instruction (the title, the message and the contact, the
bill's folder, the status message) and acts through events only; clicks in pixels of the
twin's 1280x800 screen, scaled to the frames shown.
"""

from __future__ import annotations

import re

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
        return [self.click(*INPUT), TypeText(line, 0.02), KeyPress("enter"), Wait(1.0)]


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
        yield settle(self.say(f"/msg {contact} {text}"))


class SendBillToBorjeScript(FeishuScript):
    """A file over DCC: ``/dcc send <nick> ~/<path>``."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        path = re.search(r"from (\S+\.pdf)", instruction)
        nick = re.search(r"\(nick (\w+)\)", instruction)
        where = path.group(1) if path else "Desktop/aws-bill.pdf"
        yield settle([*self.say(f"/dcc send {nick.group(1) if nick else 'Borje'} ~/{where}"),
                      Wait(2.0)])  # fmt: skip


class StatusInMeetingScript(FeishuScript):
    """Away with the message: ``/away <text>``."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        yield settle(self.say(f"/away {quoted(instruction)[0]}"))
