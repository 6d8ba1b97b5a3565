"""OSWorld's ``update_browse_history`` setup step: visits written into Chromium's History.

Each entry ``{"url", "title", "visit_time_from_now_in_seconds"}`` is a visit (a row of
``visits``) dated that many seconds before now, as if the page had been opened then, of its
page (one row of ``urls`` a page, with its count of visits and the last one's time, as
Chromium keeps them; a page visited again is not listed twice). The database is the profile's own (``~/.config/google-chrome/Default/
History``); where the profile has none yet, a headless Chromium makes it first, so its schema
is the running Chromium's. The rows are written by ``python -m gcc_envs.osworld.chrome_history
DB ENTRIES_JSON`` inside the episode's sandbox, before Chromium starts (it holds the database
locked while it runs).

>>> chrome_time(0.0)
11644473600000000
>>> entries([{"url": "https://a.example/", "title": "A", "visit_time_from_now_in_seconds": 60}])
[('https://a.example/', 'A', 60.0)]
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from collections.abc import Sequence
from typing import Any

#: Seconds from 1601-01-01 (Chromium's epoch, as Windows') to 1970-01-01.
EPOCH_DELTA_S = 11_644_473_600
#: A typed visit that starts and ends its redirect chain (Chromium's page transition bits).
TYPED_VISIT = 0x30000001


def chrome_time(unix_s: float) -> int:
    """Chromium's timestamp (microseconds since 1601) of a Unix time."""
    return int(round((unix_s + EPOCH_DELTA_S) * 1_000_000))


def entries(history: Any) -> list[tuple[str, str, float]]:
    """The step's ``history`` as (url, title, seconds ago), or ``ValueError`` naming the entry."""
    if not isinstance(history, list) or not history:
        raise ValueError("update_browse_history needs a list of visits")
    out = []
    for e in history:
        ago = e.get("visit_time_from_now_in_seconds") if isinstance(e, dict) else None
        if (
            not isinstance(e, dict)
            or not isinstance(e.get("url"), str)
            or not e["url"]
            or not isinstance(e.get("title", ""), str)
            or isinstance(ago, bool)
            or not isinstance(ago, (int, float))
            or ago < 0
        ):
            raise ValueError(
                "each visit is {'url': str, 'title': str, 'visit_time_from_now_in_seconds': "
                f"seconds >= 0}}, got {e!r:.120}"
            )
        out.append((e["url"], e.get("title", ""), float(ago)))
    return out


def write(db: str, visits: Sequence[tuple[str, str, float]], now: float | None = None) -> None:
    """Add ``visits`` to the History database ``db`` (one transaction)."""
    now = time.time() if now is None else now
    con = sqlite3.connect(db, timeout=5.0)
    try:
        with con:
            for url, title, ago in sorted(visits, key=lambda v: -v[2]):  # oldest first
                when = chrome_time(now - ago)
                row = con.execute("SELECT id FROM urls WHERE url = ?", (url,)).fetchone()
                if row is None:  # one row a page, as Chromium keeps them
                    row = (
                        con.execute(
                            "INSERT INTO urls (url, title, visit_count, typed_count, "
                            "last_visit_time, hidden) VALUES (?, ?, 0, 0, 0, 0)",
                            (url, title),
                        ).lastrowid,
                    )
                con.execute(
                    "UPDATE urls SET visit_count = visit_count + 1, title = ?, "
                    "last_visit_time = max(last_visit_time, ?) WHERE id = ?",
                    (title, when, row[0]),
                )
                con.execute(
                    "INSERT INTO visits (url, visit_time, from_visit, transition, segment_id, "
                    "visit_duration) VALUES (?, ?, 0, ?, 0, 0)",
                    (row[0], when, TYPED_VISIT),
                )
    finally:
        con.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m gcc_envs.osworld.chrome_history DB ENTRIES_JSON", file=sys.stderr)
        return 2
    try:
        write(args[0], entries(json.loads(args[1])))
    except (ValueError, sqlite3.Error) as e:
        print(f"update_browse_history: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
