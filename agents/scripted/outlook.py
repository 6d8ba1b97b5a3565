"""Scripted solutions of the Outlook twins (Thunderbird): its shortcuts, its quick filter, its
dialogs, and what the screen shows.

Each reads what varies from the instruction (the address, the subject, the text, the bill's
path) and finds on the frame what moves: the junk folder by its red flame icon in the
folder list, a message card by its blue subject line (the exact subject is the narrowest
line among the quick filter's hits: every look-alike holds it and says more). Events only;
clicks in pixels of the twin's 1280x800 screen, scaled to the frames shown.
"""

from __future__ import annotations

import re

import numpy as np

from gcc_envs.apps.software.scripting import Plan, PlanScript, changed, quoted, settle, until
from gcc_envs.core.events import Event, Hotkey, KeyPress, Scroll, TypeText, Wait

#: The message list's column and the colour of an unread subject line in it.
LIST_X = (300, 580)
SUBJECT_RGB = (19, 115, 217)
#: The folder list's icon column and the junk folder's flame colour.
ICONS_X = (80, 108)
FLAME_RGB = (220, 38, 38)


def _mask(frame: np.ndarray, rgb: tuple[int, int, int], tol: int = 40) -> np.ndarray:
    return (np.abs(frame.astype(np.int16) - np.array(rgb, np.int16)) <= tol).all(axis=2)


def bands(mask: np.ndarray, min_rows: int = 4) -> list[tuple[int, int]]:
    """``(top, bottom)`` of each run of rows that hold ``mask`` pixels."""
    rows = mask.any(axis=1)
    out, start = [], None
    for y, on in enumerate([*rows, False]):
        if on and start is None:
            start = y
        elif not on and start is not None:
            if y - start >= min_rows:
                out.append((start, y))
            start = None
    return out


