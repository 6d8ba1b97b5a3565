"""Read an MP3's ID3v2 text tags by the names mutagen's ``EasyID3`` gives them.

OSWorld's ``check_mp3_meta`` reads tags with mutagen's ``EasyID3``; this reads the same text
frames (ID3v2.2, 2.3 and 2.4; the four text encodings; unsynchronisation) with the standard
library. A file without an ID3v2 tag raises :class:`ValueError`, as ``EasyID3`` raises on one.

>>> frame = b"TIT2" + (12).to_bytes(4, "big") + b"\\0\\0" + b"\\x03Missing You"
>>> tag = b"ID3\\x04\\0\\0" + bytes([0, 0, 0, len(frame)]) + frame
>>> easy_tags(tag + b"\\xff\\xfb audio")
{'title': ['Missing You']}
"""

from __future__ import annotations

#: EasyID3's key of each text frame (ID3v2.3/2.4 ids; v2.2 ids map through :data:`V22`).
EASY_KEYS = {
    "TIT2": "title", "TPE1": "artist", "TALB": "album", "TPE2": "albumartist",
    "TCON": "genre", "TDRC": "date", "TYER": "date", "TRCK": "tracknumber",
    "TPOS": "discnumber", "TCOM": "composer", "TEXT": "lyricist", "TPE3": "conductor",
    "TPE4": "arranger", "TIT1": "grouping", "TIT3": "version", "TPUB": "organization",
    "TCOP": "copyright", "TBPM": "bpm", "TLEN": "length", "TLAN": "language",
    "TENC": "encodedby", "TMOO": "mood", "TSRC": "isrc", "TSST": "discsubtitle",
    "TCMP": "compilation", "TSOA": "albumsort", "TSOP": "artistsort", "TSOT": "titlesort",
    "TSO2": "albumartistsort", "TSOC": "composersort", "TMED": "media", "TOAL": "originalalbum",
    "TOPE": "originalartist", "TDOR": "originaldate", "TOLY": "author",
}  # fmt: skip
#: ID3v2.2's three-letter ids of the same frames.
V22 = {
    "TT2": "TIT2", "TP1": "TPE1", "TAL": "TALB", "TP2": "TPE2", "TCO": "TCON", "TYE": "TYER",
    "TRK": "TRCK", "TPA": "TPOS", "TCM": "TCOM", "TXT": "TEXT", "TP3": "TPE3", "TP4": "TPE4",
    "TT1": "TIT1", "TT3": "TIT3", "TPB": "TPUB", "TCR": "TCOP", "TBP": "TBPM", "TLE": "TLEN",
    "TLA": "TLAN", "TEN": "TENC", "TRC": "TSRC", "TOT": "TOAL", "TOA": "TOPE",
}  # fmt: skip
_ENCODINGS = {0: "latin-1", 1: "utf-16", 2: "utf-16-be", 3: "utf-8"}


def _syncsafe(b: bytes) -> int:
    return (b[0] << 21) | (b[1] << 14) | (b[2] << 7) | b[3]


def _unsync(data: bytes) -> bytes:
    return data.replace(b"\xff\x00", b"\xff")


def _text(data: bytes) -> list[str]:
    if not data:
        return []
    encoding = _ENCODINGS.get(data[0])
    if encoding is None:
        raise ValueError(f"ID3 text frame: unknown encoding {data[0]}")
    body = data[1:]
    if encoding.startswith("utf-16"):
        # split at aligned double nulls (each value of a v2.4 list may carry its own BOM)
        units = [body[i : i + 2] for i in range(0, len(body) - 1, 2)]
        parts, cur = [], b""
        for u in units:
            if u == b"\0\0":
                parts.append(cur)
                cur = b""
            else:
                cur += u
        parts.append(cur)
        values = [p.decode(encoding, "replace") for p in parts]
    else:
        values = [p.decode(encoding, "replace") for p in body.split(b"\0")]
    while values and values[-1] == "":
        values.pop()
    return values


def easy_tags(data: bytes) -> dict[str, list[str]]:
    """The file's ID3v2 text tags as ``EasyID3`` names them (``title``, ``artist``, ...)."""
    if len(data) < 10 or data[:3] != b"ID3":
        raise ValueError("no ID3v2 tag at the start of the file")
    major, flags, size = data[3], data[5], _syncsafe(data[6:10])
    if major not in (2, 3, 4):
        raise ValueError(f"ID3v2.{major} is not supported")
    tag = data[10 : 10 + size]
    if flags & 0x80 and major < 4:
        tag = _unsync(tag)
    if flags & 0x40 and major > 2:  # extended header
        ext = _syncsafe(tag[:4]) if major == 4 else int.from_bytes(tag[:4], "big") + 4
        tag = tag[ext:]
    out: dict[str, list[str]] = {}
    head = 6 if major == 2 else 10
    pos = 0
    while pos + head <= len(tag) and tag[pos] != 0:
        if major == 2:
            fid = V22.get(tag[pos : pos + 3].decode("latin-1"), "")
            fsize, fflags = int.from_bytes(tag[pos + 3 : pos + 6], "big"), 0
        else:
            fid = tag[pos : pos + 4].decode("latin-1")
            raw = tag[pos + 4 : pos + 8]
            fsize = _syncsafe(raw) if major == 4 else int.from_bytes(raw, "big")
            fflags = int.from_bytes(tag[pos + 8 : pos + 10], "big")
        body = tag[pos + head : pos + head + fsize]
        pos += head + fsize
        if major == 4:
            if fflags & 0x000C:  # compressed or encrypted: EasyID3 skips these too
                continue
            if fflags & 0x0001:  # data length indicator
                body = body[4:]
            if fflags & 0x0002:
                body = _unsync(body)
        key = EASY_KEYS.get(fid)
        if key is not None and fid.startswith("T"):
            out.setdefault(key, []).extend(_text(body))
    return out
