"""The download cache: the files OSWorld's task files fetch from the internet, kept by content.

OSWorld's ``download`` setup steps and ``cloud_file`` getters name files by URL (all on
``huggingface.co`` today). :class:`DownloadCache` fetches each once and serves it from disk
afterwards; with ``offline`` it never touches the network.

**Where.** One folder: :attr:`CacheConfig.root`, else ``$GCC_OSWORLD_CACHE``, else
``$XDG_CACHE_HOME/gcc-gym/osworld``, else ``~/.cache/gcc-gym/osworld``. Inside it:

* ``blobs/sha256/<hex>`` — the files' contents, named by their SHA-256 (one copy per content);
* ``index/<key>.json`` — one per URL: ``{"url": ..., "sha256": ..., "size": ...}``. The key is
  the SHA-256 of the URL's canonical form (scheme and host in lower case, the path
  percent-decoded, no fragment), so ``Course%20Timetable.xlsx`` and ``Course Timetable.xlsx``
  are one entry; the index always holds the URL the task file names, never a mapped one;
* ``partial/<key>.part`` — a download under way or cut off, resumed with an HTTP ``Range``
  request (``If-Range`` with the server's validator, kept beside it as ``<key>.json``);
* ``locks/<key>.lock`` — held while a URL downloads, so processes sharing the folder fetch it
  once.

Index files and blobs are written to a temporary name and renamed into place: a crash leaves
the old state or the new one, never half a file.

**Fetching.** :meth:`DownloadCache.fetch` gives the blob's path. A cached blob's size and hash
are checked at every use; a corrupted one is fetched again (offline: an error). A download
streams into its ``.part`` file, must match the ``Content-Length`` (or ``Content-Range``
total), may not exceed :attr:`CacheConfig.max_bytes`, is hashed and only then becomes a blob.
Only ``http``/``https`` URLs; :attr:`CacheConfig.timeout_s` bounds each connect and read.

**Offline.** :attr:`CacheConfig.offline` (``GCC_OSWORLD_OFFLINE=1``): what is not cached
raises :class:`NotCachedError`, naming the URL and how to fill the cache.

**URL map.** :attr:`CacheConfig.url_map` sends URLs to a mirror: the longest matching prefix is
replaced before the request (``GCC_OSWORLD_URL_MAP="https://huggingface.co/=http://127.0.0.1:8000/"``,
several pairs separated by spaces; a prefix cannot hold ``=``). The index keys stay the
original URLs.

**Filling from a folder** (:meth:`DownloadCache.fill_from`, ``gcc-gym osworld cache --from``):
a file at ``DIR/<relative path>`` names the URL ``prefix + <relative path>``, the path
percent-encoded. The default prefix ``https://`` makes a mirror layout, ``DIR/<host>/<path>``:
``DIR/huggingface.co/datasets/xlangai/ubuntu_osworld_file_cache/resolve/main/vlc/x.mp4``
stands for ``https://huggingface.co/datasets/xlangai/ubuntu_osworld_file_cache/resolve/main/vlc/x.mp4``
(``wget -x`` saves that layout). A download of OSWorld's file repository itself
(``huggingface-cli download --repo-type dataset xlangai/ubuntu_osworld_file_cache
--local-dir DIR``) fills with ``prefix=HF_FILES``. Links to folders are not followed.

>>> canonical_url("HTTPS://Example.org/a/Course%20Timetable.xlsx#x")
'https://example.org/a/Course Timetable.xlsx'
>>> CacheConfig(url_map=(("https://h.co/", "http://127.0.0.1:9/"),)).mapped("https://h.co/a.txt")
'http://127.0.0.1:9/a.txt'
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote, unquote, urlsplit

from gcc_envs.errors import GCCError

log = logging.getLogger(__name__)

#: Largest file a download may bring (a hostile URL must not fill the disk).
MAX_BYTES = 2 << 30
#: Seconds a connect or a read of a download may take.
TIMEOUT_S = 60.0
#: Where OSWorld keeps the task files' files (``--from DIR`` of a download of that repository).
HF_FILES = "https://huggingface.co/datasets/xlangai/ubuntu_osworld_file_cache/resolve/main/"
_CHUNK = 1 << 20


class CacheError(GCCError):
    """A file that could not be downloaded, or a cached copy that is damaged."""


class NotCachedError(CacheError):
    """Offline, and the file is not in the cache."""


def canonical_url(url: str) -> str:
    """The URL as the index keys it: scheme and host lower case, path decoded, no fragment."""
    parts = urlsplit(url)
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{unquote(parts.path)}{query}"


def _check_http(url: str, what: str = "a URL") -> None:
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise CacheError(f"{what} must be http:// or https://, got {url!r:.200}")


def default_root(environ: Mapping[str, str] | None = None) -> Path:
    """``$GCC_OSWORLD_CACHE``, else ``$XDG_CACHE_HOME/gcc-gym/osworld``, else under ``~/.cache``."""
    env = os.environ if environ is None else environ
    if env.get("GCC_OSWORLD_CACHE"):
        return Path(env["GCC_OSWORLD_CACHE"]).expanduser()
    base = Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else Path.home() / ".cache"
    return base / "gcc-gym" / "osworld"


def parse_url_map(text: str) -> tuple[tuple[str, str], ...]:
    """``"PREFIX=REPLACEMENT ..."`` (``GCC_OSWORLD_URL_MAP``) as pairs.

    >>> parse_url_map("https://a.co/=http://127.0.0.1:8/ https://b.co/x/=http://m/b/")
    (('https://a.co/', 'http://127.0.0.1:8/'), ('https://b.co/x/', 'http://m/b/'))
    """
    pairs = []
    for item in text.split():
        prefix, sep, replacement = item.partition("=")
        if not sep or not prefix:
            raise CacheError(f"a URL map entry is PREFIX=REPLACEMENT, got {item!r}")
        pairs.append((prefix, replacement))
    return tuple(pairs)


@dataclass(frozen=True)
class CacheConfig:
    """Where the cache lives and how it fetches (see the module docstring)."""

    #: The cache folder; None: :func:`default_root`.
    root: Path | None = None
    #: Never touch the network; what is missing raises :class:`NotCachedError`.
    offline: bool = False
    #: ``(prefix, replacement)`` pairs: a URL starting with a prefix is fetched from there.
    url_map: tuple[tuple[str, str], ...] = ()
    timeout_s: float = TIMEOUT_S
    max_bytes: int = MAX_BYTES

    def __post_init__(self) -> None:
        for _, replacement in self.url_map:
            _check_http(replacement, "a URL map's replacement")
        if self.timeout_s <= 0 or self.max_bytes <= 0:
            raise CacheError("timeout_s and max_bytes must be positive")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> CacheConfig:
        """The config ``GCC_OSWORLD_CACHE``, ``GCC_OSWORLD_OFFLINE`` (``1``) and
        ``GCC_OSWORLD_URL_MAP`` describe; ``overrides`` win."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {
            "root": default_root(env),
            "offline": env.get("GCC_OSWORLD_OFFLINE", "").lower() in ("1", "true", "yes"),
            "url_map": parse_url_map(env.get("GCC_OSWORLD_URL_MAP", "")),
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    @property
    def folder(self) -> Path:
        return self.root if self.root is not None else default_root()

    def mapped(self, url: str) -> str:
        """``url`` with the longest matching prefix of :attr:`url_map` replaced."""
        found = [(p, r) for p, r in self.url_map if url.startswith(p)]
        if not found:
            return url
        prefix, replacement = max(found, key=lambda pr: len(pr[0]))
        return replacement + url[len(prefix) :]


