"""The download cache against a real HTTP server on loopback: fetch once, resume, refuse what
does not add up, mend damage, work offline; the ``download`` step and ``cloud_file`` getter."""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from gcc_envs.errors import GCCError
from gcc_envs.osworld.cache import HF_FILES, CacheConfig, CacheError, DownloadCache, NotCachedError
from gcc_envs.osworld.commands import CommandError
from gcc_envs.osworld.evaluate import score
from gcc_envs.osworld.filedata import FileData
from gcc_envs.osworld.getters import Context, get_cloud_file
from gcc_envs.osworld.runtime import Episode
from gcc_envs.osworld.setup import SetupError, copy_into_home, run_step
from gcc_envs.osworld.taskfile import Step, load_task
from gcc_envs.sandbox import bwrap_missing

HF = "https://huggingface.co/"
BLOB = os.urandom(300_000)


class Site:
    """Files served by path, the requests seen, and ways to misbehave."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.requests: list[tuple[str, str | None]] = []
        #: Paths whose next answer announces the whole length and sends half, then hangs up.
        self.short: set[str] = set()
        #: Answer every request whole (200), Range or not.
        self.no_range = False

    def gets(self, path: str) -> list[str | None]:
        """The Range headers of the requests for ``path``."""
        return [r for p, r in self.requests if p == path]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Any

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        site: Site = self.server.site
        wanted = self.headers.get("Range")
        site.requests.append((self.path, wanted))
        data = site.files.get(self.path)
        if data is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        start, status = 0, 200
        match = re.fullmatch(r"bytes=(\d+)-", wanted or "")
        if match and not site.no_range:
            start, status = int(match[1]), 206
        body = data[start:]
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", f'"{hashlib.sha256(data).hexdigest()[:16]}"')
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.end_headers()
        if self.path in site.short:
            site.short.discard(self.path)
            body = body[: len(body) // 2]
            self.close_connection = True
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hangs up mid-answer (a refused download) is what some tests do


@pytest.fixture
def site() -> Iterator[tuple[Site, str]]:
    """A loopback HTTP server; its base URL stands for ``https://huggingface.co/``."""
    server = Server(("127.0.0.1", 0), Handler)
    server.site = Site()  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.site, f"http://127.0.0.1:{server.server_address[1]}/"  # type: ignore[attr-defined]
    server.shutdown()
    server.server_close()


def _cache(root: Path, base: str, **kw: Any) -> DownloadCache:
    return DownloadCache(CacheConfig(root=root, url_map=((HF, base),), timeout_s=5.0, **kw))


def _blobs(root: Path) -> list[Path]:
    folder = root / "blobs" / "sha256"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_a_file_is_downloaded_once_then_served_from_the_cache(tmp_path: Path, site) -> None:
    s, base = site
    s.files["/d/x.xlsx"] = BLOB
    cache = _cache(tmp_path, base)
    first = cache.fetch(HF + "d/x.xlsx")
    second = cache.fetch(HF + "d/x.xlsx")
    assert first == second == cache.blob(hashlib.sha256(BLOB).hexdigest())
    assert first.read_bytes() == BLOB and len(s.requests) == 1
    [entry] = cache.entries()
    assert (entry.url, entry.size) == (HF + "d/x.xlsx", len(BLOB))  # the original URL
    assert cache.info()["bytes"] == len(BLOB) and cache.has(HF + "d/x.xlsx")


def test_a_cut_download_errs_leaves_no_blob_and_resumes_with_a_range_request(
    tmp_path: Path, site
) -> None:
    s, base = site
    s.files["/d/big.bin"] = BLOB
    s.short.add("/d/big.bin")
    cache = _cache(tmp_path, base)
    with pytest.raises(CacheError, match="150000 bytes that arrived are kept"):
        cache.fetch(HF + "d/big.bin")
    assert _blobs(tmp_path) == [] and cache.entries() == [] and not cache.has(HF + "d/big.bin")
    assert cache.info()["partial_bytes"] == len(BLOB) // 2
    assert cache.fetch(HF + "d/big.bin").read_bytes() == BLOB
    assert s.gets("/d/big.bin") == [None, f"bytes={len(BLOB) // 2}-"]
    assert cache.info()["partial"] == 0


def test_a_server_that_ignores_the_range_gives_the_whole_file_again(tmp_path: Path, site) -> None:
    s, base = site
    s.files["/d/big.bin"] = BLOB
    s.short.add("/d/big.bin")
    cache = _cache(tmp_path, base)
    with pytest.raises(CacheError):
        cache.fetch(HF + "d/big.bin")
    s.no_range = True
    assert cache.fetch(HF + "d/big.bin").read_bytes() == BLOB


