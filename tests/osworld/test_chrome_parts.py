"""OSWorld's Chrome getters and metrics: the address and page parsing, the relative dates, the
metrics on hand-made readings, the profile's files through a probe, the DevTools WebSocket
against a small server, and (desktop) real episodes of Chromium scored 1 when right, 0 when
wrong."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import socket
import sqlite3
import struct
import threading
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from gcc_envs.apps.chrome import cdp, page_query
from gcc_envs.apps.chrome.devtools_ws import DevToolsSocket
from gcc_envs.errors import BackendError, GCCError
from gcc_envs.osworld import chrome_parse as cp
from gcc_envs.osworld import metrics_chrome as mc
from gcc_envs.osworld import relative_time as rt
from gcc_envs.osworld.evaluate import score
from gcc_envs.osworld.getters import GETTERS, Context
from gcc_envs.osworld.metrics import METRICS
from gcc_envs.osworld.taskfile import load_task, localize

MONDAY = date(2026, 11, 23)  # a Monday; the week's days follow


# ---- the active tab's address ------------------------------------------------------------------


def test_url_query_takes_the_first_value_renames_and_splits() -> None:
    url = "https://www.cars.com/shopping/results/?zip=10001&fuel_slugs[]=electric&fuel_slugs[]=hybrid&maximum_distance=50"  # noqa: E501
    keys = {"parse_keys": ["zip", "fuel_slugs[]", "list_price_max", "maximum_distance"],
            "replace": {"maximum_distance": "distance"}}  # fmt: skip
    assert cp.url_query(url, keys) == {
        "zip": "10001", "fuel_slugs[]": "electric", "list_price_max": "", "distance": "50"
    }  # fmt: skip
    split = cp.url_query("https://x.org/?m=a,b&n=", {"parse_keys": ["m", "n"], "split_list": True})
    assert split == {"m": ["a", "b"], "n": [""]}
    assert cp.url_query("https://x.org/?a=&b=2", {"parse_keys": ["a"], "or": {"a": "b"}}) == {
        "a": ""
    }
    with pytest.raises(GCCError, match="parse_keys"):
        cp.url_query("https://x.org/", {})


def test_url_dash_part_as_text_or_object() -> None:
    url = "https://www.example.com/a/part-you-want?id=7"
    assert cp.url_dash_part(url, {"partIndex": -1, "needDeleteId": True, "returnType": "string"}) == "part-you-want"  # fmt: skip
    assert cp.url_dash_part(url, {"partIndex": 3, "returnType": "json", "key": "k"}) == {"k": "a"}
    with pytest.raises(GCCError, match="no part"):
        cp.url_dash_part(url, {"partIndex": 9, "returnType": "string"})
    with pytest.raises(GCCError, match="returnType"):
        cp.url_dash_part(url, {"partIndex": 0, "returnType": "xml"})


def test_url_path_filters_accept_only_the_50_percent_discount_alone() -> None:
    base = "https://www.macys.com/shop/mens-clothing/mens-shirts/Men_regular_size_t,Price_discount_range,Sleeve_length/"  # noqa: E501
    keys = {"parse_keys": ["mens_clothing", "shirts", "Men_regular_size_t", "Price_discount_range", "short_sleeve"]}  # fmt: skip
    got = cp.url_path_filters(base + "L,50_PERCENT_%20off%20%26%20more,Short%20Sleeve?id=1", keys)
    assert got == {"mens_clothing": True, "shirts": True, "short_sleeve": True,
                   "Men_regular_size_t": "L", "Price_discount_range": "50_PERCENT_ off & more"}  # fmt: skip
    both = base + "XL,50_PERCENT_%20off%20%26%20more|30_PERCENT_%20off%20%26%20more,Long%20Sleeve"
    got = cp.url_path_filters(both, keys)
    assert got["Price_discount_range"] == "not_50_PERCENT_ off & more"
    assert got["short_sleeve"] is None and got["Men_regular_size_t"] == "XL"
    plain = cp.url_path_filters("https://www.macys.com/shop/womens", keys)
    assert plain["mens_clothing"] is None and plain["Price_discount_range"] == "not_50_PERCENT_ off & more"  # fmt: skip


# ---- a page's texts ----------------------------------------------------------------------------


def test_html_reads_ask_each_page_read_once_and_refuse_unknown_categories() -> None:
    config = {"category": "class", "class_singleObject": {"date": "time"},
              "class_multiObject": {"date": {"1": "other"}, "loc": {"0": "a"}},
              "class_multiObject_search_exist": {"fT28tf": ["Black", "is_other_exist"]}}  # fmt: skip
    assert cp.html_reads(config) == [["texts", "date"], ["texts", "loc"], ["texts", "fT28tf"]]
    with pytest.raises(GCCError, match="category"):
        cp.html_reads({"category": "css"})


def test_html_values_name_the_texts_as_osworld_does() -> None:
    config = {"category": "class", "class_multiObject": {"loc": {"0": "start", "1": "end", "5": "x"}},
              "class_multiObject_only_child": {"HAZ16": {"0": "content", "1": "time"}},
              "class_multiObject_search_exist": {"chip": ["Black", "On sale", "is_other_exist"]}}  # fmt: skip
    got = {("texts", "loc"): ["BOS", "JFK"], ("h3_texts", "HAZ16"): ["Apply"],
           ("texts", "chip"): ["Black", "$25 - $60"]}  # fmt: skip
    assert cp.html_values(config, "", got) == {
        "start": "BOS", "end": "JFK", "x": "", "content": "Apply", "time": "",
        "Black": True, "On sale": False, "is_other_exist": True,
    }  # fmt: skip
    xpath = {"category": "input", "inputObject": {"//input[1]": "name", "//input[2]": "mail"}}
    got = {("xpath_value", "//input[1]"): "James Smith", ("xpath_value", "//input[2]"): None}
    assert cp.html_values(xpath, "", got) == {"name": "James Smith", "mail": ""}


def test_html_values_class_and_url_keep_the_first_answer_per_value() -> None:
    config = {"category": "class&url",
              "class_multiObject_li": {"crumb": ["Spider-Man", "Toys", "Kids"]},
              "url_include_expected_multichoice": {"Spider-Man": "Spider-Man", "spiderman": "Spider-Man",
                                                   "S=4": "Price Low-High"}}  # fmt: skip
    got = {("li_spans", "crumb"): ["Toys", "Kids"]}
    url = "https://www.example.com/search?q=spiderman&s=4"
    assert cp.html_values(config, url, got) == {
        "toys": True, "kids": True, "is_other_exist": False,
        "spider-man": False,  # "Spider-Man" is not in the address, and the first answer stays
        "price low-high": True,
    }  # fmt: skip
    other = cp.html_values(config, url, {("li_spans", "crumb"): ["Toys", "Games"]})
    assert other["is_other_exist"] is True


def test_page_plans_are_data_and_refuse_unknown_reads() -> None:
    text = page_query.expression({"ops": [["xpath_text", "//h1"]], "content": True})
    assert text.endswith('({"ops": [["xpath_text", "//h1"]], "content": true})')
    for bad in ({"ops": [["eval", "alert(1)"]]}, {"ops": "texts"}, {"ready": "idle"},
                {"wait_ms": -1}):  # fmt: skip
        with pytest.raises(BackendError):
            page_query.check_plan(bad)
    assert cdp.unpack(cdp.pack({"content": "<p>é</p>" * 1000})) == {"content": "<p>é</p>" * 1000}


# ---- relative dates ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phrase", "offsets"),
    [
        ("tomorrow", [1] * 7),
        ("next Monday", [7, 6, 5, 4, 3, 2, 1]),
        ("next Friday", [4, 3, 2, 1, 7, 6, 5]),
        ("next Saturday", [5, 4, 3, 2, 1, 7, 6]),
        ("next Sunday", [6, 5, 4, 3, 2, 1, 7]),
        ("this Saturday", [5, 4, 3, 2, 1, 0, -1]),
        ("next week Friday", [11, 10, 9, 8, 7, 6, 5]),
        ("week after next Sunday", [20, 19, 18, 17, 16, 15, 14]),
    ],
)
def test_relative_days_count_from_each_weekday_as_osworld(phrase: str, offsets: list[int]) -> None:
    for wd, offset in enumerate(offsets):
        now = date.fromordinal(MONDAY.toordinal() + wd)
        assert (rt.day(phrase, now) - now).days == offset, (phrase, now)


def test_relative_months_wrap_the_year() -> None:
    assert rt.day("10th next month", date(2026, 12, 31)) == date(2027, 1, 10)
    assert rt.day("first monday four months later", date(2026, 9, 15)) == date(2027, 1, 4)
    assert rt.day("first monday eight months later", date(2026, 4, 30)) == date(2026, 12, 7)
    with pytest.raises(GCCError, match="relative day"):
        rt.day("the day after tomorrow", MONDAY)


def test_relative_rules_fill_ranges_splits_and_lists() -> None:
    split = {"relativeTime": {"from": "next Monday split", "to": "next Friday split"},
             "timezone": "Europe/Zurich",
             "expected": {"puDay": "{DayD}", "puMonth": "{MonthD}", "puYear": "{Year}",
                          "doDay": "{DayD}", "doMonth": "{MonthD}", "doYear": "{Year}",
                          "locationName": "Zurich"}}  # fmt: skip
    friday = date(2026, 11, 27)
    assert rt.resolve(split, friday)["expected"] == {
        "puDay": "30", "puMonth": "11", "puYear": "2026", "doDay": "4", "doMonth": "12",
        "doYear": "2026", "locationName": "Zurich",
    }  # fmt: skip
    assert split["expected"]["puDay"] == "{DayD}"  # the task's rule is left as it was
    weekend = {"relativeTime": {"from": "next week Friday", "to": "next week Sunday"},
               "expected": {"from": "Check In{DoW}, {Month} {Day0D}", "to": "{DoW}, {Month} {Day0D}"}}  # fmt: skip
    assert rt.resolve(weekend, friday)["expected"] == {"from": "Check InFri, Dec 04", "to": "Sun, Dec 06"}  # fmt: skip
    listed = {"relativeTime": {"from": "next Monday"}, "expect_in_result": True,
              "expected": {"time": ["{Year}-{Month0D}-{Day0D}"], "toStation": ["STO"]}}  # fmt: skip
    out = rt.resolve(listed, friday)
    assert out["expected"]["time"] == ["2026-11-30"] and out["expect_in_result"] is True
    assert rt.fill("{month}-weather {MonthFull} {Month} {Month}", date(2026, 3, 1)) == "march-weather March Mar {Month}"  # fmt: skip
    with pytest.raises(GCCError, match="no 'time'"):
        rt.resolve({"relativeTime": {"from": "tomorrow"}, "expected": {}}, friday)


def test_rule_relative_time_getter_reads_today_in_the_rules_timezone() -> None:
    rules = {"relativeTime": {"from": "this month"}, "timezone": "America/New_York",
             "expected": {"time": "{Year}"}}  # fmt: skip
    got = GETTERS["rule_relativeTime"](Context(None), {"rules": rules})  # type: ignore[arg-type]
    assert got["expected"]["time"] == str(rt.today("America/New_York").year)
    with pytest.raises(GCCError, match="timezone"):
        rt.today("Mars/Olympus_Mons")


# ---- metrics -----------------------------------------------------------------------------------


def test_url_comparison_ignores_www_case_and_a_trailing_slash_only() -> None:
    assert mc.compare_urls("https://www.drugs.com/npc/", "HTTPS://Drugs.com/npc")
    assert mc.compare_urls("drugs.com/npc", "http://drugs.com/npc/")
    assert not mc.compare_urls("https://drugs.com/npc?x=1", "https://drugs.com/npc?x=2")
    assert not mc.compare_urls("https://drugs.com/", None)


def test_tab_metrics() -> None:
    rule = {"type": "url", "url": "https://www.nfl.com/scores/2019/post4"}
    assert METRICS["is_expected_active_tab"]("https://nfl.com/scores/2019/post4/", rule) == 1.0
    assert METRICS["is_expected_active_tab"]({"url": "https://www.nfl.com/"}, rule) == 0.0
    assert METRICS["is_expected_active_tab"](None, rule) == 0.0
    tabs = [{"title": "A", "url": "https://www.apple.com/"}, {"title": "S", "url": "https://scholar.google.com/"}]  # fmt: skip
    want = {"type": "url", "urls": ["https://scholar.google.com/", "https://www.apple.com/"]}
    assert METRICS["is_expected_tabs"](tabs, want) == 1.0
    assert METRICS["is_expected_tabs"](tabs + [{"url": "about:blank"}], want) == 0.0
    assert METRICS["is_expected_tabs"](tabs, {"type": "title", "urls": []}) == 0.0


def test_extension_cookie_history_cart_and_shortcut_metrics() -> None:
    listed = "ms-python.python\nmattn.lisp\n"
    assert METRICS["is_extension_installed"](listed, {"type": "contain", "expected": "mattn.lisp"}) == 1.0  # fmt: skip
    assert METRICS["is_extension_installed"](listed, {"type": "not_contain", "expected": "mattn.lisp"}) == 0.0  # fmt: skip
    names = ["Momentum", "Google Translate", "Chromium PDF Viewer"]
    assert METRICS["is_expected_installed_extensions"](names, {"expected": ["Momentum", "Google Translate"]}) == 1.0  # fmt: skip
    assert METRICS["is_expected_installed_extensions"](names, {"expected": ["Zoom"]}) == 0.0
    amazon = {"type": "domains", "domains": [".amazon.com"]}
    assert METRICS["is_cookie_deleted"]([{"host_key": ".google.com"}], amazon) == 1.0
    assert METRICS["is_cookie_deleted"]([{"host_key": ".amazon.com"}], amazon) == 0.0
    assert METRICS["is_cookie_deleted"]([(0, ".amazon.com", "n")], amazon) == 0.0  # OSWorld's rows
    assert METRICS["is_cookie_deleted"](None, amazon) == 0.0
    youtube = {"type": "keywords", "keywords": ["youtube"]}
    assert METRICS["check_history_deleted"]([("https://www.nytimes.com/", "NYT", 1)], youtube) == 1.0  # fmt: skip
    assert METRICS["check_history_deleted"]([("https://www.youtube.com/watch?v=1", "", 1)], youtube) == 0.0  # fmt: skip
    cart = {"title": "Cart", "url": "https://store.steampowered.com/cart/",
            "content": "<div>The Dota 2 Official Soundtrack</div>"}  # fmt: skip
    assert METRICS["is_added_to_steam_cart"](cart, {"items": ["The Dota 2 Official Soundtrack"]}) == 1.0  # fmt: skip
    assert METRICS["is_added_to_steam_cart"](cart, {"items": ["Dota Plus"]}) == 0.0
    launcher = {
        "chromium-x-Default.desktop": "[Desktop Entry]\nName=Play Puzzle Game 2048\nExec=x\n"
    }
    assert METRICS["is_shortcut_on_desktop"](launcher, {"type": "name", "name": "Play Puzzle Game 2048"}) == 1.0  # fmt: skip
    assert METRICS["is_shortcut_on_desktop"](launcher, {"type": "name", "name": "2048"}) == 0.0
    with pytest.raises(NotImplementedError):
        METRICS["is_shortcut_on_desktop"](launcher, {"type": "url", "url": "x"})


def test_compare_htmls_walks_both_documents_node_by_node() -> None:
    gold = '<html><body><table><tr><td sdnum="1033;0;0.00" align="right">1.50</td></tr></table></body></html>'  # noqa: E501
    same = gold.replace('sdnum="1033;0;0.00"', 'sdnum="2057;0;0.00"')
    assert METRICS["compare_htmls"](same, gold, ignore_sdnum=True) == 1.0
    assert METRICS["compare_htmls"](same, gold) == 0.0
    assert METRICS["compare_htmls"](gold.replace("1.50", "1.5"), gold, ignore_sdnum=True) == 0.0
    assert METRICS["compare_htmls"](gold.replace('align="right"', ""), gold) == 0.0
    assert METRICS["compare_htmls"](None, gold) == 0.0


# ---- the profile's files -----------------------------------------------------------------------


def _sqlite(path: Path, schema: str, rows: list[tuple[Any, ...]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    con.execute(schema)
    marks = ",".join("?" * len(rows[0]))
    con.executemany(f"INSERT INTO {schema.split()[2]} VALUES ({marks})", rows)
    con.commit()
    con.close()


def test_profile_getters_read_history_cookies_extensions_and_launchers(home: Path, probe) -> None:
    default = home / ".config/google-chrome/Default"
    _sqlite(default / "History", "CREATE TABLE urls (id INTEGER, url TEXT, title TEXT, last_visit_time INTEGER)",  # fmt: skip
            [(1, "https://www.youtube.com/watch?v=1", "Rick", 13390000000000000)])  # fmt: skip
    _sqlite(default / "Cookies", "CREATE TABLE cookies (creation_utc INTEGER, host_key TEXT, name TEXT, encrypted_value BLOB)",  # fmt: skip
            [(1, ".amazon.com", "session-id", b"\x01secret")])  # fmt: skip
    unpacked = home / "Desktop/helloExtension"
    (unpacked / "_locales/en").mkdir(parents=True)
    (unpacked / "manifest.json").write_text('{"name": "__MSG_appName__", "default_locale": "en"}')
    (unpacked / "_locales/en/messages.json").write_text('{"AppName": {"message": "Hello Ext"}}')
    store = default / "Extensions/abc/1.0_0"
    store.mkdir(parents=True)
    (store / "manifest.json").write_text('{"name": "Momentum"}')
    prefs = {"extensions": {"settings": {
        "pdf": {"location": 5, "manifest": {"name": "Chromium PDF Viewer"}, "path": "/usr/lib/chromium/resources/pdf"},
        "abc": {"location": 1, "path": "abc/1.0_0"}}}}  # fmt: skip
    (default / "Preferences").write_text(json.dumps(prefs))
    secure = {"extensions": {"settings": {"hello": {"location": 4, "path": str(unpacked)}}}}
    (default / "Secure Preferences").write_text(json.dumps(secure))
    (home / "Desktop/chromium-x-Default.desktop").write_text("[Desktop Entry]\nName=2048\n")
    (home / "Desktop/notes.txt").write_text("not a launcher")
    ctx = Context(probe)
    assert GETTERS["history"](ctx, {"dest": "history.sqlite"}) == [
        ("https://www.youtube.com/watch?v=1", "Rick", 13390000000000000)
    ]
    assert GETTERS["cookie_data"](ctx, {"dest": "Cookies"}) == [
        {"creation_utc": 1, "host_key": ".amazon.com", "name": "session-id"}
    ]
    paths = GETTERS["find_unpacked_extension_path"](ctx, {})
    assert str(unpacked) in paths and "abc/1.0_0" in paths
    names = GETTERS["find_installed_extension_name"](ctx, {})
    assert sorted(names) == ["Chromium PDF Viewer", "Hello Ext", "Momentum"]
    assert GETTERS["shortcuts_on_desktop"](ctx, {}) == {"chromium-x-Default.desktop": "[Desktop Entry]\nName=2048\n"}  # fmt: skip
    assert localize("/home/user/Desktop/helloExtension", home) in paths  # a74b607e's rule


def test_missing_profile_files_read_as_none_with_a_note(probe) -> None:
    ctx = Context(probe)
    assert GETTERS["history"](ctx, {}) is None and GETTERS["cookie_data"](ctx, {}) is None
    assert GETTERS["find_installed_extension_name"](ctx, {}) == []
    assert any("History" in n for n in ctx.notes)
    with pytest.raises(GCCError, match="no Chromium"):
        GETTERS["open_tabs_info"](ctx, {})


# ---- the DevTools WebSocket --------------------------------------------------------------------


def _server_frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    n = len(payload)
    head = struct.pack("!BB", (0x80 if fin else 0) | opcode, n) if n < 126 else struct.pack("!BBH", (0x80 if fin else 0) | opcode, 126, n)  # fmt: skip
    return head + payload


def _fake_devtools(listener: socket.socket, seen: list[bytes]) -> None:
    conn, _ = listener.accept()
    with conn:
        head = b""
        while b"\r\n\r\n" not in head:
            head += conn.recv(4096)
        key = next(ln.split(b":")[1].strip() for ln in head.split(b"\r\n") if ln.lower().startswith(b"sec-websocket-key"))  # fmt: skip
        accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())  # fmt: skip
        conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")  # fmt: skip
        b0, b1 = conn.recv(2)
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", conn.recv(2))
        mask = conn.recv(4)
        data = b""
        while len(data) < n:
            data += conn.recv(n - len(data))
        request = json.loads(bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
        seen.append(json.dumps(request).encode())
        answer = json.dumps({"id": request["id"], "result": {"result": {"value": "x" * 300}}}).encode()  # fmt: skip
        conn.sendall(_server_frame(0x1, b'{"method": "Page.loadEventFired"}')  # an event first
                     + _server_frame(0x9, b"ping")
                     + _server_frame(0x1, answer[:100], fin=False)
                     + _server_frame(0x0, answer[100:]))  # fmt: skip
        pong = conn.recv(2)
        seen.append(bytes([pong[0]]))
        conn.recv(4096)  # the close frame


def test_devtools_socket_skips_events_answers_pings_and_joins_fragments() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    seen: list[bytes] = []
    server = threading.Thread(target=_fake_devtools, args=(listener, seen), daemon=True)
    server.start()
    url = f"ws://127.0.0.1:{listener.getsockname()[1]}/devtools/page/ABC"
    with DevToolsSocket(url, timeout_s=5.0) as ws:
        assert ws.evaluate("1 + 1", timeout_s=5.0) == "x" * 300
    server.join(5.0)
    listener.close()
    assert json.loads(seen[0])["method"] == "Runtime.evaluate" and seen[1] == b"\x8a"  # a pong


def test_devtools_socket_names_a_port_that_does_not_answer() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(BackendError, match="did not answer"):
        DevToolsSocket(f"ws://127.0.0.1:{port}/devtools/page/X", timeout_s=2.0)


# ---- real episodes -----------------------------------------------------------------------------

SHOP = ('<title>Shop</title><p><span class="crumb">Toys</span> / <span class="crumb">Kids</span></p>'
        '<span class="date">\'"$(date -d tomorrow "+%a, %b %d, %Y")"\'</span>'
        '<form><input value=" James Smith "></form>')  # fmt: skip
SHOP_URL = "file:///home/user/shop.html?q=drip+coffee&page=2"
NEW_TABS = ["chrome://newtab/", "chrome://new-tab-page-third-party/", "about:blank"]


def _tabs_task(crumbs: list[str], tabs: list[str]) -> dict[str, Any]:
    html = {"type": "active_tab_html_parse", "category": "class",
            "class_multiObject": {"crumb": {"0": "first", "1": "second"}},
            "class_singleObject": {"date": "time"}}  # fmt: skip
    when = {"type": "rule_relativeTime", "rules": {"relativeTime": {"from": "tomorrow"}, "expected": {
        "first": crumbs[0], "second": crumbs[1], "time": "{DoW}, {Month} {Day0D}, {Year}"}}}  # fmt: skip
    form = {"type": "active_tab_html_parse", "category": "input",
            "inputObject": {"/html/body/form/input": "name"}}  # fmt: skip
    return {"id": "gcc-chrome-parts", "instruction": "Look at the shop.", "related_apps": ["chrome"],
            "config": [
                {"type": "execute", "parameters": {"command": f"echo '{SHOP}' > /home/user/shop.html; echo '<title>Other</title>' > /home/user/other.html", "shell": True}},  # fmt: skip
                {"type": "launch", "parameters": {"command": ["google-chrome", "--remote-debugging-port=1337"]}},  # fmt: skip
                {"type": "chrome_open_tabs", "parameters": {"urls_to_open": ["file:///home/user/other.html", SHOP_URL]}},  # fmt: skip
                # OSWorld's chrome_open_tabs closes the browser's first tab; here the task does
                {"type": "chrome_close_tabs", "parameters": {"urls_to_close": NEW_TABS}},
            ],
            "evaluator": {
                "func": ["is_expected_tabs", "exact_match", "exact_match", "exact_match", "is_expected_active_tab"],  # fmt: skip
                "result": [{"type": "open_tabs_info"}, html,
                           {"type": "active_tab_url_parse", "parse_keys": ["q", "page"]}, form,
                           {"type": "active_tab_info"}],  # fmt: skip
                "expected": [{"type": "rule", "rules": {"type": "url", "urls": tabs}}, when,
                             {"type": "rule", "rules": {"expected": {"q": "drip coffee", "page": "2"}}},
                             {"type": "rule", "rules": {"expected": {"name": "James Smith"}}},
                             {"type": "rule", "rules": {"type": "url", "url": SHOP_URL}}],  # fmt: skip
            }}  # fmt: skip


def _needs_chromium() -> None:
    if shutil.which("chromium") is None:
        pytest.skip("needs chromium")


@pytest.mark.desktop
@pytest.mark.slow
def test_tab_and_page_getters_read_what_chromium_shows(osworld_env: Any) -> None:
    _needs_chromium()
    tabs = ["file:///home/user/other.html", SHOP_URL]
    _, info = osworld_env.reset(options={"task": _tabs_task(["Toys", "Kids"], tabs)})
    assert "setup_error" not in info, info.get("setup_error")
    runner = osworld_env.unwrapped.runner
    ctx = runner.context()
    opened = GETTERS["open_tabs_info"](ctx, {})
    wrong = load_task(_tabs_task(["Toys", "Games"], tabs[1:])).evaluator
    verdict = score(wrong, ctx, "DONE")
    assert verdict.score == 0.0 and verdict.slots[0].func == "is_expected_tabs", verdict
    _, _, terminated, _, info = osworld_env.step("DONE")
    assert terminated and info["score"] == 1.0, (opened, info["evaluation"])


def _cart_task(items: list[str], front: str) -> dict[str, Any]:
    page = "<title>Cart</title><p>The Dota 2 Official Soundtrack</p>"
    serve = (f"mkdir -p /home/user/www && echo '{page}' > /home/user/www/cart.html && "
             "cd /home/user/www && (nohup python3 -m http.server 8000 --bind 127.0.0.1 >/dev/null 2>&1 &)")  # fmt: skip
    return {"id": "gcc-chrome-cart", "instruction": "Buy.", "related_apps": ["chrome"],
            "config": [{"type": "execute", "parameters": {"command": serve + "; echo '<title>Other</title>' > /home/user/other.html", "shell": True}},  # fmt: skip
                       {"type": "launch", "parameters": {"command": ["google-chrome", "--remote-debugging-port=1337"]}},  # fmt: skip
                       {"type": "chrome_open_tabs", "parameters": {"urls_to_open": [CART_URL, "file:///home/user/other.html"]}},  # fmt: skip
                       {"type": "chrome_close_tabs", "parameters": {"urls_to_close": NEW_TABS}}],  # fmt: skip
            "evaluator": {
                "func": ["is_added_to_steam_cart", "is_expected_active_tab", "check_history_deleted"],
                "result": [{"type": "page_info", "url": CART_URL}, {"type": "active_tab_info"},
                           {"type": "history", "dest": "history.sqlite"}],  # fmt: skip
                "expected": [{"type": "rule", "rules": {"items": items}},
                             {"type": "rule", "rules": {"type": "url", "url": front}},
                             {"type": "rule", "rules": {"type": "keywords", "keywords": ["youtube"]}}],  # fmt: skip
            }}  # fmt: skip


CART_URL = "http://127.0.0.1:8000/cart.html"


@pytest.mark.desktop
@pytest.mark.slow
def test_page_info_visits_a_page_and_the_active_tab_is_the_one_in_front(osworld_env: Any) -> None:
    _needs_chromium()
    _, info = osworld_env.reset(options={"task": _cart_task(["The Dota 2 Official Soundtrack"], CART_URL)})  # fmt: skip
    assert "setup_error" not in info, info.get("setup_error")
    ep = osworld_env.unwrapped.runner.running.episode
    ctx = osworld_env.unwrapped.runner.context()
    assert GETTERS["active_tab_info"](ctx, {})["title"] == "Other"  # the tab opened last
    cart = next(t for t in ep.session.in_network(partial(cdp.tabs, ep.cdp_port)) if t["title"] == "Cart")  # fmt: skip
    ep.session.in_network(partial(cdp._get, ep.cdp_port, f"/json/activate/{cart['id']}"))
    wrong = load_task(_cart_task(["Dota Plus"], "file:///home/user/other.html")).evaluator
    verdict = score(wrong, ctx, "DONE")
    assert [s.score for s in verdict.slots] == [0.0], verdict  # "and" stops at the first 0
    assert METRICS["is_expected_active_tab"](GETTERS["active_tab_info"](ctx, {}), {"type": "url", "url": CART_URL}) == 1.0  # fmt: skip
    tabs_before = GETTERS["open_tabs_info"](ctx, {})
    _, _, terminated, _, info = osworld_env.step("DONE")
    assert terminated and info["score"] == 1.0, json.dumps(info["evaluation"], indent=1)
    assert GETTERS["open_tabs_info"](ctx, {}) == tabs_before  # page_info closed its own tab