@dataclass(frozen=True)
class Entry:
    """One URL in the cache: its content's SHA-256 and size."""

    url: str
    sha256: str
    size: int


@dataclass
class Counts:
    """What a fill or a fetch of many URLs did."""

    added: int = 0
    cached: int = 0
    failed: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)


class DownloadCache:
    """A content-addressed cache of downloaded files (see the module docstring)."""

    def __init__(self, config: CacheConfig | None = None) -> None:
        self.config = config if config is not None else CacheConfig()
        self.root = self.config.folder

    @classmethod
    def from_env(cls) -> DownloadCache:
        """The cache the environment describes (:meth:`CacheConfig.from_env`)."""
        return cls(CacheConfig.from_env())

    # ------------------------------------------------------------------ layout
    def key(self, url: str) -> str:
        return hashlib.sha256(canonical_url(url).encode("utf-8")).hexdigest()

    def blob(self, sha256: str) -> Path:
        return self.root / "blobs" / "sha256" / sha256

    def _index(self, key: str) -> Path:
        return self.root / "index" / f"{key}.json"

    def _part(self, key: str) -> Path:
        return self.root / "partial" / f"{key}.part"

    def lookup(self, url: str) -> Entry | None:
        """The index's entry for ``url``; None when there is none (or it is unreadable)."""
        return self._read_entry(self._index(self.key(url)))

    def _read_entry(self, path: Path) -> Entry | None:
        try:
            raw = json.loads(path.read_text("utf-8"))
            entry = Entry(str(raw["url"]), str(raw["sha256"]), int(raw["size"]))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as e:
            log.warning("download cache: %s is unreadable (%s); treated as missing", path, e)
            return None
        if len(entry.sha256) != 64 or not all(c in "0123456789abcdef" for c in entry.sha256):
            log.warning("download cache: %s holds no SHA-256; treated as missing", path)
            return None
        return entry

    def has(self, url: str) -> bool:
        """Whether the cache holds ``url`` (its blob there with the right size; not hashed)."""
        entry = self.lookup(url)
        if entry is None:
            return False
        blob = self.blob(entry.sha256)
        return blob.is_file() and blob.stat().st_size == entry.size

    def entries(self) -> list[Entry]:
        """Every URL in the index, sorted by URL."""
        folder = self.root / "index"
        found = (self._read_entry(p) for p in folder.glob("*.json")) if folder.is_dir() else ()
        return sorted((e for e in found if e is not None), key=lambda e: e.url)

    # ------------------------------------------------------------------ fetching
    def fetch(self, url: str) -> Path:
        """The path of ``url``'s content in the cache, downloaded first when missing or
        damaged (offline: :class:`NotCachedError`)."""
        _check_http(url)
        key = self.key(url)
        path = self._valid(url, self._read_entry(self._index(key)))
        if path is not None:
            return path
        if self.config.offline:
            raise NotCachedError(
                f"{url} is not in the download cache at {self.root}, and downloads are off "
                "(offline). Fill the cache where there is network: gcc-gym osworld cache "
                "--fetch TASK_FILES, or from a folder of the files: gcc-gym osworld cache "
                "--from DIR (DIR/<host>/<path>)"
            )
        with self._locked(key):
            path = self._valid(url, self._read_entry(self._index(key)))  # fetched meanwhile?
            if path is not None:
                return path
            entry = self._download(url, key)
        return self.blob(entry.sha256)

    def _valid(self, url: str, entry: Entry | None) -> Path | None:
        """The blob of ``entry`` when it is whole; a damaged one is removed (an error offline)."""
        if entry is None:
            return None
        blob = self.blob(entry.sha256)
        try:
            if blob.stat().st_size == entry.size and _sha256(blob) == entry.sha256:
                return blob
            problem = "is damaged (its size or hash changed)"
        except FileNotFoundError:
            problem = "is missing"
        if self.config.offline:
            raise CacheError(
                f"the cached copy of {url} ({blob}) {problem}, and downloads are off (offline); "
                "fill the cache again (gcc-gym osworld cache --fetch or --from)"
            )
        log.warning("download cache: the copy of %s %s; fetching it again", url, problem)
        blob.unlink(missing_ok=True)
        return None

    @contextmanager
    def _locked(self, key: str) -> Iterator[None]:
        folder = self.root / "locks"
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / f"{key}.lock", "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def _download(self, url: str, key: str) -> Entry:
        source = self.config.mapped(url)
        _check_http(source, "a mapped URL")
        part = self._part(key)
        part.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(2):  # a second try from the start when a resume cannot continue
            if self._stream(url, source, part):
                break
        else:
            raise CacheError(f"{url}: the server would not resume or restart the download")
        size = part.stat().st_size
        digest = _sha256(part)
        blob = self.blob(digest)
        blob.parent.mkdir(parents=True, exist_ok=True)
        part.chmod(0o444)
        os.replace(part, blob)
        _meta(part).unlink(missing_ok=True)
        entry = Entry(url, digest, size)
        self._write_entry(key, entry)
        log.info("download cache: %s (%d bytes) fetched from %s", url, size, source)
        return entry

    def _stream(self, url: str, source: str, part: Path) -> bool:
        """Stream ``source`` into ``part`` (resumed when it has bytes); False: start over."""
        import httpx

        have = part.stat().st_size if part.exists() else 0
        headers = {"Accept-Encoding": "identity"}
        validator = _read_validator(part) if have else ""
        if have:
            headers["Range"] = f"bytes={have}-"
            if validator:
                headers["If-Range"] = validator
        timeout = httpx.Timeout(self.config.timeout_s)
        via = f" (fetched from {source})" if source != url else ""
        try:
            with httpx.Client(timeout=timeout, follow_redirects=True) as client:
                with client.stream("GET", source, headers=headers) as r:
                    if r.status_code == 416 and have:  # the partial is no prefix of it now
                        part.unlink()
                        return False
                    if r.status_code == 206 and have:
                        start, total = _content_range(r.headers.get("content-range", ""))
                        if start != have:
                            part.unlink()
                            return False
                        mode = "ab"
                    elif r.status_code == 200:
                        total, mode, have = _length(r.headers), "wb", 0
                    else:
                        raise CacheError(f"{url}: the server answered HTTP {r.status_code}{via}")
                    if total is not None and total > self.config.max_bytes:
                        _drop(part)
                        raise CacheError(f"{url} is {total} bytes, more than the "
                                         f"{self.config.max_bytes} allowed (max_bytes)")  # fmt: skip
                    if mode == "wb":
                        _write_validator(part, r.headers)
                    with open(part, mode) as out:
                        self._copy(url, r.iter_raw(), out, have)
        except httpx.HTTPError as e:
            raise CacheError(f"{url}: the download failed{via}: {e}{_kept(part)}") from e
        size = part.stat().st_size
        if total is not None and size != total:
            raise CacheError(f"{url}: the server sent {size} of the {total} bytes it "
                             f"announced{_kept(part)}")  # fmt: skip
        return True

    def _copy(self, url: str, chunks: Iterator[bytes], out: BinaryIO, have: int) -> None:
        for chunk in chunks:
            have += len(chunk)
            if have > self.config.max_bytes:
                out.close()
                _drop(Path(out.name))
                raise CacheError(f"{url} is larger than the {self.config.max_bytes} bytes "
                                 "allowed (max_bytes); the download was dropped")  # fmt: skip
            out.write(chunk)

    def _write_entry(self, key: str, entry: Entry) -> None:
        data = {"url": entry.url, "sha256": entry.sha256, "size": entry.size}
        _atomic_write(self._index(key), json.dumps(data, indent=1).encode("utf-8"))

    # ------------------------------------------------------------------ filling
    def add(self, url: str, file: Path) -> bool:
        """Put ``file``'s content into the cache as ``url``; whether the entry is new or changed."""
        _check_http(url)
        key = self.key(url)
        tmp_dir = self.root / "partial"
        tmp_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=tmp_dir, suffix=".add")
        try:
            digest = hashlib.sha256()
            with open(file, "rb") as src, os.fdopen(fd, "wb") as out:
                for chunk in iter(lambda: src.read(_CHUNK), b""):
                    digest.update(chunk)
                    out.write(chunk)
            entry = Entry(url, digest.hexdigest(), os.path.getsize(tmp))
            blob = self.blob(entry.sha256)
            blob.parent.mkdir(parents=True, exist_ok=True)
            os.chmod(tmp, 0o444)
            with self._locked(key):
                os.replace(tmp, blob)  # the same content: a damaged copy is mended
                old = self.lookup(url)
                if old is not None and (old.sha256, old.size) == (entry.sha256, entry.size):
                    return False
                self._write_entry(key, entry)
            return True
        finally:
            Path(tmp).unlink(missing_ok=True)

    def fill_from(self, folder: str | Path, prefix: str = "https://") -> Counts:
        """Add every file under ``folder``: ``folder/<rel>`` is the URL ``prefix + quote(rel)``
        (``added``: new or changed, ``cached``: already there, ``skipped``: too large)."""
        folder = Path(folder)
        if not folder.is_dir():
            raise CacheError(f"{folder} is not a folder")
        counts = Counts()
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                path = Path(root, name)
                rel = path.relative_to(folder).as_posix()
                url = prefix + quote(rel, safe="/")
                if name.startswith(".") or not path.is_file():
                    counts.skipped += 1
                    continue
                if path.stat().st_size > self.config.max_bytes:
                    counts.skipped += 1
                    counts.errors.append(f"{path}: larger than max_bytes")
                    continue
                try:
                    changed = self.add(url, path)
                except (OSError, CacheError) as e:
                    counts.failed += 1
                    counts.errors.append(f"{path}: {e}")
                    continue
                counts.added += changed
                counts.cached += not changed
        return counts

    def fetch_all(self, urls: Sequence[str]) -> Counts:
        """Fetch each URL (``added``: downloaded, ``cached``: already there); failures counted
        with their errors."""
        counts = Counts()
        for url in dict.fromkeys(urls):
            try:
                cached = self._valid(url, self.lookup(url)) is not None
                if not cached:
                    self.fetch(url)
            except CacheError as e:
                counts.failed += 1
                counts.errors.append(str(e))
                continue
            counts.added += not cached
            counts.cached += cached
        return counts

    def info(self) -> dict[str, Any]:
        """The folder, its entries, their blobs' total size and the partial downloads."""
        entries = self.entries()
        blobs = {e.sha256: e.size for e in entries}
        partial = self.root / "partial"
        parts = list(partial.glob("*.part")) if partial.is_dir() else []
        return {"root": str(self.root), "entries": len(entries), "blobs": len(blobs),
                "bytes": sum(blobs.values()), "partial": len(parts),
                "partial_bytes": sum(p.stat().st_size for p in parts)}  # fmt: skip


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def _drop(part: Path) -> None:
    """Remove a partial download and its validator."""
    part.unlink(missing_ok=True)
    _meta(part).unlink(missing_ok=True)