def subject_lines(frame: np.ndarray) -> list[tuple[int, int]]:
    """``(y, width)`` of each unread subject line in the message list, top to bottom: a band
    of blue text (a text line's height, densely inked; the quick filter's focused box and its
    toggles' blue marks are not)."""
    x0, x1 = LIST_X
    mask = _mask(frame[:, x0:x1], SUBJECT_RGB)
    mask[:100] = False  # the header
    out = []
    for top, bottom in bands(mask):
        cols = np.flatnonzero(mask[top:bottom].any(axis=0))
        width = int(cols[-1] - cols[0]) + 1
        ink = float(mask[top:bottom].sum()) / ((bottom - top) * width)
        if bottom - top <= 22 and width >= 30 and ink >= 0.12:
            out.append(((top + bottom) // 2, width))
    return out


def listed(frame: np.ndarray) -> bool:
    """Whether the message list shows its mails (Thunderbird draws them a moment after its
    window is up: keys sent before go astray)."""
    if frame.shape[:2] != (800, 1280):
        import cv2

        frame = cv2.resize(frame, (1280, 800), interpolation=cv2.INTER_LINEAR)
    return len(subject_lines(frame)) >= 2


def junk_row(frame: np.ndarray) -> int | None:
    """The y of the junk folder's row (its red flame icon), or None."""
    x0, x1 = ICONS_X
    mask = _mask(frame[:, x0:x1], FLAME_RGB, tol=45)
    found = bands(mask, min_rows=3)
    return (found[0][0] + found[0][1]) // 2 if found else None


def compose(to: str, subject: str) -> list[Event]:
    return [Hotkey(("ctrl", "n")), Wait(2.5), TypeText(to, 0.02), Wait(0.3), KeyPress("tab"),
            Wait(0.3), KeyPress("tab"), Wait(0.3), TypeText(subject, 0.02)]  # fmt: skip


#: Send (Ctrl+Enter) and confirm Thunderbird's question.
SEND = [Hotkey(("ctrl", "enter")), Wait(1.0), KeyPress("enter")]
#: The yellow of the bar Thunderbird shows over a message whose text names an attachment
#: ("Found an attachment keyword"); sending it then asks "Did you forget to add an attachment?",
#: whose default button is "No, Send Now".
REMINDER_RGB = (255, 241, 96)


def attachment_reminder(frame: np.ndarray) -> bool:
    """Whether the compose window still shows, with its attachment-keyword bar (a send held up
    by the reminder's question).

    >>> f = np.zeros((800, 1280, 3), np.uint8)
    >>> attachment_reminder(f)
    False
    >>> f[735:765, 5:860] = REMINDER_RGB
    >>> attachment_reminder(f)
    True
    """
    return float(_mask(frame, REMINDER_RGB, tol=12).mean()) > 0.01


def quick_filter(text: str) -> list[Event]:
    """The quick filter bar (its box takes the focus a moment after it opens: keys typed
    before go astray on a busy machine), ``text`` in its box."""
    return [Hotkey(("ctrl", "shift", "k")), Wait(1.5), Hotkey(("ctrl", "a")), TypeText(text, 0.04)]


class OutlookScript(PlanScript):
    """Thunderbird's moves, in the twin's 1280x800 screen pixels scaled to the frames shown."""


class SendHelloFriendScript(OutlookScript):
    """New message (Ctrl+N): the address, the subject, send (past the attachment reminder a
    subject such as "Draft attached" brings up)."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        to = re.search(r"e-mail to (\S+@\S+?) with", instruction)
        subject = quoted(instruction)[0]
        shown = yield settle([], quiet_s=0.5, ready=listed)
        # the new message's window, waited for (keys typed before it shows go astray)
        yield until([Hotkey(("ctrl", "n"))], lambda f: shown is None or changed(f, shown, tol=8.0),
                    timeout_s=20.0, then_s=1.5)  # fmt: skip
        yield settle([*compose(to.group(1) if to else "", subject)[2:], Wait(0.3)], quiet_s=0.5)
        frame = yield settle(SEND, quiet_s=1.0)
        if frame is not None and attachment_reminder(frame):  # "Draft attached": send anyway
            yield settle([KeyPress("enter")], quiet_s=1.0)


class EmptyJunkScript(OutlookScript):
    """The junk folder (found by its icon; the folder list scrolled down when it is below the
    pane), its first message, select all, delete."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        y = junk_row(self.at_screen(frame))
        if y is None or not listed(frame):  # not shown yet: look again when it is
            frame = yield settle([], quiet_s=1.0, ready=listed)
            y = junk_row(self.at_screen(frame)) if frame is not None else None
        if y is None:  # below the pane's end: scroll the folder list down
            x, mid = self.at(128, 400)
            frame = yield settle([Scroll(dy=-10, x=x, y=mid)], quiet_s=0.6)
            y = junk_row(self.at_screen(frame)) if frame is not None else None
        if y is None:
            return
        yield settle([self.click(128, y)], quiet_s=0.8)
        yield settle([self.click(435, 140), Wait(0.5), Hotkey(("ctrl", "a")), KeyPress("delete")])


class ReplyToBorjeScript(OutlookScript):
    """The quick filter on the sender's name (as much of it as the keyboard types) and the
    topic the instruction names, if any, the first hit, reply (Ctrl+R), the text, send."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        sender = re.search(r"e-mail from (\w+)", instruction)
        topic = re.search(r"e-mail from \w+ about the (\w+)", instruction)
        text = quoted(instruction)[0]
        # the keyboard types ASCII only: the name's longest ASCII run ("rje" of "Börje")
        runs = re.findall(r"[A-Za-z]+", sender.group(1) if sender else "Borje")
        name = max(runs, key=len) if runs else "Borje"
        # a mail named by its topic: the filter holds the sender and the topic (both must match)
        terms = f"{name} {topic.group(1)}" if topic else name
        frame = yield settle(quick_filter(terms), quiet_s=1.0, ready=listed)
        lines = subject_lines(self.at_screen(frame)) if frame is not None else []
        if not lines:
            return
        shown = yield settle([self.click(435, lines[0][0]), Wait(0.5)], quiet_s=0.6)

        def composing(f: np.ndarray) -> bool:  # the reply's window is up (the screen changed)
            return shown is None or changed(f, shown, tol=8.0)

        yield until([Hotkey(("ctrl", "r"))], composing, timeout_s=20.0, then_s=1.5)
        yield settle([TypeText(text, 0.02), Wait(0.3), *SEND], quiet_s=1.0)


class OpenUrgentMeetingScript(OutlookScript):
    """The quick filter on the subject; of its hits the one with the narrowest subject line
    (each look-alike holds the subject and says more); open it."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        subject = quoted(instruction)[0]
        frame = yield settle(quick_filter(subject), quiet_s=1.0, ready=listed)
        lines = subject_lines(self.at_screen(frame)) if frame is not None else []
        if not lines:
            return
        y = min(lines, key=lambda line: line[1])[0]
        yield settle([self.click(435, y)], quiet_s=0.8)


class ForwardAllToBorjeScript(OutlookScript):
    """Tools > Message Filters > New: "match all messages", action Forward to the address."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        to = re.search(r"go to (\S+@\S+?)\.?$", instruction.strip())
        address = to.group(1) if to else ""
        yield settle([self.click(900, 600), Wait(0.3), Hotkey(("alt", "t")), Wait(1.0),
                      KeyPress("f")], quiet_s=1.0, ready=listed)  # fmt: skip
        yield settle([self.click(952, 262), Wait(2.0), TypeText(f"To {address}", 0.02),
                      self.click(803, 343), Wait(0.3), self.click(295, 528)], quiet_s=0.8)  # fmt: skip
        yield settle([self.click(292, 177), Wait(0.8), self.click(687, 528),
                      TypeText(address, 0.02), Wait(0.3)], quiet_s=0.5)  # fmt: skip
        yield settle([self.click(1039, 705)], quiet_s=1.0)
        yield settle([self.click(1031, 159)], quiet_s=1.0)


class AttachAwsBillScript(OutlookScript):
    """New message, Attach File (Ctrl+Shift+A), the bill's path, save the draft (Ctrl+S)."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        path = re.search(r"stored at (\S+\.pdf)", instruction)
        where = path.group(1) if path else "Desktop/aws-bill.pdf"
        yield settle([Hotkey(("ctrl", "n")), Wait(2.5)], quiet_s=0.8, ready=listed)
        yield settle([Hotkey(("ctrl", "shift", "a")), Wait(1.5), Hotkey(("ctrl", "l")),
                      Hotkey(("ctrl", "a")), TypeText(f"~/{where}", 0.02), Wait(0.8),
                      KeyPress("enter")], quiet_s=1.0)  # fmt: skip
        yield settle([Hotkey(("ctrl", "s")), Wait(2.0)], quiet_s=1.0)
