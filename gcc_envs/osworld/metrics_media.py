"""OSWorld's media metrics in one table (:data:`MEDIA_METRICS`): images
(:mod:`.metrics_images`), audio, video and VLC (:mod:`.metrics_av`), Thunderbird
(:mod:`.metrics_mail`), and here archives and folder listings.

Archives are read in memory (zip, or tar with any compression, told apart by their bytes),
never unpacked to disk: ``compare_archive`` lists one folder of each (``file_path``, default
the top) and compares the files pairwise with the metric its ``file_type`` names, looked up in
the package's metric table when called (``pdf`` → ``compare_pdfs``, ``text`` →
``compare_text_file``, ...).

>>> import io, zipfile
>>> buf = io.BytesIO()
>>> with zipfile.ZipFile(buf, "w") as z:
...     z.writestr("d/a.txt", "x")
>>> sorted(archive_files(buf.getvalue()))
['d/a.txt']
>>> check_moved_jpgs({"type": "directory", "name": "cpjpg", "children": [
...     {"type": "file", "name": "a.jpg"}]}, {"expected": ["a.jpg"]})
1.0
"""

from __future__ import annotations

import difflib
import io
import tarfile
import zipfile
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from gcc_envs.errors import GCCError
from gcc_envs.osworld.filedata import FileData, file_bytes
from gcc_envs.osworld.metrics_av import AV_METRICS
from gcc_envs.osworld.metrics_images import IMAGE_METRICS
from gcc_envs.osworld.metrics_mail import MAIL_METRICS

Rule = Mapping[str, Any]
#: The most an archive may hold, uncompressed (a larger one is refused, not read).
MAX_ARCHIVE_BYTES = 1 << 30
#: ``compare_archive``'s ``file_type`` → the metric that compares two such files.
ARCHIVE_COMPARERS = {
    "text": "compare_text_file", "pdf": "compare_pdfs", "docx": "compare_docx_files",
    "ppt": "compare_pptx_files", "image": "compare_images", "csv": "compare_csv",
    "table": "compare_table", "audio": "compare_audios", "video": "compare_videos",
}  # fmt: skip


def _score(ok: bool) -> float:
    return 1.0 if ok else 0.0


def archive_files(data: bytes) -> dict[str, bytes]:
    """The regular files of a zip or tar archive (any compression): member path → bytes."""
    out: dict[str, bytes] = {}
    total = 0

    def add(name: str, size: int, read: Any) -> None:
        nonlocal total
        total += size
        if total > MAX_ARCHIVE_BYTES:
            raise GCCError(f"archive holds over {MAX_ARCHIVE_BYTES} bytes uncompressed")
        path = PurePosixPath(name)
        out[str(PurePosixPath(*[p for p in path.parts if p not in ("/", ".")]))] = read()

    if zipfile.is_zipfile(io.BytesIO(data)):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for info in z.infolist():
                if not info.is_dir():
                    add(info.filename, info.file_size, lambda i=info: z.read(i))
        return out
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as t:
            for member in t:
                if member.isfile():
                    f = t.extractfile(member)
                    add(member.name, member.size, lambda f=f: f.read() if f else b"")
    except tarfile.TarError as e:
        raise GCCError(f"not a zip or tar archive: {e}") from e
    return out


def _listing(files: Mapping[str, bytes], folder: str) -> dict[str, str]:
    """The entries directly in ``folder`` of an archive: name → member path ("" for folders)."""
    prefix = PurePosixPath(folder).parts if folder.strip("/") else ()
    out: dict[str, str] = {}
    for path in files:
        parts = PurePosixPath(path).parts
        if parts[: len(prefix)] != prefix or len(parts) == len(prefix):
            continue
        rest = parts[len(prefix) :]
        out[rest[0]] = path if len(rest) == 1 else out.get(rest[0], "")
    return out


def compare_archive(result: Any, expected: Any, **options: Any) -> float:
    """The archives' ``file_path`` folders list the same names, and their files compare
    alike by the ``file_type`` metric (default ``text``): the mean of the pairs' scores."""
    data1, data2 = file_bytes(result), file_bytes(expected)
    if not data1 or data2 is None:
        return 0.0
    folder = str(options.pop("file_path", ""))
    file_type = str(options.pop("file_type", "text"))
    if file_type not in ARCHIVE_COMPARERS:
        raise ValueError(f"compare_archive: file type {file_type!r} is not supported")
    files1, files2 = archive_files(data1), archive_files(data2)
    list1, list2 = _listing(files1, folder), _listing(files2, folder)
    if sorted(list1) != sorted(list2) or not list1:
        return 0.0
    from gcc_envs.osworld.metrics import METRICS

    compare = METRICS[ARCHIVE_COMPARERS[file_type]]
    total = 0.0
    for name in sorted(list1):
        p1, p2 = list1[name], list2[name]
        if not p1 or not p2:
            raise ValueError(f"compare_archive: {name!r} is a folder, not a {file_type} file")
        total += float(compare(FileData(files1[p1], name), FileData(files2[p2], name), **options))
    return total / len(list1)


def _pdf_text(data: bytes) -> str:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return "".join(page.extract_text() or "" for page in pdf.pages)


def compare_zip_files(result: Any, expected: Any) -> float:
    """The zip files hold the same names, and each file the same bytes; a PDF the same text
    (difflib's ratio of the two texts at least 0.95)."""
    data1, data2 = file_bytes(result), file_bytes(expected)
    if not data1 or data2 is None:
        return 0.0
    with zipfile.ZipFile(io.BytesIO(data1)) as z1, zipfile.ZipFile(io.BytesIO(data2)) as z2:
        names = set(z1.namelist())
        if names != set(z2.namelist()):
            return 0.0
        for name in names:
            a, b = z1.read(name), z2.read(name)
            if name.lower().endswith(".pdf"):
                ratio = difflib.SequenceMatcher(None, _pdf_text(a), _pdf_text(b)).ratio()
                if ratio < 0.95:
                    return 0.0
            elif a != b:
                return 0.0
    return 1.0


def check_moved_jpgs(tree: Any, rule: Rule) -> float:
    """The folder (``list_directory``'s tree) holds exactly the ``expected`` names."""
    if not isinstance(tree, Mapping) or "children" not in tree:
        return 0.0
    names = [node["name"] for node in tree["children"]]
    expected = list(rule["expected"])
    return _score(len(names) == len(expected) and set(names) == set(expected))


MEDIA_METRICS = {
    **IMAGE_METRICS, **AV_METRICS, **MAIL_METRICS,
    "compare_archive": compare_archive, "compare_zip_files": compare_zip_files,
    "check_moved_jpgs": check_moved_jpgs,
}  # fmt: skip
