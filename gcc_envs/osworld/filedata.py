"""What a file getter gives a metric: the file's text that also keeps its bytes and name.

OSWorld's getters hand metrics a path to a downloaded copy; here a getter reads the file from
the episode's home (or the download cache) and gives a :class:`FileData`. Text metrics use
it as the ``str`` it is (UTF-8, bad bytes replaced); document metrics (spreadsheets, slides,
PDFs, images) take the exact bytes with :func:`file_bytes`.

>>> f = FileData(b"a,b\\n\\xff", "t.csv")
>>> f == "a,b\\n\\ufffd", f.name, file_bytes(f)
(True, 't.csv', b'a,b\\n\\xff')
>>> file_bytes("plain text"), file_bytes(None)
(b'plain text', None)
"""

from __future__ import annotations

from pathlib import PurePath


class FileData(str):
    """A file's text (a ``str``) with its exact ``data`` and its ``name`` (suffix included)."""

    data: bytes
    name: str

    def __new__(cls, data: bytes, name: str) -> FileData:
        self = super().__new__(cls, data.decode("utf-8", "replace"))
        self.data = bytes(data)
        self.name = PurePath(name).name
        return self

    @property
    def suffix(self) -> str:
        """The name's suffix, lower case (``".xlsx"``)."""
        return PurePath(self.name).suffix.lower()


def file_bytes(value: object) -> bytes | None:
    """The bytes of a getter's value: a file's exact bytes, a string's UTF-8, None for None."""
    if value is None:
        return None
    if isinstance(value, FileData):
        return value.data
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(f"expected a file's contents, got {type(value).__name__}")
