"""``update_browse_history``'s writer: visits into a History database, one row a page."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from gcc_envs.osworld import chrome_history as ch

#: The columns the writer uses of Chromium's two tables (Chromium's own have more).
SCHEMA = """
CREATE TABLE urls(id INTEGER PRIMARY KEY AUTOINCREMENT, url LONGVARCHAR, title LONGVARCHAR,
  visit_count INTEGER DEFAULT 0 NOT NULL, typed_count INTEGER DEFAULT 0 NOT NULL,
  last_visit_time INTEGER NOT NULL, hidden INTEGER DEFAULT 0 NOT NULL);
CREATE TABLE visits(id INTEGER PRIMARY KEY AUTOINCREMENT, url INTEGER NOT NULL,
  visit_time INTEGER NOT NULL, from_visit INTEGER, transition INTEGER DEFAULT 0 NOT NULL,
  segment_id INTEGER, visit_duration INTEGER DEFAULT 0 NOT NULL);
"""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "History"
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    con.close()
    return path


def _visit(url: str, ago: float, title: str = "t") -> dict:
    return {"url": url, "title": title, "visit_time_from_now_in_seconds": ago}


def test_a_page_visited_twice_is_one_row_with_both_visits(db: Path) -> None:
    now = 1_700_000_000.0
    ch.write(str(db), ch.entries([_visit("https://y.example/a", 60, "old"),
                                  _visit("https://n.example/", 30),
                                  _visit("https://y.example/a", 10, "new")]), now=now)  # fmt: skip
    con = sqlite3.connect(db)
    urls = con.execute("SELECT url, title, visit_count, last_visit_time FROM urls").fetchall()
    visits = con.execute("SELECT url, visit_time FROM visits ORDER BY visit_time").fetchall()
    assert sorted(urls) == [("https://n.example/", "t", 1, ch.chrome_time(now - 30)),
                            ("https://y.example/a", "new", 2, ch.chrome_time(now - 10))]  # fmt: skip
    assert [t for _, t in visits] == [ch.chrome_time(now - a) for a in (60, 30, 10)]
    # Chromium's epoch is 1601: a Unix time is 11,644,473,600 s later
    assert ch.chrome_time(now) - now * 1_000_000 == ch.EPOCH_DELTA_S * 1_000_000


@pytest.mark.parametrize(
    "history",
    [[], "x", [{"url": "", "visit_time_from_now_in_seconds": 1}], [_visit("https://a/", -5)],
     [_visit("https://a/", True)], [{"url": "https://a/"}], [["https://a/", 1]]],
)  # fmt: skip
def test_a_malformed_history_is_refused_naming_it(history: object) -> None:
    with pytest.raises(ValueError, match="visit"):
        ch.entries(history)


def test_the_command_line_reports_what_went_wrong(db: Path, capsys) -> None:
    assert ch.main([str(db), json.dumps([_visit("https://a.example/", 5)])]) == 0
    assert ch.main([str(db), "[]"]) == 1
    assert "needs a list of visits" in capsys.readouterr().err
    missing = str(db.parent / "missing-dir" / "History")
    assert ch.main([missing, json.dumps([_visit("https://a.example/", 5)])]) == 1
    assert "unable to open" in capsys.readouterr().err
    assert ch.main([]) == 2