def _kept(part: Path) -> str:
    """What a failed download's message adds when bytes arrived: they are resumed."""
    have = part.stat().st_size if part.exists() else 0
    return f"; the {have} bytes that arrived are kept and resumed next time" if have else ""


def _meta(part: Path) -> Path:
    return part.with_suffix(".json")


def _write_validator(part: Path, headers: Mapping[str, str]) -> None:
    """Keep the server's strong ETag (or Last-Modified) for ``If-Range`` on a resume."""
    etag = headers.get("etag", "")
    validator = etag if etag and not etag.startswith("W/") else headers.get("last-modified", "")
    _atomic_write(_meta(part), json.dumps({"validator": validator}).encode("utf-8"))


def _read_validator(part: Path) -> str:
    try:
        return str(json.loads(_meta(part).read_text("utf-8")).get("validator", ""))
    except (OSError, ValueError, AttributeError):
        return ""


def _length(headers: Mapping[str, str]) -> int | None:
    value = headers.get("content-length")
    return int(value) if value is not None and value.isdigit() else None


def _content_range(value: str) -> tuple[int, int | None]:
    """``bytes START-END/TOTAL`` as ``(START, TOTAL)`` (TOTAL None for ``*``); (-1, None) bad."""
    unit, _, spec = value.partition(" ")
    span, _, total = spec.partition("/")
    start = span.partition("-")[0]
    if unit != "bytes" or not start.isdigit():
        return -1, None
    return int(start), int(total) if total.isdigit() else None