def test_a_file_over_max_bytes_is_refused_and_nothing_kept(tmp_path: Path, site) -> None:
    s, base = site
    s.files["/d/big.bin"] = BLOB
    cache = _cache(tmp_path, base, max_bytes=1000)
    with pytest.raises(CacheError, match="1000"):
        cache.fetch(HF + "d/big.bin")
    assert _blobs(tmp_path) == [] and list((tmp_path / "partial").iterdir()) == []


def test_an_error_status_names_the_url_and_caches_nothing(tmp_path: Path, site) -> None:
    _, base = site
    cache = _cache(tmp_path, base)
    with pytest.raises(CacheError, match=re.escape(HF + "missing.txt") + ".*404"):
        cache.fetch(HF + "missing.txt")
    assert cache.entries() == []


def test_a_damaged_blob_is_fetched_again(tmp_path: Path, site) -> None:
    s, base = site
    s.files["/d/x.bin"] = BLOB
    cache = _cache(tmp_path, base)
    blob = cache.fetch(HF + "d/x.bin")
    blob.chmod(0o644)
    blob.write_bytes(b"x" + BLOB[1:])  # same size, other content
    assert cache.fetch(HF + "d/x.bin").read_bytes() == BLOB
    assert len(s.requests) == 2


def test_offline_a_damaged_blob_is_an_error(tmp_path: Path, site) -> None:
    s, base = site
    s.files["/d/x.bin"] = BLOB
    _cache(tmp_path, base).fetch(HF + "d/x.bin").unlink()
    with pytest.raises(CacheError, match="missing"):
        _cache(tmp_path, base, offline=True).fetch(HF + "d/x.bin")
    assert len(s.requests) == 1


def test_offline_an_empty_cache_names_the_url_and_how_to_fill_it(tmp_path: Path, site) -> None:
    s, base = site
    s.files["/d/x.bin"] = BLOB
    cache = _cache(tmp_path, base, offline=True)
    with pytest.raises(NotCachedError) as e:
        cache.fetch(HF + "d/x.bin")
    assert HF + "d/x.bin" in str(e.value) and "gcc-gym osworld cache --from" in str(e.value)
    assert s.requests == []


def test_offline_is_read_from_the_environment(tmp_path: Path) -> None:
    config = CacheConfig.from_env(
        {"GCC_OSWORLD_CACHE": str(tmp_path), "GCC_OSWORLD_OFFLINE": "1",
         "GCC_OSWORLD_URL_MAP": f"{HF}=http://127.0.0.1:1/"}
    )  # fmt: skip
    assert config.offline and config.folder == tmp_path
    assert config.mapped(HF + "a") == "http://127.0.0.1:1/a"
    home = CacheConfig.from_env({"XDG_CACHE_HOME": "/c"}).folder
    assert home == Path("/c/gcc-gym/osworld")


def test_only_http_urls_are_fetched(tmp_path: Path) -> None:
    with pytest.raises(CacheError, match="http"):
        DownloadCache(CacheConfig(root=tmp_path)).fetch("file:///etc/passwd")
    with pytest.raises(CacheError, match="http"):
        CacheConfig(url_map=((HF, "file:///tmp/"),))


def test_fill_from_a_mirror_folder_then_offline_serves_it(tmp_path: Path, site) -> None:
    s, base = site
    mirror = tmp_path / "mirror"
    file = mirror / "huggingface.co" / "datasets" / "a" / "Course Timetable.xlsx"
    file.parent.mkdir(parents=True)
    file.write_bytes(BLOB)
    (mirror / "huggingface.co" / ".hidden").write_text("no")
    cache = _cache(tmp_path / "cache", base, offline=True)
    counts = cache.fill_from(mirror)
    assert (counts.added, counts.cached, counts.skipped, counts.failed) == (1, 0, 1, 0)
    url = HF + "datasets/a/Course%20Timetable.xlsx"  # as the task files spell it
    assert cache.fetch(url).read_bytes() == BLOB and s.requests == []
    again = cache.fill_from(mirror)
    assert (again.added, again.cached) == (0, 1)


def test_fill_from_a_download_of_osworlds_file_repository(tmp_path: Path) -> None:
    folder = tmp_path / "repo"
    (folder / "vlc" / "t1").mkdir(parents=True)
    (folder / "vlc" / "t1" / "a b.txt").write_bytes(b"hello")
    cache = DownloadCache(CacheConfig(root=tmp_path / "cache", offline=True))
    assert cache.fill_from(folder, prefix=HF_FILES).added == 1
    assert cache.fetch(HF_FILES + "vlc/t1/a%20b.txt").read_bytes() == b"hello"


# ---- the cloud_file getter -----------------------------------------------------------------


def _ctx(tmp_path: Path, cache: DownloadCache) -> Context:
    return Context(SimpleNamespace(home=tmp_path), downloads=cache)  # type: ignore[arg-type]


