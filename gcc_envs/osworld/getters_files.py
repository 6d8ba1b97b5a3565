"""OSWorld's getters of files, folders and desktop state: the wallpaper, VLC's playing state,
folder listings, a spreadsheet's last row, a command's errors, and the audio and background
image of a slide.

Like the getters of :mod:`.getters`, they read through the episode's probe: files with
``probe.read_file`` (only inside the episode's home), programs run in the episode's sandbox
with ``probe.run`` (``gsettings``, ``find``, the VLC status helper). What OSWorld's VM server
answers over HTTP is read here from the same source on this desktop:

* ``vm_wallpaper``: the file ``gsettings get org.gnome.desktop.background picture-uri`` names;
* ``vlc_playing_info``: VLC's MPRIS interface on the episode's session bus (VLC must run with
  ``--dbus``; OSWorld's VM reads VLC's HTTP interface instead), given as the ``status.xml``
  OSWorld's metric reads (``state`` and the ``meta`` ``filename``, ``url``, ``title``);
* ``list_directory``: ``find`` in the sandbox, as OSWorld's tree
  (``{"type": "directory", "name", "children"}``, files ``{"type": "file", "name"}``).
"""

from __future__ import annotations

import io
import json
import posixpath
import re
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from gcc_envs.osworld import commands
from gcc_envs.osworld.commands import COMMAND_TIMEOUT_S
from gcc_envs.osworld.filedata import FileData

if TYPE_CHECKING:  # getters.py imports this module for its table
    from gcc_envs.osworld.getters import Context

_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"


def read_text(ctx: Context, path: str) -> FileData | None:
    from gcc_envs.osworld.getters import read_text

    return read_text(ctx, path)


def _inside_home(ctx: Context, path: str, who: str) -> bool:
    home = posixpath.normpath(str(ctx.home))
    p = posixpath.normpath(path)
    if not path.startswith("/") or (p != home and not p.startswith(home + "/")):
        ctx.notes.append(f"{who}: {path!r} is not inside the episode's home")
        return False
    return True


# ---- the desktop ---------------------------------------------------------------------------


def get_vm_wallpaper(ctx: Context, config: Mapping[str, Any]) -> FileData | None:
    """The wallpaper's file (GNOME's ``picture-uri``), named ``dest``; None when unset or
    outside the home."""
    result = ctx.probe.run(
        ctx.argv(["gsettings", "get", "org.gnome.desktop.background", "picture-uri"], None),
        timeout_s=COMMAND_TIMEOUT_S,
    )
    uri = result.stdout.strip().strip("'\"")
    if result.returncode or not uri:
        ctx.notes.append(f"vm_wallpaper: no wallpaper set ({result.stderr.strip()[:200]})")
        return None
    path = unquote(urlparse(uri).path) if uri.startswith("file:") else uri
    data = read_text(ctx, path)
    if data is None:
        return None
    return FileData(data.data, str(config.get("dest") or data.name))


def status_xml(status: Mapping[str, Any]) -> str:
    """VLC's ``status.xml`` (the parts OSWorld's ``is_vlc_playing`` reads) for a status
    ``{"state", "url", "title"}``; ``filename`` is the last part of the URL's path.

    >>> status_xml({"state": "playing", "url": "file:///h/My%20Song.mp3", "title": None})
    '<root><state>playing</state><information><category name="meta"><info name="filename">My Song.mp3</info><info name="url">file:///h/My%20Song.mp3</info></category></information></root>'
    """  # noqa: E501
    root = ET.Element("root")
    ET.SubElement(root, "state").text = str(status.get("state") or "stopped")
    meta = ET.SubElement(ET.SubElement(root, "information"), "category", name="meta")
    url = status.get("url")
    info = {"filename": PurePosixPath(unquote(urlparse(url).path)).name if url else None,
            "url": url, "title": status.get("title")}  # fmt: skip
    for name, value in info.items():
        if value:
            ET.SubElement(meta, "info", name=name).text = str(value)
    return ET.tostring(root, encoding="unicode")


