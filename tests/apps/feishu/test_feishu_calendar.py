"""The appointment task holds at every hour of the day: Orage runs in a zone where the episode
starts between noon and 1 pm (``setup.midday_zone``), and the checker reads "later today" in
that zone, whatever zone the calendar file names. (Between 23:00 and midnight Orage's new
appointment starts at 09:00 that day, already past: CI, run near midnight UTC, once scored the
scripted solution 0.) No desktop: the checker reads files."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from gcc_envs.apps.feishu.checkers import appointment_today
from gcc_envs.apps.feishu.setup import CALENDAR, midday_zone
from gcc_envs.apps.software.reading import ANSWER
from gcc_envs.errors import GCCError

DAY = datetime(2026, 12, 3, tzinfo=ZoneInfo("UTC")).timestamp()


class HomeProbe:
    """The checker's view of a home folder: its files (nothing runs)."""

    def __init__(self, home: Path) -> None:
        self.home = home

    def exists(self, path: str) -> bool:
        return (self.home / path).exists()

    def read_file(self, path: str) -> bytes:
        return (self.home / path).read_bytes()


def calendar(home: Path, started: float, zone: str, *starts: str, title: str = "Dentist"):
    """A home whose answer key says the episode began at ``started`` in ``zone`` and whose
    calendar holds one event titled ``title`` per ``DTSTART`` line tail in ``starts``."""
    (home / ANSWER).parent.mkdir(parents=True)
    (home / ANSWER).write_text(json.dumps({"started": started, "zone": zone}))
    (home / CALENDAR).parent.mkdir(parents=True)
    body = "".join(
        f"BEGIN:VEVENT\r\nSUMMARY:{title}\r\nDTSTART{s}\r\nDURATION:PT30M\r\nEND:VEVENT\r\n"
        for s in starts
    )
    (home / CALENDAR).write_text(f"BEGIN:VCALENDAR\r\n{body}END:VCALENDAR\r\n")
    return HomeProbe(home)


@pytest.mark.parametrize("hour", range(24))
def test_the_zone_puts_every_hour_of_the_day_at_noon(hour):
    now = DAY + hour * 3600 + 45 * 60
    local = datetime.fromtimestamp(now, ZoneInfo(midday_zone(now)))
    assert (local.hour, local.minute) == (12, 45)


def stamp(t: float, zone: str) -> str:
    return datetime.fromtimestamp(t, ZoneInfo(zone)).strftime("%Y%m%dT%H%M%S")


def test_at_a_quarter_to_midnight_utc_the_next_half_hour_in_the_zone_counts(tmp_path):
    started = DAY + 23.75 * 3600  # 23:45 UTC: 12:45 in the zone the setup picks
    zone = midday_zone(started)
    at_one = stamp(started + 15 * 60, zone)  # what Orage offers: 13:00 in its zone
    assert at_one.endswith("T130000")
    assert appointment_today(calendar(tmp_path, started, zone, f";TZID={zone}:{at_one}"),
                             "Dentist") == 1.0  # fmt: skip


@pytest.mark.parametrize(
    "start, score",
    [
        (";TZID=Etc/GMT+11:20261203T130000", 1.0),  # later today, the calendar's zone
        (":20261203T130000", 1.0),  # no zone: the calendar's
        (":20261204T000000Z", 1.0),  # midnight UTC is 13:00 in the zone
        (";TZID=Etc/GMT+11:20261203T120000", 0.0),  # before the episode began
        (";TZID=Etc/GMT+11:20261204T090000", 0.0),  # tomorrow morning
        (";TZID=Etc/UTC:20261203T130000", 0.0),  # 13:00 UTC is 02:00 there: before
        (";VALUE=DATE:20261203", 0.0),  # a whole day, not a timed appointment
    ],
)
def test_later_today_is_read_in_the_calendars_zone(tmp_path, start, score):
    started = DAY + 23.75 * 3600
    probe = calendar(tmp_path, started, "Etc/GMT+11", start)
    assert appointment_today(probe, "Dentist") == score
    assert appointment_today(probe, "Dentist time") == 0.0  # another title


def test_a_zone_this_machine_does_not_know_is_an_error_not_a_zero(tmp_path):
    probe = calendar(tmp_path, DAY, "Etc/UTC", ";TZID=Mars/Olympus_Mons:20261203T130000")
    with pytest.raises(GCCError, match="Mars/Olympus_Mons"):
        appointment_today(probe, "Dentist")


def test_an_answer_key_without_a_zone_reads_utc(tmp_path):
    probe = calendar(tmp_path, DAY + 9 * 3600, "Etc/UTC", ":20261203T100000")
    (tmp_path / ANSWER).write_text(json.dumps({"started": DAY + 9 * 3600}))  # an older key
    assert appointment_today(probe, "Dentist") == 1.0