def test_cloud_file_gives_the_file_named_dest(tmp_path: Path, site) -> None:
    s, base = site
    s.files["/f/a.txt"] = b"alpha\n"
    ctx = _ctx(tmp_path, _cache(tmp_path / "c", base))
    got = get_cloud_file(ctx, {"type": "cloud_file", "path": HF + "f/a.txt", "dest": "gold.txt"})
    assert isinstance(got, FileData) and got == "alpha\n" and got.name == "gold.txt"


def test_cloud_file_multi_gives_the_first_or_the_indices_asked(tmp_path: Path, site) -> None:
    s, base = site
    for name in "abc":
        s.files[f"/f/{name}.txt"] = name.encode()
    ctx = _ctx(tmp_path, _cache(tmp_path / "c", base))
    config = {"type": "cloud_file", "multi": True, "path": [HF + f"f/{n}.txt" for n in "abc"],
              "dest": ["1.txt", "2.txt", "3.txt"]}  # fmt: skip
    assert get_cloud_file(ctx, config) == "a"
    got = get_cloud_file(ctx, {**config, "gives": [2, 0]})
    assert [(f, f.name) for f in got] == [("a", "1.txt"), ("c", "3.txt")]
    assert get_cloud_file(ctx, {**config, "multi": "true", "gives": [1]}) == "b"
    with pytest.raises(GCCError, match="gives"):
        get_cloud_file(ctx, {**config, "gives": [3]})


def test_an_evaluator_scores_against_a_cloud_file(tmp_path: Path, site) -> None:
    s, base = site
    s.files["/f/a.txt"] = b"alpha\n"
    task = load_task({"id": "gcc-cloud", "instruction": "x", "evaluator": {
        "func": "exact_match", "result": {"type": "cloud_file", "path": HF + "f/a.txt", "dest": "a"},
        "expected": {"type": "rule", "rules": {"expected": "alpha\n"}}}})  # fmt: skip
    verdict = score(task.evaluator, _ctx(tmp_path, _cache(tmp_path / "c", base)), "DONE")
    assert verdict.score == 1.0
    offline = _ctx(tmp_path, _cache(tmp_path / "empty", base, offline=True))
    missed = score(task.evaluator, offline, "DONE")
    assert missed.score == 0.0 and "f/a.txt" in " ".join(missed.notes)


# ---- the download step ---------------------------------------------------------------------


@pytest.fixture
def episode() -> Iterator[Episode]:
    """An episode's sandbox and home, no display (nothing is launched)."""
    why = bwrap_missing()
    if why is not None:
        pytest.skip(why)
    from gcc_envs.apps.episode import EpisodeDesktop

    session = EpisodeDesktop(SimpleNamespace(display=":0"), np.random.default_rng())
    try:
        yield Episode(session, None, lambda events: None)
    finally:
        session.close()


def _download(url: str, path: str) -> Step:
    return Step("download", {"files": [{"url": url, "path": path}]})


def test_the_download_step_puts_the_file_in_the_home_owned_by_the_user(
    episode: Episode, tmp_path: Path, site
) -> None:
    s, base = site
    s.files["/f/note.txt"] = b"note\n"
    episode.downloads = _cache(tmp_path, base)
    run_step(episode, _download(HF + "f/note.txt", str(episode.home / "Desktop/new/note.txt")))
    target = episode.home / "Desktop" / "new" / "note.txt"
    assert target.read_bytes() == b"note\n"
    if os.geteuid() == 0:
        uid = episode.session.sandbox.uid
        assert target.stat().st_uid == uid and target.parent.stat().st_uid == uid
    result = episode.run(["sh", "-c", "test -O Desktop/new/note.txt && echo >> Desktop/new/note.txt "
                          "&& echo mine"], 10.0)  # fmt: skip
    assert result.stdout == "mine\n", result.stderr


@pytest.mark.parametrize("path", ["/etc/osworld-gcc-test", "../escape.txt", "Desktop/../../x"])
def test_the_download_step_refuses_a_path_outside_the_home_before_fetching(
    episode: Episode, tmp_path: Path, site, path: str
) -> None:
    s, base = site
    s.files["/f/note.txt"] = b"note\n"
    episode.downloads = _cache(tmp_path, base)
    with pytest.raises(SetupError, match="outside"):
        run_step(episode, _download(HF + "f/note.txt", path))
    assert s.requests == [] and not Path("/etc/osworld-gcc-test").exists()