def get_vlc_playing_info(ctx: Context, config: Mapping[str, Any]) -> FileData | None:
    """What VLC plays, as its ``status.xml`` named ``dest``; None when no VLC answers."""
    from gcc_envs.osworld.getters import SYSTEM_PYTHON

    helper = Path(__file__).with_name("vlc_status.py")
    if not Path(SYSTEM_PYTHON).exists():
        ctx.notes.append(f"vlc_playing_info: {SYSTEM_PYTHON} is missing")
        return None
    result = ctx.probe.run(ctx.argv([SYSTEM_PYTHON, str(helper)], None), timeout_s=15.0)
    try:
        status = json.loads(result.stdout)
    except ValueError:
        ctx.notes.append(f"vlc_playing_info: {result.stderr.strip()[-200:] or 'no answer'}")
        return None
    return FileData(status_xml(status).encode(), str(config.get("dest") or "status.xml"))


# ---- folders -------------------------------------------------------------------------------


def directory_tree(ctx: Context, path: str, who: str) -> Any:
    """OSWorld's tree of the folder ``path`` (children by name); None when it is no folder."""
    if not _inside_home(ctx, path, who):
        return None
    argv = ["find", "-L", path, "-mindepth", "0", "-printf", "%Y\\t%P\\0"]
    result = ctx.probe.run(ctx.argv(argv, None), timeout_s=COMMAND_TIMEOUT_S)
    entries = [e.split("\t", 1) for e in result.stdout.split("\0") if "\t" in e]
    if not entries or entries[0] != ["d", ""]:
        ctx.notes.append(f"{who}: {path!r} is not a folder ({result.stderr.strip()[:200]})")
        return None
    root: dict[str, Any] = {"type": "directory", "name": posixpath.basename(path.rstrip("/")),
                            "children": []}  # fmt: skip
    folders = {"": root}
    for kind, rel in sorted(entries[1:], key=lambda e: e[1]):
        parent = folders.get(posixpath.dirname(rel))
        if parent is None:
            continue
        name = posixpath.basename(rel)
        if kind == "d":
            node: dict[str, Any] = {"type": "directory", "name": name, "children": []}
            folders[rel] = node
        else:
            node = {"type": "file", "name": name}
        parent["children"].append(node)
    return root


def get_list_directory(ctx: Context, config: Mapping[str, Any]) -> Any:
    """The folder ``path`` as OSWorld's tree (see :func:`directory_tree`)."""
    return directory_tree(ctx, str(config.get("path", "")), "list_directory")


# ---- commands and files --------------------------------------------------------------------


def get_vm_command_error(ctx: Context, config: Mapping[str, Any]) -> str | None:
    """The standard error of the task's command, run in the episode's sandbox."""
    try:
        argv = commands.argv(config.get("command"), config.get("shell", False))
    except commands.CommandError as e:
        ctx.notes.append(f"vm_command_error: {e}")
        return None
    result = ctx.probe.run(ctx.argv(argv, None), timeout_s=COMMAND_TIMEOUT_S)
    if result.timed_out:
        ctx.notes.append(f"vm_command_error: {str(argv)[:80]} ran past {COMMAND_TIMEOUT_S:g} s")
    return result.stderr


def _cell_text(value: Any, floats: bool) -> str:
    if value is None:
        return "nan"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return str(float(value)) if floats or isinstance(value, float) else str(value)
    return str(value)


def last_row(data: bytes) -> list[str]:
    """The last row of a workbook's first sheet as pandas' ``read_excel`` reads it, each value
    as text (``str`` of its value; ``nan`` for an empty cell; the numbers of a column of
    numbers with a fraction or an empty cell as floats, ``3.0``)."""
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        rows = [list(r) for r in book.worksheets[0].iter_rows(values_only=True)]
    finally:
        book.close()
    while rows and all(v is None for v in rows[-1]):
        rows.pop()
    if len(rows) < 2:
        raise ValueError("the sheet has no data row under its header")
    width = max(len(r) for r in rows)
    body = [r + [None] * (width - len(r)) for r in rows[1:]]

    def numeric(v: Any) -> bool:
        return v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))

    floats = [all(numeric(r[c]) for r in body)
              and any(r[c] is None or isinstance(r[c], float) for r in body)
              for c in range(width)]  # fmt: skip
    return [_cell_text(v, floats[c]) for c, v in enumerate(body[-1])]


