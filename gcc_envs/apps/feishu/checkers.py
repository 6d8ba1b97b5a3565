"""Checkers of the Feishu twin: the calendar's iCalendar file, what the chat contacts
received, and what the chat server says of the user (its WHOIS reply)."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gcc_envs.apps.feishu.setup import CALENDAR, CHAT
from gcc_envs.apps.software.reading import answer, files_in, jsonl
from gcc_envs.core.probe import DesktopProbe
from gcc_envs.errors import GCCError

ME = "tester"


def events(text: str) -> list[dict[str, str]]:
    """The VEVENTs of an iCalendar text: property name -> value, parameters dropped but for
    the start's time zone (``DTSTART-TZID``).

    >>> events("BEGIN:VEVENT\\r\\nSUMMARY:Focus time\\r\\nDTSTART;TZID=UTC:20240306T150000\\r\\nEND:VEVENT")
    [{'SUMMARY': 'Focus time', 'DTSTART': '20240306T150000', 'DTSTART-TZID': 'UTC'}]
    """
    out: list[dict[str, str]] = []
    lines: list[str] = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        if raw.startswith((" ", "\t")) and lines:
            lines[-1] += raw[1:]  # folded line
        else:
            lines.append(raw)
    current: dict[str, str] | None = None
    for line in lines:
        if line == "BEGIN:VEVENT":
            current = {}
        elif line == "END:VEVENT" and current is not None:
            out.append(current)
            current = None
        elif current is not None and ":" in line:
            key, value = line.split(":", 1)
            name, *params = key.split(";")
            current.setdefault(name.upper(), value)
            if name.upper() == "DTSTART":
                for p in params:
                    if p.upper().startswith("TZID="):
                        current.setdefault("DTSTART-TZID", p[5:].strip('"'))
    return out


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise GCCError(
            f"the calendar names a time zone this machine does not know: {name!r}"
        ) from e


def appointment_today(probe: DesktopProbe, title: str = "Focus time") -> float:
    """The calendar holds a timed event titled ``title`` starting later today, "today" in the
    calendar's time zone (the setup's; a start without a zone is read in it)."""
    if not probe.exists(CALENDAR):
        return 0.0
    key = answer(probe)
    calendar = _zone(key.get("zone", "Etc/UTC"))
    started = datetime.fromtimestamp(key["started"], calendar)
    for ev in events(probe.read_file(CALENDAR).decode("utf-8", "replace")):
        start = ev.get("DTSTART", "")
        if ev.get("SUMMARY", "").strip() != title or "T" not in start:
            continue
        try:
            when = datetime.strptime(start.rstrip("Z")[:15], "%Y%m%dT%H%M%S")
        except ValueError:
            continue
        tzid = "UTC" if start.endswith("Z") else ev.get("DTSTART-TZID")
        when = when.replace(tzinfo=_zone(tzid) if tzid else calendar).astimezone(calendar)
        if when.date() == started.date() and when >= started.replace(second=0, microsecond=0):
            return 1.0
    return 0.0


def messaged(probe: DesktopProbe, contact: str, text: str) -> float:
    """``contact`` received ``text`` from the user in a private chat (not in a channel)."""
    for m in jsonl(probe, f"{CHAT}/messages.jsonl"):
        if (m.get("to_contact") == contact and m.get("target", "").lower() == contact.lower()
                and m.get("sender") == ME and m.get("text", "").strip() == text):  # fmt: skip
            return 1.0
    return 0.0


def file_sent(probe: DesktopProbe, contact: str, file: str) -> float:
    """``contact`` received a file with the same bytes as ``file``."""
    want = probe.read_file(file)
    folder = f"{CHAT}/received/{contact}"
    return (
        1.0
        if any(probe.read_file(f"{folder}/{n}") == want for n in files_in(probe, folder))
        else 0.0
    )


def status(probe: DesktopProbe, text: str) -> float:
    """The chat server reports the user away with exactly ``text`` (the status message)."""
    port = answer(probe).get("chat_port")
    argv = [sys.executable, "-m", "gcc_envs.apps.feishu.chat", "whois", "--port", str(port), ME]
    r = probe.run(argv, timeout_s=10.0)
    if r.returncode != 0 or not r.stdout:
        return 0.0
    return 1.0 if (json.loads(r.stdout).get("away") or "").strip() == text else 0.0


def live_only(probe: DesktopProbe) -> float:
    """The meet-now task has no Linux twin: nothing here can judge it (see the suite)."""
    raise GCCError("Feishu's meet-now task runs only on the real app (live=True)")