def test_the_download_step_does_not_follow_a_link_out_of_the_home(
    episode: Episode, tmp_path: Path, site
) -> None:
    s, base = site
    s.files["/f/note.txt"] = b"note\n"
    episode.downloads = _cache(tmp_path / "c", base)
    outside = tmp_path / "outside"
    outside.mkdir()
    (episode.home / "Documents").symlink_to(outside)
    with pytest.raises(SetupError, match="outside"):
        run_step(episode, _download(HF + "f/note.txt", "Documents/note.txt"))
    home = Path(os.path.realpath(episode.home))
    blob = episode.downloads.fetch(HF + "f/note.txt")
    with pytest.raises(CommandError, match="cannot write"):  # a link swapped in after the check
        copy_into_home(blob, home / "Documents" / "note.txt", home)
    assert list(outside.iterdir()) == []


# ---- a whole episode -----------------------------------------------------------------------


@pytest.mark.desktop
def test_a_task_whose_setup_downloads_a_file_finds_it_in_the_home(
    osworld_env: Any, site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s, base = site
    s.files["/datasets/gcc/note.txt"] = b"downloaded\n"
    monkeypatch.setenv("GCC_OSWORLD_CACHE", str(tmp_path))
    monkeypatch.setenv("GCC_OSWORLD_URL_MAP", f"{HF}={base}")
    monkeypatch.delenv("GCC_OSWORLD_OFFLINE", raising=False)
    url = HF + "datasets/gcc/note.txt"
    task = {
        "id": "gcc-download", "instruction": "Read the note on the desktop.", "related_apps": [],
        "config": [{"type": "download", "parameters": {"files": [
            {"url": url, "path": "/home/user/Desktop/note.txt"}]}}],
        "evaluator": {
            "func": ["exact_match", "exact_match", "exact_match"],
            "result": [{"type": "vm_file", "path": "/home/user/Desktop/note.txt", "dest": "n"},
                       {"type": "cloud_file", "path": url, "dest": "note.txt"},
                       {"type": "vm_command_line", "shell": True,
                        "command": "test -O ~/Desktop/note.txt && test -w ~/Desktop/note.txt "
                                   "&& echo mine"}],
            "expected": [{"type": "rule", "rules": {"expected": "downloaded\n"}},
                         {"type": "rule", "rules": {"expected": "downloaded\n"}},
                         {"type": "rule", "rules": {"expected": "mine\n"}}],
        },
    }  # fmt: skip
    _, info = osworld_env.reset(options={"task": task})
    assert "setup_error" not in info and "unsupported" not in info, info
    run = osworld_env.unwrapped.runner.running
    note = run.episode.home / "Desktop" / "note.txt"
    assert note.read_bytes() == b"downloaded\n"
    if os.geteuid() == 0 and run.session.sandbox is not None:
        assert note.stat().st_uid == run.session.sandbox.uid
    _, _, terminated, _, end = osworld_env.step("DONE")
    assert terminated and end["score"] == 1.0, end["evaluation"]
    assert s.gets("/datasets/gcc/note.txt") == [None]  # the getter read the cached copy


# ---- the command ---------------------------------------------------------------------------


def test_the_cache_command_fetches_task_files_urls_fills_and_lists(
    tmp_path: Path, site, capsys: pytest.CaptureFixture[str]
) -> None:
    from agents.cli import main

    s, base = site
    s.files["/f/a.txt"] = b"alpha"
    tasks = tmp_path / "tasks" / "chrome"
    tasks.mkdir(parents=True)
    (tasks / "t.json").write_text(json.dumps({
        "id": "gcc-t", "instruction": "x",
        "config": [{"type": "download", "parameters": {"files": [
            {"url": HF + "f/a.txt", "path": "/home/user/a.txt"}]}}],
        "evaluator": {"func": "exact_match", "result": {
            "type": "cloud_file", "multi": True, "path": [HF + "f/a.txt", HF + "f/gone.txt"],
            "dest": ["a.txt", "b.txt"]}, "expected": {"type": "rule", "rules": {}}},
    }))  # fmt: skip
    cache = ["osworld", "cache", "--cache-dir", str(tmp_path / "c"), "--map", f"{HF}={base}"]
    assert main([*cache, "--fetch", str(tmp_path / "tasks")]) == 1
    out = capsys.readouterr().out
    assert "fetched 1, cached 0, failed 1" in out and HF + "f/gone.txt" in out
    assert main([*cache, "--fetch", str(tasks / "t.json")]) == 1
    assert "fetched 0, cached 1, failed 1" in capsys.readouterr().out
    mirror = tmp_path / "mirror" / "huggingface.co" / "g"
    mirror.mkdir(parents=True)
    (mirror / "b.txt").write_bytes(b"beta")
    assert main([*cache, "--from", str(tmp_path / "mirror")]) == 0
    assert "added 1, already cached 0" in capsys.readouterr().out
    assert main([*cache, "--list"]) == 0
    listing = capsys.readouterr().out
    assert HF + "f/a.txt" in listing and HF + "g/b.txt" in listing and "2 entries" in listing