def get_content_from_vm_file(ctx: Context, config: Mapping[str, Any]) -> Any:
    """Part of a file: ``file_type`` ``xlsx`` with ``file_content`` ``last_row`` (the only
    kind OSWorld reads) gives the last row's values as text (:func:`last_row`)."""
    kind, part = config.get("file_type"), config.get("file_content")
    if (kind, part) != ("xlsx", "last_row"):
        raise NotImplementedError(f"content_from_vm_file: {kind!r}/{part!r} is not supported")
    data = read_text(ctx, str(config.get("path", "")))
    return None if data is None else last_row(data.data)


# ---- slides --------------------------------------------------------------------------------


def _slide_target(ctx: Context, config: Mapping[str, Any], pick: str, who: str) -> Any:
    """The file a slide's relationship points at (``pick``: ``audio``, or ``background``
    for the image of the slide's background), as a :class:`FileData` named ``dest``."""
    pptx = read_text(ctx, str(config.get("ppt_file_path", "")))
    if pptx is None:
        return None
    index = int(config.get("slide_index", 0)) + 1
    dest = str(config.get("dest") or "")
    with zipfile.ZipFile(io.BytesIO(pptx.data)) as z:
        names = set(z.namelist())
        rels_name = f"ppt/slides/_rels/slide{index}.xml.rels"
        if rels_name not in names:
            ctx.notes.append(f"{who}: the presentation has no slide {index} relationships")
            return None
        want_id = None
        if pick == "background":
            slide = ET.fromstring(z.read(f"ppt/slides/slide{index}.xml"))
            blips = [b for bg in slide.iter(_P + "bgPr") for b in bg.iter(_A + "blip")]
            if not blips:
                ctx.notes.append(f"{who}: slide {index} has no background image")
                return None
            want_id = blips[0].get(_R + "embed")
        for rel in ET.fromstring(z.read(rels_name)).iter(_REL):
            kind, target = rel.get("Type", ""), rel.get("Target", "")
            if (pick == "audio" and "audio" not in kind) or (
                pick == "background" and ("image" not in kind or rel.get("Id") != want_id)
            ):
                continue
            if re.match(r"^[a-z]+://", target) and not target.startswith("file://"):
                ctx.notes.append(f"{who}: {target!r} is on the web")
                return None
            if target.startswith("file://") or target.startswith("/"):
                linked = read_text(ctx, unquote(target[7:] if target.startswith("file://")
                                                else target))  # fmt: skip
                return None if linked is None else FileData(linked.data, dest or linked.name)
            inner = posixpath.normpath(posixpath.join("ppt/slides", target))
            if inner not in names:
                ctx.notes.append(f"{who}: {inner!r} is not in the presentation")
                return None
            return FileData(z.read(inner), dest or posixpath.basename(inner))
    ctx.notes.append(f"{who}: slide {index} has no {pick}")
    return None


def get_audio_in_slide(ctx: Context, config: Mapping[str, Any]) -> FileData | None:
    """The audio a slide (``slide_index``, from 0) of ``ppt_file_path`` plays."""
    return _slide_target(ctx, config, "audio", "audio_in_slide")


def get_background_image_in_slide(ctx: Context, config: Mapping[str, Any]) -> FileData | None:
    """The picture filling the background of a slide (``slide_index``) of ``ppt_file_path``."""
    return _slide_target(ctx, config, "background", "background_image_in_slide")


FILE_GETTERS = {
    name[len("get_") :]: fn for name, fn in dict(globals()).items()
    if name.startswith("get_") and callable(fn)
}  # fmt: skip
