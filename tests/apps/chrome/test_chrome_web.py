"""The Chrome twin's parts without a browser: the local web server, the content, checkers."""

from __future__ import annotations

import http.client
import json
import shutil
import ssl
import sys
from functools import partial
from types import SimpleNamespace

import numpy as np
import pytest

from gcc_envs.apps.chrome import checkers
from gcc_envs.apps.chrome.content import TARGET_ARXIV, TARGET_TITLE, make_site
from gcc_envs.apps.chrome.setup import PROFILE, SITES, chrome_web
from gcc_envs.apps.episode import EpisodeDesktop
from gcc_envs.apps.software.desktop import folders, port_open
from gcc_envs.apps.software.pdf import text_pdf
from gcc_envs.apps.software.reading import write_answer
from gcc_envs.errors import GCCError

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl missing")


@pytest.fixture
def session():
    # files and servers only: no display
    s = EpisodeDesktop(SimpleNamespace(display=":0"), np.random.default_rng(3))
    folders(s)
    yield s
    s.close()


def test_the_seed_varies_the_decoys_and_the_ranking_but_keeps_the_target():
    a, b = make_site(0), make_site(1)
    assert TARGET_ARXIV in a["papers"] and TARGET_ARXIV in b["papers"]
    assert a["results"] != b["results"] and a["papers"] != b["papers"]
    assert make_site(0) == a


def test_only_the_target_title_holds_the_phrase_and_the_decoy_users_only_look_alike():
    phrase = "Benchmarking Multimodal Agents"
    paper = ("2404.07972", f"OSWorld: {phrase} for Open-Ended Tasks", phrase)
    for seed in range(5):
        site = make_site(seed, paper, ("quillon", "Q. Illon"))
        holding = [pid for pid, p in site["papers"].items() if phrase.lower() in p["title"].lower()]
        assert holding == ["2404.07972"] and len(site["papers"]) == 5
        assert "quillon" in site["users"] and len(site["users"]) == 4
        assert all("quillon" in u for u in site["users"])


def _get(session, path: str, port: int, host: str, data: bytes | None = None, tls: bool = True):
    """(status, body) of a request to the local web (on the episode's own loopback) as
    ``host`` would receive it."""
    return session.in_network(partial(_request, path, port, host, data, tls))


def _request(path: str, port: int, host: str, data: bytes | None, tls: bool):
    ctx = ssl.create_default_context()
    ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    conn = (http.client.HTTPSConnection("127.0.0.1", port, context=ctx, timeout=5) if tls
            else http.client.HTTPConnection("127.0.0.1", port, timeout=5))  # fmt: skip
    conn.request("POST" if data else "GET", path, body=data, headers={"Host": host})
    r = conn.getresponse()
    return r.status, r.read()


@needs_openssl
def test_the_local_web_answers_tls_and_plain_http_on_one_loopback_port_and_records(session):
    chrome_web(session)
    port = json.loads((session.home / ".cache/gcc-task/answer.json").read_text())["web_port"]
    status, body = _get(
        session, "/search?q=Towards+General+Computer+Control", port, "www.google.com"
    )
    body = body.decode()
    assert TARGET_TITLE.split(":")[0] in body and f"arxiv.org/abs/{TARGET_ARXIV}" in body
    assert (
        _get(session, "/", port, "twitter.com", tls=False)[0] == 301
    )  # plain HTTP is sent to HTTPS
    pdf = _get(session, f"/pdf/{TARGET_ARXIV}", port, "arxiv.org")[1]
    assert pdf == (session.home / SITES / "pdf" / f"{TARGET_ARXIV}.pdf").read_bytes()
    assert _get(session, "/compose/post", port, "x.com", b"text=It%27s+a+good+day.")[0] == 303
    assert checkers.posted(session.probe(), "It's a good day.") == 1.0
    assert checkers.posted(session.probe(), "It's a good day") == 0.0
    log = (session.home / SITES / "requests.jsonl").read_text()
    assert '"host": "arxiv.org"' in log
    assert port_open(port, session=session)
    session.close()
    with pytest.raises(GCCError):  # the server is gone with the session's network
        port_open(port, session=session)


def test_saved_pdf_wants_the_articles_own_file_not_a_look_alike_or_a_partial(session):
    pdfs = session.home / SITES / "pdf"
    pdfs.mkdir(parents=True)
    site = make_site(3)
    for pid, p in site["papers"].items():
        (pdfs / f"{pid}.pdf").write_bytes(text_pdf([p["title"], p["authors"], pid]))
    decoy = next(pid for pid in site["papers"] if pid != TARGET_ARXIV)
    downloads = session.home / "Downloads"
    assert checkers.saved_pdf(session.probe()) == 0.0
    shutil.copy(pdfs / f"{decoy}.pdf", downloads / f"{decoy}.pdf")
    assert checkers.saved_pdf(session.probe()) == 0.0
    shutil.copy(pdfs / f"{TARGET_ARXIV}.pdf", downloads / "Unconfirmed 1.crdownload")
    assert checkers.saved_pdf(session.probe()) == 0.0
    shutil.copy(pdfs / f"{TARGET_ARXIV}.pdf", downloads / f"{TARGET_ARXIV}.pdf")
    assert checkers.saved_pdf(session.probe()) == 1.0


def test_appearance_mode_reads_chromiums_saved_mode(session):
    prefs = session.home / PROFILE / "Default" / "Preferences"
    prefs.parent.mkdir(parents=True)
    assert checkers.appearance_mode(session.probe(), "dark") == 0.0
    for scheme, dark, light in ((1, 0.0, 1.0), (0, 0.0, 0.0), (2, 1.0, 0.0)):
        prefs.write_text(json.dumps({"browser": {"theme": {"color_scheme2": scheme}}}))
        assert checkers.appearance_mode(session.probe(), "dark") == dark
        assert checkers.appearance_mode(session.probe(), "light") == light


def test_tab_checkers_match_host_and_path_only(session, monkeypatch):
    wiki = "https://en.wikipedia.org/wiki/"
    write_answer(session.home, devtools_port=1, closed=[wiki + "Sundial", wiki + "Glacier"])
    tabs = [{"url": "https://github.com/tellarin-dev"}, {"url": "https://en.wikipedia.org/"}]
    monkeypatch.setattr(checkers, "open_tabs", lambda probe: tabs)
    probe = session.probe()
    assert checkers.on_profile(probe, "tellarin") == 0.0
    assert checkers.reopened_last_closed(probe, 1) == 0.0
    tabs += [
        {"url": "https://www.github.com/tellarin/"},
        {"url": "http://en.wikipedia.org/wiki/Glacier"},
    ]
    assert checkers.on_profile(probe, "tellarin") == 1.0
    assert checkers.reopened_last_closed(probe, "1") == 1.0
    assert checkers.reopened_last_closed(probe, 2) == 0.0  # the one before is still closed
    tabs.append({"url": wiki + "Sundial"})
    assert checkers.reopened_last_closed(probe, 2) == 1.0
    assert checkers.reopened_last_closed(probe, 1) == 0.0  # one more than asked for is open


def test_open_tabs_is_empty_when_the_browser_does_not_answer(session):
    write_answer(session.home, devtools_port=session.free_port())
    assert checkers.open_tabs(session.probe()) == []
    assert sys.executable  # the cdp reader runs with this interpreter


def _options(key: str, name: str) -> list:
    from gcc_envs.apps.chrome import SUITE

    task = next(t for t in SUITE.tasks if t.key == key)
    return next(s for s in task.setup if s.kind == "choose" and s.args["name"] == name).args[
        "options"
    ]


def test_no_closed_page_topic_is_part_of_another_so_the_history_search_finds_one():
    from gcc_envs.apps.chrome.content import TOPICS

    topics = {o["topic"].lower() for o in _options("last_closed", "closed") if o["topic"]}
    topics |= {t.lower() for t in TOPICS}
    assert len(topics) >= 300
    assert not [(a, b) for a in topics for b in topics if a != b and a in b]
    assert not [t for t in topics if t in "https://en.wikipedia.org/wiki/ - wikipedia"]


def test_the_articles_phrases_are_unique_and_the_invented_ones_say_so():
    papers = _options("save_pdf", "paper")
    assert len({p["phrase"].lower() for p in papers}) == len(papers) >= 300
    invented = [p for p in papers if p["arxiv"].startswith("99")]
    assert invented and all("fictional" in p["title"] for p in invented)
    assert all(p["phrase"] in p["title"] for p in papers)


def test_profiles_link_their_repositories_and_only_those_are_served():
    from gcc_envs.apps.chrome import pages

    site = make_site(4, user=("quillon", "Quinn Illon"), repo="notes")
    assert "notes" in site["users"]["quillon"]["repos"]
    assert '<a href="/quillon/notes">notes</a>' in pages.profile(site, "quillon")
    other = next(u for u in site["users"] if u != "quillon")
    missing = next(
        r for r in ("notes", "dotfiles", "slides") if r not in site["users"][other]["repos"]
    )
    assert pages.repository(site, "quillon", "notes") is not None
    assert pages.repository(site, other, missing) is None
    with pytest.raises(ValueError, match="unknown repository"):
        make_site(4, repo="nope")


def test_a_repository_asked_for_wants_its_own_page_not_the_profile(session, monkeypatch):
    tabs = [{"url": "https://github.com/quillon"}]
    monkeypatch.setattr(checkers, "open_tabs", lambda probe: tabs)
    probe = session.probe()
    assert checkers.on_profile(probe, "quillon") == 1.0
    assert checkers.on_profile(probe, "quillon", "notes") == 0.0
    tabs[0] = {"url": "https://github.com/quillon/notes"}
    assert checkers.on_profile(probe, "quillon", "notes") == 1.0
    assert checkers.on_profile(probe, "quillon") == 0.0
    assert checkers.on_profile(probe, "quillon", "dotfiles") == 0.0


def test_appearance_mode_wants_the_pinning_and_the_side_panel_as_asked(session):
    prefs = session.home / PROFILE / "Default" / "Preferences"
    prefs.parent.mkdir(parents=True)
    saved = {"browser": {"theme": {"color_scheme2": 2}}}
    prefs.write_text(json.dumps(saved))
    probe = session.probe()
    assert checkers.appearance_mode(probe, "dark") == 1.0
    assert checkers.appearance_mode(probe, "dark", pin="off") == 0.0
    saved |= {"auto_pin_new_tab_groups": False, "side_panel": {"is_right_aligned": False}}
    prefs.write_text(json.dumps(saved))
    assert checkers.appearance_mode(probe, "dark", pin="off", side="left") == 1.0
    assert checkers.appearance_mode(probe, "dark", pin="off") == 0.0  # the side panel moved
    assert checkers.appearance_mode(probe, "dark") == 0.0
